#pragma once

#include "common/Callback.h"
#include "terminal/PtyChannel.h"

#include <QByteArrayList>
#include <QNetworkRequest>
#include <QPointer>
#include <QWebSocketProtocol>
#include <functional>

class QWebSocket;
class QTimer;

namespace sandbar::cloud {

// A WebSocket to a service, set up as each of Sandbar's is (terminals, commands): http(s) in
// request's URL turned into ws(s) (the URL is changed in place), plain ws only to loopback,
// incoming frames capped, no proxy for loopback, TLS from the request. Unopened, owned by parent.
Result<QWebSocket *> makeServiceWebSocket(QNetworkRequest &request, const QString &service, QObject *parent);
// Keeps the texts of the TLS errors socket meets in *into (which context owns), for
// webSocketOpenError.
void collectSslErrors(QWebSocket *socket, QObject *context, QString *into);
// Why such a socket failed before it opened, in people's words (a refused certificate, given the
// sslErrors texts seen, a refused key, the transport); nullopt while it may still open. what
// names the use ("the terminal").
std::optional<Error> webSocketOpenError(QWebSocket *socket, const QString &sslErrors, const QString &service,
                                        const QString &what);

// A terminal on a WebSocket, as most cloud sandboxes offer one (Daytona, Vercel, Sprites,
// Blaxel): binary frames are the program's output, keystrokes go out as binary frames in the
// order written, and what differs between services is in Hooks: text control frames, how a
// resize is sent, what the close frame means.
class WebSocketPtyChannel : public PtyChannel
{
    Q_OBJECT
public:
    // Produces the WebSocket's request (URL, headers, TLS configuration; http/https URLs are
    // turned into ws/wss), possibly after HTTP calls of its own (a PTY session made first).
    using Opener = std::function<void(Callback<QNetworkRequest> ready)>;

    struct TextFrame {
        bool ready = false; // the service says the terminal is attached
        QByteArray output;  // terminal output carried in a text frame, if any
    };

    struct Hooks {
        // A text frame; an error ends the channel with it. Unset: text is output.
        std::function<Result<TextFrame>(const QString &text)> textFrame;
        // started() only once textFrame said ready (else as soon as the socket opens).
        bool waitForReady = false;
        // Sends a new size (services that resize over HTTP); unset: resize is ignored.
        std::function<void(int cols, int rows)> resize;
        // A new size as a text frame on the socket itself (Vercel, Sprites); used when set.
        std::function<QString(int cols, int rows)> resizeText;
        // The first frame, sent as soon as the socket opens, before any keystroke: a service
        // whose terminal starts only when told what to run and at what size (Vercel).
        std::function<QString()> openingText;
        // The close frame as an exit code, or an error. Unset: 1000 is exit 0, anything else
        // an error naming the code and reason.
        std::function<Result<int>(QWebSocketProtocol::CloseCode code, const QString &reason)> closed;
        // What close() does first: a service that ends the program another way (an HTTP call)
        // then closes the socket itself, and hangup answers true; false (it could not: the
        // program's id is not known yet) or unset, and a normal close frame is sent.
        std::function<bool()> hangup;
        // Named in errors ("Daytona").
        QString service;
        int connectTimeoutMs = 30000;
    };

    WebSocketPtyChannel(Opener opener, Hooks hooks, QObject *parent = nullptr);
    ~WebSocketPtyChannel() override;

    // An opener for a request known up front.
    static Opener fixedRequest(QNetworkRequest request);

    void start() override;
    void write(const QByteArray &bytes) override;
    void resize(int cols, int rows) override;
    void close() override;
    bool isOpen() const override;
    std::optional<int> exitCode() const override { return m_exitCode; }
    // While paused the connection is not read: its socket's read buffer, bounded then, fills,
    // TCP holds the server back, and the few frames already decoded wait here, in order, until
    // resume. Should more pile up anyway (over kMaxHeldOutputBytes), the channel ends with
    // an error rather than hold whatever a server sends or drop any of it.
    void setReadingPaused(bool paused) override;

    // How many output bytes wait for a paused consumer (tests).
    qint64 pendingOutputBytes() const { return m_pendingBytes; }

private:
    void openSocket(QNetworkRequest request);
    void onConnected();
    void onBinary(const QByteArray &bytes);
    void onText(const QString &text);
    void onDisconnected();
    void becomeReady();
    void deliver(const QByteArray &bytes);
    void fail(Error error);
    void finishWith(int code);
    QString service() const;
    void holdTransport(bool hold);

    Opener m_opener;
    Hooks m_hooks;
    QWebSocket *m_socket = nullptr;
    QTimer *m_connectTimer = nullptr;
    QByteArrayList m_queuedWrites; // written before the terminal was ready
    QByteArrayList m_pausedOutput;
    qint64 m_pendingBytes = 0;
    bool m_started = false;
    bool m_ready = false;
    bool m_ended = false;
    bool m_paused = false;
    bool m_closing = false;
    std::optional<std::pair<int, int>> m_pendingSize;
    std::optional<int> m_exitCode;
    QString m_sslErrors;
};

} // namespace sandbar::cloud
