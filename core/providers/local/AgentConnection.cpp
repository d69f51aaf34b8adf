#include "AgentConnection.h"

#include "SessionStore.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QPointer>
#include <QTimer>

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
// What is taken from the socket at a time: bounds the memory a flooding agent can make
// this side hold (Qt's buffer plus the decoder's) to a few frames.
constexpr qint64 kReadChunk = 256 * 1024;
constexpr int kHelloTimeoutMs = 15000;
} // namespace

AgentConnection::AgentConnection(const QString &socketPath, QObject *parent)
    : QObject(parent)
    , m_path(socketPath)
    , m_socket(new QLocalSocket(this))
    , m_helloTimer(new QTimer(this))
{
    m_socket->setReadBufferSize(kReadChunk);
    m_helloTimer->setSingleShot(true);
    m_helloTimer->setInterval(kHelloTimeoutMs);
    connect(m_helloTimer, &QTimer::timeout, this, [this] {
        if (!m_helloSeen)
            fail(makeError(ErrorCode::Timeout,
                           tr("The sandbox agent did not greet within %1 s.").arg(m_helloTimer->interval() / 1000.0)));
    });
    connect(m_socket, &QLocalSocket::connected, m_helloTimer, qOverload<>(&QTimer::start));
    connect(m_socket, &QLocalSocket::readyRead, this, &AgentConnection::readFrames);
    connect(m_socket, &QLocalSocket::bytesWritten, this, &AgentConnection::bytesWritten);
    connect(m_socket, &QLocalSocket::disconnected, this, [this] {
        // Frames that arrived before the close still count (an exit status, say): the
        // failure comes once they are handed on.
        m_peerGone = true;
        readFrames();
    });
    connect(m_socket, &QLocalSocket::errorOccurred, this, [this](QLocalSocket::LocalSocketError) {
        // Once connected, the close is reported after the frames before it (disconnected).
        if (m_failed || m_peerGone || m_socket->state() == QLocalSocket::ConnectedState)
            return;
        const Error why =
            explain(m_path, makeError(ErrorCode::Unavailable,
                                      tr("The sandbox agent does not answer (%1).").arg(m_socket->errorString())));
        if (!m_opening)
            return fail(why);
        QTimer::singleShot(0, this, [this, why] { fail(why); }); // fail() ignores it after close()
    });
}

AgentConnection::~AgentConnection()
{
    m_failed = true; // no signals from the teardown
    m_socket->abort();
}

void AgentConnection::open()
{
    m_opening = true;
    m_socket->connectToServer(m_path);
    m_opening = false;
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

void AgentConnection::setReadingPaused(bool paused)
{
    m_paused = paused;
    if (!paused)
        QTimer::singleShot(0, this, &AgentConnection::readFrames);
}

bool AgentConnection::pollNow()
{
    if (m_failed || m_paused || m_socket->state() != QLocalSocket::ConnectedState)
        return false;
    // With no wait: readyRead, and so readFrames, runs now if the kernel has bytes.
    return m_socket->waitForReadyRead(0);
}

void AgentConnection::setHelloTimeout(int ms)
{
    m_helloTimer->setInterval(ms);
}

void AgentConnection::fail(const Error &error)
{
    if (m_failed)
        return;
    m_failed = true;
    m_helloTimer->stop();
    m_socket->abort();
    Q_EMIT failed(error);
}

QJsonObject AgentConnection::parseObject(const std::string &payload)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(payload)).object();
}

Result<QJsonObject> AgentConnection::replyObject(const wire::Frame &frame)
{
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(frame.payload), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(
            ErrorCode::Internal,
            tr("The sandbox agent sent a malformed %1 frame.").arg(QString::fromLatin1(wire::typeName(frame.type))));
    return doc.object();
}

Error AgentConnection::frameError(const wire::Frame &frame)
{
    const QString message = parseObject(frame.payload).value(QStringLiteral("message")).toString();
    return makeError(ErrorCode::Internal, message.isEmpty() ? tr("The sandbox agent refused the request.") : message);
}

void AgentConnection::readFrames()
{
    QPointer<AgentConnection> alive(this);
    wire::Frame f;
    while (alive && !m_failed && !m_paused) {
        const auto st = m_decoder.next(f);
        if (st == wire::Decoder::Status::NeedMore) {
            // Only what the consumer took is replaced: the rest stays in the kernel.
            const QByteArray bytes = m_socket->read(kReadChunk);
            if (!bytes.isEmpty()) {
                m_decoder.feed(bytes.constData(), std::size_t(bytes.size()));
                continue;
            }
            if (m_peerGone)
                fail(explain(m_path, makeError(ErrorCode::Unavailable,
                                               m_decoder.buffered() > 0
                                                   ? tr("The sandbox agent closed the connection in mid-frame.")
                                                   : tr("The sandbox agent closed the connection."))));
            return;
        }
        if (st == wire::Decoder::Status::Error) {
            fail(makeError(ErrorCode::Internal,
                           tr("The sandbox agent sent garbage: %1").arg(QString::fromStdString(m_decoder.error()))));
            return;
        }
        if (!m_helloSeen) {
            // Nothing counts before the agent said which protocol it speaks.
            if (f.type != wire::FrameType::Hello) {
                fail(makeError(ErrorCode::Internal, tr("The sandbox agent sent %1 before its Hello.")
                                                        .arg(QString::fromLatin1(wire::typeName(f.type)))));
                return;
            }
            m_helloSeen = true;
            m_helloTimer->stop();
            const int version = parseObject(f.payload).value(QStringLiteral("version")).toInt();
            if (version != wire::kProtocolVersion) {
                fail(makeError(ErrorCode::Unsupported,
                               tr("The sandbox runs agent protocol %1; this Sandbar speaks %2. Remove the "
                                  "session or use the Sandbar version that created it.")
                                   .arg(version)
                                   .arg(wire::kProtocolVersion)));
                return;
            }
            Q_EMIT ready();
            continue;
        }
        if (f.type == wire::FrameType::Hello)
            continue; // a second greeting means nothing
        Q_EMIT frameReceived(f);
    }
}

} // namespace sandbar::local
