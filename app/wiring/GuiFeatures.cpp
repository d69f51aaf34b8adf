#include "wiring/GuiFeatures.h"

#include "audit/AuditView.h"
#include "detail/SessionTerminal.h"
#include "dialogs/NewSessionDialog.h"
#include "main/MainWindow.h"
#include "main/Notifier.h"
#include "main/TrayIcon.h"
#include "prefs/ColorSchemeWatcher.h"
#include "prefs/Preferences.h"
#include "prefs/PreferencesDialog.h"
#include "wiring/AppServices.h"
#include "wiring/GuiAgents.h"
#include "wiring/GuiMcpHttp.h"
#include "wiring/Terminals.h"

#include <QApplication>
#include <QDir>
#include <QStatusBar>

namespace sandbar {

void wireWindowFeatures(AppServices &services, ui::MainWindow &window)
{
    const QString ini = QDir(services.configDir).filePath(QStringLiteral("sandbar.ini"));
    // Everything below lives as long as the window: children of it.
    auto *prefs = new ui::PreferencesStore(ini, &window);

    // Light or dark: the desktop's choice (XDG portal, registry, appearance) unless forced.
    if (auto *app = qobject_cast<QApplication *>(QCoreApplication::instance())) {
        auto *scheme = new ui::ColorSchemeWatcher(&window);
        ui::followTheme(*app, *prefs, *scheme);
    }

    // Terminals get the terminal preferences when made and whenever they change.
    const TerminalSettings base = loadTerminalSettings(services.configDir);
    window.setTerminalFactory([prefs, base](Provider *provider, const SessionInfo &session, const QString &attachId,
                                            QWidget *parent) -> QWidget * {
        const ui::Preferences p = prefs->preferences();
        QWidget *w = makeTerminalFactory(ui::terminalSettingsFrom(p, base))(provider, session, attachId, parent);
        if (auto *t = qobject_cast<ui::SessionTerminal *>(w))
            ui::applyTerminalPreferences(t->view(), p);
        return w;
    });
    QObject::connect(prefs, &ui::PreferencesStore::changed, &window,
                     [&window, base](const ui::Preferences &now, const ui::Preferences &) {
                         for (auto *t : window.findChildren<ui::SessionTerminal *>()) {
                             t->setSettings(ui::terminalSettingsFrom(now, base));
                             ui::applyTerminalPreferences(t->view(), now);
                         }
                     });
    // The MCP endpoint over HTTP, when the preferences turn it on (needs the Agents' hub).
    McpHttpEndpoint *mcpHttp = nullptr;
    if (services.agentHub) {
        mcpHttp = new McpHttpEndpoint(services, &window);
        const auto applyHttp = [mcpHttp](const ui::Preferences &p) { mcpHttp->apply(p.mcpHttp, p.mcpHttpPort); };
        applyHttp(prefs->preferences());
        QObject::connect(prefs, &ui::PreferencesStore::changed, mcpHttp,
                         [applyHttp](const ui::Preferences &now, const ui::Preferences &) { applyHttp(now); });
        QObject::connect(mcpHttp, &McpHttpEndpoint::stateChanged, &window, [mcpHttp, &window] {
            if (!mcpHttp->problem().isEmpty())
                window.statusBar()->showMessage(
                    QApplication::translate("sandbar", "MCP over HTTP: %1").arg(mcpHttp->problem()), 30000);
        });
    }
    window.setPreferencesOpener([prefs, mcpHttp](QWidget *parent) {
        auto *dlg = new ui::PreferencesDialog(*prefs, parent);
        dlg->setAttribute(Qt::WA_DeleteOnClose);
        dlg->setTrayAvailable(ui::TrayIcon::isSystemTrayAvailable());
        if (mcpHttp) {
            const auto show = [dlg, mcpHttp] {
                dlg->setMcpEndpoint(mcpHttp->url(), mcpHttp->token(), mcpHttp->problem());
            };
            show();
            QObject::connect(mcpHttp, &McpHttpEndpoint::stateChanged, dlg, show);
            QObject::connect(dlg, &ui::PreferencesDialog::newMcpTokenRequested, mcpHttp, &McpHttpEndpoint::renewToken);
        }
        dlg->open();
    });

    const auto catalog = services.catalog;
    window.setNewSessionSetup([catalog](ui::NewSessionDialog *dialog) { dialog->setCatalog(catalog); });
    audit::AuditLog *log = services.audit.get();
    window.setAuditFactory([log](QWidget *parent) { return new ui::AuditView(log, parent); });

    // Tray, notifications (failures, ttl 5 minutes before and at expiry, budgets) and
    // closing to the tray where the user asked for it.
    auto *tray = new ui::TrayIcon(*services.registry, services.costs.get(), &window, &window);
    auto *notifier = new ui::Notifier(&window);
    notifier->setSink(
        tray->notificationSink([&window](const QString &text) { window.statusBar()->showMessage(text, 10000); }));
    notifier->setEnabled(prefs->preferences().notifications);
    notifier->watchRegistry(*services.registry);
    if (services.budgets)
        notifier->watchBudgets(*services.budgets);
    if (services.costs)
        notifier->watchCostMeter(*services.costs);
    if (services.agentHub)
        wireAgents(services, window, *notifier);
    QObject::connect(
        prefs, &ui::PreferencesStore::changed, notifier,
        [notifier](const ui::Preferences &now, const ui::Preferences &) { notifier->setEnabled(now.notifications); });
    auto *closeFilter = new ui::CloseToTrayFilter(
        &window, [prefs, tray]() { return ui::shouldHideOnClose(prefs->preferences(), tray->isAvailable()); });
    const auto quit = [closeFilter, &window]() {
        window.saveWindowState();
        closeFilter->setQuitting(true);
        QApplication::quit();
    };
    QObject::connect(tray, &ui::TrayIcon::quitRequested, &window, quit);
    window.setQuitHandler(quit);
}

} // namespace sandbar
