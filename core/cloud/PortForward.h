#pragma once

#include "common/Result.h"

#include <QNetworkRequest>
#include <QObject>
#include <QTcpServer>
#include <functional>

// A port inside a sandbox reached from this computer: a local TCP port (127.0.0.1, picked by
// the system) whose every connection is carried over a WebSocket of the service's own. The
// service is told where to connect in a first text frame and answers {"status":"connected"}
// before raw bytes flow both ways as binary frames (Fly.io Sprites' /proxy, as sprites-go
// dials it). Only this computer can connect, as with `docker run -p 127.0.0.1:…`.
namespace sandbar::cloud {

class WebSocketPortForward : public QObject
{
    Q_OBJECT
public:
    // One connection's WebSocket: the upgrade request (URL, Authorization, CA) and the first
    // text frame.
    struct Dial {
        QNetworkRequest request;
        QByteArray init;
    };
    WebSocketPortForward(QString service, std::function<Dial()> dial, QObject *parent = nullptr);
    ~WebSocketPortForward() override;

    // Starts listening; the local port, or why there is none.
    Result<quint16> listen();
    quint16 localPort() const { return m_server.serverPort(); }
    // Connections being carried now.
    int activeConnections() const;

Q_SIGNALS:
    // A connection the service did not carry (refused, the port closed, an unreachable service).
    void connectionFailed(const QString &why);

private:
    void accept();

    QString m_service;
    std::function<Dial()> m_dial;
    QTcpServer m_server;
};

} // namespace sandbar::cloud
