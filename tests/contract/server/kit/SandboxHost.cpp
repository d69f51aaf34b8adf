#include "SandboxHost.h"

#include "ProcTree.h"
#include "terminal/LocalPtyChannel.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStorageInfo>
#include <QThread>
#include <cerrno>
#include <csignal>

using sandbar::ErrorCode;
using sandbar::makeError;

namespace contract {

namespace {

const QString kHome = QStringLiteral("/home/user");
const QString kTmp = QStringLiteral("/tmp");

// The host's system folders, read-only, for bwrap: /usr and /etc (and /opt), the merged-/usr
// links (/bin -> usr/bin) as links, or bound where they are folders. Not "--ro-bind / /": that
// binds every mount under / with it, and one that comes or goes meanwhile (a container's
// overlay of the test engines in /tmp or /var, a network namespace in /run) fails the bind
// ("Can't bind mount /oldroot/ ... Invalid argument"), and with it a sandbox's command.
QStringList rootBinds()
{
    QStringList args;
    for (const char *name : {"usr", "etc", "opt", "bin", "sbin", "lib", "lib32", "lib64", "libx32"}) {
        const QString path = QLatin1Char('/') + QLatin1String(name);
        const QFileInfo info(path);
        if (info.isSymLink())
            args << QStringLiteral("--symlink") << info.symLinkTarget() << path;
        else if (info.isDir())
            args << QStringLiteral("--ro-bind") << path << path;
    }
    return args;
}

QHash<QString, QString> baseEnvironment()
{
    return {{QStringLiteral("PATH"), QStringLiteral("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")},
            {QStringLiteral("HOME"), kHome},
            {QStringLiteral("USER"), QStringLiteral("user")},
            {QStringLiteral("LOGNAME"), QStringLiteral("user")},
            {QStringLiteral("LANG"), QStringLiteral("C.UTF-8")},
            {QStringLiteral("SHELL"), QStringLiteral("/bin/bash")}};
}

bool isWithin(const QString &path, const QString &base)
{
    return path == base || path.startsWith(base + QLatin1Char('/'));
}

} // namespace

// ---- SandboxProcess ----

SandboxProcess::SandboxProcess(ProcessSpec spec, QObject *parent)
    : QObject(parent)
    , m_spec(std::move(spec))
{
}

SandboxProcess::~SandboxProcess()
{
    if (m_running && m_pid > 0)
        sendSignal(SIGKILL);
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

bool SandboxProcess::start(const QString &program, const QStringList &arguments, const QString &hostCwd,
                           const QHash<QString, QString> &env, QString *error)
{
    if (m_spec.pty) {
        m_pty = sandbar::makeLocalPtyChannel(program, arguments, this).release();
        QProcessEnvironment penv;
        for (auto it = env.cbegin(); it != env.cend(); ++it)
            penv.insert(it.key(), it.value());
        m_pty->setEnvironment(penv);
        m_pty->setWorkingDirectory(hostCwd);
        m_pty->setInitialSize(m_spec.cols, m_spec.rows);
        connect(m_pty, &sandbar::PtyChannel::dataReceived, this,
                [this](const QByteArray &bytes) { Q_EMIT output(Channel::Pty, bytes); });
        connect(m_pty, &sandbar::PtyChannel::finished, this, [this](int code) {
            // The local pty reports a signal as 128 + number; envd says "signal: <name>".
            const int sig = code > 128 ? code - 128 : 0;
            const QString status = sig == SIGKILL   ? QStringLiteral("signal: killed")
                                   : sig == SIGTERM ? QStringLiteral("signal: terminated")
                                   : sig == SIGHUP  ? QStringLiteral("signal: hangup")
                                   : sig > 0        ? QStringLiteral("signal: %1").arg(sig)
                                                    : QStringLiteral("exit status %1").arg(code);
            onFinished(sig > 0 ? -1 : code, status);
        });
        connect(m_pty, &sandbar::PtyChannel::errorOccurred, this, [this](const sandbar::Error &e) {
            m_failure = e.message;
            if (m_running)
                onFinished(-1, e.message);
        });
        m_pty->start();
        if (m_pty->pid() <= 0) {
            *error = m_failure.isEmpty() ? QStringLiteral("cannot start a pseudo-terminal") : m_failure;
            return false;
        }
        m_pid = m_pty->pid();
        m_running = true;
        return true;
    }
    m_process = new QProcess(this);
    QProcessEnvironment penv;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        penv.insert(it.key(), it.value());
    m_process->setProcessEnvironment(penv);
    m_process->setWorkingDirectory(hostCwd);
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { Q_EMIT output(Channel::Stdout, m_process->readAllStandardOutput()); });
    connect(m_process, &QProcess::readyReadStandardError, this, [this] {
        const QByteArray bytes = m_process->readAllStandardError();
        m_stderrTail = QByteArray(m_stderrTail + bytes).right(400);
        Q_EMIT output(Channel::Stderr, bytes);
    });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        const QByteArray out = m_process->readAllStandardOutput();
        if (!out.isEmpty())
            Q_EMIT output(Channel::Stdout, out);
        const QByteArray err = m_process->readAllStandardError();
        m_stderrTail = QByteArray(m_stderrTail + err).right(400);
        if (!err.isEmpty())
            Q_EMIT output(Channel::Stderr, err);
        if (status == QProcess::CrashExit)
            onFinished(-1, QStringLiteral("signal: killed"));
        else
            onFinished(code, QStringLiteral("exit status %1").arg(code));
    });
    m_process->start(program, arguments);
    if (!m_process->waitForStarted(10000)) {
        *error = m_process->errorString();
        return false;
    }
    if (!m_spec.stdinOpen)
        m_process->closeWriteChannel();
    m_pid = m_process->processId();
    m_running = true;
    return true;
}

void SandboxProcess::onFinished(int code, const QString &status)
{
    if (!m_running)
        return;
    m_running = false;
    m_exitCode = code;
    m_status = status;
    Q_EMIT finished(code, status);
}

void SandboxProcess::write(const QByteArray &bytes)
{
    if (m_pty)
        m_pty->write(bytes);
    else if (m_process)
        m_process->write(bytes);
}

void SandboxProcess::closeStdin()
{
    if (m_pty)
        m_pty->write(QByteArray(1, '\x04'));
    else if (m_process)
        m_process->closeWriteChannel();
}

void SandboxProcess::resize(int cols, int rows)
{
    if (m_pty)
        m_pty->resize(cols, rows);
}

bool SandboxProcess::sendSignal(int signal)
{
    if (!m_running || m_pid <= 0)
        return false;
    QList<qint64> tree = ProcTree::descendants(m_pid);
    tree.prepend(m_pid);
    if (signal == SIGSTOP || signal == SIGCONT) {
        for (qint64 pid : std::as_const(tree))
            ::kill(pid_t(pid), signal);
        return true;
    }
    // Freeze the whole tree first: signalled one by one, a shell whose child was just
    // killed would otherwise run its next command before its own signal lands.
    for (qint64 pid : std::as_const(tree))
        ::kill(pid_t(pid), SIGSTOP);
    for (qint64 pid : std::as_const(tree))
        ::kill(pid_t(pid), signal);
    for (qint64 pid : std::as_const(tree))
        ::kill(pid_t(pid), SIGCONT);
    return true;
}

// ---- Sandbox ----

Sandbox::Sandbox(QString id, QString root, QObject *parent)
    : QObject(parent)
    , m_id(std::move(id))
    , m_root(std::move(root))
{
    QDir().mkpath(homeDir());
    QDir().mkpath(tmpDir());
    createdAt = QDateTime::currentDateTimeUtc();
}

Sandbox::~Sandbox()
{
    for (const QPointer<SandboxProcess> &p : std::as_const(m_processes)) {
        if (p && p->isRunning()) {
            p->sendSignal(SIGCONT);
            p->sendSignal(SIGKILL);
        }
    }
    qDeleteAll(children());
    QDir(m_root).removeRecursively();
}

QString Sandbox::homeDir() const
{
    return m_root + QStringLiteral("/home");
}

QString Sandbox::tmpDir() const
{
    return m_root + QStringLiteral("/tmp");
}

sandbar::Result<QString> Sandbox::mapInto(const QString &home, const QString &tmp, const QString &apiPath)
{
    if (apiPath.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("empty path"));
    if (apiPath.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("invalid path"));
    QString path = apiPath;
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = kHome + path.mid(1);
    if (!path.startsWith(QLatin1Char('/')))
        path = kHome + QLatin1Char('/') + path;
    path = QDir::cleanPath(path);
    QString base;
    QString hostBase;
    if (isWithin(path, kHome)) {
        base = kHome;
        hostBase = home;
    } else if (isWithin(path, kTmp)) {
        base = kTmp;
        hostBase = tmp;
    } else {
        return makeError(ErrorCode::Unauthorized, QStringLiteral("permission denied: %1 is outside the sandbox's "
                                                                 "writable folders")
                                                      .arg(apiPath));
    }
    const QString host = hostBase + path.mid(base.size());
    // Symlinks inside the sandbox may point anywhere: resolve the deepest existing
    // ancestor and check that it stays inside.
    const QString canonicalBase = QFileInfo(hostBase).canonicalFilePath();
    QString probe = host;
    while (!probe.isEmpty() && !QFileInfo::exists(probe) && !QFileInfo(probe).isSymLink())
        probe = QFileInfo(probe).path();
    const QString resolved = QFileInfo(probe).canonicalFilePath();
    if (QFileInfo(probe).isSymLink() && resolved.isEmpty())
        return makeError(ErrorCode::Unauthorized,
                         QStringLiteral("permission denied: dangling link in %1").arg(apiPath));
    if (!resolved.isEmpty() && !isWithin(resolved, canonicalBase))
        return makeError(ErrorCode::Unauthorized,
                         QStringLiteral("permission denied: %1 leaves the sandbox").arg(apiPath));
    return host;
}

sandbar::Result<QString> Sandbox::mapPath(const QString &apiPath) const
{
    return mapInto(homeDir(), tmpDir(), apiPath);
}

QString Sandbox::apiPath(const QString &hostPath) const
{
    const QString clean = QDir::cleanPath(hostPath);
    if (isWithin(clean, homeDir()))
        return kHome + clean.mid(homeDir().size());
    if (isWithin(clean, tmpDir()))
        return kTmp + clean.mid(tmpDir().size());
    return clean;
}

SandboxProcess *Sandbox::start(const ProcessSpec &spec, QString *error)
{
    auto *host = qobject_cast<SandboxHost *>(parent());
    const QString cwd = spec.cwd.isEmpty() ? kHome : spec.cwd;
    auto hostCwd = mapPath(cwd);
    if (!hostCwd) {
        *error = hostCwd.message();
        return nullptr;
    }
    if (!QFileInfo(*hostCwd).isDir()) {
        *error = QStringLiteral("cwd '%1' does not exist").arg(cwd);
        return nullptr;
    }
    QHash<QString, QString> env = baseEnvironment();
    if (spec.pty)
        env.insert(QStringLiteral("TERM"), QStringLiteral("xterm-256color"));
    for (auto it = envVars.cbegin(); it != envVars.cend(); ++it)
        env.insert(it.key(), it.value());
    for (auto it = spec.envs.cbegin(); it != spec.envs.cend(); ++it)
        env.insert(it.key(), it.value());
    ProcessSpec effective = spec;
    effective.cwd = cwd;
    QStringList line = host ? host->commandLine(this, effective) : QStringList{spec.cmd};
    if (!host || !host->usesBubblewrap())
        env.insert(QStringLiteral("HOME"), homeDir());
    auto *process = new SandboxProcess(effective, this);
    const QString program = line.takeFirst();
    if (!process->start(program, line, host && host->usesBubblewrap() ? homeDir() : *hostCwd, env, error)) {
        delete process;
        return nullptr;
    }
    m_processes.append(process);
    connect(process, &SandboxProcess::finished, this, [this, process](int code, const QString &status) {
        QString ended = QStringLiteral("process %1 (%2) ended: %3 (%4)")
                            .arg(process->pid())
                            .arg(process->spec().cmd)
                            .arg(code)
                            .arg(status);
        if (code != 0 && !process->stderrTail().isEmpty())
            ended += QStringLiteral("; stderr ends: ") + QString::fromUtf8(process->stderrTail()).trimmed();
        log(QStringLiteral("info"), ended);
    });
    log(QStringLiteral("info"), QStringLiteral("process %1 started: %2 %3")
                                    .arg(process->pid())
                                    .arg(spec.cmd, spec.args.join(QLatin1Char(' '))));
    return process;
}

SandboxProcess *Sandbox::process(qint64 pid) const
{
    for (const QPointer<SandboxProcess> &p : m_processes) {
        if (p && p->pid() == pid)
            return p;
    }
    return nullptr;
}

QList<SandboxProcess *> Sandbox::processes() const
{
    QList<SandboxProcess *> out;
    for (const QPointer<SandboxProcess> &p : m_processes) {
        if (p && p->isRunning())
            out.append(p);
    }
    return out;
}

int Sandbox::activePtys() const
{
    int n = 0;
    for (SandboxProcess *p : processes())
        n += p->isPty() ? 1 : 0;
    return n;
}

void Sandbox::pause()
{
    for (SandboxProcess *p : processes())
        p->sendSignal(SIGSTOP);
    m_state = QStringLiteral("paused");
    log(QStringLiteral("info"), QStringLiteral("sandbox paused"));
}

void Sandbox::resume()
{
    for (SandboxProcess *p : processes())
        p->sendSignal(SIGCONT);
    m_state = QStringLiteral("running");
    log(QStringLiteral("info"), QStringLiteral("sandbox resumed"));
}

SandboxMetrics Sandbox::metrics()
{
    SandboxMetrics m;
    m.cpuCount = QThread::idealThreadCount();
    QList<qint64> pids;
    for (SandboxProcess *p : processes()) {
        pids.append(p->pid());
        pids.append(ProcTree::descendants(p->pid()));
    }
    qint64 ticks = 0;
    for (qint64 pid : std::as_const(pids)) {
        const ProcTree::Stat s = ProcTree::stat(pid);
        ticks += s.cpuTicks;
        m.memoryBytes += s.rssBytes;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (m_lastCpuTicks >= 0 && now > m_lastSampleMs) {
        const double seconds = double(ticks - m_lastCpuTicks) / double(ProcTree::ticksPerSecond());
        m.cpuPercent = qMax(0.0, 100.0 * seconds / (double(now - m_lastSampleMs) / 1000.0));
    }
    m_lastCpuTicks = ticks;
    m_lastSampleMs = now;
    QDirIterator it(m_root, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        if (!it.fileInfo().isSymLink())
            m.diskBytes += it.fileInfo().size();
    }
    m.memoryTotal = ProcTree::memoryTotal();
    m.diskTotal = QStorageInfo(m_root).bytesTotal();
    return m;
}

void Sandbox::log(const QString &level, const QString &message)
{
    m_logs.append(
        QJsonObject{{QStringLiteral("timestamp"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
                    {QStringLiteral("level"), level},
                    {QStringLiteral("message"), message}});
    if (m_logs.size() > 1000)
        m_logs.removeFirst();
    // A failed SDK flow prints the server's stderr: with the trace on, it says what each
    // sandboxed command did, so a process that ended early explains itself.
    static const bool trace = !qEnvironmentVariableIsEmpty("SANDBAR_CONTRACT_TRACE");
    if (trace)
        qInfo("sandbox %s: %s", qPrintable(m_id), qPrintable(message));
}

// ---- SandboxHost ----

SandboxHost::SandboxHost(QObject *parent)
    : QObject(parent)
{
    // Folders of servers that died without cleaning up (SIGKILL): their processes died
    // with them (--die-with-parent), the files stay until someone sweeps.
    static const QRegularExpression stale(QStringLiteral("^sandbar-contract-(\\d+)-\\d+$"));
    const QStringList olds = QDir::temp().entryList({QStringLiteral("sandbar-contract-*")}, QDir::Dirs);
    for (const QString &name : olds) {
        const QRegularExpressionMatch m = stale.match(name);
        if (m.hasMatch() && ::kill(pid_t(m.captured(1).toLongLong()), 0) != 0 && errno == ESRCH)
            QDir(QDir::temp().filePath(name)).removeRecursively();
    }
    m_base = QDir::tempPath() + QStringLiteral("/sandbar-contract-%1-%2")
                                    .arg(QCoreApplication::applicationPid())
                                    .arg(QRandomGenerator::global()->generate() % 100000);
    QDir().mkpath(m_base);
    const QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
    m_rootBinds = rootBinds();
    if (!bwrap.isEmpty() && qEnvironmentVariableIsEmpty("SANDBAR_CONTRACT_NO_BWRAP")) {
        QProcess probe;
        probe.start(bwrap, m_rootBinds + QStringList{QStringLiteral("--unshare-net"), QStringLiteral("--unshare-pid"),
                                                     QStringLiteral("--die-with-parent"), QStringLiteral("true")});
        m_bwrap = probe.waitForFinished(10000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
        if (!m_bwrap)
            qWarning("sandbar-contract: bwrap is installed but cannot run here (%s); sandbox commands run as "
                     "plain processes in the sandbox folder",
                     probe.readAllStandardError().trimmed().constData());
    } else {
        qWarning("sandbar-contract: bwrap not found; sandbox commands run as plain processes in the sandbox "
                 "folder (no isolation, /home/user is not mapped for the commands themselves)");
    }
    m_bwrapPath = bwrap;
    m_onExpiry = [this](Sandbox *s) { kill(s->id()); };
    m_expiry.setInterval(250);
    connect(&m_expiry, &QTimer::timeout, this, &SandboxHost::checkExpiry);
    m_expiry.start();
}

SandboxHost::~SandboxHost()
{
    killAll();
    QDir(m_base).removeRecursively();
}

Sandbox *SandboxHost::create(const QString &id)
{
    QString sid = id;
    while (sid.isEmpty() || m_sandboxes.contains(sid)) {
        static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
        sid.clear();
        for (int i = 0; i < 20; ++i)
            sid += QLatin1Char(alphabet[QRandomGenerator::global()->bounded(36)]);
    }
    auto *sandbox = new Sandbox(sid, m_base + QLatin1Char('/') + sid, this);
    m_sandboxes.insert(sid, sandbox);
    ++m_created;
    sandbox->log(QStringLiteral("info"), QStringLiteral("sandbox created"));
    return sandbox;
}

Sandbox *SandboxHost::find(const QString &id) const
{
    return m_sandboxes.value(id);
}

QList<Sandbox *> SandboxHost::sandboxes() const
{
    return m_sandboxes.values();
}

bool SandboxHost::kill(const QString &id)
{
    Sandbox *sandbox = m_sandboxes.take(id);
    if (!sandbox)
        return false;
    delete sandbox;
    Q_EMIT sandboxRemoved(id);
    return true;
}

void SandboxHost::killAll()
{
    const QStringList ids = m_sandboxes.keys();
    for (const QString &id : ids)
        kill(id);
}

int SandboxHost::activePtys() const
{
    int n = 0;
    for (Sandbox *s : m_sandboxes)
        n += s->activePtys();
    return n;
}

void SandboxHost::checkExpiry()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QList<Sandbox *> all = m_sandboxes.values();
    for (Sandbox *s : all) {
        if (s->endAt.isValid() && s->endAt <= now && m_sandboxes.contains(s->id()))
            m_onExpiry(s);
    }
}

QStringList SandboxHost::commandLine(const Sandbox *sandbox, const ProcessSpec &spec) const
{
    if (!m_bwrap) {
        QStringList line{spec.cmd};
        line.append(spec.args);
        return line;
    }
    QStringList line = QStringList{m_bwrapPath} + m_rootBinds;
    line << QStringList{QStringLiteral("--dev"),
                        QStringLiteral("/dev"),
                        QStringLiteral("--proc"),
                        QStringLiteral("/proc"),
                        QStringLiteral("--tmpfs"),
                        QStringLiteral("/home"),
                        QStringLiteral("--bind"),
                        sandbox->homeDir(),
                        kHome,
                        QStringLiteral("--bind"),
                        sandbox->tmpDir(),
                        kTmp,
                        QStringLiteral("--unshare-net"),
                        QStringLiteral("--unshare-pid"),
                        QStringLiteral("--unshare-ipc"),
                        QStringLiteral("--die-with-parent"),
                        QStringLiteral("--chdir"),
                        spec.cwd.isEmpty() ? kHome : spec.cwd,
                        QStringLiteral("--"),
                        spec.cmd};
    line.append(spec.args);
    return line;
}

} // namespace contract
