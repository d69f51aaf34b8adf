// The client against the real engines that test-services.sh starts: plain calls, and an
// exec stream hijacked by an upgrade, half-closed so that the command sees EOF on stdin.

#include "TestSupport.h"
#include "net/HttpClient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTest>
#include <QUuid>

using namespace sandbar;
using namespace sandbar::net;

namespace {

Result<HttpResponse> call(const Endpoint &ep, const QByteArray &method, const QByteArray &target,
                          const QByteArray &json = {})
{
    HttpRequest req;
    req.method = method;
    req.target = target;
    if (!json.isEmpty()) {
        req.body = json;
        req.headers.emplaceBack("Content-Type", "application/json");
    }
    HttpClient client(ep);
    return sandbar::test::await<HttpResponse>([&](Callback<HttpResponse> cb) { client.request(req, cb); });
}

QString hostFor(const QString &engine)
{
    return engine == QLatin1String("docker") ? sandbar::test::dockerHost() : sandbar::test::podmanHost();
}

} // namespace

class TestHttpEngine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void execStream_data();
    void execStream();
};

void TestHttpEngine::execStream_data()
{
    QTest::addColumn<QString>("engine");
    QTest::newRow("docker") << QStringLiteral("docker");
    QTest::newRow("podman") << QStringLiteral("podman");
}

void TestHttpEngine::execStream()
{
    QFETCH(QString, engine);
    const QString host = hostFor(engine);
    SANDBAR_REQUIRE(!host.isEmpty(), QStringLiteral("no %1 engine (run scripts/test-services.sh)").arg(engine));
    SANDBAR_REQUIRE(!sandbar::test::testImage().isEmpty(), QStringLiteral("SANDBAR_TEST_IMAGE is not set"));
    auto ep = Endpoint::parse(host);
    QVERIFY_RESULT(ep);

    auto ping = call(*ep, "GET", "/_ping");
    QVERIFY_RESULT(ping);
    QCOMPARE(ping->status, 200);
    QCOMPARE(ping->body, QByteArray("OK"));

    const QByteArray name = "sandbar-net-" + QUuid::createUuid().toString(QUuid::Id128).left(12).toLatin1();
    const QByteArray spec =
        QJsonDocument(QJsonObject{{QStringLiteral("Image"), sandbar::test::testImage()},
                                  {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sleep"), QStringLiteral("60")}},
                                  {QStringLiteral("HostConfig"),
                                   QJsonObject{{QStringLiteral("NetworkMode"), QStringLiteral("none")}}}})
            .toJson(QJsonDocument::Compact);
    auto created = call(*ep, "POST", "/v1.41/containers/create?name=" + name, spec);
    QVERIFY_RESULT(created);
    QVERIFY2(created->status == 201, created->body.constData());
    auto cleanup = qScopeGuard([&] { (void)call(*ep, "DELETE", "/v1.41/containers/" + name + "?force=true"); });
    auto started = call(*ep, "POST", "/v1.41/containers/" + name + "/start");
    QVERIFY_RESULT(started);
    QVERIFY2(started->status == 204, started->body.constData());

    const QByteArray execSpec = R"({"AttachStdin":true,"AttachStdout":true,"AttachStderr":true,"Tty":false,)"
                                R"("Cmd":["sh","-c","echo hi; cat; echo done >&2"]})";
    auto exec = call(*ep, "POST", "/v1.41/containers/" + name + "/exec", execSpec);
    QVERIFY_RESULT(exec);
    QVERIFY2(exec->status == 201, exec->body.constData());
    const QByteArray id =
        QJsonDocument::fromJson(exec->body).object().value(QStringLiteral("Id")).toString().toLatin1();
    QVERIFY(!id.isEmpty());

    HttpRequest req;
    req.method = "POST";
    req.target = "/v1.41/exec/" + id + "/start";
    req.body = R"({"Detach":false,"Tty":false})";
    req.headers.emplaceBack("Content-Type", "application/json");
    req.upgrade = true;
    QObject ctx;
    auto *ex = HttpClient(*ep).exchange(req, &ctx);
    QByteArray raw;
    std::optional<VoidResult> result;
    connect(ex, &HttpExchange::headersReceived, &ctx, [ex] {
        ex->write("from stdin\n");
        ex->closeWrite();
    });
    connect(ex, &HttpExchange::rawData, &ctx, [&](const QByteArray &b) { raw += b; });
    connect(ex, &HttpExchange::finished, &ctx, [&](const VoidResult &r) { result = r; });
    ex->start();
    QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 30000);
    QVERIFY_RESULT(*result);
    QVERIFY(ex->isUpgraded());
    // Multiplexed frames ([stream,0,0,0,size be32] + payload); how the engine cuts the output
    // into frames varies, so the streams are compared whole. "done" is printed only after
    // cat saw EOF on stdin, which proves the half-close reached the command.
    QByteArray out, err;
    qsizetype pos = 0;
    while (pos + 8 <= raw.size()) {
        const auto *h = reinterpret_cast<const uchar *>(raw.constData() + pos);
        const qsizetype size = (qsizetype(h[4]) << 24) | (qsizetype(h[5]) << 16) | (qsizetype(h[6]) << 8) | h[7];
        QVERIFY2(pos + 8 + size <= raw.size(), raw.toPercentEncoding().constData());
        (h[0] == 2 ? err : out) += raw.mid(pos + 8, size);
        pos += 8 + size;
    }
    QCOMPARE(pos, raw.size());
    QCOMPARE(out, QByteArray("hi\nfrom stdin\n"));
    QCOMPARE(err, QByteArray("done\n"));
}

QTEST_GUILESS_MAIN(TestHttpEngine)
#include "tst_httpengine.moc"
