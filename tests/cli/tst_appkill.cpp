// sandbarctl killed with SIGKILL in the middle of a create, a download and an upload, on
// the private Docker engine. A proxy between sandbarctl and the engine holds the engine's
// answer at the chosen moment, so the kill lands mid-operation every time (no timing
// guesses). Afterwards nothing is lost or unseen: the session is listed and its ttl
// still ends it, no half-written file carries a download's final name, the next start
// removes the partial download, and the source of an upload is intact.

#include "TestSupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace sandbar;

namespace {
struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

QString describe(const Run &r)
{
    return QStringLiteral("exit %1\nstdout: %2\nstderr: %3")
        .arg(r.code)
        .arg(QString::fromUtf8(r.out), QString::fromUtf8(r.err));
}

// Forwards every connection to the engine's socket. Armed with a request pattern, the
// connection whose request contains it gets `down` bytes of the engine's answer and
// passes on `up` bytes of the request (-1: all), then nothing more: the client is left
// mid-operation, waiting.
class HoldingProxy : public QObject
{
public:
    explicit HoldingProxy(QString upstream)
        : m_upstream(std::move(upstream))
    {
        connect(&m_server, &QLocalServer::newConnection, this, [this] {
            while (QLocalSocket *client = m_server.nextPendingConnection())
                accept(client);
        });
    }
    bool listen(const QString &path) { return m_server.listen(path); }
    void arm(const QByteArray &pattern, qint64 down, qint64 up = -1)
    {
        m_pattern = pattern;
        m_allow = down;
        m_allowUp = up;
        m_held = false;
    }
    void disarm() { m_pattern.clear(); }
    bool held() const { return m_held; }

private:
    void accept(QLocalSocket *client)
    {
        client->setParent(this);
        auto *up = new QLocalSocket(client);
        auto triggered = std::make_shared<bool>(false);
        auto forwarded = std::make_shared<qint64>(0);
        auto sent = std::make_shared<qint64>(0);
        connect(client, &QLocalSocket::readyRead, up, [this, client, up, triggered, sent] {
            QByteArray bytes = client->readAll();
            if (!m_pattern.isEmpty() && !m_held && bytes.contains(m_pattern))
                *triggered = true;
            if (*triggered && m_allowUp >= 0) {
                const qint64 room = qMax<qint64>(0, m_allowUp - *sent);
                if (bytes.size() > room) {
                    bytes.truncate(room);
                    m_held = true;
                }
                *sent += bytes.size();
            }
            up->write(bytes);
        });
        connect(up, &QLocalSocket::readyRead, client, [this, client, up, triggered, forwarded] {
            QByteArray bytes = up->readAll();
            if (*triggered) {
                const qint64 room = qMax<qint64>(0, m_allow - *forwarded);
                if (bytes.size() > room) {
                    bytes.truncate(room);
                    m_held = true;
                }
                *forwarded += bytes.size();
            }
            client->write(bytes);
        });
        connect(client, &QLocalSocket::disconnected, up, [up] { up->disconnectFromServer(); });
        connect(up, &QLocalSocket::disconnected, client, [client, triggered] {
            if (!*triggered)
                client->disconnectFromServer();
        });
        connect(client, &QLocalSocket::disconnected, client, &QObject::deleteLater);
        up->connectToServer(m_upstream);
    }

    QLocalServer m_server;
    QString m_upstream;
    QByteArray m_pattern;
    qint64 m_allow = 0;
    qint64 m_allowUp = -1;
    bool m_held = false;
};
} // namespace

class TstAppKill : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_sockets{QStringLiteral("/tmp/sbkill-XXXXXX")};
    std::unique_ptr<HoldingProxy> m_proxy;
    QString m_ref; // a session for the transfers

    Run ctl(const QStringList &args, int timeoutMs = 120000)
    {
        QProcess p;
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        p.closeWriteChannel();
        bool finished = false;
        connect(&p, &QProcess::finished, this, [&] { finished = true; });
        // The event loop must run: the proxy forwards sandbarctl's requests from it.
        if (!test::waitUntil([&] { return finished; }, timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)"};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }

    // Starts sandbarctl, waits until the proxy holds its answer (and `extra` holds), then
    // kills it with SIGKILL: no handler, no clean-up of its own.
    bool runAndKill(
        const QStringList &args, const std::function<bool()> &extra = [] { return true; })
    {
        QProcess p;
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        p.closeWriteChannel();
        const bool held = test::waitUntil([&] { return m_proxy->held() && extra(); }, 60000);
        const bool stillRunning = p.state() == QProcess::Running;
        if (p.processId() > 0)
            ::kill(pid_t(p.processId()), SIGKILL);
        p.waitForFinished(10000);
        m_proxy->disarm();
        if (!held || !stillRunning)
            qWarning("sandbarctl %s: held %d, running %d\n%s", qPrintable(args.join(QLatin1Char(' '))), held,
                     stillRunning, p.readAllStandardError().constData());
        return held && stillRunning && p.exitStatus() == QProcess::CrashExit;
    }

    QJsonObject sessionNamed(const QString &name)
    {
        const Run list = ctl(
            {QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--all")});
        for (const auto &v : QJsonDocument::fromJson(list.out).array()) {
            if (v.toObject().value(QStringLiteral("name")).toString() == name)
                return v.toObject();
        }
        return {};
    }

    static QStringList partials(const QString &dir)
    {
        return QDir(dir).entryList({QStringLiteral(".sandbar-partial-*")},
                                   QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot);
    }

    static qint64 bytesUnder(const QString &dir)
    {
        qint64 n = 0;
        QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            n += QFileInfo(it.next()).size();
        return n;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString host = test::dockerHost();
        SANDBAR_REQUIRE(!host.isEmpty(), QStringLiteral("no Docker engine: run through ./test.sh"));
        QVERIFY(m_config.isValid() && m_sockets.isValid());
        m_proxy = std::make_unique<HoldingProxy>(QUrl(host).path());
        const QString proxyPath = QDir(m_sockets.path()).filePath(QStringLiteral("engine.sock"));
        QVERIFY(m_proxy->listen(proxyPath));
        const Run add =
            ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("eng"), QStringLiteral("--provider"),
                 QStringLiteral("docker"), QStringLiteral("--endpoint"), QStringLiteral("unix://") + proxyPath});
        QVERIFY2(add.code == 0, qPrintable(describe(add)));
        const Run create =
            ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                 QStringLiteral("eng"), QStringLiteral("--image"), test::testImage(), QStringLiteral("--ttl"),
                 QStringLiteral("600"), QStringLiteral("--name"), QStringLiteral("kill-transfers")});
        QVERIFY2(create.code == 0, qPrintable(describe(create)));
        m_ref = QString::fromUtf8(create.out).trimmed();
        const Run big = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("sh"),
                             QStringLiteral("-c"), QStringLiteral("head -c 33554432 /dev/zero > /tmp/big.bin")});
        QVERIFY2(big.code == 0, qPrintable(describe(big)));
    }

    void cleanupTestCase()
    {
        if (!m_proxy)
            return;
        const Run list = ctl(
            {QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--all")});
        for (const auto &v : QJsonDocument::fromJson(list.out).array())
            ctl({QStringLiteral("sessions"), QStringLiteral("rm"),
                 v.toObject().value(QStringLiteral("ref")).toString()});
    }

    // Killed after the engine started the container, before sandbarctl heard of it.
    void killedDuringCreate()
    {
        m_proxy->arm("/start", 0);
        QVERIFY(
            runAndKill({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                        QStringLiteral("eng"), QStringLiteral("--image"), test::testImage(), QStringLiteral("--ttl"),
                        QStringLiteral("5"), QStringLiteral("--name"), QStringLiteral("killed-create")}));
        // The next start lists it...
        const QJsonObject s = sessionNamed(QStringLiteral("killed-create"));
        QVERIFY2(!s.isEmpty(), "the session created by the killed sandbarctl is not listed");
        // ...and its time limit still ends it: the sandbox enforces it, not sandbarctl.
        QVERIFY2(test::waitUntil(
                     [&] {
                         const QString state =
                             sessionNamed(QStringLiteral("killed-create")).value(QStringLiteral("state")).toString();
                         return !state.isEmpty() && state != QLatin1String("running");
                     },
                     90000),
                 qPrintable(QString::fromUtf8(QJsonDocument(sessionNamed(QStringLiteral("killed-create"))).toJson())));
    }

    void killedDuringDownload()
    {
        QTemporaryDir dest;
        // 1 MiB of the archive reaches sandbarctl, then the engine goes quiet.
        m_proxy->arm("/archive?path=", 1 << 20);
        QVERIFY(runAndKill({QStringLiteral("cp"), m_ref + QStringLiteral(":/tmp/big.bin"), dest.path()},
                           [&] { return !partials(dest.path()).isEmpty() && bytesUnder(dest.path()) > 0; }));
        // Nothing half-written under the final name; the partial copy is where it says it is.
        QVERIFY(!QFileInfo::exists(dest.filePath(QStringLiteral("big.bin"))));
        QCOMPARE(partials(dest.path()).size(), 1);
        // The next start (any command that opens the account) removes it.
        const Run list = ctl({QStringLiteral("sessions"), QStringLiteral("list")});
        QVERIFY2(list.code == 0, qPrintable(describe(list)));
        QVERIFY2(partials(dest.path()).isEmpty(), qPrintable(partials(dest.path()).join(QLatin1Char(' '))));
        // And the download works in full afterwards.
        const Run again = ctl({QStringLiteral("cp"), m_ref + QStringLiteral(":/tmp/big.bin"), dest.path()});
        QVERIFY2(again.code == 0, qPrintable(describe(again)));
        QCOMPARE(QFileInfo(dest.filePath(QStringLiteral("big.bin"))).size(), qint64(33554432));
        QVERIFY(partials(dest.path()).isEmpty());
    }

    void killedDuringUpload()
    {
        QTemporaryDir src;
        const QString path = src.filePath(QStringLiteral("payload.bin"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray content(16 << 20, 'u');
        f.write(content);
        f.close();
        // 1 MiB of the upload reaches the engine, then sandbarctl is killed.
        m_proxy->arm("PUT /", 0, 1 << 20);
        QVERIFY(runAndKill({QStringLiteral("cp"), path, m_ref + QStringLiteral(":/tmp/")}));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll() == content); // the source is untouched
        f.close();
        QVERIFY(!sessionNamed(QStringLiteral("kill-transfers")).isEmpty());
        const Run again = ctl({QStringLiteral("cp"), path, m_ref + QStringLiteral(":/tmp/")});
        QVERIFY2(again.code == 0, qPrintable(describe(again)));
        const Run size = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("wc"),
                              QStringLiteral("-c"), QStringLiteral("/tmp/payload.bin")});
        QVERIFY2(size.out.trimmed().startsWith(QByteArray::number(16 << 20)), qPrintable(describe(size)));
    }
};

QTEST_GUILESS_MAIN(TstAppKill)
#include "tst_appkill.moc"
