#include "FakeServer.h"

#include <QFile>
#include <QLocalSocket>
#include <QSocketNotifier>
#include <QSslConfiguration>
#include <QSslKey>
#include <QTcpSocket>
#include <QTest>
#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sandbar::test {

FakeConn::FakeConn(QIODevice *io, QObject *parent)
    : QObject(parent)
    , m_io(io)
{
    io->setParent(this);
    connect(io, &QIODevice::readyRead, this, &FakeConn::readMore);
    auto gone = [this] {
        readMore();
        if (eof)
            return;
        eof = true;
        if (onEof)
            onEof(*this);
    };
    if (auto *l = qobject_cast<QLocalSocket *>(io))
        connect(l, &QLocalSocket::disconnected, this, gone);
    else if (auto *t = qobject_cast<QTcpSocket *>(io))
        connect(t, &QTcpSocket::disconnected, this, gone);
    connect(io, &QIODevice::readChannelFinished, this, gone);
}

void FakeConn::readMore()
{
    if (!m_io->isOpen() || m_io->bytesAvailable() <= 0)
        return;
    const QByteArray bytes = m_io->readAll();
    if (bytes.isEmpty())
        return;
    totalReceived += bytes.size();
    received += bytes;
    if (requestHead.isEmpty()) {
        const qsizetype end = received.indexOf("\r\n\r\n");
        if (end >= 0) {
            requestHead = received.left(end + 4);
            received.remove(0, end + 4);
            if (onHead)
                onHead(*this);
        }
    }
    if (discardBody && !requestHead.isEmpty())
        received.clear();
    if (onData)
        onData(*this);
}

void FakeConn::send(const QByteArray &bytes)
{
    m_io->write(bytes);
    if (auto *l = qobject_cast<QLocalSocket *>(m_io))
        l->flush();
    else if (auto *t = qobject_cast<QTcpSocket *>(m_io))
        t->flush();
}

void FakeConn::close()
{
    if (auto *l = qobject_cast<QLocalSocket *>(m_io))
        l->disconnectFromServer();
    else if (auto *t = qobject_cast<QTcpSocket *>(m_io))
        t->disconnectFromHost();
}

QString testData(const QString &name)
{
    const QString dir = qEnvironmentVariable("SANDBAR_TEST_DATA");
    return (dir.isEmpty() ? QStringLiteral(SANDBAR_NET_TEST_DATA) : dir) + QLatin1Char('/') + name;
}

FakeServer::FakeServer(Kind kind, bool requireClientCert, QObject *parent)
    : QObject(parent)
    , m_kind(kind)
{
    if (kind == Kind::Tls) {
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificateChain(QSslCertificate::fromPath(testData(QStringLiteral("tls/server.pem"))));
        QFile keyFile(testData(QStringLiteral("tls/server-key.pem")));
        if (keyFile.open(QIODevice::ReadOnly))
            conf.setPrivateKey(QSslKey(keyFile.readAll(), QSsl::Rsa));
        if (requireClientCert) {
            conf.setCaCertificates(QSslCertificate::fromPath(testData(QStringLiteral("tls/ca.pem"))));
            conf.setPeerVerifyMode(QSslSocket::VerifyPeer);
        } else {
            conf.setPeerVerifyMode(QSslSocket::VerifyNone);
        }
        m_ssl.setSslConfiguration(conf);
        m_ssl.listen(QHostAddress::LocalHost, 0);
        connect(&m_ssl, &QTcpServer::pendingConnectionAvailable, this, [this] {
            while (QTcpSocket *s = m_ssl.nextPendingConnection()) {
                auto *c = new FakeConn(s, this);
                connections << c;
                if (onConnection)
                    onConnection(*c);
            }
        });
        connect(&m_ssl, &QSslServer::errorOccurred, this,
                [this](QSslSocket *, QAbstractSocket::SocketError) { ++handshakeFailures; });
        return;
    }
    if (kind == Kind::Local) {
        m_local.listen(m_dir.filePath(QStringLiteral("engine.sock")));
        connect(&m_local, &QLocalServer::newConnection, this, [this] {
            while (QLocalSocket *s = m_local.nextPendingConnection()) {
                auto *c = new FakeConn(s, this);
                connections << c;
                if (onConnection)
                    onConnection(*c);
            }
        });
    } else {
        m_tcp.listen(QHostAddress::LocalHost, 0);
        connect(&m_tcp, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_tcp.nextPendingConnection()) {
                auto *c = new FakeConn(s, this);
                connections << c;
                if (onConnection)
                    onConnection(*c);
            }
        });
    }
}

bool FakeServer::listening() const
{
    switch (m_kind) {
    case Kind::Local: return m_local.isListening();
    case Kind::Tcp: return m_tcp.isListening();
    case Kind::Tls: return m_ssl.isListening();
    }
    return false;
}

net::Endpoint FakeServer::endpoint() const
{
    net::Endpoint ep;
    if (m_kind == Kind::Local) {
        ep.kind = net::Endpoint::Kind::Unix;
        ep.path = m_local.fullServerName();
    } else {
        ep.kind = net::Endpoint::Kind::Tcp;
        ep.host = QStringLiteral("127.0.0.1");
        ep.port = m_kind == Kind::Tls ? m_ssl.serverPort() : m_tcp.serverPort();
        ep.tls = m_kind == Kind::Tls;
    }
    return ep;
}

RawUnixServer::RawUnixServer(QObject *parent)
    : QObject(parent)
{
    m_path = m_dir.filePath(QStringLiteral("raw.sock"));
    m_listenFd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const QByteArray p = QFile::encodeName(m_path);
    if (m_listenFd < 0 || size_t(p.size()) >= sizeof(addr.sun_path))
        return;
    std::memcpy(addr.sun_path, p.constData(), size_t(p.size()));
    if (::bind(m_listenFd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) != 0 || ::listen(m_listenFd, 4) != 0)
        return;
    m_listening = true;
    auto *acceptor = new QSocketNotifier(m_listenFd, QSocketNotifier::Read, this);
    connect(acceptor, &QSocketNotifier::activated, this, [this, acceptor] {
        m_connFd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (m_connFd < 0)
            return;
        acceptor->setEnabled(false);
        auto *reader = new QSocketNotifier(m_connFd, QSocketNotifier::Read, this);
        connect(reader, &QSocketNotifier::activated, this, [this, reader] {
            char buf[4096];
            const ssize_t n = ::read(m_connFd, buf, sizeof(buf));
            if (n > 0) {
                received.append(buf, qsizetype(n));
                if (onData)
                    onData(*this);
                return;
            }
            reader->setEnabled(false);
            eof = true;
            if (onEof)
                onEof(*this);
        });
    });
}

RawUnixServer::~RawUnixServer()
{
    closeConnection();
    if (m_listenFd >= 0)
        ::close(m_listenFd);
}

net::Endpoint RawUnixServer::endpoint() const
{
    net::Endpoint ep;
    ep.path = m_path;
    return ep;
}

void RawUnixServer::send(const QByteArray &bytes)
{
    if (m_connFd >= 0)
        QVERIFY(::write(m_connFd, bytes.constData(), size_t(bytes.size())) == bytes.size());
}

void RawUnixServer::closeConnection()
{
    if (m_connFd >= 0)
        ::close(m_connFd);
    m_connFd = -1;
}

bool dechunk(const QByteArray &in, QByteArray &out)
{
    out.clear();
    qsizetype pos = 0;
    for (;;) {
        const qsizetype eol = in.indexOf("\r\n", pos);
        if (eol < 0)
            return false;
        bool ok = false;
        const qint64 size = in.mid(pos, eol - pos).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok)
            return false;
        pos = eol + 2;
        if (size == 0)
            return in.mid(pos) == "\r\n";
        if (pos + size + 2 > in.size() || in.mid(pos + size, 2) != "\r\n")
            return false;
        out += in.mid(pos, size);
        pos += size + 2;
    }
}

} // namespace sandbar::test
