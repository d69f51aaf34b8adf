#include "mcp/AgentLink.h"
#include "mcp/FdTransport.h"
#include "mcp/McpServer.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/McpAgent.h"

#include <csignal>
#include <unistd.h>

namespace sandbar::cli {

namespace {

// One message may carry a file for write_file (8 MiB, a third more as base64) and its JSON;
// anything longer is refused with a parse error rather than kept.
constexpr qsizetype kMaxMessageBytes = 16 * 1024 * 1024;

} // namespace

// sandbarctl mcp: a Model Context Protocol server on stdin/stdout for one client. Everything
// runs on the event loop, so a long exec does not hold up a ping or a second call. When the
// client's input ends, execs still running are killed, other calls finish, the answers that
// can still be written are, and the command exits 0.
void runMcp(Command &cmd, const QStringList &args)
{
    if (!args.isEmpty())
        return cmd.usage(QCoreApplication::translate("sandbar::cli", "usage: mcp (speaks MCP on stdin and stdout)"));
    // A client that closes its end must not kill this process in the middle of a write.
    ::signal(SIGPIPE, SIG_IGN);

    AppServices &services = cmd.services();
    // The catalog prices what agents create (the policy's cost limit) and the ledger holds the
    // budgets; the window's meter does the booking, so this one is never started.
    if (!services.catalog)
        buildCostServices(services);
    auto *server = new mcp::McpServer(QStringLiteral("sandbar"), QStringLiteral(SANDBAR_VERSION), &cmd);
    // The running window, for approvals and its Agents view; found later if it starts later.
    auto *link = new mcp::AgentLink(services.configDir, &cmd);
    auto *agent = new McpAgent(services, *server, link, QStringLiteral("stdio"), &cmd);
    addMcpTools(*server, *agent);
    QObject::connect(server, &mcp::McpServer::clientNamed, link, [link, agent] { link->setClient(agent->client()); });
    link->start();
    auto *transport = new mcp::FdTransport(STDIN_FILENO, STDOUT_FILENO, kMaxMessageBytes, &cmd);

    QObject::connect(transport, &mcp::FdTransport::lineReceived, server,
                     [server](const QByteArray &line) { server->handleLine(line); });
    QObject::connect(transport, &mcp::FdTransport::oversizedLine, server,
                     [server](qsizetype size, qsizetype limit, const QJsonValue &id) {
                         server->handleOversizedLine(size, limit, id);
                     });
    QObject::connect(server, &mcp::McpServer::send, transport,
                     [transport](const QByteArray &line) { transport->send(line); });

    // cleanedUp: the sessions the policy removes when the client leaves are gone.
    auto cleanedUp = std::make_shared<bool>(false);
    const auto finishIfDone = [&cmd, server, transport, cleanedUp] {
        if (*cleanedUp && server->callsInFlight() == 0 &&
            (transport->pendingOutput() == 0 || transport->outputClosed()))
            cmd.finish(ExitOk);
    };
    QObject::connect(transport, &mcp::FdTransport::inputClosed, server,
                     [server, transport, agent, cleanedUp, finishIfDone] {
                         server->inputClosed();
                         // Calls still running (a create) may add sessions; they are removed once all are done.
                         const auto cleanUp = [agent, cleanedUp, finishIfDone] {
                             agent->clientGone([cleanedUp, finishIfDone] {
                                 *cleanedUp = true;
                                 finishIfDone();
                             });
                         };
                         if (server->callsInFlight() == 0)
                             cleanUp();
                         else
                             QObject::connect(server, &mcp::McpServer::idle, agent, cleanUp, Qt::SingleShotConnection);
                         // After the input ended, any moment with nothing left to do or to write is the end.
                         QObject::connect(server, &mcp::McpServer::idle, transport, finishIfDone);
                         QObject::connect(transport, &mcp::FdTransport::drained, server, finishIfDone);
                         finishIfDone();
                     });
    transport->start();
}

} // namespace sandbar::cli
