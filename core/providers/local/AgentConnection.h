#pragma once

#include "AgentProtocol.h"
#include "common/Result.h"

#include <QJsonObject>
#include <QObject>

class QLocalSocket;
class QTimer;

namespace sandbar::local {

// One connection to a session's agent. Frames in, frames out; the agent's Hello is
// checked here (version) and not passed on.
class AgentConnection : public QObject
{
    Q_OBJECT
public:
    explicit AgentConnection(const QString &socketPath, QObject *parent = nullptr);
    ~AgentConnection() override;

    void open();
    void close();
    bool isOpen() const;
    void send(wire::FrameType type, quint32 channel, const QByteArray &payload = {});
    void sendJson(wire::FrameType type, quint32 channel, const QJsonObject &object);
    qint64 bytesToWrite() const;
    // Back-pressure for a consumer that has fallen behind: while paused no frame is handed
    // on and nothing more is taken from the socket, so a flooding agent blocks on its side.
    void setReadingPaused(bool paused);
    // Reads and handles now what the socket has (a poll that does not wait), for a terminal
    // waiting for its echo; false when nothing came or reading is paused.
    bool pollNow();
    // How long the agent has to send its Hello once connected (a stuck or fake agent must
    // not hold a job forever).
    void setHelloTimeout(int ms);

    static QJsonObject parseObject(const std::string &payload);
    // The payload as a JSON object, or a clear error when it is not one.
    static Result<QJsonObject> replyObject(const wire::Frame &frame);
    // The Error frame's message, or a generic one.
    static Error frameError(const wire::Frame &frame);

Q_SIGNALS:
    void ready();
    void frameReceived(const sandbar::local::wire::Frame &frame);
    void bytesWritten();
    // The agent went away or never answered: the message says which.
    void failed(const sandbar::Error &error);

private:
    void readFrames();
    void fail(const Error &error);

    QString m_path;
    QLocalSocket *m_socket = nullptr;
    wire::Decoder m_decoder;
    QTimer *m_helloTimer;
    bool m_helloSeen = false;
    bool m_failed = false;
    bool m_paused = false;
    bool m_peerGone = false;
    // Inside open(): QLocalSocket reports a missing socket from within connectToServer, and
    // the failure must reach the job's owner after start() has returned.
    bool m_opening = false;
};

} // namespace sandbar::local
