#include "mcp/AgentHub.h"

#include "mcp/AgentWire.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <algorithm>

#if defined(Q_OS_UNIX)
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>
#endif

namespace sandbar::mcp {

namespace {

struct Peer {
    bool sameUser = false;
    qint64 pid = 0; // 0: not known
};

// The socket file is owner-only already; the uid check also holds where a filesystem ignores
// the mode, and it gives the peer's real pid.
Peer peerOf(qintptr fd)
{
    Peer peer;
#if defined(Q_OS_LINUX)
    struct ucred cred {
    };
    socklen_t len = sizeof(cred);
    if (::getsockopt(int(fd), SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0) {
        peer.sameUser = cred.uid == ::getuid();
        peer.pid = cred.pid;
    }
#elif defined(Q_OS_UNIX)
    uid_t uid = 0;
    gid_t gid = 0;
    if (::getpeereid(int(fd), &uid, &gid) == 0)
        peer.sameUser = uid == ::getuid();
#else
    Q_UNUSED(fd);
    peer.sameUser = true; // a named pipe made with UserAccessOption: only this user's ACL
#endif
    return peer;
}

} // namespace

struct AgentHub::Connection {
    quint64 id = 0;
    QLocalSocket *socket = nullptr;
    wire::LineBuffer lines;
    ConnectedClient info;
    bool helloSeen = false;
    qint64 peerPid = 0;
};

AgentHub::AgentHub(QString configDir, QObject *parent)
    : QObject(parent)
    , m_path(agentSocketPath(configDir))
    , m_server(new QLocalServer(this))
{
    qRegisterMetaType<PendingApproval>();
    qRegisterMetaType<CallRecord>();
    connect(m_server, &QLocalServer::newConnection, this, &AgentHub::onNewConnection);
}

AgentHub::~AgentHub()
{
    close();
    // Callers in this process are told too (their calls then fail with the reason).
    const QList<QString> ids = m_waiting.keys();
    for (const QString &id : ids)
        answerWaiting(m_waiting[id], ApprovalAnswer{ApprovalDecision::Deny, hubClosedMessage()});
    m_waiting.clear();
    m_pending.clear();
}

QString AgentHub::hubClosedMessage()
{
    return QCoreApplication::translate("AgentHub", "The Sandbar window closed before the call was approved.");
}

VoidResult AgentHub::listen()
{
    if (m_server->isListening())
        return {};
    const QFileInfo file(m_path);
    if (file.exists() || file.isSymLink()) {
        // On Unix the attempt ends inside connectToServer: connected, or refused for a file no
        // process listens on any more (a crashed window's). A full backlog leaves it
        // connecting: someone is there.
        QLocalSocket probe;
        probe.connectToServer(m_path);
        if (probe.state() != QLocalSocket::UnconnectedState) {
            probe.abort();
            return makeError(ErrorCode::Conflict,
                             tr("Another Sandbar window already listens for agents at %1.").arg(m_path));
        }
        QLocalServer::removeServer(m_path);
    }
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(m_path))
        return makeError(ErrorCode::Unavailable,
                         tr("Could not listen for agents at %1: %2").arg(m_path, m_server->errorString()));
    return {};
}

void AgentHub::close()
{
    if (m_server->isListening())
        m_server->close();
    const QList<quint64> ids = m_connections.keys();
    for (quint64 id : ids)
        dropConnection(id);
}

bool AgentHub::isListening() const
{
    return m_server->isListening();
}

QList<ConnectedClient> AgentHub::clients() const
{
    QList<ConnectedClient> out;
    for (const Connection *c : m_connections)
        out << c->info;
    std::sort(out.begin(), out.end(),
              [](const ConnectedClient &a, const ConnectedClient &b) { return a.connection < b.connection; });
    return out;
}

QString AgentHub::alwaysKey(const AgentClient &client)
{
    return client.transport == QLatin1String("http") ? httpAlwaysKey() : client.name;
}

void AgentHub::forgetAlways(const QString &key)
{
    const auto before = m_always.size();
    m_always.removeIf([&key](const QPair<QString, QString> &p) { return p.first == key; });
    if (m_always.size() != before)
        Q_EMIT approvalsChanged();
}

bool AgentHub::isAlwaysAllowed(const QString &clientName, const QString &tool) const
{
    return m_always.contains(qMakePair(clientName, tool));
}

QList<QPair<QString, QString>> AgentHub::alwaysAllowed() const
{
    QList<QPair<QString, QString>> out(m_always.cbegin(), m_always.cend());
    std::sort(out.begin(), out.end());
    return out;
}

void AgentHub::forgetAlways()
{
    if (m_always.isEmpty())
        return;
    m_always.clear();
    Q_EMIT approvalsChanged();
}

void AgentHub::onNewConnection()
{
    while (QLocalSocket *socket = m_server->nextPendingConnection()) {
        const Peer peer = peerOf(socket->socketDescriptor());
        if (!peer.sameUser) {
            qWarning("sandbar: refused an agent connection from another user");
            socket->abort();
            socket->deleteLater();
            continue;
        }
        auto *c = new Connection;
        c->id = m_nextConnection++;
        c->socket = socket;
        c->peerPid = peer.pid;
        c->info.connection = c->id;
        c->info.connectedAt = QDateTime::currentDateTime();
        c->info.client.pid = peer.pid;
        m_connections.insert(c->id, c);
        const quint64 id = c->id;
        connect(socket, &QLocalSocket::readyRead, this, [this, id]() {
            if (Connection *conn = m_connections.value(id))
                onReadable(conn);
        });
        connect(socket, &QLocalSocket::disconnected, this, [this, id]() { dropConnection(id); });
        Q_EMIT clientsChanged();
        if (socket->bytesAvailable() > 0)
            onReadable(c);
    }
}

void AgentHub::onReadable(Connection *c)
{
    const quint64 id = c->id;
    QList<QByteArray> lines;
    const bool fits = c->lines.feed(c->socket->readAll(), &lines);
    for (const QByteArray &line : std::as_const(lines)) {
        Connection *conn = m_connections.value(id);
        if (!conn)
            return; // dropped by an earlier line
        handleLine(conn, line);
    }
    if (!fits && m_connections.contains(id)) {
        qWarning("sandbar: an agent connection sent a line over %lld bytes; disconnecting",
                 static_cast<long long>(wire::kMaxLine));
        dropConnection(id);
    }
}

void AgentHub::handleLine(Connection *c, const QByteArray &line)
{
    if (line.trimmed().isEmpty())
        return;
    Result<wire::Message> decoded = wire::decode(line);
    if (!decoded.ok()) {
        if (decoded.code() == ErrorCode::Unsupported)
            return; // a newer sandbarctl's message
        qWarning("sandbar: an agent connection sent a bad line (%s); disconnecting", qUtf8Printable(decoded.message()));
        dropConnection(c->id);
        return;
    }
    wire::Message &m = *decoded;
    switch (m.type) {
    case wire::Message::Type::Hello:
        c->helloSeen = true;
        c->info.client = m.client;
        if (c->peerPid > 0)
            c->info.client.pid = c->peerPid;
        Q_EMIT clientsChanged();
        break;
    case wire::Message::Type::Approve: {
        ApprovalRequest request = std::move(m.request);
        // The connection's hello is who asks; a request's own client only stands in for it.
        if (c->helloSeen)
            request.client = c->info.client;
        int waiting = 0;
        for (const Waiting &w : std::as_const(m_waiting))
            waiting += w.origin == c->id ? 1 : 0;
        if (waiting >= kMaxPendingPerConnection) {
            c->socket->write(wire::encodeDecision(
                request.id, ApprovalAnswer{ApprovalDecision::Deny, tr("Too many calls are waiting for approval.")}));
            break;
        }
        Waiting w;
        w.origin = c->id;
        w.askerId = request.id;
        enqueue(std::move(request), std::move(w));
        break;
    }
    case wire::Message::Type::Withdraw:
        // The link has answered its caller itself.
        removeRequest(c->id, m.id, ApprovalAnswer{});
        break;
    case wire::Message::Type::Call: {
        CallEvent event = std::move(m.call);
        if (c->helloSeen)
            event.client = c->info.client;
        recordCall(c->id, event);
        break;
    }
    case wire::Message::Type::Decision: break; // only the hub decides
    }
}

void AgentHub::dropConnection(quint64 id)
{
    Connection *c = m_connections.take(id);
    if (!c)
        return;
    QObject::disconnect(c->socket, nullptr, this, nullptr);
    c->socket->abort();
    c->socket->deleteLater();
    delete c;

    bool queueChanged = false;
    for (auto it = m_waiting.begin(); it != m_waiting.end();) {
        if (it->origin == id) {
            const QString key = it.key();
            m_pending.removeIf([&key](const PendingApproval &p) { return p.id == key; });
            it = m_waiting.erase(it);
            queueChanged = true;
        } else {
            ++it;
        }
    }
    bool callsTouched = false;
    for (CallRecord &r : m_calls) {
        if (!r.event.finished && !r.disconnected && m_callMeta.value(r.seq).first == id) {
            r.disconnected = true;
            Q_EMIT callUpdated(r);
            callsTouched = true;
        }
    }
    if (queueChanged)
        Q_EMIT approvalsChanged();
    if (callsTouched)
        Q_EMIT callsChanged();
    Q_EMIT clientsChanged();
}

void AgentHub::enqueue(ApprovalRequest request, Waiting waiting)
{
    if (isAlwaysAllowed(alwaysKey(request.client), request.tool)) {
        answerWaiting(waiting, ApprovalAnswer{ApprovalDecision::Always, QString()});
        return;
    }
    PendingApproval p;
    p.id = QString::number(m_nextRequest++);
    p.request = std::move(request);
    p.askedAt = QDateTime::currentDateTime();
    m_waiting.insert(p.id, std::move(waiting));
    m_pending.append(p);
    Q_EMIT approvalRequested(p);
    Q_EMIT approvalsChanged();
}

void AgentHub::answerWaiting(Waiting &w, const ApprovalAnswer &answer)
{
    if (w.origin != 0) {
        if (Connection *c = m_connections.value(w.origin))
            c->socket->write(wire::encodeDecision(w.askerId, answer));
        return;
    }
    if (!w.done || (w.hasContext && w.context.isNull()))
        return;
    QObject *target = w.hasContext ? w.context.data() : this;
    // Queued: the person's click (or the asker's own ask) never runs the tool re-entrantly.
    QMetaObject::invokeMethod(
        target, [fn = std::move(w.done), answer]() { fn(answer); }, Qt::QueuedConnection);
    w.done = nullptr;
}

bool AgentHub::decide(const QString &id, ApprovalDecision decision, const QString &message)
{
    const auto it =
        std::find_if(m_pending.begin(), m_pending.end(), [&id](const PendingApproval &p) { return p.id == id; });
    if (it == m_pending.end())
        return false;
    const PendingApproval decided = *it;
    m_pending.erase(it);
    Waiting w = m_waiting.take(id);
    answerWaiting(w, ApprovalAnswer{decision, message});
    if (decision == ApprovalDecision::Always) {
        const QString name = alwaysKey(decided.request.client);
        const QString tool = decided.request.tool;
        m_always.insert(qMakePair(name, tool));
        // "Always" covers the same client's other waiting calls of this tool as well.
        for (auto p = m_pending.begin(); p != m_pending.end();) {
            if (alwaysKey(p->request.client) == name && p->request.tool == tool) {
                Waiting other = m_waiting.take(p->id);
                answerWaiting(other, ApprovalAnswer{ApprovalDecision::Always, message});
                p = m_pending.erase(p);
            } else {
                ++p;
            }
        }
    }
    Q_EMIT approvalsChanged();
    return true;
}

void AgentHub::removeRequest(quint64 origin, const QString &askerId, const ApprovalAnswer &answer)
{
    for (auto it = m_waiting.begin(); it != m_waiting.end(); ++it) {
        if (it->origin != origin || it->askerId != askerId)
            continue;
        const QString key = it.key();
        Waiting w = std::move(*it);
        m_waiting.erase(it);
        m_pending.removeIf([&key](const PendingApproval &p) { return p.id == key; });
        if (origin == 0)
            answerWaiting(w, answer);
        Q_EMIT approvalsChanged();
        return;
    }
}

void AgentHub::ask(const ApprovalRequest &request, QObject *context, std::function<void(ApprovalAnswer)> done)
{
    Waiting w;
    w.origin = 0;
    w.askerId = request.id;
    w.context = context;
    w.hasContext = context != nullptr;
    w.done = std::move(done);
    enqueue(request, std::move(w));
}

void AgentHub::withdraw(const QString &requestId)
{
    removeRequest(
        0, requestId,
        ApprovalAnswer{ApprovalDecision::Deny,
                       QCoreApplication::translate("AgentLink", "The call was cancelled before it was approved.")});
}

void AgentHub::report(const CallEvent &event)
{
    recordCall(0, event);
}

void AgentHub::recordCall(quint64 origin, const CallEvent &event)
{
    const QString key = QStringLiteral("%1/%2/%3").arg(origin).arg(event.client.name, event.id);
    const QDateTime now = QDateTime::currentDateTime();
    if (const auto found = m_callIndex.constFind(key); found != m_callIndex.constEnd()) {
        const quint64 seq = *found;
        const auto row = std::lower_bound(m_calls.begin(), m_calls.end(), seq,
                                          [](const CallRecord &r, quint64 s) { return r.seq < s; });
        if (row != m_calls.end() && row->seq == seq) {
            row->event = event;
            if (event.finished && !row->finishedAt.isValid())
                row->finishedAt = now;
            Q_EMIT callUpdated(*row);
            Q_EMIT callsChanged();
            return;
        }
    }
    CallRecord r;
    r.seq = m_nextSeq++;
    r.event = event;
    r.startedAt = event.finished ? now.addMSecs(-event.durationMs) : now;
    if (event.finished)
        r.finishedAt = now;
    m_callIndex.insert(key, r.seq);
    m_callMeta.insert(r.seq, qMakePair(origin, key));
    m_calls.append(r);
    while (m_calls.size() > kMaxCalls) {
        const CallRecord old = m_calls.takeFirst();
        m_callIndex.remove(m_callMeta.take(old.seq).second);
    }
    Q_EMIT callAdded(r);
    Q_EMIT callsChanged();
}

} // namespace sandbar::mcp
