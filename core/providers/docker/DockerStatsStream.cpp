#include "providers/docker/DockerStatsStream.h"

namespace sandbar::docker {

DockerStatsStream::DockerStatsStream(DockerApi *api, QString containerId, QObject *parent)
    : StatsStream(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
{
}

DockerStatsStream::~DockerStatsStream()
{
    m_stopped = true;
}

void DockerStatsStream::fail(const Error &error)
{
    if (m_stopped)
        return;
    m_stopped = true;
    Q_EMIT errorOccurred(error);
}

void DockerStatsStream::start()
{
    if (!m_api)
        return fail(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_stopped = false;
    m_api->ensureReady(Callback<EngineInfo>(this, [this](Result<EngineInfo> engine) {
        if (!engine)
            return fail(engine.error());
        if (m_stopped)
            return;
        const bool podman = engine->podman;
        auto req = m_api->request("GET", "/containers/" + DockerApi::enc(m_containerId) + "/stats?stream=true");
        // Samples come every second; a silent minute means the engine is stuck.
        req.idleTimeout = std::chrono::seconds(60);
        m_exchange = m_api->exchange(req, this);
        connect(m_exchange, &net::HttpExchange::bodyData, this, [this, podman](const QByteArray &bytes) {
            m_buffer += bytes;
            if (m_exchange->response().status != 200)
                return;
            for (;;) {
                const auto nl = m_buffer.indexOf('\n');
                if (nl < 0)
                    break;
                const QByteArray line = m_buffer.left(nl).trimmed();
                m_buffer.remove(0, nl + 1);
                if (line.isEmpty())
                    continue;
                CpuReading now;
                auto s = statsSample(line, m_previous, podman, &now);
                if (!s)
                    continue; // one unreadable sample is not the end of the stream
                m_previous = now;
                if (!m_stopped)
                    Q_EMIT sample(*s);
            }
        });
        connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
            if (m_stopped)
                return;
            const int status = m_exchange->response().status;
            if (!r)
                return fail(r.error());
            if (status == 404)
                return fail(DockerApi::sessionGone(m_containerId));
            if (status != 200)
                return fail(errorFromStatus(status, m_buffer, tr("Statistics failed")));
            fail(makeError(ErrorCode::Unavailable,
                           tr("The statistics of session %1 ended (it stopped).").arg(m_containerId.left(12))));
        });
        m_exchange->start();
    }));
}

void DockerStatsStream::stop()
{
    m_stopped = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

} // namespace sandbar::docker
