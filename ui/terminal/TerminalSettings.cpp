#include "TerminalSettings.h"

#include <QPointer>

namespace sandbar {

TerminalColors darkTerminalColors()
{
    return TerminalColors{};
}

TerminalColors lightTerminalColors()
{
    TerminalColors c;
    c.foreground = QColor(0x1f, 0x1f, 0x1f);
    c.background = QColor(0xfb, 0xfb, 0xfb);
    c.cursor = QColor(0x33, 0x33, 0x33);
    c.selection = QColor(0xad, 0xd6, 0xff, 190);
    c.link = QColor(0x00, 0x5c, 0xc5);
    // Darker normals and brights, so yellow and white text stay readable on white.
    c.ansi = {{
        {0x00, 0x00, 0x00},
        {0xc5, 0x1f, 0x1f},
        {0x0b, 0x7a, 0x3e},
        {0x8a, 0x6d, 0x00},
        {0x0b, 0x4f, 0xb0},
        {0x9a, 0x2b, 0x9a},
        {0x0a, 0x7a, 0x8f},
        {0x6e, 0x6e, 0x6e},
        {0x55, 0x55, 0x55},
        {0xe0, 0x3a, 0x3a},
        {0x12, 0x9a, 0x52},
        {0xa8, 0x86, 0x00},
        {0x2a, 0x6c, 0xd6},
        {0xb8, 0x48, 0xb8},
        {0x14, 0x94, 0xaa},
        {0x30, 0x30, 0x30},
    }};
    return c;
}

TerminalColors terminalColorsFor(TerminalSettings::Scheme scheme, const QPalette &palette)
{
    switch (scheme) {
    case TerminalSettings::Scheme::Light: return lightTerminalColors();
    case TerminalSettings::Scheme::Dark: return darkTerminalColors();
    case TerminalSettings::Scheme::FollowPalette: break;
    }
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    return dark ? darkTerminalColors() : lightTerminalColors();
}

void applyTerminalSettings(TerminalView *view, const TerminalSettings &settings, QObject *context)
{
    view->setColors(terminalColorsFor(settings.scheme, view->palette()));
    view->setCopyOnSelect(settings.copyOnSelect);
    // Confirming is the view's own default; turning it off pastes at once.
    if (!settings.confirmMultiLinePaste)
        view->setPasteConfirmer([](QWidget *, const QString &, std::function<void(bool)> done) { done(true); });
    if (!settings.urlOpener) {
        view->setUrlOpener({});
        return;
    }
    view->setUrlOpener([guard = QPointer<QObject>(context), open = settings.urlOpener](const QUrl &url) {
        if (!guard)
            return;
        QMetaObject::invokeMethod(
            guard.data(), [open, url]() { open(url); }, Qt::QueuedConnection);
    });
}

} // namespace sandbar
