#pragma once

#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace contract {

// Runs sandbar-contract-server as a child process for a Qt test: start() waits for its
// "listening URL" line; the destructor kills it (SIGTERM, then SIGKILL). Faults and state
// go through the server's admin API (synchronous, with a timeout: test code only).
class ServerProcess
{
public:
    // provider: "e2b" or "daytona"; extra: more command-line arguments (--faults ..., --tls ...).
    explicit ServerProcess(QString provider, QStringList extra = {});
    ~ServerProcess();
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    // Starts the server and waits for its ready line; false with error() on failure.
    bool start(int timeoutMs = 20000);
    void stop();
    bool isRunning() const;

    QString baseUrl() const { return m_baseUrl; } // "http://127.0.0.1:PORT"
    quint16 port() const { return m_port; }
    QString error() const { return m_error; }
    qint64 pid() const { return m_process.processId(); }
    QString serverStderr();

    // POST /_contract/faults {"rules":[...]}; e.g. addFault("POST", "/sandboxes", "lost-reply", 1).
    bool addFault(const QString &method, const QString &path, const QString &fault, int times = -1);
    bool clearFaults();
    // GET /_contract/state; empty on failure.
    QJsonObject state();

    // The server executable (SANDBAR_CONTRACT_SERVER env var overrides the built one).
    static QString executable();

private:
    // A small blocking HTTP/1.1 exchange on loopback (no QNAM: no event loop needed).
    QByteArray request(const QByteArray &method, const QByteArray &path, const QByteArray &body, int *status);

    QString m_provider;
    QStringList m_extra;
    QProcess m_process;
    QString m_baseUrl;
    quint16 m_port = 0;
    QString m_error;
};

} // namespace contract
