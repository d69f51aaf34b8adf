#pragma once

#include "AgentProtocol.h"
#include "common/Result.h"

#include <QJsonObject>
#include <QObject>

class QLocalSocket;

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

    static QJsonObject parseObject(const std::string &payload);
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

    QString m_path;
    QLocalSocket *m_socket = nullptr;
    wire::Decoder m_decoder;
    bool m_helloSeen = false;
    bool m_failed = false;
};

} // namespace sandbar::local
