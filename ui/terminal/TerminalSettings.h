#pragma once

#include "TerminalView.h"

#include <QPalette>

namespace sandbar {

// How the app sets up every terminal view: read by the composition root (the [terminal]
// group of sandbar.ini) and handed to each terminal tab, so nothing here reads settings.
struct TerminalSettings {
    enum class Scheme { FollowPalette, Light, Dark };
    Scheme scheme = Scheme::FollowPalette;
    bool copyOnSelect = false;
    // Ask before pasting several lines into a program without bracketed paste.
    bool confirmMultiLinePaste = true;
    // Opens a clicked link (Ctrl+click); empty: links are not opened.
    TerminalView::UrlOpener urlOpener;
};

TerminalColors darkTerminalColors();
TerminalColors lightTerminalColors();
// The colours for a scheme; FollowPalette picks light or dark from the palette's window.
TerminalColors terminalColorsFor(TerminalSettings::Scheme scheme, const QPalette &palette);

// Applies everything but the colours' palette dependency: call again (or just setColors)
// when the palette changes. The URL opener runs queued on `context` (after the click
// has been handled) and not at all once the context is gone.
void applyTerminalSettings(TerminalView *view, const TerminalSettings &settings, QObject *context);

} // namespace sandbar
