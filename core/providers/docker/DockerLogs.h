#pragma once

#include "providers/Jobs.h"
#include "providers/Session.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerParsers.h"

#include <QPointer>

namespace sandbar::docker {

// GET /containers/{id}/logs. The container's Config.Tty, read first, says how the body is
// framed: a TTY container's log is raw bytes (stream 0), any other is multiplexed
// (StreamDemuxer) into stdout (1) and stderr (2).
class DockerLogStream : public LogStream
{
    Q_OBJECT
public:
    DockerLogStream(DockerApi *api, QString containerId, LogOptions options, QObject *parent = nullptr);
    ~DockerLogStream() override;

    void start() override;
    void stop() override;

private:
    void open(bool tty);
    void finish(const VoidResult &result);

    QPointer<DockerApi> m_api;
    QString m_containerId;
    LogOptions m_options;
    net::HttpExchange *m_exchange = nullptr;
    StreamDemuxer m_demux;
    QByteArray m_errorBody;
    bool m_done = false;
};

} // namespace sandbar::docker
