#pragma once

// An in-process HTTP server for the client tests: each accepted connection becomes a
// FakeConn whose onData/onEof hooks the test sets; nothing is answered unless a test says so.

#include "net/Endpoint.h"

#include <QLocalServer>
#include <QObject>
#include <QPointer>
#include <QSslServer>
#include <QTcpServer>
#include <QTemporaryDir>
#include <functional>
#include <memory>

namespace sandbar::test {

class FakeConn : public QObject
{
    Q_OBJECT
public:
    explicit FakeConn(QIODevice *io, QObject *parent);

    QIODevice *io() const { return m_io; }
    // Bytes received and not yet consumed by the test.
    QByteArray received;
    QByteArray requestHead; // set once the header block has arrived
    qint64 totalReceived = 0;
    bool eof = false;
    // Keep only the header block in `received`, counting the rest (for big uploads).
    bool discardBody = false;

    std::function<void(FakeConn &)> onHead; // once, when the header block is complete
    std::function<void(FakeConn &)> onData; // after every read
    std::function<void(FakeConn &)> onEof;

    void send(const QByteArray &bytes);
    void close();

private:
    void readMore();
    QIODevice *m_io;
};

class FakeServer : public QObject
{
    Q_OBJECT
public:
    enum class Kind { Local, Tcp, Tls };
    // Tls serves data/tls/server.pem; with requireClientCert it also asks for a client
    // certificate signed by data/tls/ca.pem.
    explicit FakeServer(Kind kind, bool requireClientCert = false, QObject *parent = nullptr);

    bool listening() const;
    net::Endpoint endpoint() const;
    // A socket path in the server's temp dir that nothing listens on.
    QString missingPath() const { return m_dir.filePath(QStringLiteral("missing.sock")); }

    std::function<void(FakeConn &)> onConnection;
    QList<QPointer<FakeConn>> connections;
    int handshakeFailures = 0; // TLS only

private:
    Kind m_kind;
    QTemporaryDir m_dir;
    QLocalServer m_local;
    QTcpServer m_tcp;
    QSslServer m_ssl;
};

// tests/net/data/<name>
QString testData(const QString &name);

// A unix socket server on plain file descriptors: Qt sockets close both directions at
// EOF, so only this one can show that the client closed nothing but its sending side.
class RawUnixServer : public QObject
{
    Q_OBJECT
public:
    explicit RawUnixServer(QObject *parent = nullptr);
    ~RawUnixServer() override;

    bool listening() const { return m_listening; }
    net::Endpoint endpoint() const;
    void send(const QByteArray &bytes);
    void closeConnection();

    QByteArray received;
    bool eof = false;
    std::function<void(RawUnixServer &)> onData;
    std::function<void(RawUnixServer &)> onEof;

private:
    QTemporaryDir m_dir;
    QString m_path;
    int m_listenFd = -1;
    int m_connFd = -1;
    bool m_listening = false;
};

// Decodes a complete chunked body; false if it is not one.
bool dechunk(const QByteArray &in, QByteArray &out);

} // namespace sandbar::test
