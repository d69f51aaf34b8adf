#include "ServerProcess.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSslSocket>
#include <QTcpSocket>
#include <QUrl>

namespace contract {

ServerProcess::ServerProcess(QString provider, QStringList extra)
    : m_provider(std::move(provider))
    , m_extra(std::move(extra))
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
}

ServerProcess::~ServerProcess()
{
    stop();
}

QString ServerProcess::executable()
{
    const QString overridden = qEnvironmentVariable("SANDBAR_CONTRACT_SERVER");
    if (!overridden.isEmpty())
        return overridden;
#ifdef SANDBAR_CONTRACT_SERVER
    return QStringLiteral(SANDBAR_CONTRACT_SERVER);
#else
    return QStringLiteral("sandbar-contract-server");
#endif
}

bool ServerProcess::start(int timeoutMs)
{
    QStringList args{m_provider, QStringLiteral("--port"), QStringLiteral("0")};
    args.append(m_extra);
    m_process.start(executable(), args);
    if (!m_process.waitForStarted(timeoutMs)) {
        m_error = QStringLiteral("cannot start %1: %2").arg(executable(), m_process.errorString());
        return false;
    }
    const QDeadlineTimer deadline(timeoutMs);
    QByteArray line;
    while (!m_process.canReadLine()) {
        if (m_process.state() != QProcess::Running || deadline.hasExpired()) {
            m_error = QStringLiteral("the server did not get ready: %1")
                          .arg(QString::fromLocal8Bit(m_process.readAllStandardError()));
            return false;
        }
        m_process.waitForReadyRead(100);
    }
    line = m_process.readLine().trimmed();
    if (!line.startsWith("listening ")) {
        m_error = QStringLiteral("unexpected first line: %1").arg(QString::fromLocal8Bit(line));
        return false;
    }
    m_baseUrl = QString::fromLatin1(line.mid(10));
    m_port = static_cast<quint16>(QUrl(m_baseUrl).port());
    return true;
}

void ServerProcess::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

bool ServerProcess::isRunning() const
{
    return m_process.state() == QProcess::Running;
}

QString ServerProcess::serverStderr()
{
    return QString::fromLocal8Bit(m_process.readAllStandardError());
}

QByteArray ServerProcess::request(const QByteArray &method, const QByteArray &path, const QByteArray &body, int *status)
{
    *status = 0;
    const bool tls = m_baseUrl.startsWith(QLatin1String("https"));
    std::unique_ptr<QTcpSocket> socket;
    if (tls) {
        auto *ssl = new QSslSocket;
        ssl->setPeerVerifyMode(QSslSocket::VerifyNone);
        ssl->connectToHostEncrypted(QStringLiteral("127.0.0.1"), m_port);
        socket.reset(ssl);
        if (!ssl->waitForEncrypted(5000))
            return {};
    } else {
        socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QStringLiteral("127.0.0.1"), m_port);
        if (!socket->waitForConnected(5000))
            return {};
    }
    QByteArray out = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (!body.isEmpty())
        out += "Content-Type: application/json\r\n";
    out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    socket->write(out);
    QByteArray reply;
    const QDeadlineTimer deadline(10000);
    while (!deadline.hasExpired()) {
        if (!socket->waitForReadyRead(200) && socket->state() != QAbstractSocket::ConnectedState)
            break;
        reply += socket->readAll();
    }
    reply += socket->readAll();
    const int headEnd = reply.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return {};
    *status = reply.mid(9, 3).toInt();
    return reply.mid(headEnd + 4);
}

bool ServerProcess::addFault(const QString &method, const QString &path, const QString &fault, int times)
{
    QJsonObject rule{{QStringLiteral("path"), path}, {QStringLiteral("fault"), fault}};
    if (!method.isEmpty())
        rule.insert(QStringLiteral("method"), method);
    if (times >= 0)
        rule.insert(QStringLiteral("times"), times);
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("rules"), QJsonArray{rule}}}).toJson(QJsonDocument::Compact);
    int status = 0;
    request("POST", "/_contract/faults", body, &status);
    return status == 200;
}

bool ServerProcess::clearFaults()
{
    int status = 0;
    request("DELETE", "/_contract/faults", {}, &status);
    return status == 204;
}

QJsonObject ServerProcess::state()
{
    int status = 0;
    const QByteArray body = request("GET", "/_contract/state", {}, &status);
    return status == 200 ? QJsonDocument::fromJson(body).object() : QJsonObject();
}

} // namespace contract
