#include "wiring/GuiMain.h"

#include "main/MainWindow.h"
#include "wiring/AppServices.h"
#include "wiring/Terminals.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>

namespace sandbar {

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

    auto services = buildServices(resolveConfigDir(parser.value(configDir)));
    services->accounts->createDefaultAccounts();

    ui::MainWindow window(*services->accounts, *services->registry, services->factories);
    window.setTerminalFactory(makeTerminalFactory());
    window.show();
    if (!services->accounts->loadWarning().isEmpty()) {
        QTimer::singleShot(0, &window, [&window, &services]() {
            QMessageBox::warning(&window, QApplication::translate("sandbar", "Settings"),
                                 services->accounts->loadWarning());
        });
    }
    QTimer::singleShot(0, &window, [&window]() { window.refreshAll(); });
    return app.exec();
}

} // namespace sandbar
