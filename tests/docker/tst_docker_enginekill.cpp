// A private dockerd of this test's own is killed (SIGKILL) while a stats stream, a PTY, a
// command, an upload and the events watch are open: each must end with an error within
// seconds, sandbarctl must say so and exit, nothing may hang. The engine runs with
// --live-restore, so its container outlives it; a new engine on the same data root must
// show the session again, open a working terminal in it (what Reconnect does), and the
// killed upload must have left nothing under its final name.
#include "PrivateDockerd.h"
#include "providers/CopyingFiles.h"

#include <QBuffer>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::test;

namespace {
struct Run {
    int code = -1;
    QByteArray out, err;
    qint64 ms = 0;
};
} // namespace

class TestDockerEngineKill : public QObject
{
    Q_OBJECT
    PrivateDockerd m_engine;
    std::unique_ptr<Provider> m_p;
    QString m_id;
    int m_changes = 0;
    QTemporaryDir m_config, m_local;
    const QString m_bigName = QStringLiteral("big.bin");
    // The copy steps themselves, below the copy rules.
    CopyingFiles *steps() const { return dynamic_cast<CopyingFiles *>(m_p->files()); }

    Run ctl(const QStringList &args, int timeoutMs = 30000)
    {
        QProcess p;
        QElapsedTimer t;
        t.start();
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        if (!p.waitForStarted())
            return {};
        p.closeWriteChannel();
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)", t.elapsed()};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError(), t.elapsed()};
    }

    static QByteArray describe(const Run &r)
    {
        return "exit " + QByteArray::number(r.code) + " after " + QByteArray::number(r.ms) + " ms\nstdout: " + r.out +
               "\nstderr: " + r.err;
    }

    QStringList entriesOf(const QString &dir)
    {
        const ExecResult ls = runIn(m_p.get(), m_id, {QStringLiteral("ls"), QStringLiteral("-a"), dir});
        if (!ls.code || !ls.code->ok() || ls.code->value() != 0)
            return {QStringLiteral("(ls failed: %1)").arg(QString::fromUtf8(ls.err))};
        return QString::fromUtf8(ls.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }

    // Runs a shell line in the session; true when it exited 0.
    bool shellIn(const QString &script)
    {
        const ExecResult r = runIn(m_p.get(), m_id, {QStringLiteral("sh"), QStringLiteral("-c"), script});
        return r.code && r.code->ok() && r.code->value() == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_config.isValid() && m_local.isValid());
        // Fails in CI, skips elsewhere, when dockerd, root or the shared engine is missing.
        m_engine.prepare();
        if (QTest::currentTestFailed() || !m_engine.prepared())
            return;
        m_engine.start(QStringLiteral("one"), true);
        if (QTest::currentTestFailed())
            return;
        const Run add =
            ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("eng"), QStringLiteral("--provider"),
                 QStringLiteral("docker"), QStringLiteral("--endpoint"), m_engine.endpoint()});
        QVERIFY2(add.code == 0, describe(add).constData());
        m_p = makeEngineProvider(docker::Flavour::Docker, m_engine.endpoint(), QStringLiteral("eng"));
        QVERIFY(m_p);
        // Someone listening is what keeps the events watch open.
        connect(m_p.get(), &Provider::sessionChanged, this, [this](const SessionInfo &) { ++m_changes; });
    }

    void cleanupTestCase()
    {
        m_p.reset();
        m_engine.stop();
    }

    void killedMidStream()
    {
        auto *dp = qobject_cast<docker::DockerProvider *>(m_p.get());
        dp->setEventsBackoff(std::chrono::milliseconds(50), std::chrono::milliseconds(200));
        CreateSpec spec;
        spec.image = testImage();
        spec.ttlSeconds = 600; // a safety net should cleanup miss it
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        m_id = s->id;
        QVERIFY(waitUntil([&] { return dp->eventsConnected(); }, 10000));

        LiveStreams io;
        QString notLive;
        QVERIFY2(io.open(m_p.get(), m_id, &notLive), qPrintable(notLive));

        // A 1 GiB sparse file: far more than the engine takes in before the kill below.
        QFile big(m_local.filePath(m_bigName));
        QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(qint64(1) << 30));
        big.close();
        auto upload = steps()->putItem(m_id, big.fileName(), QStringLiteral("/tmp"), m_bigName);
        std::optional<VoidResult> uploadResult;
        qint64 uploaded = 0;
        connect(upload.get(), &TransferJob::progress, this, [&](qint64 done, qint64) { uploaded = done; });
        connect(upload.get(), &TransferJob::finished, this, [&](const VoidResult &r) { uploadResult = r; });
        upload->start();
        QVERIFY2(waitUntil([&] { return uploaded >= 8 * 1024 * 1024 || uploadResult.has_value(); }, 30000),
                 "the upload did not get going");
        QVERIFY2(!uploadResult.has_value(), "the upload ended before the kill");

        QElapsedTimer sinceKill;
        m_engine.kill(); // SIGKILL
        sinceKill.start();

        QVERIFY2(waitUntil([&] { return io.streamError.has_value(); }, 10000), "the stats stream did not notice");
        QVERIFY(waitUntil([&] { return io.probe.error.has_value() || io.probe.finishedCode.has_value(); }, 10000));
        QVERIFY(waitUntil([&] { return io.jobResult.has_value(); }, 10000));
        QVERIFY(!io.jobResult->ok());
        QVERIFY2(waitUntil([&] { return uploadResult.has_value(); }, 10000), "the upload did not notice");
        QVERIFY(!uploadResult->ok());
        qInfo("upload ended %lld ms after the kill (%lld MiB sent): %s", sinceKill.elapsed(), uploaded >> 20,
              qPrintable(uploadResult->error().message));
        QVERIFY(waitUntil([&] { return !dp->eventsConnected(); }, 10000));
        QVERIFY(waitUntil([&] { return !io.pty->isOpen(); }, 10000));
        QVERIFY2(sinceKill.elapsed() < 10000, "noticing the dead engine took too long");

        // Later calls fail at once and say why.
        auto info = await<SessionInfo>([&](auto cb) { m_p->info(m_id, cb); }, 10000);
        QVERIFY(!info);
        QCOMPARE(info.code(), ErrorCode::Unavailable);
        auto st = await<StatsSample>([&](auto cb) { m_p->statistics()->stats(m_id, cb); }, 10000);
        QCOMPARE(st.code(), ErrorCode::Unavailable);

        // sandbarctl too: a one-line reason and exit 1 within seconds, no hang, no crash.
        const QString ref = QStringLiteral("eng/") + m_id;
        for (const QStringList &args :
             {QStringList{QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--account"),
                          QStringLiteral("eng")},
              QStringList{QStringLiteral("exec"), ref, QStringLiteral("--"), QStringLiteral("true")},
              QStringList{QStringLiteral("cp"), big.fileName(), ref + QStringLiteral(":/tmp/")}}) {
            const Run r = ctl(args, 30000);
            QVERIFY2(r.code == 1, describe(r).constData());
            QVERIFY2(r.ms < 10000, describe(r).constData());
            const QByteArray why = r.err.trimmed();
            QVERIFY2(!why.isEmpty() && why.count('\n') == 0, describe(r).constData());
            qInfo("sandbarctl %s: %s (%lld ms)", qPrintable(args.first()), why.constData(), r.ms);
        }
    }

    // The same engine state comes back (live-restore): the list shows the session again, a new
    // terminal works in it, and the killed upload left at most a hidden staging entry.
    void recoversOnSameDataRoot()
    {
        QVERIFY(!m_id.isEmpty());
        auto *dp = qobject_cast<docker::DockerProvider *>(m_p.get());
        m_engine.start(QStringLiteral("one"), true);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(waitUntil([&] { return dp->eventsConnected(); }, 30000), "events did not reconnect");

        std::optional<SessionInfo> listed;
        QVERIFY2(waitUntil(
                     [&] {
                         auto all = await<QList<SessionInfo>>([&](auto cb) { m_p->listSessions({}, cb); }, 10000);
                         for (const SessionInfo &s : all.valueOr({}))
                             if (s.id == m_id)
                                 listed = s;
                         return listed.has_value() && listed->state == SessionState::Running;
                     },
                     30000),
                 "the session did not come back running in the list");

        auto pty = m_p->terminals()->openPty(m_id, {});
        PtyProbe probe;
        probe.attach(pty.get());
        pty->start();
        QVERIFY(waitUntil([&] { return probe.started || probe.error.has_value(); }, 15000));
        pty->write("echo back-$((3+4))\n");
        QVERIFY2(probe.waitFor("back-7"), probe.output.constData());
        pty->close();

        const QStringList entries = entriesOf(QStringLiteral("/tmp"));
        QVERIFY2(!entries.contains(m_bigName), qPrintable(entries.join(QLatin1Char(' '))));
        // The engine was taking it in under the hidden name; nothing could remove that.
        bool staged = false;
        for (const QString &e : entries)
            staged = staged || (e.startsWith(QLatin1String(".sandbar-upload-")) && e.endsWith(m_bigName));
        QVERIFY2(staged, qPrintable(entries.join(QLatin1Char(' '))));

        const int before = m_changes;
        CreateSpec spec;
        spec.image = testImage();
        spec.ttlSeconds = 600;
        auto again = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(again);
        QVERIFY(waitUntil([&] { return m_changes > before; }, 15000));
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->remove(again->id, cb); }, 30000));
    }

    // After the outage: uploads land under their final names, a folder merges into an
    // existing one, a stale staging leftover is swept and a young one (maybe another
    // upload's, in flight) is left alone.
    void stagedUploadsAfterRecovery()
    {
        QVERIFY(!m_id.isEmpty());
        QVERIFY(shellIn(QStringLiteral("mkdir -p /tmp/dest/tree/sub && echo keep > /tmp/dest/tree/old.txt && "
                                       "touch /tmp/dest/.sandbar-upload-1000-ab-stale")));

        QDir(m_local.path()).mkpath(QStringLiteral("tree/sub"));
        for (const QString &f : {QStringLiteral("tree/new.txt"), QStringLiteral("tree/sub/deep.txt")}) {
            QFile out(m_local.filePath(f));
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write("fresh\n");
        }
        const QString young = QStringLiteral(".sandbar-upload-%1-cd-young").arg(QDateTime::currentSecsSinceEpoch());
        QVERIFY(runIn(m_p.get(), m_id, {QStringLiteral("touch"), QStringLiteral("/tmp/dest/") + young}).code);

        auto put = steps()->putItem(m_id, m_local.filePath(QStringLiteral("tree")), QStringLiteral("/tmp/dest"),
                                    QStringLiteral("tree"));
        QElapsedTimer took;
        took.start();
        QVERIFY_RESULT(runTransfer(put.get()));
        qInfo("staged folder upload with merge: %lld ms", took.elapsed());
        const ExecResult found = runIn(
            m_p.get(), m_id,
            {QStringLiteral("find"), QStringLiteral("/tmp/dest"), QStringLiteral("-mindepth"), QStringLiteral("1")});
        QStringList got = QString::fromUtf8(found.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        got.sort();
        const QStringList want{QStringLiteral("/tmp/dest/") + young,     QStringLiteral("/tmp/dest/tree"),
                               QStringLiteral("/tmp/dest/tree/new.txt"), QStringLiteral("/tmp/dest/tree/old.txt"),
                               QStringLiteral("/tmp/dest/tree/sub"),     QStringLiteral("/tmp/dest/tree/sub/deep.txt")};
        QCOMPARE(got, want);
    }

    // A user's tar (sandbarctl cp -) is staged as well: whole, its entries are merged into
    // the destination; cut short, it leaves neither a partial file under its final name nor
    // the staging folder behind.
    void userTarStaged()
    {
        QVERIFY(!m_id.isEmpty());
        QVERIFY(
            shellIn(QStringLiteral("mkdir -p /tmp/tardest/tree /tmp/trunc && echo keep > /tmp/tardest/tree/old.txt")));

        const QString root = m_local.filePath(QStringLiteral("tars"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/tree")));
        const auto write = [&](const QString &name, const QByteArray &bytes) {
            QFile out(root + QLatin1Char('/') + name);
            return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
        };
        QVERIFY(write(QStringLiteral("tree/added.txt"), "added\n"));
        QVERIFY(write(QStringLiteral("top.txt"), "top\n"));
        QVERIFY(write(QStringLiteral("half.bin"), QByteArray(1 << 20, 'h')));
        const auto tarOf = [&](const QStringList &names) {
            QProcess tar;
            tar.start(QStringLiteral("tar"),
                      QStringList{QStringLiteral("-C"), root, QStringLiteral("-cf"), QStringLiteral("-")} + names);
            tar.waitForFinished(30000);
            return tar.readAllStandardOutput();
        };
        const auto find = [&](const QString &dir) {
            const ExecResult r =
                runIn(m_p.get(), m_id, {QStringLiteral("find"), dir, QStringLiteral("-mindepth"), QStringLiteral("1")});
            QStringList got = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            got.sort();
            return got;
        };

        QByteArray whole = tarOf({QStringLiteral("tree"), QStringLiteral("top.txt")});
        QVERIFY(whole.size() > 1024);
        QBuffer wholeIn(&whole);
        QVERIFY(wholeIn.open(QIODevice::ReadOnly));
        auto put = steps()->putTar(m_id, &wholeIn, QStringLiteral("/tmp/tardest"));
        QVERIFY_RESULT(runTransfer(put.get()));
        const QStringList want{QStringLiteral("/tmp/tardest/top.txt"), QStringLiteral("/tmp/tardest/tree"),
                               QStringLiteral("/tmp/tardest/tree/added.txt"),
                               QStringLiteral("/tmp/tardest/tree/old.txt")};
        QCOMPARE(find(QStringLiteral("/tmp/tardest")), want);

        QByteArray cut = tarOf({QStringLiteral("half.bin")}).left(600 * 1024);
        QBuffer cutIn(&cut);
        QVERIFY(cutIn.open(QIODevice::ReadOnly));
        auto putCut = steps()->putTar(m_id, &cutIn, QStringLiteral("/tmp/trunc"));
        const VoidResult failed = runTransfer(putCut.get());
        QVERIFY2(!failed, "a truncated tar was taken as whole");
        qInfo("truncated tar refused: %s", qPrintable(failed.message()));
        // The staging folder is removed after the failure is reported.
        QStringList left;
        QVERIFY2(waitUntil([&] { return (left = find(QStringLiteral("/tmp/trunc"))).isEmpty(); }, 15000),
                 qPrintable(left.join(QLatin1Char(' '))));
    }
};

QTEST_GUILESS_MAIN(TestDockerEngineKill)
#include "tst_docker_enginekill.moc"
