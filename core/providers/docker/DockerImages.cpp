// The engine's images: listed for the New session dialog, pulled (with progress) when a
// create names one the engine does not have.
#include "providers/docker/DockerProvider.h"
#include "providers/docker/PullProgress.h"

#include <nlohmann/json.hpp>

namespace sandbar::docker {

using nlohmann::json;

void DockerProvider::listImages(Callback<QStringList> done)
{
    m_api->call(
        "GET", "/images/json", {}, Callback<net::HttpResponse>(done.context(), [done](Result<net::HttpResponse> r) {
            if (!r)
                return done(r.error());
            if (!r->isSuccess())
                return done(errorFromStatus(r->status, r->body, tr("Listing the images failed")));
            const auto j = json::parse(r->body.constData(), r->body.constData() + r->body.size(), nullptr, false);
            QStringList out;
            for (const auto &image : j.is_array() ? j : json::array()) {
                const auto tags = image.is_object() ? image.value("RepoTags", json::array()) : json::array();
                for (const auto &t : tags.is_array() ? tags : json::array()) {
                    const QString tag = t.is_string() ? QString::fromStdString(t.get<std::string>()) : QString();
                    if (!tag.isEmpty() && !tag.contains(QLatin1String("<none>")) && !out.contains(tag))
                        out << tag;
                }
            }
            out.sort();
            done(out);
        }));
}

void DockerProvider::pullImage(const QString &image, const QString &name, Callback<void> done)
{
    QString repo = image, tag;
    const auto colon = image.lastIndexOf(QLatin1Char(':'));
    if (colon > image.lastIndexOf(QLatin1Char('/')) && !image.contains(QLatin1Char('@'))) {
        repo = image.left(colon);
        tag = image.mid(colon + 1);
    }
    QByteArray path = "/images/create?fromImage=" + DockerApi::enc(repo);
    if (!tag.isEmpty())
        path += "&tag=" + DockerApi::enc(tag);
    auto req = m_api->request("POST", path);
    req.responseTimeout = std::chrono::minutes(2);
    req.idleTimeout = std::chrono::minutes(2);
    // Streamed rather than buffered, so that the window can show how far the pull is.
    auto *exchange = m_api->exchange(req, this);
    auto progress = std::make_shared<PullProgress>();
    auto body = std::make_shared<QByteArray>();
    Q_EMIT createProgress(name, tr("Pulling image…"), 0, 0);
    connect(exchange, &net::HttpExchange::bodyData, this, [this, exchange, progress, body, name](const QByteArray &b) {
        if (!exchange->response().isSuccess()) {
            *body += b.left(64 * 1024 - body->size());
            return;
        }
        const qint64 before = progress->done() + progress->total();
        const QString beforeText = progress->text();
        progress->feed(b);
        if (progress->done() + progress->total() != before || progress->text() != beforeText)
            Q_EMIT createProgress(name, progress->text(), progress->done(), progress->total());
    });
    connect(exchange, &net::HttpExchange::finished, this, [exchange, progress, body, done](const VoidResult &r) {
        exchange->deleteLater();
        if (!r)
            return done(r.error());
        if (!exchange->response().isSuccess())
            return done(makeError(ErrorCode::NotFound, engineMessage(*body)));
        progress->feed("\n");
        // A failure is a line with "error" under a 200.
        if (!progress->error().isEmpty())
            return done(makeError(ErrorCode::NotFound, progress->error()));
        done({});
    });
    exchange->start();
}

} // namespace sandbar::docker
