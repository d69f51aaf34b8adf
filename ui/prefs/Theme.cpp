#include "Theme.h"

#include "terminal/TerminalSettings.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

namespace sandbar::ui {

namespace {

struct Colors {
    QColor window, windowText, base, alternateBase, text, button, buttonText, brightText;
    QColor light, midlight, mid, dark, shadow;
    QColor highlight, highlightedText, link, linkVisited, toolTipBase, toolTipText, placeholder;
    QColor disabledText, disabledButton, disabledBase, disabledHighlight;
};

Colors darkColors()
{
    Colors c;
    c.window = QColor(0x2b, 0x2d, 0x30);
    c.windowText = QColor(0xe6, 0xe6, 0xe6);
    c.base = QColor(0x1e, 0x1f, 0x22);
    c.alternateBase = QColor(0x26, 0x28, 0x2b);
    c.text = QColor(0xe6, 0xe6, 0xe6);
    c.button = QColor(0x3a, 0x3d, 0x41);
    c.buttonText = QColor(0xe6, 0xe6, 0xe6);
    c.brightText = QColor(0xff, 0x6b, 0x6b);
    c.light = QColor(0x50, 0x53, 0x58);
    c.midlight = QColor(0x44, 0x47, 0x4b);
    c.mid = QColor(0x33, 0x35, 0x38);
    c.dark = QColor(0x19, 0x1a, 0x1c);
    c.shadow = QColor(0x0c, 0x0c, 0x0d);
    c.highlight = QColor(0x2f, 0x6f, 0xd1);
    c.highlightedText = QColor(0xff, 0xff, 0xff);
    c.link = QColor(0x6c, 0xb4, 0xff);
    c.linkVisited = QColor(0xc3, 0x9b, 0xff);
    c.toolTipBase = QColor(0x3a, 0x3d, 0x41);
    c.toolTipText = QColor(0xf0, 0xf0, 0xf0);
    c.placeholder = QColor(0x93, 0x96, 0x9b);
    c.disabledText = QColor(0x7a, 0x7d, 0x82);
    c.disabledButton = QColor(0x33, 0x35, 0x38);
    c.disabledBase = QColor(0x24, 0x25, 0x28);
    c.disabledHighlight = QColor(0x4a, 0x4d, 0x52);
    return c;
}

Colors lightColors()
{
    Colors c;
    c.window = QColor(0xef, 0xef, 0xf0);
    c.windowText = QColor(0x1f, 0x1f, 0x1f);
    c.base = QColor(0xff, 0xff, 0xff);
    c.alternateBase = QColor(0xf5, 0xf5, 0xf6);
    c.text = QColor(0x1f, 0x1f, 0x1f);
    c.button = QColor(0xf7, 0xf7, 0xf8);
    c.buttonText = QColor(0x1f, 0x1f, 0x1f);
    c.brightText = QColor(0xc5, 0x1f, 0x1f);
    c.light = QColor(0xff, 0xff, 0xff);
    c.midlight = QColor(0xe3, 0xe3, 0xe5);
    c.mid = QColor(0xb8, 0xb9, 0xbc);
    c.dark = QColor(0x9e, 0x9f, 0xa2);
    c.shadow = QColor(0x6b, 0x6c, 0x6f);
    c.highlight = QColor(0x2f, 0x6f, 0xd1);
    c.highlightedText = QColor(0xff, 0xff, 0xff);
    c.link = QColor(0x00, 0x5c, 0xc5);
    c.linkVisited = QColor(0x6a, 0x3d, 0xb8);
    c.toolTipBase = QColor(0xff, 0xff, 0xdc);
    c.toolTipText = QColor(0x1f, 0x1f, 0x1f);
    c.placeholder = QColor(0x7a, 0x7b, 0x7e);
    c.disabledText = QColor(0x9a, 0x9b, 0x9e);
    c.disabledButton = QColor(0xe8, 0xe8, 0xea);
    c.disabledBase = QColor(0xf0, 0xf0, 0xf1);
    c.disabledHighlight = QColor(0xc4, 0xc6, 0xca);
    return c;
}

QString s_nativeStyle; // the style the app started with, for going back to System on macOS

} // namespace

QString colorSchemeName(ColorScheme scheme)
{
    return scheme == ColorScheme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

ColorScheme colorSchemeOf(const QPalette &palette)
{
    const QColor window = palette.color(QPalette::Window);
    const QColor text = palette.color(QPalette::WindowText);
    // Text lighter than its window is a dark scheme whatever the absolute values.
    if (text.lightness() != window.lightness())
        return text.lightness() > window.lightness() ? ColorScheme::Dark : ColorScheme::Light;
    return window.lightness() < 128 ? ColorScheme::Dark : ColorScheme::Light;
}

ColorScheme Theme::resolve(ThemeMode mode, ColorScheme system)
{
    switch (mode) {
    case ThemeMode::Light: return ColorScheme::Light;
    case ThemeMode::Dark: return ColorScheme::Dark;
    case ThemeMode::System: break;
    }
    return system;
}

QPalette Theme::palette(ColorScheme scheme)
{
    const Colors c = scheme == ColorScheme::Dark ? darkColors() : lightColors();
    QPalette p;
    for (const QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool off = g == QPalette::Disabled;
        p.setColor(g, QPalette::Window, c.window);
        p.setColor(g, QPalette::WindowText, off ? c.disabledText : c.windowText);
        p.setColor(g, QPalette::Base, off ? c.disabledBase : c.base);
        p.setColor(g, QPalette::AlternateBase, off ? c.disabledBase : c.alternateBase);
        p.setColor(g, QPalette::Text, off ? c.disabledText : c.text);
        p.setColor(g, QPalette::Button, off ? c.disabledButton : c.button);
        p.setColor(g, QPalette::ButtonText, off ? c.disabledText : c.buttonText);
        p.setColor(g, QPalette::BrightText, c.brightText);
        p.setColor(g, QPalette::Light, c.light);
        p.setColor(g, QPalette::Midlight, c.midlight);
        p.setColor(g, QPalette::Mid, c.mid);
        p.setColor(g, QPalette::Dark, c.dark);
        p.setColor(g, QPalette::Shadow, c.shadow);
        p.setColor(g, QPalette::Highlight, off ? c.disabledHighlight : c.highlight);
        p.setColor(g, QPalette::HighlightedText, off ? c.disabledText : c.highlightedText);
        p.setColor(g, QPalette::Link, off ? c.disabledText : c.link);
        p.setColor(g, QPalette::LinkVisited, off ? c.disabledText : c.linkVisited);
        p.setColor(g, QPalette::ToolTipBase, c.toolTipBase);
        p.setColor(g, QPalette::ToolTipText, c.toolTipText);
        p.setColor(g, QPalette::PlaceholderText, off ? c.disabledText : c.placeholder);
    }
    // An inactive window keeps a readable but quieter selection.
    p.setColor(QPalette::Inactive, QPalette::Highlight, c.highlight.darker(scheme == ColorScheme::Dark ? 130 : 110));
    return p;
}

TerminalColors Theme::terminalColors(ColorScheme scheme)
{
    return scheme == ColorScheme::Dark ? darkTerminalColors() : lightTerminalColors();
}

void Theme::apply(QApplication &app, ColorScheme scheme)
{
    if (s_nativeStyle.isEmpty() && app.style())
        s_nativeStyle = app.style()->name();
    if (!app.style() || app.style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(palette(scheme));
}

void Theme::applyMode(QApplication &app, ThemeMode mode, ColorScheme system)
{
#ifdef Q_OS_MACOS
    if (mode == ThemeMode::System) {
        if (!s_nativeStyle.isEmpty())
            QApplication::setStyle(QStyleFactory::create(s_nativeStyle));
        // No role set: the app palette follows the platform's again.
        QApplication::setPalette(QPalette());
        return;
    }
#endif
    apply(app, resolve(mode, system));
}

} // namespace sandbar::ui
