#include "wiring/Terminals.h"

#include "detail/ExecConsole.h"
#include "detail/SessionTerminal.h"

#include <QDesktopServices>
#include <QDir>
#include <QSettings>

namespace sandbar {

TerminalSettings loadTerminalSettings(const QString &configDir)
{
    TerminalSettings t;
    QSettings settings(QDir(configDir).filePath(QStringLiteral("sandbar.ini")), QSettings::IniFormat);
    settings.beginGroup(QStringLiteral("terminal"));
    const QString scheme = settings.value(QStringLiteral("colorScheme")).toString().trimmed().toLower();
    if (scheme == QLatin1String("light"))
        t.scheme = TerminalSettings::Scheme::Light;
    else if (scheme == QLatin1String("dark"))
        t.scheme = TerminalSettings::Scheme::Dark;
    t.copyOnSelect = settings.value(QStringLiteral("copyOnSelect"), t.copyOnSelect).toBool();
    t.confirmMultiLinePaste = settings.value(QStringLiteral("confirmMultiLinePaste"), t.confirmMultiLinePaste).toBool();
    if (settings.value(QStringLiteral("openLinks"), true).toBool())
        t.urlOpener = [](const QUrl &url) { QDesktopServices::openUrl(url); };
    return t;
}

ui::TerminalFactory makeTerminalFactory(const TerminalSettings &settings)
{
    return [settings](Provider *provider, const SessionInfo &session, const QString &attachId,
                      QWidget *parent) -> QWidget * {
        const Capabilities caps = provider ? provider->capabilities() : Capabilities{};
        if (caps.testFlag(Capability::Pty)) {
            auto *terminal = new ui::SessionTerminal(provider, session, attachId, parent);
            terminal->setSettings(settings);
            return terminal;
        }
        // No terminal to offer, but commands still run: a console, not nothing.
        if (caps.testFlag(Capability::Exec))
            return new ui::ExecConsole(provider, session, parent);
        return nullptr;
    };
}

} // namespace sandbar
