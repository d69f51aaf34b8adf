// sandbarctl on a cloud account, as a person would use it, against a contract server: the
// key comes from an environment variable into the keychain (never into a file under the
// config folder), `accounts check` contacts the service, and every other command works on
// the account's sandboxes. SANDBAR_CLOUD_PROVIDER picks the provider (tests/cloud/CMakeLists.txt
// runs it for each cloud provider of the list); what differs between providers comes from
// its descriptor: its URL fields and the plan's longest session. Throughout, a
// sampler reads every process's command line for the keys, and at the end every file
// sandbarctl could have written (config folder, HOME, XDG folders, TMPDIR) is searched.

#include "ContractAccount.h"
#include "ServerProcess.h"
#include "TestSupport.h"
#include "providers/ProviderFactory.h"
#include "wiring/AppServices.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>
#include <atomic>
#include <mutex>
#include <thread>

using namespace sandbar;

namespace {
struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

// Reads /proc/PID/cmdline of every process every few milliseconds, on its own thread
// (the test's QProcess waits block the event loop), and keeps any that holds a secret.
class CmdlineSampler
{
public:
    // ignore: the first argument of programs that are not Sandbar (the contract server, and
    // its children between fork and exec, are told the key on their command line).
    CmdlineSampler(QList<QByteArray> secrets, QByteArray ignore)
        : m_secrets(std::move(secrets))
        , m_ignore(std::move(ignore))
    {
        m_thread = std::thread([this] { loop(); });
    }
    ~CmdlineSampler() { stop(); }
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    QStringList hits() const
    {
        std::lock_guard lock(m_mutex);
        return m_hits;
    }
    // The control: how many samples saw a sandbarctl running, so the sampler did look.
    int sandbarctlSeen() const { return m_seen; }

private:
    void loop()
    {
        while (!m_stop) {
            const QStringList pids = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
            for (const QString &pid : pids) {
                bool ok = false;
                const qint64 n = pid.toLongLong(&ok);
                if (!ok || n == QCoreApplication::applicationPid())
                    continue;
                QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
                if (!f.open(QIODevice::ReadOnly))
                    continue;
                const QByteArray cmdline = f.readAll();
                if (cmdline.startsWith(QByteArray(m_ignore).append('\0')))
                    continue;
                if (cmdline.contains("sandbarctl"))
                    ++m_seen;
                for (const QByteArray &secret : m_secrets) {
                    if (cmdline.contains(secret)) {
                        std::lock_guard lock(m_mutex);
                        m_hits << pid + QStringLiteral(": ") +
                                      QString::fromUtf8(QByteArray(cmdline).replace('\0', ' '));
                    }
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5)); // a sampling period, not a wait
        }
    }

    const QList<QByteArray> m_secrets;
    const QByteArray m_ignore;
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_seen{0};
    mutable std::mutex m_mutex;
    QStringList m_hits;
    std::thread m_thread;
};
// `sandbarctl mcp` as an agent drives it: newline-delimited JSON-RPC on its stdio.
class McpClient
{
public:
    McpClient(const QString &configDir, const QProcessEnvironment &env)
    {
        m_process.setProcessEnvironment(env);
        m_process.start(QStringLiteral(SANDBARCTL_PATH),
                        {QStringLiteral("--config-dir"), configDir, QStringLiteral("mcp")});
    }
    // Starts the session as a client does; false when the server did not answer.
    bool initialize()
    {
        if (!m_process.waitForStarted())
            return false;
        const QJsonObject info{{QStringLiteral("name"), QStringLiteral("t")},
                               {QStringLiteral("version"), QStringLiteral("1")}};
        const bool ok =
            call(QStringLiteral("initialize"), {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                                                {QStringLiteral("capabilities"), QJsonObject()},
                                                {QStringLiteral("clientInfo"), info}})
                .contains(QStringLiteral("result"));
        m_process.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                        "\n");
        return ok;
    }
    // One request; its answer (result or error) as JSON.
    QJsonObject call(const QString &method, const QJsonObject &params)
    {
        const int id = m_nextId++;
        const QJsonObject request{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), id},
                                  {QStringLiteral("method"), method},
                                  {QStringLiteral("params"), params}};
        m_process.write(QJsonDocument(request).toJson(QJsonDocument::Compact) + '\n');
        QJsonObject answer;
        test::waitUntil(
            [&] {
                m_out += m_process.readAllStandardOutput();
                for (const QByteArray &line : m_out.split('\n')) {
                    const QJsonObject o = QJsonDocument::fromJson(line).object();
                    if (o.value(QStringLiteral("id")).toInt() == id)
                        answer = o;
                }
                return !answer.isEmpty();
            },
            120000);
        return answer;
    }
    // A tool call's result: structuredContent, and isError where the tool refused.
    QJsonObject tool(const QString &name, const QJsonObject &arguments)
    {
        return call(QStringLiteral("tools/call"),
                    {{QStringLiteral("name"), name}, {QStringLiteral("arguments"), arguments}})
            .value(QStringLiteral("result"))
            .toObject();
    }
    bool finish()
    {
        m_process.closeWriteChannel();
        return m_process.waitForFinished(30000);
    }

private:
    QProcess m_process;
    QByteArray m_out;
    int m_nextId = 1;
};
} // namespace

class TestSandbarctlCloud : public QObject
{
    Q_OBJECT
    QString m_provider;
    ProviderFactories m_factories;
    QString m_key;
    QString m_wrongKey;
    QTemporaryDir m_config;
    // HOME, the XDG folders and TMPDIR of every sandbarctl run: whatever it writes
    // outside --config-dir lands here, where the sweep finds it.
    QTemporaryDir m_home;
    std::unique_ptr<contract::ServerProcess> m_server;
    std::unique_ptr<CmdlineSampler> m_sampler;
    QString m_ref;

    QProcessEnvironment privateEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        for (const char *xdg : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"})
            env.insert(QString::fromLatin1(xdg), m_home.filePath(QString::fromLatin1(xdg).toLower()));
        env.insert(QStringLiteral("TMPDIR"), m_home.filePath(QStringLiteral("tmp")));
        QDir(m_home.path()).mkpath(QStringLiteral("tmp"));
        return env;
    }

    Run ctl(const QStringList &args) { return ctl(args, privateEnvironment()); }
    Run ctl(const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 120000)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), m_config.path()} + args);
        if (!p.waitForStarted())
            return {};
        p.closeWriteChannel();
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return Run{-2, p.readAllStandardOutput(), p.readAllStandardError() + "\n(timed out)"};
        }
        return Run{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
                   p.readAllStandardError()};
    }
    static QByteArray describe(const Run &r)
    {
        return "exit " + QByteArray::number(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
    }

    const ProviderDescriptor &descriptor() const { return m_factories.find(m_provider)->descriptor(); }
    // --KEY VALUE for each URL field of the account: the contract server, under the path the
    // service's own URL has (Daytona's API is at /api), as the contract tests' accounts are.
    QStringList urlOptions() const
    {
        const AccountConfig a = contract::contractAccount(descriptor(), {}, m_server->baseUrl(), {});
        QStringList out;
        for (auto it = a.settings.cbegin(); it != a.settings.cend(); ++it)
            out << QStringLiteral("--") + it.key() << it.value().toString();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_provider = qEnvironmentVariable("SANDBAR_CLOUD_PROVIDER");
        registerProviders(m_factories);
        QVERIFY2(m_factories.find(m_provider),
                 qPrintable(m_provider + QStringLiteral(" is not a registered provider")));
        // Fresh keys each run, so that the sweep cannot be fooled by an earlier run's files.
        // They contain sbtest-secret-, which secret_watch (test.sh) searches for in every file.
        m_key = QStringLiteral("sbtest-secret-cloudkey-") + m_provider + QLatin1Char('-') +
                QUuid::createUuid().toString(QUuid::Id128);
        m_wrongKey = QStringLiteral("sbtest-secret-wrongkey-") + QUuid::createUuid().toString(QUuid::Id128);
        QVERIFY(m_config.isValid() && m_home.isValid());
        if (!QFile::exists(contract::ServerProcess::executable())) {
            if (test::inCi())
                QFAIL("the contract server was not built");
            QSKIP("the contract server was not built");
        }
        m_server =
            std::make_unique<contract::ServerProcess>(m_provider, QStringList{QStringLiteral("--api-key"), m_key});
        QVERIFY2(m_server->start(), qPrintable(m_server->error()));
        // The contract server is told the key on its command line; it is not Sandbar.
        m_sampler = std::make_unique<CmdlineSampler>(QList<QByteArray>{m_key.toUtf8(), m_wrongKey.toUtf8()},
                                                     contract::ServerProcess::executable().toUtf8());
    }

    void addReadsTheKeyFromTheEnvironment()
    {
        QProcessEnvironment env = privateEnvironment();
        // A missing variable is one clear line, and no account is made.
        const Run missing = ctl({QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("cloud"),
                                 QStringLiteral("--provider"), m_provider, QStringLiteral("--api-key-env"),
                                 QStringLiteral("SANDBAR_TEST_NO_SUCH_VAR")},
                                env);
        QVERIFY2(missing.code != 0 && missing.err.contains("SANDBAR_TEST_NO_SUCH_VAR"), describe(missing).constData());
        // Plain http to anything but loopback is refused.
        env.insert(QStringLiteral("SANDBAR_TEST_CLOUD_KEY"), m_key);
        QStringList args{QStringLiteral("accounts"),
                         QStringLiteral("add"),
                         QStringLiteral("cloud"),
                         QStringLiteral("--provider"),
                         m_provider,
                         QStringLiteral("--api-key-env"),
                         QStringLiteral("SANDBAR_TEST_CLOUD_KEY")};
        const Run add = ctl(args + urlOptions(), env);
        QVERIFY2(add.code == 0, describe(add).constData());
        // The key is in the keychain and in no file under the config folder.
        QDirIterator it(m_config.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++files;
            QVERIFY2(!f.readAll().contains(m_key.toUtf8()), qPrintable(f.fileName()));
        }
        QVERIFY(files > 0);
        const Run check = ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("cloud")});
        QVERIFY2(check.code == 0, describe(check).constData());
        QVERIFY(!check.out.contains(m_key.toUtf8()));
    }

    void sessionsLifecycle()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-cloud"),
                                QStringLiteral("--ttl"), QStringLiteral("900"), QStringLiteral("--env"),
                                QStringLiteral("GREETING=hi there")});
        QVERIFY2(create.code == 0, describe(create).constData());
        m_ref = QString::fromUtf8(create.out).trimmed();
        QVERIFY2(m_ref.startsWith(QLatin1String("cloud/")), qPrintable(m_ref));
        const Run list = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list")});
        QVERIFY2(list.code == 0, describe(list).constData());
        bool listed = false;
        for (const auto &v : QJsonDocument::fromJson(list.out).array())
            listed = listed || v.toObject().value(QStringLiteral("ref")).toString() == m_ref;
        QVERIFY2(listed, describe(list).constData());

        const Run exec = ctl({QStringLiteral("exec"), m_ref, QStringLiteral("--"), QStringLiteral("sh"),
                              QStringLiteral("-c"), QStringLiteral("echo \"$GREETING\"; exit 7")});
        QCOMPARE(exec.code, 7);
        QVERIFY2(exec.out.contains("hi there"), describe(exec).constData());

        QTemporaryDir dir;
        QFile up(dir.filePath(QStringLiteral("note.txt")));
        QVERIFY(up.open(QIODevice::WriteOnly));
        up.write(QByteArray(200000, 'q'));
        up.close();
        const QString home = QStringLiteral("/tmp"); // every sandbox has one, as the conformance suite uses
        const Run cpUp = ctl({QStringLiteral("cp"), up.fileName(), m_ref + QLatin1Char(':') + home});
        QVERIFY2(cpUp.code == 0, describe(cpUp).constData());
        QTemporaryDir back;
        const Run cpDown =
            ctl({QStringLiteral("cp"), m_ref + QLatin1Char(':') + home + QStringLiteral("/note.txt"), back.path()});
        QVERIFY2(cpDown.code == 0, describe(cpDown).constData());
        QFile down(QDir(back.path()).filePath(QStringLiteral("note.txt")));
        QVERIFY(down.open(QIODevice::ReadOnly));
        QCOMPARE(down.readAll(), QByteArray(200000, 'q'));

        const Run stats = ctl({QStringLiteral("--json"), QStringLiteral("stats"), m_ref, QStringLiteral("--once")});
        QVERIFY2(stats.code == 0, describe(stats).constData());

        // Snapshots where the provider keeps them (a sprite's checkpoints), else one clear refusal.
        const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
        QVERIFY2(info.code == 0, describe(info).constData());
        const QJsonArray caps =
            QJsonDocument::fromJson(info.out).object().value(QStringLiteral("capabilities")).toArray();
        Run snap = ctl({QStringLiteral("snapshots"), QStringLiteral("create"), m_ref, QStringLiteral("--comment"),
                        QStringLiteral("from the cli")});
        // A service that keeps no comment (Vercel) refuses one, saying so, and takes one without.
        const bool commentRefused = snap.code != 0 && snap.err.contains("comment");
        if (commentRefused)
            snap = ctl({QStringLiteral("snapshots"), QStringLiteral("create"), m_ref});
        if (caps.contains(QStringLiteral("snapshots"))) {
            QVERIFY2(snap.code == 0, describe(snap).constData());
            const QString id = QString::fromUtf8(snap.out).trimmed();
            QVERIFY2(!id.isEmpty() && !id.contains(QLatin1Char('\n')), describe(snap).constData());
            const Run snaps = ctl({QStringLiteral("snapshots"), QStringLiteral("list"), m_ref});
            QVERIFY2(snaps.code == 0 && snaps.out.contains(id.toUtf8()) &&
                         (commentRefused || snaps.out.contains("from the cli")),
                     describe(snaps).constData());
            const Run restored = ctl({QStringLiteral("snapshots"), QStringLiteral("restore"), m_ref, id});
            QVERIFY2(restored.code == 0, describe(restored).constData());
        } else {
            QCOMPARE(snap.code, 1);
            QVERIFY2(snap.err.contains("snapshots"), describe(snap).constData());
        }

        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("stop"), m_ref}).code, 0);
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), m_ref}).code, 0);
        const Run gone = ctl({QStringLiteral("sessions"), QStringLiteral("info"), m_ref});
        QVERIFY2(gone.code != 0, describe(gone).constData());
    }

    // The MCP snapshot tools on a provider that keeps snapshots: an agent takes one, finds it
    // listed and goes back to it, over `sandbarctl mcp` (newline-delimited JSON-RPC on stdio).
    void mcpSnapshotTools()
    {
        if (!descriptor().capabilities.testFlag(Capability::Snapshots))
            QSKIP("this provider keeps no snapshots (list_snapshots refusing is tst_mcp_local's)");
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("mcp-snap"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        McpClient mcp(m_config.path(), privateEnvironment());
        QVERIFY(mcp.initialize());
        const QJsonObject taken = mcp.tool(QStringLiteral("create_snapshot"), {{QStringLiteral("session"), ref}});
        QVERIFY2(!taken.value(QStringLiteral("isError")).toBool(), QJsonDocument(taken).toJson().constData());
        const QString id = taken.value(QStringLiteral("structuredContent"))
                               .toObject()
                               .value(QStringLiteral("snapshot"))
                               .toObject()
                               .value(QStringLiteral("id"))
                               .toString();
        QVERIFY2(!id.isEmpty(), QJsonDocument(taken).toJson().constData());
        const QJsonObject listed = mcp.tool(QStringLiteral("list_snapshots"), {{QStringLiteral("session"), ref}});
        QVERIFY2(QJsonDocument(listed).toJson().contains(id.toUtf8()), QJsonDocument(listed).toJson().constData());
        const QJsonObject restored = mcp.tool(QStringLiteral("restore_snapshot"),
                                              {{QStringLiteral("session"), ref}, {QStringLiteral("snapshot"), id}});
        QVERIFY2(!restored.value(QStringLiteral("isError")).toBool() &&
                     restored.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("restored")) ==
                         id,
                 QJsonDocument(restored).toJson().constData());
        QVERIFY(mcp.finish());
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // sessions fork: the copy's reference where the provider forks, one clear refusal elsewhere.
    void forkFromTheCli()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-fork-src"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const Run fork = ctl({QStringLiteral("sessions"), QStringLiteral("fork"), ref, QStringLiteral("--name"),
                              QStringLiteral("cli-fork-copy")});
        if (descriptor().capabilities.testFlag(Capability::Fork)) {
            QVERIFY2(fork.code == 0, describe(fork).constData());
            // Where the copy's files came from, said on stderr: nothing snapshotted yet.
            QVERIFY2(fork.err.contains("as they are now"), describe(fork).constData());
            const QString copy = QString::fromUtf8(fork.out).trimmed();
            QVERIFY2(copy.startsWith(QLatin1String("cloud/")) && copy != ref, describe(fork).constData());
            const Run ran = ctl({QStringLiteral("exec"), copy, QStringLiteral("--"), QStringLiteral("true")});
            QVERIFY2(ran.code == 0, describe(ran).constData());
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), copy}).code, 0);
        } else {
            QCOMPARE(fork.code, 1);
            QVERIFY2(fork.err.contains("fork"), describe(fork).constData());
        }
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // commands start, list, kill and logs where the provider leaves commands running: each a
    // process of its own, so the list is the account's, not one process's. Elsewhere one clear
    // refusal.
    void backgroundFromTheCli()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-commands"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const Run start = ctl({QStringLiteral("commands"), QStringLiteral("start"), ref, QStringLiteral("--"),
                               QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                               QStringLiteral("echo out-$((6*7)); echo err-line >&2; exec sleep 600")});
        if (!descriptor().capabilities.testFlag(Capability::Background)) {
            QVERIFY2(start.code == 1 && start.err.contains("background"), describe(start).constData());
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
            return;
        }
        QVERIFY2(start.code == 0, describe(start).constData());
        const QString id = QString::fromUtf8(start.out).trimmed();
        QVERIFY(!id.isEmpty());
        const auto state = [&]() -> QJsonObject {
            const Run list = ctl({QStringLiteral("--json"), QStringLiteral("commands"), QStringLiteral("list"), ref});
            for (const QJsonValue &v : QJsonDocument::fromJson(list.out).array()) {
                if (v.toObject().value(QStringLiteral("id")).toString() == id)
                    return v.toObject();
            }
            return {};
        };
        QCOMPARE(state().value(QStringLiteral("running")), QJsonValue(true));
        const Run bad = ctl({QStringLiteral("commands"), QStringLiteral("kill"), ref, id, QStringLiteral("--signal"),
                             QStringLiteral("BOGUS")});
        QVERIFY2(bad.code == 2 && bad.err.contains("BOGUS"), describe(bad).constData());
        const Run kill = ctl({QStringLiteral("commands"), QStringLiteral("kill"), ref, id, QStringLiteral("--signal"),
                              QStringLiteral("KILL")});
        QVERIFY2(kill.code == 0, describe(kill).constData());
        QJsonObject ended;
        QVERIFY(sandbar::test::waitUntil(
            [&] {
                ended = state();
                return ended.value(QStringLiteral("running")) == QJsonValue(false);
            },
            30000));
        if (ended.contains(QStringLiteral("exit_code")))
            QCOMPARE(ended.value(QStringLiteral("exit_code")).toInt(), 128 + 9);
        // The command has ended: its whole output, stdout and stderr apart, and the exit.
        const Run logs = ctl({QStringLiteral("commands"), QStringLiteral("logs"), ref, id});
        QVERIFY2(logs.code == 0 && logs.out.contains("out-42") && logs.err.contains("err-line") &&
                     !logs.out.contains("err-line"),
                 describe(logs).constData());
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // The command tools over `sandbarctl mcp`: a command started, listed, its output read while
    // it runs (ended false), stopped, its output read to its end (ended true). Where the
    // provider keeps no commands, a tool error that says so.
    void mcpCommandTools()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("mcp-commands"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        McpClient mcp(m_config.path(), privateEnvironment());
        QVERIFY(mcp.initialize());
        const QJsonObject started =
            mcp.tool(QStringLiteral("start_command"),
                     {{QStringLiteral("session"), ref},
                      {QStringLiteral("command"), QStringLiteral("echo mcp-$((6*7)); exec sleep 600")}});
        const auto text = [](const QJsonObject &r) { return QJsonDocument(r).toJson(); };
        if (!descriptor().capabilities.testFlag(Capability::Background)) {
            QVERIFY2(started.value(QStringLiteral("isError")).toBool() && text(started).contains("background"),
                     text(started).constData());
        } else {
            QVERIFY2(!started.value(QStringLiteral("isError")).toBool(), text(started).constData());
            const QString id = started.value(QStringLiteral("structuredContent"))
                                   .toObject()
                                   .value(QStringLiteral("command"))
                                   .toObject()
                                   .value(QStringLiteral("id"))
                                   .toString();
            QVERIFY2(!id.isEmpty(), text(started).constData());
            const QJsonObject listed = mcp.tool(QStringLiteral("list_commands"), {{QStringLiteral("session"), ref}});
            QVERIFY2(text(listed).contains(id.toUtf8()), text(listed).constData());
            const QJsonObject args{
                {QStringLiteral("session"), ref}, {QStringLiteral("command"), id}, {QStringLiteral("wait_seconds"), 3}};
            const QJsonObject early = mcp.tool(QStringLiteral("command_output"), args);
            const QJsonObject earlyOut = early.value(QStringLiteral("structuredContent")).toObject();
            QVERIFY2(earlyOut.value(QStringLiteral("stdout")).toString().contains(QStringLiteral("mcp-42")) &&
                         earlyOut.value(QStringLiteral("ended")) == QJsonValue(false),
                     text(early).constData());
            const QJsonObject stopped =
                mcp.tool(QStringLiteral("signal_command"), {{QStringLiteral("session"), ref},
                                                            {QStringLiteral("command"), id},
                                                            {QStringLiteral("signal"), QStringLiteral("KILL")}});
            QVERIFY2(!stopped.value(QStringLiteral("isError")).toBool(), text(stopped).constData());
            QJsonObject late = args;
            late[QStringLiteral("wait_seconds")] = 30;
            const QJsonObject after = mcp.tool(QStringLiteral("command_output"), late);
            QVERIFY2(after.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("ended")) ==
                         QJsonValue(true),
                     text(after).constData());
            const QJsonObject bogus =
                mcp.tool(QStringLiteral("signal_command"), {{QStringLiteral("session"), ref},
                                                            {QStringLiteral("command"), id},
                                                            {QStringLiteral("signal"), QStringLiteral("BOGUS")}});
            // The schema's enum refuses it before the tool runs, naming the signals there are.
            QVERIFY2(bogus.value(QStringLiteral("isError")).toBool() && text(bogus).contains("KILL"),
                     text(bogus).constData());
        }
        QVERIFY(mcp.finish());
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // sessions label: KEY=VALUE and KEY- where the provider changes labels, read back from
    // `--json sessions info` with Sandbar's own untouched; Sandbar's refused as a usage error.
    // Elsewhere one clear refusal.
    void labelsFromTheCli()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-labels"),
                                QStringLiteral("--ttl"), QStringLiteral("900"), QStringLiteral("--label"),
                                QStringLiteral("owner=cli")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        // The label given at create finds it; another value finds nothing.
        const auto listedWith = [&](const QString &label) {
            const Run list = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("list"),
                                  QStringLiteral("--label"), label});
            QStringList refs;
            for (const QJsonValue &v : QJsonDocument::fromJson(list.out).array())
                refs << v.toObject().value(QStringLiteral("ref")).toString();
            return refs;
        };
        QCOMPARE(listedWith(QStringLiteral("owner=cli")), QStringList{ref});
        QCOMPARE(listedWith(QStringLiteral("owner")), QStringList{ref});
        QCOMPARE(listedWith(QStringLiteral("owner=other")), QStringList{});
        const Run set = ctl({QStringLiteral("sessions"), QStringLiteral("label"), ref, QStringLiteral("team=web"),
                             QStringLiteral("stage=dev")});
        if (!descriptor().capabilities.testFlag(Capability::Labels)) {
            QVERIFY2(set.code == 1 && set.err.contains("labels"), describe(set).constData());
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
            return;
        }
        QVERIFY2(set.code == 0, describe(set).constData());
        const auto labelsOf = [&] {
            const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), ref});
            return QJsonDocument::fromJson(info.out).object().value(QStringLiteral("labels")).toObject();
        };
        QJsonObject now = labelsOf();
        QCOMPARE(now.value(QStringLiteral("team")).toString(), QStringLiteral("web"));
        QCOMPARE(now.value(QStringLiteral("stage")).toString(), QStringLiteral("dev"));
        const Run unset = ctl({QStringLiteral("sessions"), QStringLiteral("label"), ref, QStringLiteral("stage-")});
        QVERIFY2(unset.code == 0, describe(unset).constData());
        now = labelsOf();
        QCOMPARE(now.value(QStringLiteral("team")).toString(), QStringLiteral("web"));
        QVERIFY(!now.contains(QStringLiteral("stage")));
        QCOMPARE(now.value(QStringLiteral("dev.sandbar.account")).toString(), QStringLiteral("cloud"));
        const Run ours = ctl(
            {QStringLiteral("sessions"), QStringLiteral("label"), ref, QStringLiteral("dev.sandbar.account=other")});
        QVERIFY2(ours.code == 2 && ours.err.contains("Sandbar"), describe(ours).constData());
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // fork_session over `sandbarctl mcp`: the copy is the agent's new session, so the agent
    // policy's limits hold for it as for create_session: a time limit over the maximum, a
    // session past the number allowed and a price over the limit are refused, and nothing is
    // forked then. Where the provider does not fork, one clear refusal.
    void mcpForkKeepsThePolicy()
    {
        const QString policyFile = m_config.filePath(QStringLiteral("agent-policy.json"));
        const auto writePolicy = [&](const QByteArray &json) {
            QFile f(policyFile);
            return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(json) == json.size();
        };
        QVERIFY(writePolicy(R"({"approve_paid_create": false, "max_sessions": 1, "max_ttl_seconds": 3600,
                                "max_usd_per_hour": 0})"));
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("mcp-fork-src"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const auto sessionsNow = [&] {
            return ctl({QStringLiteral("sessions"), QStringLiteral("list"), QStringLiteral("--account"),
                        QStringLiteral("cloud")})
                .out.count('\n');
        };
        const qsizetype before = sessionsNow();
        McpClient mcp(m_config.path(), privateEnvironment());
        QVERIFY(mcp.initialize());
        const auto refused = [](const QJsonObject &r, const char *says) {
            return r.value(QStringLiteral("isError")).toBool() && QJsonDocument(r).toJson().contains(says);
        };
        if (!descriptor().capabilities.testFlag(Capability::Fork)) {
            const QJsonObject r = mcp.tool(QStringLiteral("fork_session"), {{QStringLiteral("session"), ref}});
            QVERIFY2(refused(r, "fork"), QJsonDocument(r).toJson().constData());
        } else {
            const QJsonObject tooLong = mcp.tool(QStringLiteral("fork_session"),
                                                 {{QStringLiteral("session"), ref}, {QStringLiteral("ttl"), 7200}});
            QVERIFY2(refused(tooLong, "maximum"), QJsonDocument(tooLong).toJson().constData());
            const QJsonObject made =
                mcp.tool(QStringLiteral("fork_session"),
                         {{QStringLiteral("session"), ref}, {QStringLiteral("name"), QStringLiteral("mcp-fork-copy")}});
            QVERIFY2(!made.value(QStringLiteral("isError")).toBool(), QJsonDocument(made).toJson().constData());
            const QJsonObject copyJson =
                made.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("session")).toObject();
            const QString copy = copyJson.value(QStringLiteral("ref")).toString();
            QVERIFY2(!copy.isEmpty() && copy != ref, QJsonDocument(made).toJson().constData());
            // The copy is the agent's, with the policy's default time limit (30 minutes).
            QVERIFY2(!copyJson.value(QStringLiteral("agent")).toString().isEmpty(),
                     QJsonDocument(made).toJson().constData());
            QCOMPARE(copyJson.value(QStringLiteral("ttl_seconds")).toInt(), 1800);
            // Where its files came from, as the provider says it.
            QVERIFY2(made.value(QStringLiteral("structuredContent"))
                         .toObject()
                         .value(QStringLiteral("files_from"))
                         .toString()
                         .contains(QLatin1String("as they are now")),
                     QJsonDocument(made).toJson().constData());
            const QJsonObject second = mcp.tool(QStringLiteral("fork_session"), {{QStringLiteral("session"), ref}});
            QVERIFY2(refused(second, "maximum"), QJsonDocument(second).toJson().constData());
            QVERIFY(writePolicy(R"({"approve_paid_create": false, "max_usd_per_hour": 0.0001})"));
            const QJsonObject dear = mcp.tool(QStringLiteral("fork_session"), {{QStringLiteral("session"), ref}});
            QVERIFY2(refused(dear, "agent policy"), QJsonDocument(dear).toJson().constData());
            QCOMPARE(sessionsNow(), before + 1); // the one fork allowed, no other
            QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), copy}).code, 0);
        }
        QVERIFY(mcp.finish());
        QVERIFY(QFile::remove(policyFile));
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // sessions set: each changeable yes/no option of the provider set, read back with
    // `sessions info --json`, and set back with --KEY=no; an option it cannot change is a usage
    // error. Where the provider changes nothing later, one clear refusal.
    void settingsFromTheCli()
    {
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--name"), QStringLiteral("cli-settings"),
                                QStringLiteral("--ttl"), QStringLiteral("900")});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QString ref = QString::fromUtf8(create.out).trimmed();
        const auto settingOf = [&](const QString &key) {
            const Run info = ctl({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("info"), ref});
            return QJsonDocument::fromJson(info.out).object().value(QStringLiteral("settings")).toObject().value(key);
        };
        const QList<FieldDescriptor> fields = changeableOptions(descriptor());
        if (fields.isEmpty()) {
            const Run refused = ctl({QStringLiteral("sessions"), QStringLiteral("set"), ref, QStringLiteral("--x")});
            QVERIFY2(refused.code == 1 && refused.err.contains("settings"), describe(refused).constData());
        }
        for (const FieldDescriptor &f : fields) {
            if (f.type != FieldType::Boolean)
                continue;
            const QString option = QStringLiteral("--") + f.key;
            const Run on = ctl({QStringLiteral("sessions"), QStringLiteral("set"), ref, option});
            QVERIFY2(on.code == 0, describe(on).constData());
            QCOMPARE(settingOf(f.key), QJsonValue(true));
            const Run off =
                ctl({QStringLiteral("sessions"), QStringLiteral("set"), ref, option + QStringLiteral("=no")});
            QVERIFY2(off.code == 0, describe(off).constData());
            QCOMPARE(settingOf(f.key), QJsonValue(false));
        }
        for (const FieldDescriptor &f : descriptor().createOptions) {
            if (f.changeable || fields.isEmpty())
                continue;
            const Run fixed = ctl({QStringLiteral("sessions"), QStringLiteral("set"), ref, QStringLiteral("--") + f.key,
                                   QStringLiteral("1")});
            QVERIFY2(fixed.code == 2, describe(fixed).constData());
            break;
        }
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), ref}).code, 0);
    }

    // A provider whose plan caps the time limit has the account field max-ttl (E2B: 1 hour by
    // default): asking for more gives a session that ends sooner, and stderr says so. A
    // provider without the field (Daytona) keeps the time asked for and says nothing.
    void cappedTimeLimitIsSaid()
    {
        const FieldDescriptor *cap = descriptor().accountField(QStringLiteral("max-ttl"));
        const qint64 asked = cap ? cap->defaultValue.toLongLong() * 2 : 7200;
        const Run create = ctl({QStringLiteral("sessions"), QStringLiteral("create"), QStringLiteral("--account"),
                                QStringLiteral("cloud"), QStringLiteral("--ttl"), QString::number(asked)});
        QVERIFY2(create.code == 0, describe(create).constData());
        const QByteArray said =
            cap ? "shortened the time limit to " + QByteArray::number(cap->defaultValue.toLongLong() / 60) + " minutes"
                : QByteArray("shortened the time limit");
        QVERIFY2(create.err.contains(said) == (cap != nullptr), describe(create).constData());
        QCOMPARE(ctl({QStringLiteral("sessions"), QStringLiteral("rm"), QString::fromUtf8(create.out).trimmed()}).code,
                 0);
    }

    void wrongKeyIsOneClearLine()
    {
        QProcessEnvironment env = privateEnvironment();
        env.insert(QStringLiteral("SANDBAR_TEST_CLOUD_KEY"), m_wrongKey);
        const Run add = ctl(QStringList{QStringLiteral("accounts"), QStringLiteral("add"), QStringLiteral("bad"),
                                        QStringLiteral("--provider"), m_provider, QStringLiteral("--api-key-env"),
                                        QStringLiteral("SANDBAR_TEST_CLOUD_KEY")} +
                                urlOptions(),
                            env);
        QVERIFY2(add.code == 0, describe(add).constData()); // add does not contact the service
        const Run check = ctl({QStringLiteral("accounts"), QStringLiteral("check"), QStringLiteral("bad")});
        QVERIFY2(check.code != 0, describe(check).constData());
        QVERIFY2(check.err.trimmed().count('\n') == 0, describe(check).constData());
        QVERIFY(!check.err.contains(m_wrongKey.toUtf8()));
    }

    // Section 5 of the security promise: no key in any process's arguments while the
    // flows above ran, and none in any file sandbarctl wrote, in plain or base64 form.
    void noSecretAnywhere()
    {
        QVERIFY(m_sampler);
        m_sampler->stop();
        QVERIFY2(m_sampler->hits().isEmpty(), qPrintable(m_sampler->hits().join(QLatin1Char('\n'))));
        QVERIFY2(m_sampler->sandbarctlSeen() > 0, "the sampler never saw sandbarctl run");
        QList<QByteArray> needles;
        for (const QString &k : {m_key, m_wrongKey})
            needles << k.toUtf8() << k.toUtf8().toBase64();
        int files = 0;
        for (const QString &root : {m_config.path(), m_home.path()}) {
            QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile f(it.next());
                if (!f.open(QIODevice::ReadOnly))
                    continue; // sockets and the like
                ++files;
                const QByteArray content = f.readAll();
                for (const QByteArray &n : needles)
                    QVERIFY2(!content.contains(n), qPrintable(f.fileName()));
            }
        }
        QVERIFY2(files >= 2, "nothing was written: the sweep looked at nothing"); // accounts and audit
    }

    void cleanupTestCase()
    {
        ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("cloud")});
        ctl({QStringLiteral("accounts"), QStringLiteral("remove"), QStringLiteral("bad")});
    }
};

QTEST_GUILESS_MAIN(TestSandbarctlCloud)
#include "tst_sandbarctl_cloud.moc"
