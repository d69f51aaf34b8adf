#include "AgentConnection.h"

#include "SessionStore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QPointer>

namespace sandbar::local {

namespace {
// A refused or dropped connection usually means the sandbox ended: say how, from the
// session's own files, rather than just "connection refused".
Error explain(const QString &socketPath, Error fallback)
{
    const QString sessionDir = QFileInfo(QFileInfo(socketPath).path()).path();
    const auto rec = loadRecord(sessionDir);
    if (!rec)
        return fallback;
    const SessionStatus st = statusOf(*rec);
    if (st.state == SessionState::Running)
        return fallback;
    return makeError(ErrorCode::Unavailable, st.errorMessage.isEmpty()
                                                 ? QCoreApplication::translate("sandbar::local::AgentConnection",
                                                                               "The session is not running (%1).")
                                                       .arg(st.statusText)
                                                 : st.errorMessage);
}
} // namespace

namespace {
} // namespace

AgentConnection::AgentConnection(const QString &socketPath, QObject *parent)
    : QObject(parent)
    , m_path(socketPath)
    , m_socket(new QLocalSocket(this))
{
    connect(m_socket, &QLocalSocket::readyRead, this, &AgentConnection::readFrames);
    connect(m_socket, &QLocalSocket::bytesWritten, this, &AgentConnection::bytesWritten);
    connect(m_socket, &QLocalSocket::disconnected, this, [this] {
        if (!m_failed) {
            m_failed = true;
            Q_EMIT failed(
                explain(m_path, makeError(ErrorCode::Unavailable, tr("The sandbox agent closed the connection."))));
        }
    });
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError) {
        if (m_failed || m_socket->state() == QLocalSocket::ConnectedState)
            return;
        m_failed = true;
        Q_EMIT failed(
            explain(m_path, makeError(ErrorCode::Unavailable,
                                      tr("The sandbox agent does not answer (%1).").arg(m_socket->errorString()))));
    });
}

AgentConnection::~AgentConnection()
{
    m_failed = true; // no signals from the teardown
    m_socket->abort();
}

void AgentConnection::open()
{
    m_socket->connectToServer(m_path);
}

void AgentConnection::close()
{
    m_failed = true;
    m_socket->abort();
}

bool AgentConnection::isOpen() const
{
    return m_socket->state() == QLocalSocket::ConnectedState && !m_failed;
}

void AgentConnection::send(wire::FrameType type, quint32 channel, const QByteArray &payload)
{
    const std::string frame = wire::encode(type, channel, payload.toStdString());
    m_socket->write(frame.data(), qint64(frame.size()));
}

void AgentConnection::sendJson(wire::FrameType type, quint32 channel, const QJsonObject &object)
{
    send(type, channel, QJsonDocument(object).toJson(QJsonDocument::Compact));
}

qint64 AgentConnection::bytesToWrite() const
{
    return m_socket->bytesToWrite();
}

QJsonObject AgentConnection::parseObject(const std::string &payload)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(payload)).object();
}

Error AgentConnection::frameError(const wire::Frame &frame)
{
    const QString message = parseObject(frame.payload).value(QStringLiteral("message")).toString();
    return makeError(ErrorCode::Internal, message.isEmpty() ? tr("The sandbox agent refused the request.") : message);
}

void AgentConnection::readFrames()
{
    const QByteArray bytes = m_socket->readAll();
    m_decoder.feed(bytes.constData(), std::size_t(bytes.size()));
    QPointer<AgentConnection> alive(this);
    wire::Frame f;
    while (alive && !m_failed) {
        const auto st = m_decoder.next(f);
        if (st == wire::Decoder::Status::NeedMore)
            return;
        if (st == wire::Decoder::Status::Error) {
            m_failed = true;
            m_socket->abort();
            Q_EMIT failed(
                makeError(ErrorCode::Internal,
                          tr("The sandbox agent sent garbage: %1").arg(QString::fromStdString(m_decoder.error()))));
            return;
        }
        if (!m_helloSeen && f.type == wire::FrameType::Hello) {
            m_helloSeen = true;
            const int version = parseObject(f.payload).value(QStringLiteral("version")).toInt();
            if (version != wire::kProtocolVersion) {
                m_failed = true;
                m_socket->abort();
                Q_EMIT failed(makeError(ErrorCode::Unsupported,
                                        tr("The sandbox runs agent protocol %1; this Sandbar speaks %2. Remove the "
                                           "session or use the Sandbar version that created it.")
                                            .arg(version)
                                            .arg(wire::kProtocolVersion)));
                return;
            }
            Q_EMIT ready();
            continue;
        }
        Q_EMIT frameReceived(f);
    }
}

} // namespace sandbar::local
