#include "net/SocketSupport.h"

#include "net/NetTr.h"

#include <QCoreApplication>
#include <QFile>
#include <QLocalSocket>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslSocket>
#include <QTcpSocket>
#include <memory>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#endif

namespace sandbar::net {

namespace {

Error unreachable(const Endpoint &ep, const QString &why)
{
    return makeError(ErrorCode::Unavailable, tr("Cannot reach the engine at %1: %2").arg(ep.display(), why));
}

Result<QByteArray> readPem(const QString &path, const char *what)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::InvalidArgument,
                         tr("Cannot read the TLS %1 file %2: %3").arg(QLatin1String(what), path, f.errorString()));
    return f.readAll();
}

} // namespace

Result<QSslSocket *> makeSslSocket(const Endpoint &ep, QObject *parent)
{
    if (!QSslSocket::supportsSsl())
        return makeError(ErrorCode::Unsupported,
                         tr("Cannot reach the engine at %1: this build has no TLS support.").arg(ep.display()));
    QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
    if (!ep.caFile.isEmpty()) {
        auto pem = readPem(ep.caFile, "CA");
        if (!pem)
            return pem.error();
        const QList<QSslCertificate> cas = QSslCertificate::fromData(*pem, QSsl::Pem);
        if (cas.isEmpty())
            return makeError(ErrorCode::InvalidArgument,
                             tr("The TLS CA file %1 holds no PEM certificate.").arg(ep.caFile));
        // Like the docker CLI: a given CA replaces the system's trust store.
        conf.setCaCertificates(cas);
    } else if (!ep.extraCaCertificates.isEmpty()) {
        conf.setCaCertificates(QSslConfiguration::systemCaCertificates() + ep.extraCaCertificates);
    }
    if (!ep.certFile.isEmpty() || !ep.keyFile.isEmpty()) {
        if (ep.certFile.isEmpty() || ep.keyFile.isEmpty())
            return makeError(
                ErrorCode::InvalidArgument,
                tr("A TLS client certificate for %1 needs both a certificate and a key file.").arg(ep.display()));
        auto certPem = readPem(ep.certFile, "certificate");
        if (!certPem)
            return certPem.error();
        const QList<QSslCertificate> certs = QSslCertificate::fromData(*certPem, QSsl::Pem);
        if (certs.isEmpty())
            return makeError(ErrorCode::InvalidArgument,
                             tr("The TLS certificate file %1 holds no PEM certificate.").arg(ep.certFile));
        auto keyPem = readPem(ep.keyFile, "key");
        if (!keyPem)
            return keyPem.error();
        QSslKey key;
        for (QSsl::KeyAlgorithm alg : {QSsl::Rsa, QSsl::Ec, QSsl::Dsa}) {
            key = QSslKey(*keyPem, alg, QSsl::Pem, QSsl::PrivateKey);
            if (!key.isNull())
                break;
        }
        if (key.isNull())
            return makeError(ErrorCode::InvalidArgument,
                             tr("The TLS key file %1 holds no unencrypted PEM private key.").arg(ep.keyFile));
        conf.setLocalCertificate(certs.first());
        conf.setPrivateKey(key);
    }
    conf.setPeerVerifyMode(ep.verifyPeer ? QSslSocket::VerifyPeer : QSslSocket::VerifyNone);
    auto *s = new QSslSocket(parent);
    s->setSslConfiguration(conf);
    return s;
}

void connectTcpSignals(QTcpSocket *socket, const Endpoint &ep, QObject *context, std::function<void()> connected,
                       std::function<void(const Error &)> failed)
{
    auto *ssl = qobject_cast<QSslSocket *>(socket);
    if (ssl) {
        QObject::connect(ssl, &QSslSocket::encrypted, context, connected);
        auto sslWhy = std::make_shared<QString>();
        QObject::connect(ssl, &QSslSocket::sslErrors, context, [sslWhy](const QList<QSslError> &errors) {
            QStringList parts;
            for (const QSslError &e : errors)
                parts << e.errorString();
            *sslWhy = parts.join(QStringLiteral("; "));
        });
        QObject::connect(
            ssl, &QAbstractSocket::errorOccurred, context, [ssl, ep, failed, sslWhy](QAbstractSocket::SocketError e) {
                if (e == QAbstractSocket::SslHandshakeFailedError || e == QAbstractSocket::SslInvalidUserDataError ||
                    e == QAbstractSocket::SslInternalError) {
                    const QString why = sslWhy->isEmpty() ? ssl->errorString() : *sslWhy;
                    failed(makeError(ErrorCode::Unavailable,
                                     tr("The TLS handshake with the engine at %1 failed: %2. Check "
                                        "DOCKER_CERT_PATH and that the CA matches the server.")
                                         .arg(ep.display(), why)));
                }
            });
    } else {
        QObject::connect(socket, &QAbstractSocket::connected, context, connected);
    }
    QObject::connect(
        socket, &QAbstractSocket::errorOccurred, context, [socket, ep, failed](QAbstractSocket::SocketError e) {
            switch (e) {
            case QAbstractSocket::RemoteHostClosedError:
                return; // disconnected() follows and tells whether the reply was complete
            case QAbstractSocket::SslHandshakeFailedError:
            case QAbstractSocket::SslInvalidUserDataError:
            case QAbstractSocket::SslInternalError: return; // reported above with the certificate errors
            case QAbstractSocket::ConnectionRefusedError:
                failed(unreachable(ep, tr("connection refused. Is the engine listening on that port?")));
                return;
            case QAbstractSocket::HostNotFoundError:
                failed(unreachable(ep, tr("host %1 not found.").arg(ep.host)));
                return;
            case QAbstractSocket::SocketTimeoutError:
                failed(makeError(ErrorCode::Timeout,
                                 tr("The connection to the engine at %1 timed out.").arg(ep.display())));
                return;
            case QAbstractSocket::SocketAccessError:
                failed(
                    makeError(ErrorCode::Unauthorized,
                              tr("Permission denied connecting to %1: %2").arg(ep.display(), socket->errorString())));
                return;
            default: failed(unreachable(ep, socket->errorString() + QLatin1Char('.'))); return;
            }
        });
}

void connectLocalSignals(QLocalSocket *socket, const Endpoint &ep, QObject *context, std::function<void()> connected,
                         std::function<void(const Error &)> failed)
{
    QObject::connect(socket, &QLocalSocket::connected, context, connected);
    QObject::connect(
        socket, &QLocalSocket::errorOccurred, context, [socket, ep, failed](QLocalSocket::LocalSocketError e) {
            switch (e) {
            case QLocalSocket::PeerClosedError: return; // disconnected() follows
            case QLocalSocket::ServerNotFoundError:
                failed(unreachable(
                    ep, tr("no such socket. Is the engine (the Docker daemon, the Podman service) running?")));
                return;
            case QLocalSocket::ConnectionRefusedError:
                failed(unreachable(
                    ep, tr("connection refused (a stale socket file?). Is the engine (the Docker daemon, the Podman "
                           "service) running?")));
                return;
            case QLocalSocket::SocketAccessError:
                failed(makeError(ErrorCode::Unauthorized,
                                 tr("Permission denied on %1: add your user to the docker group or use rootless Docker")
                                     .arg(ep.path)));
                return;
            case QLocalSocket::SocketTimeoutError:
                failed(makeError(ErrorCode::Timeout,
                                 tr("The connection to the engine at %1 timed out.").arg(ep.display())));
                return;
            default: failed(unreachable(ep, socket->errorString() + QLatin1Char('.'))); return;
            }
        });
}

void startConnecting(QIODevice *socket, const Endpoint &ep)
{
    if (auto *local = qobject_cast<QLocalSocket *>(socket)) {
        local->connectToServer(ep.path);
    } else if (auto *ssl = qobject_cast<QSslSocket *>(socket)) {
        ssl->connectToHostEncrypted(ep.host, ep.port);
    } else if (auto *tcp = qobject_cast<QTcpSocket *>(socket)) {
        tcp->connectToHost(ep.host, ep.port);
    }
}

void abortSocket(QIODevice *socket)
{
    if (auto *local = qobject_cast<QLocalSocket *>(socket))
        local->abort();
    else if (auto *tcp = qobject_cast<QAbstractSocket *>(socket))
        tcp->abort();
}

bool shutdownWrite(QIODevice *socket)
{
    qintptr fd = -1;
    if (auto *local = qobject_cast<QLocalSocket *>(socket)) {
        local->flush();
        fd = local->socketDescriptor();
    } else if (auto *tcp = qobject_cast<QAbstractSocket *>(socket)) {
        tcp->flush();
        fd = tcp->socketDescriptor();
    }
    if (fd < 0)
        return false;
#ifdef Q_OS_UNIX
    return ::shutdown(int(fd), SHUT_WR) == 0;
#else
    // Windows named pipes have no half-close; the engine sees EOF when the pipe closes.
    return false;
#endif
}

} // namespace sandbar::net
