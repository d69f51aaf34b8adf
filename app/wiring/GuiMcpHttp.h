#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>
#include <memory>

namespace sandbar {
struct AppServices;
namespace mcp {
class McpHttpServer;
class McpServer;
} // namespace mcp
namespace cli {
class McpAgent;
}

// The window's MCP endpoint over Streamable HTTP, on 127.0.0.1 only: the same tools, policy
// and audit as sandbarctl mcp, its approvals in the window's own Agents view. It serves only
// when the person turns it on in the preferences; its bearer token is made the first time and
// kept in the keychain (never in sandbar.ini), and can be replaced from the preferences.
class McpHttpEndpoint : public QObject
{
    Q_OBJECT
public:
    // The keychain entry of the token (per config folder, like the accounts' secrets).
    static QString tokenKey(const QString &configDir);

    explicit McpHttpEndpoint(AppServices &services, QObject *parent = nullptr);
    ~McpHttpEndpoint() override;

    // Starts, moves or stops the endpoint (asynchronous: stateChanged() says when it is done).
    void apply(bool enabled, int port);
    // Makes a new token; clients holding the old one are refused from now on.
    void renewToken();

    bool isListening() const;
    QString url() const;     // http://127.0.0.1:PORT/mcp while listening
    QString token() const;   // empty until read or made
    QString problem() const; // why it does not serve although enabled; empty otherwise

Q_SIGNALS:
    void stateChanged();

private:
    void withToken(bool renew);
    void listenNow();
    mcp::McpServer *makeSession(QObject *parent);

    AppServices &m_services;
    std::unique_ptr<mcp::McpHttpServer> m_server;
    QHash<QString, QPointer<cli::McpAgent>> m_agents; // by MCP session id
    QString m_token;
    QString m_problem;
    bool m_enabled = false;
    int m_port = 0;
    bool m_reading = false;
};

} // namespace sandbar
