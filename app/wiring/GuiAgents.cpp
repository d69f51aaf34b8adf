#include "wiring/GuiAgents.h"

#include "agents/AgentCallsModel.h"
#include "agents/AgentsView.h"
#include "main/MainWindow.h"
#include "main/Notifier.h"
#include "mcp/McpServer.h"
#include "wiring/AppServices.h"
#include "wiring/cli/McpAgent.h"

#include <QApplication>
#include <QStatusBar>

namespace sandbar {

QStringList mcpToolNames(AppServices &services)
{
    // The tools are made the way sandbarctl mcp makes them, so the list cannot drift; nothing
    // runs, the server is never started.
    mcp::McpServer server(QStringLiteral("sandbar"), QStringLiteral(SANDBAR_VERSION));
    cli::McpAgent agent(services, server, nullptr, QStringLiteral("http"));
    cli::addMcpTools(server, agent);
    QStringList names;
    for (const mcp::Tool &t : server.tools())
        names << t.name;
    return names;
}

void wireAgents(AppServices &services, ui::MainWindow &window, ui::Notifier &notifier)
{
    mcp::AgentHub *hub = services.agentHub.get();
    QString listenError;
    if (const VoidResult r = hub->listen(); !r.ok()) {
        listenError = r.message();
        qWarning("sandbar: agents: %s", qUtf8Printable(listenError));
        window.statusBar()->showMessage(
            QApplication::translate("sandbar", "Agents: %1 Calls that need approval are denied.").arg(listenError),
            30000);
    }

    const QString configDir = services.configDir;
    AccountStore *accounts = services.accounts.get();
    // The tool names are made when the view first opens, not at every start of the window.
    window.setAgentsFactory([&services, hub, configDir, accounts, listenError](QWidget *parent) -> QWidget * {
        const QStringList tools = mcpToolNames(services);
        QStringList names;
        for (const Account &a : accounts->accounts())
            names << a.name;
        auto *view = new ui::AgentsView(*hub, configDir, names, tools, parent);
        view->setListenError(listenError);
        return view;
    });

    QObject::connect(hub, &mcp::AgentHub::approvalsChanged, &window,
                     [hub, &window]() { window.setAgentsPending(int(hub->pendingApprovals().size())); });
    QObject::connect(hub, &mcp::AgentHub::approvalRequested, &notifier,
                     [&window, &notifier](const mcp::PendingApproval &p) {
                         if (!window.isAgentsViewActive())
                             notifier.agentApprovalRequested(ui::clientLabel(p.request.client), p.request.tool);
                     });
    window.setAgentsPending(int(hub->pendingApprovals().size()));
}

} // namespace sandbar
