#include "mcp/AgentLink.h"

#include "mcp/AgentWire.h"

#include <QCoreApplication>
#include <QLocalSocket>
#include <QThread>

namespace sandbar::mcp {

namespace {

// Reports are dropped rather than queued without bound while the window is not reading.
constexpr qint64 kMaxQueuedReportBytes = 16 * 1024 * 1024;
// A report with no window tries to connect at most this often; an ask always tries.
constexpr qint64 kReportRetryMs = 1000;

} // namespace

AgentLink::AgentLink(QString configDir, QObject *parent)
    : QObject(parent)
    , m_path(agentSocketPath(configDir))
    , m_socket(new QLocalSocket(this))
{
    connect(m_socket, &QLocalSocket::connected, this, &AgentLink::onConnected);
    connect(m_socket, &QLocalSocket::readyRead, this, &AgentLink::onReadyRead);
    // A failed attempt changes the state without a disconnected(); both end here.
    connect(m_socket, &QLocalSocket::stateChanged, this, [this](QLocalSocket::LocalSocketState state) {
        if (state == QLocalSocket::UnconnectedState)
            onDisconnected();
    });
}

AgentLink::~AgentLink()
{
    QObject::disconnect(m_socket, nullptr, this, nullptr);
    m_socket->abort();
    answerAll(windowClosedMessage(), false);
}

QString AgentLink::notRunningMessage()
{
    return QCoreApplication::translate(
        "AgentLink", "This call needs approval in the Sandbar window, and the window is not running. Start Sandbar "
                     "and call again, or change the agent policy (agent-policy.json).");
}

QString AgentLink::windowClosedMessage()
{
    return QCoreApplication::translate("AgentLink", "The Sandbar window closed before the call was approved.");
}

QString AgentLink::withdrawnMessage()
{
    return QCoreApplication::translate("AgentLink", "The call was cancelled before it was approved.");
}

void AgentLink::start()
{
    tryConnect();
}

bool AgentLink::isConnected() const
{
    return m_socket->state() == QLocalSocket::ConnectedState;
}

void AgentLink::tryConnect()
{
    if (m_socket->state() != QLocalSocket::UnconnectedState)
        return;
    m_lastAttempt.start();
    // On Unix the attempt ends here (connected, refused, no such file) unless the window's
    // backlog is full; then it ends on the event loop.
    // With the name each time: a failed attempt or a close forgets it.
    m_socket->connectToServer(m_path, QIODevice::ReadWrite);
}

void AgentLink::setClient(const AgentClient &client)
{
    m_client = client;
    if (isConnected())
        send(wire::encodeHello(client));
}

void AgentLink::send(const QByteArray &line)
{
    m_socket->write(line);
}

void AgentLink::onConnected()
{
    m_wasConnected = true;
    m_lines = wire::LineBuffer();
    if (m_client)
        send(wire::encodeHello(*m_client));
    for (const QString &id : std::as_const(m_order)) {
        auto it = m_pending.find(id);
        if (it != m_pending.end() && !it->sent) {
            it->sent = true;
            send(wire::encodeApprove(it->request));
        }
    }
    Q_EMIT connectedChanged(true);
}

void AgentLink::onDisconnected()
{
    // A decision that arrived with the close is still in the read buffer.
    onReadyRead();
    // Sent: the window was there and went away; not sent: it never answered.
    QList<QString> ids = m_order;
    for (const QString &id : ids) {
        auto it = m_pending.constFind(id);
        if (it == m_pending.constEnd())
            continue;
        answer(id, ApprovalAnswer{ApprovalDecision::Deny, it->sent ? windowClosedMessage() : notRunningMessage()},
               true);
    }
    if (m_wasConnected) {
        m_wasConnected = false;
        Q_EMIT connectedChanged(false);
    }
}

void AgentLink::onReadyRead()
{
    if (m_socket->bytesAvailable() <= 0)
        return;
    QList<QByteArray> lines;
    if (!m_lines.feed(m_socket->readAll(), &lines)) {
        qWarning("sandbar: the window sent a line over %lld bytes; disconnecting",
                 static_cast<long long>(wire::kMaxLine));
        m_socket->abort();
        return;
    }
    for (const QByteArray &line : std::as_const(lines)) {
        if (line.trimmed().isEmpty())
            continue;
        const Result<wire::Message> m = wire::decode(line);
        if (!m.ok()) {
            if (m.code() == ErrorCode::Unsupported)
                continue; // a newer window's message
            qWarning("sandbar: the window sent a bad line (%s); disconnecting", qUtf8Printable(m.message()));
            m_socket->abort();
            return;
        }
        if (m->type == wire::Message::Type::Decision)
            answer(m->id, m->answer, false);
    }
}

void AgentLink::answer(const QString &id, ApprovalAnswer result, bool queued)
{
    auto it = m_pending.find(id);
    if (it == m_pending.end())
        return; // withdrawn, or an id this link never asked
    Pending p = std::move(*it);
    m_pending.erase(it);
    m_order.removeOne(id);
    if (!p.done || (p.hasContext && p.context.isNull()))
        return;
    QObject *target = p.hasContext ? p.context.data() : this;
    auto fn = std::move(p.done);
    if (!queued && target->thread() == QThread::currentThread())
        fn(std::move(result));
    else
        QMetaObject::invokeMethod(
            target, [fn = std::move(fn), result = std::move(result)]() mutable { fn(std::move(result)); },
            Qt::QueuedConnection);
}

void AgentLink::answerAll(const QString &message, bool sentOnly)
{
    const QList<QString> ids = m_order;
    for (const QString &id : ids) {
        auto it = m_pending.constFind(id);
        if (it != m_pending.constEnd() && (!sentOnly || it->sent))
            answer(id, ApprovalAnswer{ApprovalDecision::Deny, message}, true);
    }
}

void AgentLink::ask(const ApprovalRequest &request, QObject *context, std::function<void(ApprovalAnswer)> done)
{
    // A second ask under an id still waiting replaces nothing: it is denied, the first stays.
    if (m_pending.contains(request.id)) {
        QObject *target = context ? context : this;
        QPointer<QObject> guard(context);
        const bool hasContext = context != nullptr;
        QMetaObject::invokeMethod(
            target,
            [guard, hasContext, done = std::move(done)]() {
                if (done && (!hasContext || guard))
                    done(ApprovalAnswer{ApprovalDecision::Deny,
                                        QStringLiteral("internal error: a request with this id is already waiting")});
            },
            Qt::QueuedConnection);
        return;
    }
    Pending p;
    p.request = request;
    p.context = context;
    p.hasContext = context != nullptr;
    p.done = std::move(done);
    m_pending.insert(request.id, std::move(p));
    m_order.append(request.id);
    if (isConnected()) {
        m_pending[request.id].sent = true;
        send(wire::encodeApprove(request));
        return;
    }
    // Not connected: try now. Connecting either sends it (onConnected) or, refused, answers
    // it as not running (onDisconnected); both may happen inside tryConnect, which is why the
    // request is recorded first and answers are queued.
    if (m_socket->state() == QLocalSocket::UnconnectedState)
        tryConnect();
}

void AgentLink::withdraw(const QString &requestId)
{
    auto it = m_pending.constFind(requestId);
    if (it == m_pending.constEnd())
        return;
    if (it->sent && isConnected())
        send(wire::encodeWithdraw(requestId));
    answer(requestId, ApprovalAnswer{ApprovalDecision::Deny, withdrawnMessage()}, true);
}

void AgentLink::report(const CallEvent &event)
{
    if (!isConnected()) {
        // Dropped; a window started since then is found for the next one.
        if (!m_lastAttempt.isValid() || m_lastAttempt.elapsed() >= kReportRetryMs)
            tryConnect();
        return;
    }
    if (m_socket->bytesToWrite() > kMaxQueuedReportBytes)
        return;
    send(wire::encodeCall(event));
}

} // namespace sandbar::mcp
