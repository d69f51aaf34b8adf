#include "providers/sprites/SpritesJobs.h"

#include "cloud/WebSocketPtyChannel.h"
#include "providers/sprites/SpritesParsers.h"
#include "providers/sprites/SpritesProvider.h"
#include "providers/sprites/SpritesTr.h"

#include <QAbstractSocket>
#include <QSslError>
#include <QTimer>
#include <QWebSocket>

namespace sandbar::sprites {

namespace {
constexpr qsizetype kStdinChunk = 64 * 1024;
constexpr int kConnectTimeoutMs = 60000; // a cold sprite wakes first

} // namespace

SpritesExecJob::SpritesExecJob(SpritesProvider *provider, QString sprite, ExecRequest request, QObject *parent)
    : ExecJob(parent)
    , m_provider(provider)
    , m_sprite(std::move(sprite))
    , m_request(std::move(request))
{
}

SpritesExecJob::~SpritesExecJob()
{
    if (m_socket) {
        m_socket->disconnect(this);
        m_socket->abort();
    }
}

void SpritesExecJob::start()
{
    if (m_socket || m_done)
        return;
    if (!m_provider) {
        return QTimer::singleShot(0, this,
                                  [this] { finish(makeError(ErrorCode::Cancelled, tr("The account was closed"))); });
    }
    if (m_request.argv.isEmpty()) {
        return QTimer::singleShot(
            0, this, [this] { finish(makeError(ErrorCode::InvalidArgument, tr("No command was given"))); });
    }
    if (!m_request.user.isEmpty() && m_request.user != QLatin1String("sprite")) {
        return QTimer::singleShot(0, this, [this] {
            finish(makeError(ErrorCode::Unsupported, tr("Sprites run commands as their own user only")));
        });
    }
    QNetworkRequest request =
        m_provider->execRequest(m_sprite, execQuery(m_request.argv, m_request.env, m_request.workingDir, false, 0, 0));
    auto socket = cloud::makeServiceWebSocket(request, serviceName(), this);
    if (!socket) {
        const Error why = socket.error();
        return QTimer::singleShot(0, this, [this, why] { finish(why); });
    }
    m_socket = socket.value();
    connect(m_socket, &QWebSocket::connected, this, &SpritesExecJob::onConnected);
    connect(m_socket, &QWebSocket::binaryMessageReceived, this, &SpritesExecJob::onBinary);
    connect(m_socket, &QWebSocket::textMessageReceived, this, &SpritesExecJob::onText);
    connect(m_socket, &QWebSocket::disconnected, this, &SpritesExecJob::onDisconnected);
    cloud::collectSslErrors(m_socket, this, &m_sslErrors);
    connect(m_socket, QOverload<QAbstractSocket::SocketError>::of(&QWebSocket::error), this,
            [this](QAbstractSocket::SocketError) {
                if (m_done || m_open)
                    return; // once open, disconnected() tells the end
                if (const auto why = cloud::webSocketOpenError(m_socket, m_sslErrors, serviceName(), tr("the command")))
                    finish(*why);
            });
    m_connectTimer = new QTimer(this);
    m_connectTimer->setSingleShot(true);
    connect(m_connectTimer, &QTimer::timeout, this, [this] {
        if (!m_open)
            finish(makeError(ErrorCode::Timeout, tr("The sprite did not start the command in time")));
    });
    m_connectTimer->start(kConnectTimeoutMs);
    m_socket->open(request);
}

void SpritesExecJob::onConnected()
{
    m_open = true;
    m_connectTimer->stop();
    for (qsizetype at = 0; at < m_request.stdinData.size(); at += kStdinChunk)
        m_socket->sendBinaryMessage(stdinFrame(m_request.stdinData.mid(at, kStdinChunk)));
    // Always: a command that reads stdin must see its end, not wait for keystrokes.
    m_socket->sendBinaryMessage(stdinEofFrame());
    m_request.stdinData.clear();
}

void SpritesExecJob::onBinary(const QByteArray &frame)
{
    if (m_done)
        return;
    const ExecFrame f = parseExecFrame(frame);
    switch (f.kind) {
    case ExecFrame::Kind::Stdout: Q_EMIT stdoutData(f.data); break;
    case ExecFrame::Kind::Stderr: Q_EMIT stderrData(f.data); break;
    case ExecFrame::Kind::Exit: finish(f.exitCode); break;
    case ExecFrame::Kind::Ignored: break;
    }
}

void SpritesExecJob::onText(const QString &text)
{
    const auto m = parseControl(text);
    if (!m || !m_provider)
        return;
    if (m->kind == ControlMessage::Kind::PortOpened || m->kind == ControlMessage::Kind::PortClosed)
        m_provider->notePort(m_sprite, m->port, m->kind == ControlMessage::Kind::PortOpened);
    else if (m->kind == ControlMessage::Kind::Exit)
        finish(m->exitCode);
}

void SpritesExecJob::onDisconnected()
{
    if (m_done)
        return;
    if (!m_open) {
        if (const auto why = cloud::webSocketOpenError(m_socket, m_sslErrors, serviceName(), tr("the command")))
            return finish(*why);
    }
    const int code = int(m_socket->closeCode());
    const QString reason = m_socket->closeReason();
    finish(makeError(ErrorCode::Unavailable, tr("The sprite's connection ended before the command did (%1%2)")
                                                 .arg(code)
                                                 .arg(reason.isEmpty() ? QString() : QStringLiteral(": ") + reason)));
}

void SpritesExecJob::cancel()
{
    finish(makeError(ErrorCode::Cancelled, tr("The command was cancelled")));
}

void SpritesExecJob::finish(Result<int> result)
{
    if (m_done)
        return;
    m_done = true;
    if (m_connectTimer)
        m_connectTimer->stop();
    if (m_socket) {
        m_socket->disconnect(this);
        // The exit frame is the end: the server holds the socket a while longer, so it is closed
        // from here rather than waited for.
        m_socket->close(QWebSocketProtocol::CloseCodeNormal);
    }
    Q_EMIT finished(result);
}

} // namespace sandbar::sprites
