#include "wiring/GuiMain.h"

#include "clispec/CliSpec.h"
#include "compare/CompareView.h"
#include "main/MainWindow.h"
#include "net/SshAskpass.h"
#include "wiring/AppServices.h"
#include "wiring/GuiAskpass.h"
#include "wiring/GuiFeatures.h"
#include "wiring/Terminals.h"
#include "wiring/Translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QIcon>
#include <QMessageBox>
#include <QTimer>
#include <cstdio>

namespace sandbar {

namespace {

// SANDBAR_REPORT_STARTUP=1 makes the window say on stdout when it is first exposed and when
// every account has answered its first listing, so that `sandbar-bench ui` can time a real
// start from outside the process (its clock runs there, from exec).
class StartupReporter : public QObject
{
public:
    StartupReporter(QWidget *window, SessionRegistry &registry, AccountStore &accounts)
        : QObject(window)
        , m_registry(registry)
        , m_accounts(accounts)
    {
        window->installEventFilter(this);
        connect(&registry, &SessionRegistry::accountStatusChanged, this, &StartupReporter::checkListed);
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (!m_exposed && (event->type() == QEvent::Expose || event->type() == QEvent::Paint)) {
            m_exposed = true;
            say("exposed");
            checkListed();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    void checkListed()
    {
        if (m_listed || !m_exposed || m_accounts.accounts().isEmpty())
            return;
        for (const auto &a : m_accounts.accounts()) {
            const auto state = m_registry.status(a.name).state;
            if (state != AccountStatus::State::Ok && state != AccountStatus::State::Failed)
                return;
        }
        m_listed = true;
        say("listed");
    }
    static void say(const char *what)
    {
        std::fprintf(stdout, "sandbar-startup %s\n", what);
        std::fflush(stdout);
    }

    SessionRegistry &m_registry;
    AccountStore &m_accounts;
    bool m_exposed = false;
    bool m_listed = false;
};

} // namespace

std::unique_ptr<AppServices> buildGuiServices(const QString &configDir)
{
    auto services = buildServices(configDir);
    // Probes engine sockets and tries bubblewrap: on a worker, the window listens for accountsChanged.
    services->accounts->createDefaultAccounts(Callback<QStringList>());
    buildCostServices(*services);
    buildStatsServices(*services);
    services->agentHub = std::make_unique<mcp::AgentHub>(services->configDir);
    return services;
}

std::unique_ptr<ui::MainWindow> makeMainWindow(AppServices &services)
{
    auto window = std::make_unique<ui::MainWindow>(*services.accounts, *services.registry, services.factories);
    window->setCosts(*services.costs, *services.ledger, *services.budgets);
    window->setStats(*services.stats);
    const auto catalog = services.catalog;
    window->setCompareFactory([catalog](QWidget *parent) { return new ui::CompareView(catalog, parent); });
    wireWindowFeatures(services, *window);
    // Last: the table's saved layout wins over the widths the features above set.
    window->setStateFile(QDir(services.configDir).filePath(QStringLiteral("sandbar.ini")));
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
    installTranslations(app);

    QCommandLineParser parser;
    // The options are clispec's, which the man page sandbar(1) is also made from.
    parser.setApplicationDescription(clispec::guiText(clispec::guiSummary()));
    parser.addHelpOption();
    parser.addVersionOption();
    const clispec::Option &configDirSpec = clispec::guiOptions().at(0);
    QCommandLineOption configDir(QString::fromLatin1(configDirSpec.name).mid(2),
                                 clispec::guiText(configDirSpec.description), QString::fromLatin1(configDirSpec.value));
    parser.addOption(configDir);
    parser.process(app);

    auto services = buildGuiServices(resolveConfigDir(parser.value(configDir)));
    auto windowPtr = makeMainWindow(*services);
    ui::MainWindow &window = *windowPtr;
    if (qEnvironmentVariableIntValue("SANDBAR_REPORT_STARTUP") == 1)
        new StartupReporter(&window, *services->registry, *services->accounts);
    window.show();
    // Passphrases and PINs ssh asks for are asked over the window (remote engines).
    const auto askpass = installWindowAskpass(&window);
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
    const int code = app.exec();
    endConnections(*services);
    return code;
}

} // namespace sandbar
