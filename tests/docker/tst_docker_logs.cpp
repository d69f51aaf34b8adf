// Session logs and forwarded ports against a real engine: run twice, for Docker
// (SANDBAR_TEST_DOCKER_HOST) and, with SANDBAR_TEST_ENGINE=podman, for Podman (SANDBAR_TEST_PODMAN_HOST).
#include "EngineFlavour.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace sandbar;
using namespace sandbar::test;

namespace {
const QString kTestLabel = QStringLiteral("dev.sandbar.test");

// What a log stream delivered, by stream.
struct LogCapture {
    QByteArray all;
    QMap<int, QByteArray> byStream;
    std::optional<VoidResult> result;

    void attach(LogStream *s)
    {
        QObject::connect(s, &LogStream::data, s, [this](const QByteArray &b, int stream) {
            all += b;
            byStream[stream] += b;
        });
        QObject::connect(s, &LogStream::finished, s, [this](const VoidResult &r) { result = r; });
    }
};

// A shell loop that waits for a file to appear: the container sleeps, the test does not.
QString gate(const QString &file)
{
    return QStringLiteral("while [ ! -f %1 ]; do sleep 0.05; done; ").arg(file);
}
} // namespace

class TestDockerLogs : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    QStringList m_made;

    // A container made directly on the engine (the provider's own always runs its keep-alive
    // script): `script` runs under sh -c; the container has no network.
    Result<QString> runContainer(const QString &script, bool tty = false)
    {
        QJsonObject body{
            {QStringLiteral("Image"), testImage()},
            {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sh"), QStringLiteral("-c"), script}},
            {QStringLiteral("Tty"), tty},
            {QStringLiteral("Labels"), QJsonObject{{kTestLabel, QStringLiteral("tst_docker_logs")}}},
            {QStringLiteral("HostConfig"), QJsonObject{{QStringLiteral("NetworkMode"), QStringLiteral("none")}}}};
        auto ep = net::Endpoint::parse(engineHost());
        if (!ep)
            return ep.error();
        net::HttpClient client(*ep);
        net::HttpRequest req;
        req.method = "POST";
        req.target = "/containers/create";
        req.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
        req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        auto created = await<net::HttpResponse>([&](auto cb) { client.request(req, cb); });
        if (!created)
            return created.error();
        if (!created->isSuccess())
            return makeError(ErrorCode::Internal, QString::fromUtf8(created->body));
        const QString id = QJsonDocument::fromJson(created->body).object().value(QStringLiteral("Id")).toString();
        m_made << id;
        auto started = engineRequest(engineHost(), "POST", "/containers/" + id.toLatin1() + "/start");
        if (!started)
            return started.error();
        if (!started->isSuccess())
            return makeError(ErrorCode::Internal, QString::fromUtf8(started->body));
        return id;
    }

    LogCapture readLogs(const QString &id, LogOptions options)
    {
        options.follow = false;
        LogCapture c;
        auto s = m_p->logReader()->logs(id, options);
        c.attach(s.get());
        s->start();
        waitUntil([&] { return c.result.has_value(); }, 20000);
        return c;
    }

    // Non-following reads until `text` is in the log (the container may not have written yet).
    LogCapture waitForLog(const QString &id, const QByteArray &text, LogOptions options = {})
    {
        LogCapture c;
        waitUntil(
            [&] {
                c = readLogs(id, options);
                return c.all.contains(text) || (c.result && !c.result->ok());
            },
            20000);
        return c;
    }

    void touch(const QString &id, const QString &file)
    {
        const auto r = runIn(m_p.get(), id, {QStringLiteral("touch"), file});
        QVERIFY(r.code.has_value());
        QVERIFY_RESULT(*r.code);
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString why = openEngine(m_p);
        SANDBAR_REQUIRE(why.isEmpty(), why);
        QVERIFY(m_p->capabilities().testFlag(Capability::Logs));
        QVERIFY(m_p->capabilities().testFlag(Capability::Ports));
    }

    void cleanupTestCase()
    {
        for (const QString &id : std::as_const(m_made))
            (void)engineRequest(engineHost(), "DELETE", "/containers/" + id.toLatin1() + "?force=true");
    }

    void stdoutAndStderr()
    {
        auto id = runContainer(QStringLiteral("echo out; echo err >&2; sleep 600"));
        QVERIFY_RESULT(id);
        const LogCapture c = waitForLog(*id, "err");
        QVERIFY(c.result.has_value());
        QVERIFY_RESULT(*c.result);
        QCOMPARE(c.byStream.value(1), QByteArray("out\n"));
        QCOMPARE(c.byStream.value(2), QByteArray("err\n"));
        QVERIFY(!c.byStream.contains(0));

        // Timestamps come first on each line.
        LogOptions stamped;
        stamped.timestamps = true;
        const LogCapture t = readLogs(*id, stamped);
        QVERIFY_RESULT(*t.result);
        QVERIFY2(QRegularExpression(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\S+ out\n$"))
                     .match(QString::fromUtf8(t.byStream.value(1)))
                     .hasMatch(),
                 t.byStream.value(1).constData());
    }

    void tail()
    {
        auto id = runContainer(QStringLiteral("for i in 1 2 3 4 5; do echo line$i; done; sleep 600"));
        QVERIFY_RESULT(id);
        QVERIFY(waitForLog(*id, "line5").all.contains("line1"));
        LogOptions last2;
        last2.tail = 2;
        const LogCapture c = readLogs(*id, last2);
        QVERIFY_RESULT(*c.result);
        QCOMPARE(c.all, QByteArray("line4\nline5\n"));
    }

    void followDeliversLaterLinesAndStopEndsDelivery()
    {
        auto id = runContainer(QStringLiteral("echo first; ") + gate(QStringLiteral("/tmp/go")) +
                               QStringLiteral("echo later; ") + gate(QStringLiteral("/tmp/go2")) +
                               QStringLiteral("echo after; sleep 600"));
        QVERIFY_RESULT(id);
        QVERIFY(waitForLog(*id, "first").all.contains("first"));

        LogOptions follow;
        follow.follow = true;
        LogCapture c;
        auto s = m_p->logReader()->logs(*id, follow);
        c.attach(s.get());
        s->start();
        QVERIFY(waitUntil([&] { return c.all.contains("first") || c.result; }, 15000));
        QVERIFY2(!c.result, c.result ? qPrintable(c.result->message()) : "");
        touch(*id, QStringLiteral("/tmp/go"));
        QVERIFY(waitUntil([&] { return c.all.contains("later") || c.result; }, 15000));
        QCOMPARE(c.byStream.value(1), QByteArray("first\nlater\n"));

        s->stop();
        touch(*id, QStringLiteral("/tmp/go2"));
        // Another reader sees the next line; the stopped one does not, and does not finish.
        QVERIFY(waitForLog(*id, "after").all.contains("after"));
        QCoreApplication::processEvents();
        QVERIFY(!c.all.contains("after"));
        QVERIFY(!c.result.has_value());
    }

    void followEndsWithTheContainer()
    {
        auto id =
            runContainer(QStringLiteral("echo hello; ") + gate(QStringLiteral("/tmp/go")) + QStringLiteral("echo bye"));
        QVERIFY_RESULT(id);
        QVERIFY(waitForLog(*id, "hello").all.contains("hello"));
        LogOptions follow;
        follow.follow = true;
        LogCapture c;
        auto s = m_p->logReader()->logs(*id, follow);
        c.attach(s.get());
        s->start();
        QVERIFY(waitUntil([&] { return c.all.contains("hello") || c.result; }, 15000));
        touch(*id, QStringLiteral("/tmp/go"));
        QVERIFY(waitUntil([&] { return c.result.has_value(); }, 20000));
        QVERIFY_RESULT(*c.result);
        QCOMPARE(c.all, QByteArray("hello\nbye\n"));
    }

    void ttyIsOneStream()
    {
        auto id = runContainer(QStringLiteral("echo ttyline; echo ttyerr >&2; sleep 600"), true);
        QVERIFY_RESULT(id);
        const LogCapture c = waitForLog(*id, "ttyerr");
        QVERIFY_RESULT(*c.result);
        QCOMPARE(c.byStream.keys(), QList<int>{0});
        QVERIFY(c.all.contains("ttyline"));
        QVERIFY(c.all.contains("ttyerr"));
    }

    void unknownSession()
    {
        const LogCapture c = readLogs(QStringLiteral("sandbar-no-such-container"), {});
        QVERIFY(c.result.has_value());
        QVERIFY(!c.result->ok());
        QCOMPARE(c.result->code(), ErrorCode::NotFound);
        QVERIFY(c.all.isEmpty());
    }

    void infoCarriesInspectJson()
    {
        auto id = runContainer(QStringLiteral("sleep 600"));
        QVERIFY_RESULT(id);
        auto s = await<SessionInfo>([&](auto cb) { m_p->info(*id, cb); });
        QVERIFY_RESULT(s);
        const QJsonObject o = QJsonDocument::fromJson(s->rawJson).object();
        QCOMPARE(o.value(QStringLiteral("Id")).toString(), *id);
        QVERIFY(s->endpoints.isEmpty());
    }

    void portsNeedTheNetwork()
    {
        CreateSpec spec;
        spec.image = testImage();
        spec.labels.insert(kTestLabel, QStringLiteral("tst_docker_logs"));
        spec.ports = {PortSpec{8080, 0, QStringLiteral("tcp")}};
        auto r = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        if (r)
            m_made << r->id;
        QVERIFY(!r);
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        QVERIFY2(r.message().contains(QLatin1String("Forwarding ports needs the network on")), qPrintable(r.message()));
    }

    void portsWithTheNetwork()
    {
        // The test engines have no bridge (no network for containers at all): the engine may
        // refuse, and must then say why. Where it accepts, the port is on loopback only.
        CreateSpec spec;
        spec.image = testImage();
        spec.network = true;
        spec.labels.insert(kTestLabel, QStringLiteral("tst_docker_logs"));
        spec.ports = {PortSpec{8080, 0, QStringLiteral("tcp")}};
        auto r = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        if (!r) {
            QVERIFY(!r.message().isEmpty());
            QVERIFY2(r.code() != ErrorCode::Internal, qPrintable(r.message()));
            qInfo("the engine refused a published port: %s", qPrintable(r.message()));
            return;
        }
        m_made << r->id;
        QVERIFY(r->rawJson.contains("127.0.0.1"));
        QVERIFY(!r->rawJson.contains("\"HostIp\":\"0.0.0.0\""));
        QCOMPARE(r->endpoints.size(), 1);
        QCOMPARE(r->endpoints.first().name, QStringLiteral("8080/tcp"));
        QVERIFY(r->endpoints.first().url.startsWith(QLatin1String("http://127.0.0.1:")));
        // The listing carries them too (the sessions table, sandbarctl).
        auto list = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); });
        QVERIFY_RESULT(list);
        const auto it = std::find_if(list->cbegin(), list->cend(), [&](const SessionInfo &s) { return s.id == r->id; });
        QVERIFY(it != list->cend());
        QCOMPARE(it->endpoints.size(), 1);
        QCOMPARE(it->endpoints.first().url, r->endpoints.first().url);
    }
};

QTEST_GUILESS_MAIN(TestDockerLogs)
#include "tst_docker_logs.moc"
