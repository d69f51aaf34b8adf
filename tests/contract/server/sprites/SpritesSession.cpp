// One exec session: its process, the WebSockets attached to it and the frames they carry.
// TTY: BINARY raw bytes both ways; TEXT JSON control ({"type":"resize"|"signal"} in,
// {"type":"session_info"|"exit"|"port_opened"|"port_closed"} out). Non-TTY: BINARY frames
// with a stream byte first (0 stdin, 1 stdout, 2 stderr, 3 exit with the code, 4 stdin EOF).
#include "SpritesContext.h"
#include "kit/SandboxHost.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QWebSocket>
#include <csignal>
#include <sys/types.h>

namespace contract::sprites {

namespace {

constexpr qint64 kRateWindowMs = 5000;

// A process's exit code as a shell says it: 128 + the signal's number when a signal ended it.
int exitCodeFor(int code, const QString &status)
{
    if (code >= 0)
        return code;
    if (status.endsWith(QLatin1String("killed")))
        return 128 + SIGKILL;
    if (status.endsWith(QLatin1String("terminated")))
        return 128 + SIGTERM;
    if (status.endsWith(QLatin1String("hangup")))
        return 128 + SIGHUP;
    bool ok = false;
    const int sig = status.section(QLatin1Char(' '), -1).toInt(&ok);
    return ok ? 128 + sig : 1;
}

// Kills a PTY's whole terminal session: signalled along the process tree, a shell under
// bubblewrap can be re-parented mid-kill and keep the terminal open, so every process whose
// session id is the PTY's (forkpty made the child a session leader) is killed too.
void killTerminal(SandboxProcess *process)
{
    const qint64 sid = process->pid();
    process->sendSignal(SIGKILL);
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const qint64 pid = entry.toLongLong(&ok);
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!ok || pid == sid || !stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // After "pid (comm) ": state ppid pgrp session ...
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 3 && fields.at(3).toLongLong() == sid)
            ::kill(pid_t(pid), SIGKILL);
    }
}

bool isOpen(const QWebSocket *socket)
{
    return socket && socket->state() == QAbstractSocket::ConnectedState;
}

} // namespace

int signalNumber(const QString &name)
{
    QString n = name.trimmed().toUpper();
    if (n.startsWith(QLatin1String("SIG")))
        n = n.mid(3);
    static const QHash<QString, int> table{{QStringLiteral("INT"), SIGINT},   {QStringLiteral("TERM"), SIGTERM},
                                           {QStringLiteral("HUP"), SIGHUP},   {QStringLiteral("KILL"), SIGKILL},
                                           {QStringLiteral("QUIT"), SIGQUIT}, {QStringLiteral("USR1"), SIGUSR1},
                                           {QStringLiteral("USR2"), SIGUSR2}, {QStringLiteral("WINCH"), SIGWINCH}};
    bool ok = false;
    const int number = n.toInt(&ok);
    return ok && number > 0 && number < 65 ? number : table.value(n, 0);
}

ExecSession::ExecSession(Context &context, QString sessionId, QString sprite, QObject *parent)
    : QObject(parent)
    , id(std::move(sessionId))
    , spriteName(std::move(sprite))
    , m_ctx(context)
{
    created = lastActivity = QDateTime::currentDateTimeUtc();
    m_detached.setSingleShot(true);
    connect(&m_detached, &QTimer::timeout, this, [this] {
        if (m_clients.isEmpty())
            abandon();
    });
}

void ExecSession::start(SandboxProcess *started)
{
    process = started;
    connect(started, &SandboxProcess::output, this, [this](SandboxProcess::Channel channel, const QByteArray &bytes) {
        onOutput(channel == SandboxProcess::Channel::Stderr ? 2 : 1, bytes);
    });
    connect(started, &SandboxProcess::finished, this, &ExecSession::onFinished);
}

bool ExecSession::isRunning() const
{
    return process && process->isRunning();
}

void ExecSession::abandon()
{
    if (!isRunning())
        return;
    if (process->isPty())
        killTerminal(process);
    else
        process->sendSignal(SIGKILL);
}

QJsonObject ExecSession::toJson() const
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 bytes = 0;
    for (const auto &sample : m_traffic)
        bytes += now - sample.first <= kRateWindowMs ? sample.second : 0;
    bool active = false;
    for (const QPointer<QWebSocket> &client : m_clients)
        active = active || isOpen(client);
    return QJsonObject{{QStringLiteral("id"), id.toLongLong()},
                       {QStringLiteral("command"), command.join(QLatin1Char(' '))},
                       {QStringLiteral("workdir"), workdir},
                       {QStringLiteral("created"), Context::iso(created)},
                       {QStringLiteral("bytes_per_second"), double(bytes) * 1000.0 / double(kRateWindowMs)},
                       {QStringLiteral("is_active"), active},
                       {QStringLiteral("last_activity"), Context::iso(lastActivity)},
                       {QStringLiteral("tty"), tty}};
}

QJsonObject ExecSession::sessionInfo() const
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("session_info")},
                       {QStringLiteral("session_id"), id},
                       {QStringLiteral("command"), command.join(QLatin1Char(' '))},
                       {QStringLiteral("created"), created.toSecsSinceEpoch()},
                       {QStringLiteral("cols"), tty ? cols : 0},
                       {QStringLiteral("rows"), tty ? rows : 0},
                       {QStringLiteral("is_owner"), m_clients.isEmpty()},
                       {QStringLiteral("tty"), tty}};
}

void ExecSession::sendText(const QJsonObject &message)
{
    const QString text = QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact));
    const QList<QPointer<QWebSocket>> clients = m_clients;
    for (const QPointer<QWebSocket> &client : clients) {
        if (isOpen(client))
            client->sendTextMessage(text);
    }
}

void ExecSession::attach(QWebSocket *socket)
{
    m_detached.stop();
    socket->sendTextMessage(QString::fromUtf8(QJsonDocument(sessionInfo()).toJson(QJsonDocument::Compact)));
    // A terminal attached later sees the screen's recent output, as tmux redraws it.
    if (tty && !m_scrollback.isEmpty())
        socket->sendBinaryMessage(m_scrollback);
    m_clients.append(socket);
    connect(socket, &QWebSocket::textMessageReceived, this, &ExecSession::onText);
    connect(socket, &QWebSocket::binaryMessageReceived, this, &ExecSession::onBinary);
    connect(socket, &QWebSocket::disconnected, this, &ExecSession::onClientGone);
}

void ExecSession::onOutput(int stream, const QByteArray &bytes)
{
    lastActivity = QDateTime::currentDateTimeUtc();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_traffic.append({now, bytes.size()});
    while (!m_traffic.isEmpty() && now - m_traffic.constFirst().first > kRateWindowMs)
        m_traffic.removeFirst();
    if (tty) {
        m_scrollback.append(bytes);
        if (m_scrollback.size() > kScrollback)
            m_scrollback.remove(0, m_scrollback.size() - kScrollback);
    }
    const QByteArray frame = tty ? bytes : char(stream) + bytes;
    const QList<QPointer<QWebSocket>> clients = m_clients;
    for (const QPointer<QWebSocket> &client : clients) {
        if (isOpen(client))
            client->sendBinaryMessage(frame);
    }
}

void ExecSession::onFinished(int code, const QString &status)
{
    const int exit = exitCodeFor(code, status);
    exitCode = exit;
    const qint64 hold = m_ctx.exitHoldMs;
    // A copy: a close may report the disconnection at once, which prunes m_clients.
    const QList<QPointer<QWebSocket>> clients = m_clients;
    for (const QPointer<QWebSocket> &client : clients) {
        if (!isOpen(client))
            continue;
        QWebSocket *socket = client.data();
        if (tty) {
            // The exit code is in the message; @fly/sprites reads only the close code (1000: 0,
            // anything else: 1), so a failure closes with 1011.
            socket->sendTextMessage(
                QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("exit")},
                                                            {QStringLiteral("exit_code"), exit}})
                                      .toJson(QJsonDocument::Compact)));
            socket->close(exit == 0 ? QWebSocketProtocol::CloseCodeNormal : QWebSocketProtocol::CloseCodeBadOperation,
                          QStringLiteral("exit %1").arg(exit));
        } else {
            socket->sendBinaryMessage(QByteArray(1, char(3)) + char(exit & 0xff));
            // The service holds the socket open a while after the exit frame; clients end on the frame.
            QTimer::singleShot(
                hold, socket, [socket] { socket->close(QWebSocketProtocol::CloseCodeNormal, QStringLiteral("exit")); });
        }
    }
    Q_EMIT ended(exit);
    m_ctx.sessions.remove(id.toInt());
    if (const SpritePtr record = m_ctx.sprites.value(spriteName))
        m_ctx.updateStatus(*record);
    deleteLater();
}

void ExecSession::onClientGone()
{
    m_clients.removeIf([](const QPointer<QWebSocket> &client) { return !isOpen(client); });
    if (!m_clients.isEmpty() || !isRunning())
        return;
    if (maxRunAfterDisconnectMs == 0)
        abandon();
    else if (maxRunAfterDisconnectMs > 0)
        m_detached.start(int(qMin<qint64>(maxRunAfterDisconnectMs, 24 * 3600 * 1000)));
}

void ExecSession::onText(const QString &text)
{
    if (!isRunning())
        return;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    const QJsonObject message = doc.object();
    const QString type = message.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("resize") && tty) {
        const int c = message.value(QStringLiteral("cols")).toInt();
        const int r = message.value(QStringLiteral("rows")).toInt();
        if (c > 0 && c <= 1000 && r > 0 && r <= 1000) {
            cols = c;
            rows = r;
            process->resize(c, r);
        }
    } else if (type == QLatin1String("signal")) {
        if (const int sig = signalNumber(message.value(QStringLiteral("signal")).toString()); sig > 0)
            process->sendSignal(sig);
    } else if (!doc.isObject() && tty) {
        process->write(text.toUtf8()); // text that is no message: keystrokes all the same
    }
}

void ExecSession::onBinary(const QByteArray &bytes)
{
    if (!isRunning() || bytes.isEmpty())
        return;
    lastActivity = QDateTime::currentDateTimeUtc();
    if (tty) {
        process->write(bytes);
    } else if (bytes.at(0) == 0) {
        process->write(bytes.mid(1));
    } else if (bytes.at(0) == 4) {
        process->closeStdin();
    }
}

} // namespace contract::sprites
