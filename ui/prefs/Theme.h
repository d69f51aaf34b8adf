#pragma once

#include "Preferences.h"
#include "terminal/TerminalPainter.h"

#include <QPalette>

class QApplication;

namespace sandbar::ui {

// A resolved scheme: what the app actually shows.
enum class ColorScheme { Light, Dark };

QString colorSchemeName(ColorScheme scheme);
// Light or dark by the lightness of the palette's window colour.
ColorScheme colorSchemeOf(const QPalette &palette);

class Theme
{
public:
    // The scheme to show: a forced Light/Dark preference wins over the desktop's.
    static ColorScheme resolve(ThemeMode mode, ColorScheme system);

    // Sets the Fusion style and a complete palette for scheme (every role in every group),
    // so the app looks the same on every desktop and terminals (which follow the palette)
    // match.
    static void apply(QApplication &app, ColorScheme scheme);
    // Applies mode: Light/Dark as forced; System as the desktop's scheme. On macOS, System
    // gives the native style and palette back, since those follow the system appearance.
    static void applyMode(QApplication &app, ThemeMode mode, ColorScheme system);

    static QPalette palette(ColorScheme scheme);
    static TerminalColors terminalColors(ColorScheme scheme);
};

} // namespace sandbar::ui
