#include "providers/docker/DockerLogs.h"

#include <nlohmann/json.hpp>

namespace sandbar::docker {

DockerLogStream::DockerLogStream(DockerApi *api, QString containerId, LogOptions options, QObject *parent)
    : LogStream(parent)
    , m_api(api)
    , m_containerId(std::move(containerId))
    , m_options(options)
{
}

DockerLogStream::~DockerLogStream()
{
    m_done = true;
}

void DockerLogStream::finish(const VoidResult &result)
{
    if (m_done)
        return;
    m_done = true;
    Q_EMIT finished(result);
}

void DockerLogStream::start()
{
    if (!m_api)
        return finish(makeError(ErrorCode::Unavailable, tr("The provider is gone.")));
    m_done = false;
    m_api->call("GET", "/containers/" + DockerApi::enc(m_containerId) + "/json", {},
                Callback<net::HttpResponse>(this, [this](Result<net::HttpResponse> r) {
                    if (m_done)
                        return;
                    if (!r)
                        return finish(r.error());
                    if (r->status == 404)
                        return finish(DockerApi::sessionGone(m_containerId));
                    if (!r->isSuccess())
                        return finish(errorFromStatus(r->status, r->body, tr("Reading the session's log failed")));
                    const auto j = nlohmann::json::parse(r->body.constData(), r->body.constData() + r->body.size(),
                                                         nullptr, false);
                    const auto config = j.is_object() ? j.find("Config") : j.end();
                    const bool tty = config != j.end() && config->is_object() && config->value("Tty", false);
                    open(tty);
                }));
}

void DockerLogStream::open(bool tty)
{
    QByteArray path = "/containers/" + DockerApi::enc(m_containerId) + "/logs?stdout=1&stderr=1";
    path += m_options.follow ? "&follow=1" : "&follow=0";
    path += "&tail=" + (m_options.tail >= 0 ? QByteArray::number(m_options.tail) : QByteArray("all"));
    path += m_options.timestamps ? "&timestamps=1" : "&timestamps=0";
    auto req = m_api->request("GET", path);
    m_exchange = m_api->exchange(req, this);
    connect(m_exchange, &net::HttpExchange::bodyData, this, [this, tty](const QByteArray &bytes) {
        if (m_done)
            return;
        if (m_exchange->response().status != 200) {
            m_errorBody += bytes.left(4096);
            return;
        }
        if (tty) {
            Q_EMIT data(bytes, 0);
            return;
        }
        auto chunks = m_demux.feed(bytes);
        if (!chunks) {
            m_exchange->abort();
            return finish(chunks.error());
        }
        for (const auto &c : std::as_const(*chunks)) {
            if (m_done)
                return; // a listener stopped us
            Q_EMIT data(c.data, c.stream == 2 ? 2 : 1);
        }
    });
    connect(m_exchange, &net::HttpExchange::finished, this, [this](const VoidResult &r) {
        if (m_done)
            return;
        const int status = m_exchange->response().status;
        if (!r)
            return finish(r.error());
        if (status == 404)
            return finish(DockerApi::sessionGone(m_containerId));
        if (status != 200)
            return finish(errorFromStatus(status, m_errorBody, tr("Reading the session's log failed")));
        if (m_demux.midFrame())
            return finish(makeError(ErrorCode::Unavailable, tr("The session's log ended in the middle of a frame.")));
        finish({});
    });
    m_exchange->start();
}

void DockerLogStream::stop()
{
    m_done = true;
    if (m_exchange) {
        m_exchange->disconnect(this);
        m_exchange->abort();
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
}

} // namespace sandbar::docker
