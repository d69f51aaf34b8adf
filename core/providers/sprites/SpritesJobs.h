#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QPointer>

class QWebSocket;
class QTimer;

namespace sandbar::sprites {

class SpritesProvider;

// A command over the exec WebSocket without a TTY: every binary frame starts with its stream
// (1 stdout, 2 stderr, 3 the exit code), stdin goes out as stream 0 and ends with a stream 4
// frame. Cancel closes the socket, which ends a session that is not detachable.
class SpritesExecJob : public ExecJob
{
    Q_OBJECT
public:
    SpritesExecJob(SpritesProvider *provider, QString sprite, ExecRequest request, QObject *parent = nullptr);
    ~SpritesExecJob() override;
    void start() override;
    void cancel() override;

private:
    void onConnected();
    void onBinary(const QByteArray &frame);
    void onText(const QString &text);
    void onDisconnected();
    void finish(Result<int> result);

    QPointer<SpritesProvider> m_provider;
    QString m_sprite;
    ExecRequest m_request;
    QWebSocket *m_socket = nullptr;
    QTimer *m_connectTimer = nullptr;
    QString m_sslErrors;
    bool m_open = false;
    bool m_done = false;
};

} // namespace sandbar::sprites
