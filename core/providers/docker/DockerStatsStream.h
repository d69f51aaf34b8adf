#pragma once

#include "providers/Jobs.h"
#include "providers/docker/DockerApi.h"

#include <QPointer>

namespace sandbar::docker {

// GET /stats?stream=true: one sample a second while the charts are open. Errors (the
// engine going away, the container ending) arrive once through errorOccurred.
class DockerStatsStream : public StatsStream
{
    Q_OBJECT
public:
    DockerStatsStream(DockerApi *api, QString containerId, QObject *parent = nullptr);
    ~DockerStatsStream() override;

    void start() override;
    void stop() override;

private:
    void fail(const Error &error);

    QPointer<DockerApi> m_api;
    QString m_containerId;
    net::HttpExchange *m_exchange = nullptr;
    QByteArray m_buffer;
    std::optional<CpuReading> m_previous;
    bool m_stopped = false;
};

} // namespace sandbar::docker
