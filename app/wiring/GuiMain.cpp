#include "wiring/GuiMain.h"

#include "compare/CompareView.h"
#include "main/MainWindow.h"
#include "wiring/AppServices.h"
#include "wiring/Terminals.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

namespace sandbar {

std::unique_ptr<AppServices> buildGuiServices(const QString &configDir)
{
    auto services = buildServices(configDir);
    // Probes engine sockets and tries bubblewrap: on a worker, the window listens for accountsChanged.
    services->accounts->createDefaultAccounts(Callback<QStringList>());
    buildCostServices(*services);
    buildStatsServices(*services);
    return services;
}

std::unique_ptr<ui::MainWindow> makeMainWindow(AppServices &services)
{
    auto window = std::make_unique<ui::MainWindow>(*services.accounts, *services.registry, services.factories);
    window->setTerminalFactory(makeTerminalFactory(loadTerminalSettings(services.configDir)));
    window->setCosts(*services.costs, *services.ledger, *services.budgets);
    window->setStats(*services.stats);
    const auto catalog = services.catalog;
    window->setCompareFactory([catalog](QWidget *parent) { return new ui::CompareView(catalog, parent); });
    return window;
}

int guiMain(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Sandbar"));
    QApplication::setApplicationName(QStringLiteral("sandbar"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandbar"));
    QApplication::setApplicationVersion(QStringLiteral(SANDBAR_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("dev.sandbar.Sandbar"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/sandbar/icons/sandbar.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("sandbar", "Manage AI-agent sandboxes"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption configDir(QStringLiteral("config-dir"),
                                 QApplication::translate("sandbar", "Keep every file Sandbar writes under DIR."),
                                 QStringLiteral("DIR"));
    parser.addOption(configDir);
    parser.process(app);

    auto services = buildGuiServices(resolveConfigDir(parser.value(configDir)));
    auto windowPtr = makeMainWindow(*services);
    ui::MainWindow &window = *windowPtr;
    window.show();
    // Opened, not exec'd: the window keeps working while the warning is up.
    const auto warn = [&window](const QString &title, const QString &text) {
        auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, &window);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    };
    if (!services->accounts->loadWarning().isEmpty())
        warn(QApplication::translate("sandbar", "Settings"), services->accounts->loadWarning());
    if (services->catalogOverrideError)
        warn(QApplication::translate("sandbar", "Provider catalog"),
             QApplication::translate("sandbar", "Your catalog corrections were not used: %1")
                 .arg(services->catalogOverrideError->message));
    QTimer::singleShot(0, &window, [&window]() { window.refreshAll(); });
    services->costs->start();
    return app.exec();
}

} // namespace sandbar
