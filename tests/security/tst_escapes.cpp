// Escape attempts against Local, Docker and Podman sessions (issue 13, section 1). Every
// attempt runs inside a session as its user and must fail there; the same probe on the host
// (or in a session granted the thing) is its positive control. A row with nothing to prove on
// this host (no such service, no such limit) is n/a; one whose control failed proves nothing
// and says CONTROL FAILED, which fails the suite in CI (CI=true), where every control must
// pass for the table to mean anything. Nothing here changes the host: the clock is set to the
// time it reads, a module image is empty, a control mount lives in a private namespace.

#include "EscapeKit.h"
#include "providers/local/LocalProvider.h"

#include <QDir>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>

using namespace sandbar;
using namespace sandbar::test;

namespace {
constexpr int kCapSysModule = 16;
constexpr int kCapSysTime = 25;
constexpr qint64 kPidsLimit = 64;
constexpr qint64 kMemoryLimit = qint64(64) << 20;
const QString kProbe = QStringLiteral("/probe/escape_probe");
const QString kMarkerName = QStringLiteral(".sandbar-escape-marker");
} // namespace

class TstEscapes : public QObject
{
    Q_OBJECT

    struct Target {
        QString provider;
        Provider *p = nullptr;
        QString id;      // the main session: network off, /probe read-only, /rw writable
        QString limited; // pids 64, memory 64 MiB
        QString limitedError;
    };

    QTemporaryDir m_fixture{QStringLiteral("/tmp/sbesc-XXXXXX")};
    QString m_probeDir, m_rwDir, m_outsideDir, m_token;
    QMap<QString, QString> m_markers; // attempt -> host file holding the token
    QStringList m_made;               // files and folders this test made outside the fixture
    QMap<QString, QString> m_sockets; // attempt -> socket (PATH or @abstract)
    QProcess m_hold, m_xvfb, m_agent;
    QTcpServer m_server;
    int m_accepted = 0;
    HostTerminal m_tty;
    QString m_shadowLine;
    QMap<QString, bool> m_controls; // host controls, measured once
    QList<EscapeRow> m_rows;
    QStringList m_oomUnreported; // providers whose statistics missed an OOM kill
    std::unique_ptr<QTemporaryDir> m_localData;
    std::unique_ptr<local::LocalProvider> m_local;
    std::unique_ptr<Provider> m_docker, m_podman;
    QList<QPair<Provider *, QString>> m_sessions;

    void add(const QString &attempt, const QString &provider, bool control, bool blocked, const QString &note = {})
    {
        m_rows.append({attempt, provider, control, blocked, note});
    }
    // Nothing to prove here, and why: not counted for or against the sandbox, not a failure.
    void notApplicable(const QString &attempt, const QString &provider, const QString &why)
    {
        EscapeRow r{attempt, provider, false, false, {}};
        r.notApplicable = why;
        m_rows.append(r);
    }
    QString hostProbe() const { return m_probeDir + QStringLiteral("/escape_probe"); }
    bool control(const QString &attempt, const std::function<bool()> &measure)
    {
        if (!m_controls.contains(attempt))
            m_controls.insert(attempt, measure());
        return m_controls.value(attempt);
    }
    bool hostProbeSucceeds(const QString &args)
    {
        return hostSh(hostProbe() + QLatin1Char(' ') + args).has("SUCCEEDED");
    }
    Result<SessionInfo> create(Provider *p, CreateSpec spec)
    {
        spec.ttlSeconds = 900; // never left behind if the test dies
        spec.mounts = {MountSpec{m_probeDir, QStringLiteral("/probe"), true},
                       MountSpec{m_rwDir, QStringLiteral("/rw"), false}};
        if (p != m_local.get())
            spec.image = testImage();
        auto r = await<SessionInfo>([&](auto cb) { p->create(spec, cb); }, 90000);
        if (r)
            m_sessions.append({p, r->id});
        return r;
    }
    bool writeMarker(const QString &attempt, const QString &dir, const QString &name = kMarkerName)
    {
        QStringList missing; // made here, removed at the end (innermost first)
        for (QString d = dir; !QFileInfo::exists(d); d = QFileInfo(d).path())
            missing.append(d);
        if (!QDir().mkpath(dir))
            return false;
        m_made = missing + m_made;
        QFile f(QDir(dir).filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(m_token.toUtf8()) < 0)
            return false;
        m_made.prepend(f.fileName());
        m_markers.insert(attempt, f.fileName());
        return true;
    }

    void attempts(const Target &t);
    void limits(const Target &t);
    void localOnly(const QString &id);
    void networkOn();

private Q_SLOTS:
    void initTestCase();
    void local();
    void docker();
    void podman();
    void report();
    void cleanupTestCase();
};

void TstEscapes::initTestCase()
{
    QVERIFY(m_fixture.isValid());
    m_token = QStringLiteral("sk-fake-%1").arg(QRandomGenerator::global()->generate64(), 16, 16, QLatin1Char('0'));
    // A fake API key in Sandbar's own environment, before any session exists.
    qputenv("SANDBAR_ESCAPE_FAKE_KEY", m_token.toUtf8());
    const QString root = m_fixture.path();
    m_probeDir = root + QStringLiteral("/probe");
    m_rwDir = root + QStringLiteral("/rw");
    m_outsideDir = root + QStringLiteral("/outside");
    for (const QString &d : {m_probeDir, m_rwDir, m_outsideDir})
        QVERIFY(QDir().mkpath(d));
    // Readable by a sandbox's unprivileged user; /rw writable by it.
    QFile::setPermissions(root, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadOther |
                                    QFile::ExeOther | QFile::ReadGroup | QFile::ExeGroup);
    QVERIFY(hostSh(QStringLiteral("chmod 755 '%1' '%2' && chmod 1777 '%3'").arg(root, m_probeDir, m_rwDir)).code == 0);
    // Set by CTest; run by hand, the probe is built next to this test.
    const QString built = qEnvironmentVariable("SANDBAR_ESCAPE_PROBE", QCoreApplication::applicationDirPath() +
                                                                           QStringLiteral("/escape_probe"));
    QVERIFY2(QFileInfo::exists(built), qPrintable(built));
    // A setuid-root copy: the host control gains euid 0 from it, a sandbox must not.
    QVERIFY(hostSh(QStringLiteral("cp '%1' '%2/escape_probe' && cp '%1' '%2/escape_probe-suid' && chown 0:0 "
                                  "'%2/escape_probe-suid' && chmod 4755 '%2/escape_probe-suid'")
                       .arg(built, m_probeDir))
                .code == 0);

    const QString home = QDir::homePath();
    QVERIFY(writeMarker(QStringLiteral("read:home"), home));
    QVERIFY(writeMarker(QStringLiteral("read:/root"), QStringLiteral("/root"), kMarkerName + QStringLiteral("-root")));
    const QString configDir = qEnvironmentVariable(
        "SANDBAR_CONFIG_DIR",
        QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + QStringLiteral("/sandbar"));
    QVERIFY(writeMarker(QStringLiteral("read:config-folder"), configDir));
    QVERIFY(writeMarker(QStringLiteral("read:keyring-files"),
                        QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                            QStringLiteral("/keyrings")));
    QFile shadow(QStringLiteral("/etc/shadow"));
    if (shadow.open(QIODevice::ReadOnly))
        m_shadowLine = QString::fromUtf8(shadow.readLine().trimmed());

    // A host process with a known marker, and a listener on the host's loopback.
    m_hold.start(hostProbe(), {QStringLiteral("hold"), m_token});
    QVERIFY(m_hold.waitForStarted());
    QVERIFY(m_server.listen(QHostAddress::LocalHost));
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *s = m_server.nextPendingConnection()) {
            ++m_accepted;
            s->write("hello-from-host\n");
            s->disconnectFromHost();
        }
    });

    // Sockets to reach: those already here, and the ones this test can start.
    const QString bus = qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS");
    for (const QString &part : bus.section(QLatin1Char(':'), 1).split(QLatin1Char(','))) {
        if (part.startsWith(QStringLiteral("path=")))
            m_sockets.insert(QStringLiteral("socket:dbus-session"), part.mid(5));
        else if (part.startsWith(QStringLiteral("abstract=")))
            m_sockets.insert(QStringLiteral("socket:dbus-session"), QLatin1Char('@') + part.mid(9));
    }
    // A display of this host's own if one runs, else a fresh Xvfb on a free display number.
    QString x11 = QDir(QStringLiteral("/tmp/.X11-unix")).entryList({QStringLiteral("X*")}, QDir::System).value(0);
    const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
    for (int n = 99; x11.isEmpty() && !xvfb.isEmpty() && n < 120; ++n) {
        if (QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)))
            continue;
        m_xvfb.start(xvfb, {QStringLiteral(":%1").arg(n), QStringLiteral("-nolisten"), QStringLiteral("tcp")});
        const QString sock = QStringLiteral("/tmp/.X11-unix/X%1").arg(n);
        if (waitUntil([&] { return QFileInfo::exists(sock); }, 10000))
            x11 = QFileInfo(sock).fileName();
        break;
    }
    if (!x11.isEmpty()) {
        m_sockets.insert(QStringLiteral("socket:x11"), QStringLiteral("/tmp/.X11-unix/") + x11);
        m_sockets.insert(QStringLiteral("socket:x11-abstract"), QStringLiteral("@/tmp/.X11-unix/") + x11);
    }
    const QString sshAgent = QStandardPaths::findExecutable(QStringLiteral("ssh-agent"));
    if (!sshAgent.isEmpty()) {
        const QString sock = root + QStringLiteral("/ssh-agent.sock");
        m_agent.start(sshAgent, {QStringLiteral("-D"), QStringLiteral("-a"), sock});
        waitUntil([&] { return QFileInfo::exists(sock); }, 10000);
        m_sockets.insert(QStringLiteral("socket:ssh-agent"), sock);
    }
    for (const auto &[name, endpoint] : {std::pair{QStringLiteral("socket:docker"), dockerHost()},
                                         std::pair{QStringLiteral("socket:podman"), podmanHost()}}) {
        if (endpoint.startsWith(QStringLiteral("unix://")))
            m_sockets.insert(name, endpoint.mid(7));
    }
    // Last: the stand-in terminal becomes standard input before any sandbox starts.
    QVERIFY(m_tty.open());
}

void TstEscapes::attempts(const Target &t)
{
    const QString &prov = t.provider;
    auto in = [&](const QString &script, int ms = 60000) { return sessionSh(t.p, t.id, script, ms); };

    // Host files outside the mounts.
    for (auto it = m_markers.cbegin(); it != m_markers.cend(); ++it) {
        const QString path = it.value();
        const bool ctl = control(it.key(), [&] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) && f.readAll() == m_token.toUtf8();
        });
        const QFileInfo fi(path);
        // Read, list, and write a file of its own next to the marker.
        const QString written = fi.path() + QStringLiteral("/.sandbar-escape-written-") + prov;
        const auto r =
            in(QStringLiteral("cat '%1' 2>&1; ls -A '%2' 2>&1; echo x > '%3'").arg(path, fi.path(), written));
        const bool listed = r.out.split('\n').contains(fi.fileName().toUtf8());
        const bool wrote = QFile::exists(written);
        if (wrote)
            QFile::remove(written);
        add(it.key(), prov, ctl, r.ran && !r.has(m_token.toUtf8()) && !listed && !wrote,
            wrote ? QStringLiteral("wrote %1").arg(written) : QString());
    }
    if (!QFileInfo::exists(QStringLiteral("/etc/shadow"))) {
        notApplicable(QStringLiteral("read:/etc/shadow"), prov, QStringLiteral("no /etc/shadow on this host"));
    } else {
        const auto r = in(QStringLiteral("cat /etc/shadow 2>&1"));
        add(QStringLiteral("read:/etc/shadow"), prov, !m_shadowLine.isEmpty(), !r.has(m_shadowLine.toUtf8()));
    }
    // Writing through a read-only mount; the control writes to the writable one.
    {
        const QString ctlFile = QStringLiteral("ctl-") + prov;
        const auto c = in(QStringLiteral("%1 write /rw/%2").arg(kProbe, ctlFile));
        const bool ctl = c.has("SUCCEEDED") && QFileInfo::exists(m_rwDir + QLatin1Char('/') + ctlFile);
        const bool ran =
            in(QStringLiteral("%1 write /probe/sbx-written; touch /probe/sbx-touched; mkdir /probe/sbx-dir")
                   .arg(kProbe))
                .ran;
        const bool wrote = !QDir(m_probeDir).entryList({QStringLiteral("sbx-*")}).isEmpty();
        add(QStringLiteral("write:read-only-mount"), prov, ctl, ran && !wrote);
    }
    // A symlink planted in a writable mount, followed inside and by Sandbar's file transfers.
    {
        const QString link = QStringLiteral("link-") + prov, dirLink = QStringLiteral("dirlink-") + prov;
        const QString marker = m_markers.value(QStringLiteral("read:home"));
        const auto r = in(QStringLiteral("ln -sf '%1' /rw/%2; ln -sfn '%3' /rw/%4; cat /rw/%2 2>&1")
                              .arg(marker, link, m_outsideDir, dirLink));
        QFile viaHost(m_rwDir + QLatin1Char('/') + link);
        const bool ctl = viaHost.open(QIODevice::ReadOnly) && viaHost.readAll().contains(m_token.toUtf8());
        QTemporaryDir down;
        (void)runTransfer(t.p->files()->download(t.id, QStringLiteral("/rw/") + link, down.path()).get());
        const QFileInfo got(down.filePath(link));
        QByteArray fetched;
        if (got.exists() && !got.isSymLink()) {
            QFile f(got.filePath());
            if (f.open(QIODevice::ReadOnly))
                fetched = f.readAll();
        }
        QTemporaryDir up;
        QFile planted(up.filePath(QStringLiteral("planted-") + prov));
        QVERIFY(planted.open(QIODevice::WriteOnly));
        planted.write("planted\n");
        planted.close();
        (void)runTransfer(t.p->files()->upload(t.id, planted.fileName(), QStringLiteral("/rw/") + dirLink).get());
        const bool landed = QFileInfo::exists(m_outsideDir + QStringLiteral("/planted-") + prov);
        add(QStringLiteral("symlink:out-of-mount"), prov, ctl,
            r.ran && !r.has(m_token.toUtf8()) && !fetched.contains(m_token.toUtf8()) && !landed,
            landed ? QStringLiteral("upload followed the link") : QString());
    }
    // Host processes.
    {
        const QString args =
            QStringLiteral("processes %1 %2 %3").arg(m_token.left(8), m_token.mid(8)).arg(m_hold.processId());
        const ProbeRun host = hostSh(hostProbe() + QLatin1Char(' ') + args);
        const ProbeRun r = in(kProbe + QLatin1Char(' ') + args);
        // A probe that did not run proves nothing: never counted as blocked.
        add(QStringLiteral("process:see"), prov, host.has("VISIBLE 1"), r.ran && !r.has("VISIBLE 1"));
        add(QStringLiteral("process:signal"), prov, host.has("SIGNALLED 1"), r.ran && !r.has("SIGNALLED 1"));
        add(QStringLiteral("process:ptrace"), prov, host.has("ATTACHED 1"), r.ran && !r.has("ATTACHED 1"));
        QVERIFY2(m_hold.state() == QProcess::Running, "the host's marked process died");
    }
    // The host's loopback with the network off (only 127.0.0.1 and slirp's 10.0.2.2 are tried).
    {
        const QString port = QString::number(m_server.serverPort());
        const bool ctl = control(QStringLiteral("net-off:host-loopback"),
                                 [&] { return hostProbeSucceeds(QStringLiteral("connect-tcp 127.0.0.1 ") + port); });
        const int before = m_accepted;
        const auto r = in(QStringLiteral("%1 connect-tcp 127.0.0.1 %2; %1 connect-tcp 10.0.2.2 %2").arg(kProbe, port));
        QCoreApplication::processEvents(); // a connection that got through is counted
        add(QStringLiteral("net-off:host-loopback"), prov, ctl, r.ran && !r.has("SUCCEEDED") && m_accepted == before);
    }
    // Sockets of host services.
    for (auto it = m_sockets.cbegin(); it != m_sockets.cend(); ++it) {
        const QString sock = it.value();
        const bool ctl = control(it.key(), [&] { return hostProbeSucceeds(QStringLiteral("connect-unix ") + sock); });
        const auto r = in(QStringLiteral("%1 connect-unix '%2'").arg(kProbe, sock));
        add(it.key(), prov, ctl, r.ran && !r.has("SUCCEEDED"));
    }
    for (const QString &missing :
         {QStringLiteral("socket:dbus-session"), QStringLiteral("socket:x11"), QStringLiteral("socket:ssh-agent"),
          QStringLiteral("socket:docker"), QStringLiteral("socket:podman")}) {
        if (!m_sockets.contains(missing))
            notApplicable(missing, prov, QStringLiteral("no such service on this host"));
    }
    // The terminal that started Sandbar.
    {
        const bool ctl = control(QStringLiteral("tty:TIOCSTI"), [&] {
            m_tty.drainInput();
            hostSh(QStringLiteral("%1 tiocsti %2").arg(hostProbe(), m_tty.path()));
            return m_tty.drainInput().contains("sbx-injected");
        });
        m_tty.drainInput();
        const bool ran = in(QStringLiteral("%1 tiocsti %2 </dev/null").arg(kProbe, m_tty.path())).ran &&
                         in(QStringLiteral("%1 tiocsti").arg(kProbe)).ran;
        add(QStringLiteral("tty:TIOCSTI"), prov, ctl, ran && !m_tty.drainInput().contains("sbx-injected"));
    }
    // Privileged operations. The clock and module controls are capability checks only.
    const QString fix = m_fixture.path();
    struct Privileged {
        QString attempt, inside;
        std::function<bool()> control;
        std::function<QString()> notApplicable = [] { return QString(); }; // why, if nothing to prove here
    };
    const QList<Privileged> privileged{
        {QStringLiteral("priv:mknod"), QStringLiteral("mknod /tmp"),
         [&] { return hostProbeSucceeds(QStringLiteral("mknod ") + fix); }},
        {QStringLiteral("priv:mount"), QStringLiteral("mount /tmp"),
         [&] { return hostProbeSucceeds(QStringLiteral("mount-private ") + fix); }},
        // Not a way out by itself, but a user namespace of its own gives a process every
        // capability over new namespaces: far more kernel to attack. Docker's default seccomp
        // profile refuses it, Local's bwrap --disable-userns, Podman Sandbar's own profile.
        {QStringLiteral("priv:user-namespace"), QStringLiteral("userns"),
         [&] { return hostProbeSucceeds(QStringLiteral("userns")); }},
        {QStringLiteral("priv:set-clock"), QStringLiteral("settime"), [] { return hasCapability(kCapSysTime); }},
        // A kernel without module support refuses everyone alike: no proof, so n/a there.
        {QStringLiteral("priv:load-module"), QStringLiteral("module"), [] { return hasCapability(kCapSysModule); },
         [] {
             QFile disabled(QStringLiteral("/proc/sys/kernel/modules_disabled"));
             if (QFileInfo::exists(QStringLiteral("/proc/modules")) && disabled.open(QIODevice::ReadOnly) &&
                 disabled.readAll().trimmed() == "0")
                 return QString();
             return QStringLiteral("the kernel loads no modules (none built in, or modules_disabled)");
         }},
    };
    for (const auto &a : privileged) {
        if (const QString why = a.notApplicable(); !why.isEmpty()) {
            notApplicable(a.attempt, prov, why);
            continue;
        }
        const bool ctl = control(a.attempt, a.control);
        const auto r = in(kProbe + QLatin1Char(' ') + a.inside);
        const bool blocked = r.ran && !r.has("SUCCEEDED");
        QString note = blocked ? QString() : QString::fromUtf8(r.out.simplified());
        if (!ctl)
            note = QStringLiteral("the host cannot do it either (a capability missing?)");
        add(a.attempt, prov, ctl, blocked, note);
    }
    {
        const bool ctl = control(QStringLiteral("priv:setuid-binary"), [&] {
            return hostSh(QStringLiteral("setpriv --reuid=1000 --regid=1000 --clear-groups %1/escape_probe-suid euid")
                              .arg(m_probeDir))
                .has("EUID 0");
        });
        const auto r = in(QStringLiteral("/probe/escape_probe-suid euid"));
        add(QStringLiteral("priv:setuid-binary"), prov, ctl, r.ran && !r.has("EUID 0"));
    }
    // Sandbar's own environment.
    {
        const bool ctl = control(QStringLiteral("env:host-secret"),
                                 [&] { return hostSh(QStringLiteral("env")).has(m_token.toUtf8()); });
        const auto r = in(QStringLiteral("env; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'"));
        add(QStringLiteral("env:host-secret"), prov, ctl, r.ran && !r.has(m_token.toUtf8()));
    }
}

// Exhausting the host: pids and memory limits hold, the app's loop stays responsive.
void TstEscapes::limits(const Target &t)
{
    const QString &prov = t.provider;
    if (t.limited.isEmpty()) {
        for (const char *a : {"exhaust:fork-bomb", "exhaust:memory-hog", "exhaust:responsive"})
            notApplicable(QLatin1String(a), prov, QStringLiteral("limits refused: ") + t.limitedError);
    } else {
        const bool ctl = control(QStringLiteral("exhaust:fork-bomb"), [&] {
            return hostSh(QStringLiteral("%1 forkbomb %2").arg(hostProbe()).arg(kPidsLimit * 2))
                .has(QByteArray("FORKED ") + QByteArray::number(kPidsLimit * 2));
        });
        QElapsedTimer gap;
        qint64 worst = 0;
        QTimer tick;
        tick.setInterval(20);
        connect(&tick, &QTimer::timeout, this, [&] { worst = qMax(worst, gap.restart()); });
        gap.start();
        tick.start();
        const auto r = sessionSh(t.p, t.limited, kProbe + QStringLiteral(" forkbomb 5000"), 180000);
        tick.stop();
        const int at = r.out.indexOf("FORKED ");
        const qint64 forked = at < 0 ? -1 : r.out.mid(at + 7).split('\n').first().trimmed().toLongLong();
        add(QStringLiteral("exhaust:fork-bomb"), prov, ctl, forked >= 0 && forked <= kPidsLimit,
            QStringLiteral("forked %1 with pids limit %2").arg(forked).arg(kPidsLimit));
        add(QStringLiteral("exhaust:responsive"), prov, true, worst < 1000,
            QStringLiteral("worst event-loop gap %1 ms").arg(worst));

        const bool memCtl = control(QStringLiteral("exhaust:memory-hog"), [&] {
            return hostSh(QStringLiteral("%1 memhog 256").arg(hostProbe())).has("DONE 256");
        });
        auto before = await<StatsSample>([&](auto cb) { t.p->statistics()->stats(t.limited, cb); });
        const auto m = sessionSh(t.p, t.limited, kProbe + QStringLiteral(" memhog 256"), 120000);
        QString note = QStringLiteral("statistics have no out-of-memory marker");
        if (before && before->oomKills.has_value()) {
            std::optional<qint64> kills;
            waitUntil(
                [&] {
                    auto s = await<StatsSample>([&](auto cb) { t.p->statistics()->stats(t.limited, cb); });
                    kills = s ? s->oomKills : std::nullopt;
                    return kills.value_or(0) > before->oomKills.value_or(0);
                },
                15000);
            note = QStringLiteral("oomKills %1 -> %2").arg(*before->oomKills).arg(kills.value_or(-1));
            // The kill happened (the hog never finished) but the statistics did not say so.
            if (!m.has("DONE") && kills.value_or(0) <= *before->oomKills)
                m_oomUnreported << prov;
        }
        add(QStringLiteral("exhaust:memory-hog"), prov, memCtl, !m.has("DONE"), note);
    }
    notApplicable(QStringLiteral("exhaust:disk-filler"), prov,
                  prov == QStringLiteral("local")
                      ? QStringLiteral("not provided: Local has no disk quota")
                      : QStringLiteral("no storage quota option: needs a storage driver that supports it"));
}

void TstEscapes::localOnly(const QString &id)
{
    // bubblewrap's command line names the user's home and the data folder.
    // The control: those paths are among bubblewrap's arguments (however they are passed).
    QFile launch(m_local->sessionDir(id) + QStringLiteral("/launch.json"));
    const bool ctl = launch.open(QIODevice::ReadOnly) && launch.readAll().contains(m_localData->path().toUtf8());
    const auto r = sessionSh(m_local.get(), id, QStringLiteral("cat /proc/[0-9]*/cmdline | tr '\\0' ' '"));
    add(QStringLiteral("proc:1-cmdline-paths"), QStringLiteral("local"), ctl,
        r.ran && !r.has(m_localData->path().toUtf8()) && !r.has(QDir::homePath().toUtf8() + "/"));
}

void TstEscapes::networkOn()
{
    const QString prov = QStringLiteral("local");
    if (local::LocalEnvironment::detect().slirpPath.isEmpty()) {
        notApplicable(QStringLiteral("net-on:host-loopback"), prov, QStringLiteral("slirp4netns missing"));
        return;
    }
    CreateSpec spec;
    spec.network = true;
    auto s = create(m_local.get(), spec);
    QVERIFY_RESULT(s);
    const QString port = QString::number(m_server.serverPort());
    const int before = m_accepted;
    const auto r = sessionSh(m_local.get(), s->id, QStringLiteral("%1 connect-tcp 10.0.2.2 %2").arg(kProbe, port));
    QCoreApplication::processEvents();
    add(QStringLiteral("net-on:host-loopback"), prov, m_controls.value(QStringLiteral("net-off:host-loopback")),
        r.ran && !r.has("SUCCEEDED") && m_accepted == before);
    // Link-local (cloud metadata): a reject route, read from the set-up, no traffic sent.
    const auto route = sessionSh(m_local.get(), s->id, QStringLiteral("cat /proc/net/route"));
    bool hasDefault = false, rejected = false;
    for (const QByteArray &line : route.out.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 8 || f[0] == "Iface")
            continue;
        hasDefault = hasDefault || f[1] == "00000000";
        if (f[1] == "0000FEA9" && f[7] == "0000FFFF" && (f[3].toUInt(nullptr, 16) & 0x0200))
            rejected = true;
    }
    add(QStringLiteral("net-on:link-local-route"), prov, hasDefault, rejected,
        QStringLiteral("169.254.0.0/16 must be a reject route"));
}

void TstEscapes::local()
{
    const local::LocalEnvironment env = local::LocalEnvironment::detect();
    SANDBAR_REQUIRE(env.unavailableReason().isEmpty(), env.unavailableReason());
    // Under the home folder, as the app's data folder is: the paths a sandbox must not learn.
    const QString cache = QDir::homePath() + QStringLiteral("/.cache");
    QDir().mkpath(cache);
    m_localData = std::make_unique<QTemporaryDir>(cache + QStringLiteral("/sbesc-XXXXXX"));
    AccountConfig account;
    account.name = QStringLiteral("escapes");
    account.provider = QStringLiteral("local");
    account.dataDir = m_localData->path();
    m_local = std::make_unique<local::LocalProvider>(account, env);
    Target t{QStringLiteral("local"), m_local.get(), {}, {}, {}};
    auto s = create(m_local.get(), CreateSpec{});
    QVERIFY_RESULT(s);
    t.id = s->id;
    CreateSpec lim;
    lim.pidsLimit = kPidsLimit;
    lim.memoryBytes = kMemoryLimit;
    auto l = create(m_local.get(), lim);
    if (l)
        t.limited = l->id;
    else
        t.limitedError = l.message();
    attempts(t);
    localOnly(t.id);
    networkOn();
    limits(t);
}

void TstEscapes::docker()
{
    SANDBAR_REQUIRE(!dockerHost().isEmpty() && !testImage().isEmpty(),
                    QStringLiteral("SANDBAR_TEST_DOCKER_HOST or SANDBAR_TEST_IMAGE is not set"));
    m_docker = makeEngineProvider(docker::Flavour::Docker, dockerHost());
    QVERIFY(m_docker);
    // As the app does: a listener makes the provider watch the engine's events (OOM kills).
    connect(m_docker.get(), &Provider::sessionChanged, this, [] {});
    Target t{QStringLiteral("docker"), m_docker.get(), {}, {}, {}};
    auto s = create(m_docker.get(), CreateSpec{});
    QVERIFY_RESULT(s);
    t.id = s->id;
    CreateSpec lim;
    lim.pidsLimit = kPidsLimit;
    lim.memoryBytes = kMemoryLimit;
    auto l = create(m_docker.get(), lim);
    if (l)
        t.limited = l->id;
    else
        t.limitedError = l.message();
    attempts(t);
    limits(t);
}

void TstEscapes::podman()
{
    SANDBAR_REQUIRE(!podmanHost().isEmpty() && !testImage().isEmpty(),
                    QStringLiteral("SANDBAR_TEST_PODMAN_HOST or SANDBAR_TEST_IMAGE is not set"));
    m_podman = makeEngineProvider(docker::Flavour::Podman, podmanHost());
    QVERIFY(m_podman);
    // As the app does: a listener makes the provider watch the engine's events (OOM kills).
    connect(m_podman.get(), &Provider::sessionChanged, this, [] {});
    Target t{QStringLiteral("podman"), m_podman.get(), {}, {}, {}};
    auto s = create(m_podman.get(), CreateSpec{});
    QVERIFY_RESULT(s);
    t.id = s->id;
    CreateSpec lim;
    lim.pidsLimit = kPidsLimit;
    lim.memoryBytes = kMemoryLimit;
    auto l = create(m_podman.get(), lim);
    if (l)
        t.limited = l->id;
    else
        t.limitedError = l.message();
    attempts(t);
    limits(t);
}

void TstEscapes::report()
{
    printAndWriteReport(m_rows);
    QStringList escaped, unproven;
    for (const auto &r : m_rows) {
        if (r.escaped())
            escaped << r.attempt + QLatin1Char('/') + r.provider;
        if (r.controlFailed())
            unproven << r.attempt + QLatin1Char('/') + r.provider;
    }
    // Reported, not failed: not an escape, and Podman's events carry no OOM kill of an exec.
    if (!m_oomUnreported.isEmpty())
        qWarning("statistics missed an out-of-memory kill: %s", qPrintable(m_oomUnreported.join(QStringLiteral(", "))));
    // A failed control leaves its row unproven whatever happened inside: said outside CI, where
    // a host may lack what a control needs; a failure in CI, where a suite of such rows would
    // otherwise pass having shown nothing.
    const QString unprovenText =
        QStringLiteral("positive control failed, so the row proves nothing: ") + unproven.join(QStringLiteral(", "));
    if (!unproven.isEmpty() && !inCi())
        qWarning("%s", qPrintable(unprovenText));
    QVERIFY2(!m_rows.isEmpty(), "no attempt ran");
    QVERIFY2(escaped.isEmpty(), qPrintable(QStringLiteral("escaped: ") + escaped.join(QStringLiteral(", "))));
    if (inCi())
        QVERIFY2(unproven.isEmpty(), qPrintable(unprovenText));
}

void TstEscapes::cleanupTestCase()
{
    for (const auto &[p, id] : std::as_const(m_sessions))
        (void)await<void>([&](auto cb) { p->remove(id, cb); }, 60000);
    m_tty.close();
    for (QProcess *p : {&m_hold, &m_xvfb, &m_agent}) {
        // Terminated, not killed: Xvfb removes its socket and lock file on the way out.
        if (p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(5000)) {
                p->kill();
                p->waitForFinished(5000);
            }
        }
    }
    for (const QString &path : std::as_const(m_made))
        QFileInfo(path).isDir() ? void(QDir().rmdir(path)) : void(QFile::remove(path));
    qunsetenv("SANDBAR_ESCAPE_FAKE_KEY");
}

QTEST_GUILESS_MAIN(TstEscapes)
#include "tst_escapes.moc"
