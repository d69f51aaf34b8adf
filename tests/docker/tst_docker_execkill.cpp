// A cancelled, timed-out or abandoned exec is killed inside the container, not just cut off:
// run twice, for Docker (SANDBAR_TEST_DOCKER_HOST) and, with SANDBAR_TEST_ENGINE=podman, for
// Podman (SANDBAR_TEST_PODMAN_HOST). Whether a process is left is asked with a fresh `ps` exec.
#include "EngineFlavour.h"
#include "providers/docker/DockerApi.h"
#include "providers/docker/DockerExec.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace sandbar;
using namespace sandbar::test;

namespace {
const QString kTestLabel = QStringLiteral("dev.sandbar.test");
// Generous: the killer gives TERM 2 s before KILL, and a loaded CI host is slow to exec.
constexpr int kGoneWithinMs = 30000;

QStringList sh(const QString &script)
{
    return {QStringLiteral("sh"), QStringLiteral("-c"), script};
}

// What a job said and when it finished.
struct Outcome {
    std::optional<Result<int>> result;
    QElapsedTimer sinceCancel;
    qint64 finishedAfterMs = -1;

    void attach(ExecJob *job)
    {
        QObject::connect(job, &ExecJob::finished, job, [this](const Result<int> &r) {
            result = r;
            if (sinceCancel.isValid())
                finishedAfterMs = sinceCancel.elapsed();
        });
    }
};
} // namespace

class TestDockerExecKill : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    std::unique_ptr<docker::DockerApi> m_api;
    QStringList m_made;

    // A container made directly on the engine that only sleeps (its own sleep is not one the
    // tests look for); no network.
    Result<QString> runContainer()
    {
        const QJsonObject body{
            {QStringLiteral("Image"), testImage()},
            {QStringLiteral("Cmd"), QJsonArray{QStringLiteral("sleep"), QStringLiteral("86400")}},
            {QStringLiteral("Labels"), QJsonObject{{kTestLabel, QStringLiteral("tst_docker_execkill")}}},
            {QStringLiteral("HostConfig"), QJsonObject{{QStringLiteral("NetworkMode"), QStringLiteral("none")}}}};
        const auto send = [this](const QByteArray &path, const QByteArray &json) {
            return await<net::HttpResponse>(
                [&](auto cb) { m_api->call("POST", path, json, cb, docker::DockerApi::kLifecycleTimeout); }, 130000);
        };
        auto created = send("/containers/create", QJsonDocument(body).toJson(QJsonDocument::Compact));
        if (!created)
            return created.error();
        if (!created->isSuccess())
            return makeError(ErrorCode::Internal, QString::fromUtf8(created->body));
        const QString id = QJsonDocument::fromJson(created->body).object().value(QStringLiteral("Id")).toString();
        m_made << id;
        auto started = send("/containers/" + id.toLatin1() + "/start", {});
        if (!started)
            return started.error();
        if (!started->isSuccess())
            return makeError(ErrorCode::Internal, QString::fromUtf8(started->body));
        return id;
    }

    // The container's process list, from a fresh exec.
    QByteArray ps(const QString &id)
    {
        const auto r = runIn(m_p.get(), id, {QStringLiteral("ps")});
        return r.code && r.code->ok() ? r.out : QByteArray("ps failed: ") + r.err;
    }

    bool waitForProcess(const QString &id, const QByteArray &marker)
    {
        return waitUntil([&] { return ps(id).contains(marker); }, kGoneWithinMs);
    }

    // True once none of markers shows in the container; *afterMs: how long that took.
    bool waitUntilGone(const QString &id, const QList<QByteArray> &markers, qint64 *afterMs = nullptr)
    {
        QElapsedTimer t;
        t.start();
        QByteArray last;
        const bool gone = waitUntil(
            [&] {
                last = ps(id);
                if (last.startsWith("ps failed"))
                    return false;
                for (const auto &m : markers)
                    if (last.contains(m))
                        return false;
                return true;
            },
            kGoneWithinMs);
        if (afterMs)
            *afterMs = t.elapsed();
        if (!gone)
            qWarning().noquote() << "still running:\n" << QString::fromUtf8(last);
        return gone;
    }

    std::unique_ptr<ExecJob> startJob(const QString &id, const QStringList &argv, Outcome *outcome)
    {
        ExecRequest req;
        req.argv = argv;
        auto job = m_p->commands()->exec(id, req);
        outcome->attach(job.get());
        job->start();
        return job;
    }

    // Shows, without a fixed wait, that a cancel made earlier has had time to do whatever it
    // would do. A cancel that acted would start its killing exec at once and answer when that
    // ends. A command that ignores TERM, started and cancelled after it (in a running
    // container), answers only once its own killing exec has gone through the same engine and
    // waited the 2 s grace: well past the point where the first would have answered.
    bool aKillingExecHasPassed(const QString &id)
    {
        Outcome o;
        auto job = startJob(id, sh(QStringLiteral("trap '' TERM; sleep 310")), &o);
        if (!waitForProcess(id, "sleep 310")) {
            qWarning().noquote() << "the reference command did not start:\n" << QString::fromUtf8(ps(id));
            return false;
        }
        job->cancel();
        if (!waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs) ||
            o.result->code() != ErrorCode::Cancelled || !o.result->message().contains(QLatin1String("were killed"))) {
            qWarning().noquote() << "the reference cancel did not kill:"
                                 << (o.result ? o.result->message() : QStringLiteral("no answer"));
            return false;
        }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString why = openEngine(m_p);
        SANDBAR_REQUIRE(why.isEmpty(), why);
        auto ep = net::Endpoint::parse(engineHost());
        QVERIFY_RESULT(ep);
        m_api = std::make_unique<docker::DockerApi>(*ep);
    }

    void cleanupTestCase()
    {
        for (const QString &id : std::as_const(m_made))
            (void)engineRequest(engineHost(), "DELETE", "/containers/" + id.toLatin1() + "?force=true");
    }

    // TERM is ignored by the shell and, inherited, by its sleep: only KILL after the grace ends it.
    void cancelKillsACommandThatIgnoresTerm()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("trap '' TERM; sleep 301; echo survived")), &o);
        QVERIFY2(waitForProcess(*id, "sleep 301"), ps(*id).constData());
        o.sinceCancel.start();
        job->cancel();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QCOMPARE(o.result->code(), ErrorCode::Cancelled);
        QVERIFY2(o.result->message().contains(QLatin1String("were killed")), qPrintable(o.result->message()));
        // The grace period was given: TERM alone did nothing.
        QVERIFY2(o.finishedAfterMs >= 1900, qPrintable(QString::number(o.finishedAfterMs)));
        qint64 goneAfter = 0;
        QVERIFY(waitUntilGone(*id, {"sleep 301"}, &goneAfter));
        qInfo("cancel to finished: %lld ms (TERM ignored, KILL after the grace); ps clean after %lld ms more",
              o.finishedAfterMs, goneAfter);
    }

    // A plain command with a child: both go, and quickly, as TERM suffices.
    void cancelKillsTheCommandAndItsChildren()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("sleep 302 & sleep 303; wait")), &o);
        QVERIFY2(waitForProcess(*id, "sleep 302") && waitForProcess(*id, "sleep 303"), ps(*id).constData());
        o.sinceCancel.start();
        job->cancel();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QCOMPARE(o.result->code(), ErrorCode::Cancelled);
        QVERIFY2(o.result->message().contains(QLatin1String("were killed")), qPrintable(o.result->message()));
        qint64 goneAfter = 0;
        QVERIFY(waitUntilGone(*id, {"sleep 302", "sleep 303"}, &goneAfter));
        qInfo("cancel to finished: %lld ms; ps clean after %lld ms more", o.finishedAfterMs, goneAfter);
    }

    // A child that left the process group and the shell that started it: found by its tag.
    void cancelKillsAChildInAnotherSession()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("setsid sleep 304 & sleep 305")), &o);
        QVERIFY2(waitForProcess(*id, "sleep 304") && waitForProcess(*id, "sleep 305"), ps(*id).constData());
        job->cancel();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QVERIFY(waitUntilGone(*id, {"sleep 304", "sleep 305"}));
    }

    // The idle timeout (no output for this long) kills the command the same way.
    void idleTimeoutKills()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        ExecRequest req;
        req.argv = sh(QStringLiteral("trap '' TERM; sleep 306"));
        docker::DockerExecJob job(m_api.get(), *id, req);
        job.setIdleTimeout(std::chrono::seconds(2));
        Outcome o;
        o.attach(&job);
        o.sinceCancel.start();
        job.start();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QCOMPARE(o.result->code(), ErrorCode::Timeout);
        QVERIFY2(o.result->message().contains(QLatin1String("were killed")), qPrintable(o.result->message()));
        QVERIFY(waitUntilGone(*id, {"sleep 306"}));
    }

    // A job destroyed while its command runs (its owner went) does not leave the command behind.
    void destroyingARunningJobKills()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("sleep 307")), &o);
        QVERIFY2(waitForProcess(*id, "sleep 307"), ps(*id).constData());
        job.reset();
        QVERIFY(waitUntilGone(*id, {"sleep 307"}));
    }

    // Cancelling what has ended, or after the exec's stream closed, changes nothing and answers
    // once; a command that has ended leaves no process to report.
    void cancelAfterTheEnd()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("echo done")), &o);
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QVERIFY_RESULT(*o.result);
        QCOMPARE(o.result->value(), 0);
        int answers = 0;
        QObject::connect(job.get(), &ExecJob::finished, job.get(), [&answers] { ++answers; });
        job->cancel();
        QCOMPARE(answers, 0); // nothing at once
        QVERIFY(aKillingExecHasPassed(*id));
        QCOMPARE(answers, 0); // nor after a killing exec would have answered
    }

    // The container goes while the command runs: there is one answer, promptly.
    void cancelWhenTheContainerIsGone()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, sh(QStringLiteral("sleep 308")), &o);
        QVERIFY2(waitForProcess(*id, "sleep 308"), ps(*id).constData());
        auto removed = engineRequest(engineHost(), "DELETE", "/containers/" + id->toLatin1() + "?force=true");
        QVERIFY_RESULT(removed);
        // The stream may end on its own when the container dies; a cancel then is a no-op.
        job->cancel();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        // Which answer depends on the race with the engine: the end the container's death gave
        // (137), an error reading that exit code from a container that is gone (Podman), or the
        // cancel's. What matters is that one comes, and only one.
        int answers = 0;
        QObject::connect(job.get(), &ExecJob::finished, job.get(), [&answers] { ++answers; });
        job->cancel();
        QCOMPARE(answers, 0); // nothing at once
        // Nor later: a killing exec against the removed container would be answered at its
        // first request; one in another container has passed further by the time it answers.
        auto other = runContainer();
        QVERIFY_RESULT(other);
        QVERIFY(aKillingExecHasPassed(*other));
        QCOMPARE(answers, 0);
        if (o.result->ok())
            QCOMPARE(o.result->value(), 137);
    }

    // Without a shell in the container nothing can kill inside it: the answer says so.
    void withoutAShellTheAnswerSaysItMayStillRun()
    {
        auto id = runContainer();
        QVERIFY_RESULT(id);
        Outcome o;
        auto job = startJob(*id, {QStringLiteral("sleep"), QStringLiteral("309")}, &o);
        QVERIFY2(waitForProcess(*id, "sleep 309"), ps(*id).constData());
        QStringList rm{QStringLiteral("busybox"), QStringLiteral("rm"), QStringLiteral("-f")};
        for (const auto &dir : {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"})
            rm << QString::fromLatin1(dir) + QStringLiteral("/sh");
        const auto removed = runIn(m_p.get(), *id, rm);
        QVERIFY(removed.code && removed.code->ok() && removed.code->value() == 0);
        job->cancel();
        QVERIFY(waitUntil([&] { return o.result.has_value(); }, kGoneWithinMs));
        QCOMPARE(o.result->code(), ErrorCode::Cancelled);
        QVERIFY2(o.result->message().contains(QLatin1String("may still run")), qPrintable(o.result->message()));
    }
};

QTEST_GUILESS_MAIN(TestDockerExecKill)
#include "tst_docker_execkill.moc"
