#include "cloud/NdjsonStream.h"

#include "cloud/CloudTr.h"
#include "cloud/Transfers.h"
#include "net/HttpClient.h"

#include <QPointer>

namespace sandbar::cloud {

namespace {
constexpr qsizetype kLineMaxBytes = 8 * 1024 * 1024;
constexpr qsizetype kLineErrorBodyBytes = 4096;

struct LineStream {
    QPointer<CloudClient> client;
    QPointer<net::HttpExchange> exchange;
    QUrl url;
    LineHandler onLine;
    Callback<void> done;
    QByteArray buffer;
    QByteArray errorBody;
    int status = 0;
    bool finished = false;

    void finish(VoidResult r)
    {
        if (finished)
            return;
        finished = true;
        if (exchange) {
            exchange->disconnect();
            exchange->abort();
            exchange->deleteLater();
        }
        done(std::move(r));
    }
    // False once the stream ended (an error from a line, or one too long).
    bool feed(QList<QByteArray> lines)
    {
        for (const QByteArray &line : lines) {
            if (VoidResult r = onLine(line); !r) {
                finish(std::move(r));
                return false;
            }
        }
        return true;
    }
};
} // namespace

void streamLines(CloudClient *client, const HttpTarget &target, net::HttpRequest request, QObject *context,
                 LineHandler onLine, Callback<void> done)
{
    auto s = std::make_shared<LineStream>();
    s->client = client;
    s->url = target.url;
    s->onLine = std::move(onLine);
    s->done = std::move(done);
    if (!client)
        return s->done.post(makeError(ErrorCode::Cancelled, tr("The account was closed")));
    s->exchange = client->exchange(target, std::move(request), context);
    QObject::connect(s->exchange, &net::HttpExchange::headersReceived, context,
                     [s](const net::HttpResponse &head) { s->status = head.status; });
    QObject::connect(s->exchange, &net::HttpExchange::bodyData, context, [s](const QByteArray &bytes) {
        if (s->finished)
            return;
        if (s->status < 200 || s->status >= 300) {
            s->errorBody.append(bytes.left(kLineErrorBodyBytes - s->errorBody.size()));
            return;
        }
        s->buffer.append(bytes);
        if (!s->feed(takeLines(&s->buffer)))
            return;
        if (s->buffer.size() > kLineMaxBytes)
            s->finish(makeError(ErrorCode::Unavailable, tr("The service sent a line of over 8 MiB")));
    });
    QObject::connect(s->exchange, &net::HttpExchange::finished, context, [s](const VoidResult &result) {
        if (s->finished)
            return;
        const VoidResult r = exchangeOutcome(s->client, s->exchange, result, s->status, s->errorBody, s->url);
        if (!r)
            return s->finish(r);
        const QByteArray last = s->buffer.trimmed();
        s->buffer.clear();
        if (!last.isEmpty() && !s->feed({last}))
            return;
        s->finish(VoidResult{});
    });
    s->exchange->start();
}

} // namespace sandbar::cloud
