#include "wiring/GuiMcpHttp.h"

#include "mcp/McpHttpServer.h"
#include "mcp/McpServer.h"
#include "wiring/AppServices.h"
#include "wiring/cli/McpAgent.h"

#include <QDir>

namespace sandbar {

QString McpHttpEndpoint::tokenKey(const QString &configDir)
{
    return QStringLiteral("%1|mcp-http|token").arg(QDir(configDir).absolutePath());
}

McpHttpEndpoint::McpHttpEndpoint(AppServices &services, QObject *parent)
    : QObject(parent)
    , m_services(services)
{
}

McpHttpEndpoint::~McpHttpEndpoint()
{
    // Closing ends every session, which would reach back into members already gone.
    if (m_server)
        m_server->disconnect(this);
}

mcp::McpServer *McpHttpEndpoint::makeSession(QObject *parent)
{
    auto *server = new mcp::McpServer(QStringLiteral("sandbar"), QStringLiteral(SANDBAR_VERSION), parent);
    auto *agent = new cli::McpAgent(m_services, *server, m_services.agentHub.get(), QStringLiteral("http"), server);
    cli::addMcpTools(*server, *agent);
    return server;
}

void McpHttpEndpoint::apply(bool enabled, int port)
{
    const bool moved = port != m_port;
    m_enabled = enabled;
    m_port = port;
    if (!enabled) {
        m_server.reset();
        m_problem.clear();
        Q_EMIT stateChanged();
        return;
    }
    if (m_server && m_server->isListening() && !moved)
        return;
    if (m_token.isEmpty())
        return withToken(false);
    listenNow();
}

void McpHttpEndpoint::renewToken()
{
    // "Always" over HTTP was given to whoever held the old token.
    if (m_services.agentHub)
        m_services.agentHub->forgetAlways(mcp::AgentHub::httpAlwaysKey());
    withToken(true);
}

void McpHttpEndpoint::withToken(bool renew)
{
    if (m_reading)
        return;
    const QString key = tokenKey(m_services.configDir);
    const auto store = [this, key](const QString &token) {
        m_services.secrets->write(key, token, Callback<void>(this, [this, token](VoidResult r) {
                                      m_reading = false;
                                      if (!r.ok()) {
                                          m_problem =
                                              tr("The token cannot be kept in the keychain: %1").arg(r.message());
                                          m_server.reset();
                                          Q_EMIT stateChanged();
                                          return;
                                      }
                                      m_token = token;
                                      if (m_server)
                                          m_server->setToken(token);
                                      if (m_enabled)
                                          listenNow();
                                      else
                                          Q_EMIT stateChanged();
                                  }));
    };
    m_reading = true;
    if (renew)
        return store(mcp::newBearerToken());
    m_services.secrets->read(key, Callback<QString>(this, [this, store](Result<QString> r) {
                                 // Made on first use: no entry yet (or an unreadable one) gets a new token.
                                 if (r.ok() && !r.value().isEmpty()) {
                                     m_reading = false;
                                     m_token = r.value();
                                     if (m_enabled)
                                         listenNow();
                                     return;
                                 }
                                 store(mcp::newBearerToken());
                             }));
}

void McpHttpEndpoint::listenNow()
{
    m_server = std::make_unique<mcp::McpHttpServer>([this](QObject *parent) { return makeSession(parent); }, nullptr);
    m_server->setToken(m_token);
    connect(m_server.get(), &mcp::McpHttpServer::sessionStarted, this,
            [this](const QString &id, mcp::McpServer *server) {
                m_agents.insert(id, server->findChild<cli::McpAgent *>());
            });
    // The client is gone (DELETE or idle time): its sessions go when the policy says so.
    connect(m_server.get(), &mcp::McpHttpServer::sessionEnded, this, [this](const QString &id) {
        if (const QPointer<cli::McpAgent> agent = m_agents.take(id))
            agent->clientGone([] {});
    });
    const VoidResult r = m_server->listen(quint16(m_port));
    m_problem = r.ok() ? QString() : r.message();
    if (!r.ok())
        m_server.reset();
    Q_EMIT stateChanged();
}

bool McpHttpEndpoint::isListening() const
{
    return m_server && m_server->isListening();
}

QString McpHttpEndpoint::url() const
{
    return isListening() ? m_server->url() : QString();
}

QString McpHttpEndpoint::token() const
{
    return m_token;
}

QString McpHttpEndpoint::problem() const
{
    return m_problem;
}

} // namespace sandbar
