// sandbar-bench net: the HTTP/1.1 client that carries the Engine API.
//   net.parser_chunked_MBps   de-chunking a 64 MiB body (8 KiB chunks) fed in 64 KiB reads
//   net.upload_MBps           a 256 MiB streamed request body over a unix socket
//   net.upload_rss_growth_MiB peak RSS growth during that upload; baseline: the body size
//                             (what buffering it would cost), so the ratio is the fraction held
//   net.download_MBps         a 256 MiB chunked reply over a unix socket, delivered as bodyData

#include "Bench.h"
#include "net/HttpClient.h"
#include "net/HttpParser.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <optional>

namespace sandbar::bench {

namespace {

using namespace sandbar::net;

const char kGroup[] = "net";
constexpr qint64 kMiB = 1024 * 1024;

// Makes bytes on demand so the upload itself costs no memory.
class Generator : public QIODevice
{
public:
    explicit Generator(qint64 total)
        : m_total(total)
    {
        open(QIODevice::ReadOnly);
    }
    bool isSequential() const override { return true; }
    qint64 bytesAvailable() const override { return m_total - m_pos + QIODevice::bytesAvailable(); }

protected:
    qint64 readData(char *data, qint64 max) override
    {
        if (m_pos >= m_total)
            return -1;
        const qint64 n = qMin(max, m_total - m_pos);
        std::memset(data, 'x', size_t(n));
        m_pos += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    qint64 m_total;
    qint64 m_pos = 0;
};

Result<double> parserRate()
{
    const QByteArray chunk = QByteArray::number(8192, 16) + "\r\n" + QByteArray(8192, 'y') + "\r\n";
    QByteArray wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 64 * 128; ++i)
        wire += chunk;
    wire += "0\r\n\r\n";
    QElapsedTimer t;
    t.start();
    HttpResponseParser p;
    qint64 body = 0;
    for (qsizetype pos = 0; pos < wire.size(); pos += 65536) {
        HttpParseEvents ev;
        p.feed(QByteArrayView(wire).sliced(pos, qMin<qsizetype>(65536, wire.size() - pos)), ev);
        body += ev.body.size();
    }
    const double secs = double(t.nsecsElapsed()) / 1e9;
    if (!p.isComplete() || body != qint64(64 * 128) * 8192)
        return makeError(ErrorCode::Internal,
                         QStringLiteral("the parser %1 after %2 of %3 body bytes")
                             .arg(p.isComplete() ? QStringLiteral("completed") : QStringLiteral("did not complete"))
                             .arg(body)
                             .arg(qint64(64 * 128) * 8192));
    return double(body) / kMiB / secs;
}

int runNet(const QStringList &)
{
    const auto rate = parserRate();
    if (!rate)
        return fail(kGroup, QStringLiteral("de-chunk 64 MiB"), rate.message());
    printFigure(QStringLiteral("net.parser_chunked_MBps"), *rate, QStringLiteral("MiB/s"));

    QTemporaryDir dir;
    if (!dir.isValid())
        return fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    QLocalServer server;
    if (!server.listen(dir.filePath(QStringLiteral("bench.sock"))))
        return fail(kGroup, QStringLiteral("listen on %1").arg(dir.filePath(QStringLiteral("bench.sock"))),
                    server.errorString());
    Endpoint ep;
    ep.path = server.fullServerName();
    constexpr qint64 total = 256 * kMiB;
    bool download = false;

    QObject::connect(&server, &QLocalServer::newConnection, &server, [&] {
        QLocalSocket *s = server.nextPendingConnection();
        auto seen = std::make_shared<qint64>(0);
        auto sent = std::make_shared<qint64>(0);
        auto pump = [s, sent] {
            const QByteArray chunk = QByteArray::number(65536, 16) + "\r\n" + QByteArray(65536, 'z') + "\r\n";
            while (s->bytesToWrite() < kMiB && *sent < total) {
                s->write(chunk);
                *sent += 65536;
            }
            if (*sent == total) {
                s->write("0\r\n\r\n");
                *sent += 1;
            }
        };
        QObject::connect(s, &QLocalSocket::readyRead, s, [s, seen, pump, &download] {
            const QByteArray in = s->readAll();
            if (*seen == 0 && in.contains("GET ")) {
                s->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
                download = true;
                pump();
                *seen = 1;
                return;
            }
            *seen += in.size();
            if (*seen >= total)
                s->write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        });
        QObject::connect(s, &QLocalSocket::bytesWritten, s, [pump, &download] {
            if (download)
                pump();
        });
    });

    // Upload.
    {
        Generator gen(total);
        HttpRequest req;
        req.method = "PUT";
        req.bodyDevice = &gen;
        req.bodyLength = total;
        QObject ctx;
        auto *ex = HttpClient(ep).exchange(req, &ctx);
        const qint64 rss0 = currentRssBytes();
        qint64 peak = rss0;
        QEventLoop loop;
        std::optional<VoidResult> done;
        QObject::connect(ex, &HttpExchange::uploadProgress, &ctx,
                         [&](qint64, qint64) { peak = qMax(peak, currentRssBytes()); });
        QObject::connect(ex, &HttpExchange::finished, &ctx, [&](const VoidResult &r) {
            done.emplace(r);
            loop.quit();
        });
        QTimer::singleShot(300000, &loop, &QEventLoop::quit);
        QElapsedTimer t;
        t.start();
        ex->start();
        if (!done)
            loop.exec();
        if (!done || !done->ok())
            return fail(kGroup, QStringLiteral("stream a 256 MiB request body"),
                        done ? done->message() : QStringLiteral("not finished within 300 s"));
        printFigure(QStringLiteral("net.upload_MBps"), double(total) / kMiB / (double(t.nsecsElapsed()) / 1e9),
                    QStringLiteral("MiB/s"));
        printFigure(QStringLiteral("net.upload_rss_growth_MiB"), double(peak - rss0) / kMiB, QStringLiteral("MiB"),
                    double(total) / kMiB);
    }
    // Download.
    {
        QObject ctx;
        auto *ex = HttpClient(ep).exchange(HttpRequest{}, &ctx);
        qint64 got = 0;
        std::optional<VoidResult> done;
        QEventLoop loop;
        QObject::connect(ex, &HttpExchange::bodyData, &ctx, [&](const QByteArray &b) { got += b.size(); });
        QObject::connect(ex, &HttpExchange::finished, &ctx, [&](const VoidResult &r) {
            done.emplace(r);
            loop.quit();
        });
        QTimer::singleShot(300000, &loop, &QEventLoop::quit);
        QElapsedTimer t;
        t.start();
        ex->start();
        if (!done)
            loop.exec();
        if (!done || !done->ok() || got != total)
            return fail(kGroup, QStringLiteral("read a 256 MiB chunked reply"),
                        !done         ? QStringLiteral("not finished within 300 s (%1 bytes in)").arg(got)
                        : !done->ok() ? done->message()
                                      : QStringLiteral("%1 of %2 bytes delivered").arg(got).arg(total));
        printFigure(QStringLiteral("net.download_MBps"), double(total) / kMiB / (double(t.nsecsElapsed()) / 1e9),
                    QStringLiteral("MiB/s"));
    }
    return 0;
}

} // namespace

static Registration reg("net", &runNet, false, "HTTP client: parser rate, streamed upload/download over a unix socket");

} // namespace sandbar::bench
