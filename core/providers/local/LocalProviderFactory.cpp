#include "LocalChannels.h"
#include "LocalProvider.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>

namespace sandbar::local {

namespace {
QString findAgent()
{
    const QString env = qEnvironmentVariable("SANDBAR_AGENT_PATH");
    if (!env.isEmpty())
        return env;
    if (QCoreApplication::instance()) {
        const QString dir = QCoreApplication::applicationDirPath();
        // Installed: next to the executable, then ../libexec/sandbar; in a build tree the
        // agent sits in app/agent next to app/sandbar and bench/.
        const QStringList candidates = {QString(dir + QStringLiteral("/sandbar-agent")),
                                        QString(dir + QStringLiteral("/../libexec/sandbar/sandbar-agent")),
                                        QString(dir + QStringLiteral("/agent/sandbar-agent")),
                                        QString(dir + QStringLiteral("/../app/agent/sandbar-agent"))};
        for (const QString &candidate : candidates) {
            if (QFileInfo(candidate).isExecutable())
                return QFileInfo(candidate).canonicalFilePath();
        }
    }
    return {};
}

} // namespace

// ---- environment ----

QString LocalEnvironment::tr(const char *text)
{
    return QCoreApplication::translate("sandbar::local::LocalEnvironment", text);
}

LocalEnvironment LocalEnvironment::detect(const QVariantMap &settings)
{
    LocalEnvironment e;
#ifdef Q_OS_LINUX
    e.bwrapPath = settings.value(QStringLiteral("bwrapPath")).toString();
    if (e.bwrapPath.isEmpty())
        e.bwrapPath = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
    e.slirpPath = QStandardPaths::findExecutable(QStringLiteral("slirp4netns"));
    e.agentPath = findAgent();
    e.cgroupOverride = settings.value(QStringLiteral("cgroupRoot")).toString();
    e.nvidiaSmiPath = QStandardPaths::findExecutable(QStringLiteral("nvidia-smi"));
#else
    Q_UNUSED(settings);
#endif
    return e;
}

QString LocalEnvironment::unavailableReason() const
{
#ifndef Q_OS_LINUX
    return tr("Local sandboxes use bubblewrap, which exists only on Linux. On this system use Docker Desktop "
              "(add a Docker account) or a cloud provider.");
#else
    if (bwrapPath.isEmpty() || !QFileInfo(bwrapPath).isExecutable())
        return tr("bubblewrap is not installed, and Sandbar never falls back to an unsandboxed shell. Install it "
                  "(Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: "
                  "sudo pacman -S bubblewrap) and try again.");
    if (agentPath.isEmpty() || !QFileInfo(agentPath).isExecutable())
        return tr("sandbar-agent was not found next to Sandbar or in ../libexec/sandbar. Reinstall Sandbar or set "
                  "SANDBAR_AGENT_PATH to its location.");
    return {};
#endif
}

// ---- descriptor ----

const ProviderDescriptor &LocalProvider::staticDescriptor()
{
    static const ProviderDescriptor d = [] {
        ProviderDescriptor p;
        p.id = QStringLiteral("local");
        p.displayName = tr("Local sandbox");
        p.description = tr("bubblewrap sandboxes on this computer: no daemon, no key, network off by default");
        FieldDescriptor dataDir;
        dataDir.key = QStringLiteral("dataDir");
        dataDir.label = tr("Data folder");
        dataDir.help = tr("Where sessions and their workspaces are kept; empty: Sandbar's own data folder");
        dataDir.type = FieldType::Path;
        FieldDescriptor cgroup;
        cgroup.key = QStringLiteral("cgroupRoot");
        cgroup.label = tr("cgroup folder");
        cgroup.help =
            tr("A cgroup v2 folder delegated to Sandbar for CPU and memory limits; empty: detect; none: no limits");
        cgroup.type = FieldType::Path;
        p.accountFields = {dataDir, cgroup};

        FieldDescriptor cpus{QStringLiteral("cpus"), tr("CPUs"), tr("Cores the session may use (cgroups)"),
                             FieldType::Number};
        cpus.minimum = 0.01;
        FieldDescriptor memory{QStringLiteral("memory"), tr("Memory"), tr("Memory limit (cgroups)"), FieldType::Bytes};
        memory.minimum = qint64(8) << 20;
        FieldDescriptor pids{QLatin1String(createkeys::PidsLimit), tr("Processes"),
                             tr("Most processes at once (cgroups)"), FieldType::Integer};
        pids.minimum = 8;
        FieldDescriptor ttl{QStringLiteral("ttl"), tr("Time limit"),
                            tr("The sandbox ends itself after this long; 0: none"), FieldType::Duration};
        ttl.defaultValue = 0;
        ttl.minimum = 0;
        FieldDescriptor network{QStringLiteral("network"), tr("Network"),
                                tr("User-mode network (slirp4netns); off: loopback only"), FieldType::Boolean};
        network.defaultValue = false;
        FieldDescriptor mount{QLatin1String(createkeys::Mounts), tr("Mounts"),
                              tr("HOST:PATH[:ro] folders to share, one a line"), FieldType::Mounts};
        FieldDescriptor env{QLatin1String(createkeys::Env), tr("Environment"), tr("KEY=VALUE, one a line"),
                            FieldType::Env};
        // Binds the host's /dev/nvidia* nodes in (SandboxLayout: selectGpuDevices).
        FieldDescriptor gpus{QLatin1String(createkeys::Gpus), tr("GPUs"),
                             tr("all, a number of GPUs, or GPU numbers (N of /dev/nvidiaN) or UUIDs separated by "
                                "commas; NVIDIA only"),
                             FieldType::Gpus};
        gpus.defaultValue = QStringLiteral("none");
        FieldDescriptor ports{QLatin1String(createkeys::Ports), tr("Forwarded ports"),
                              tr("[HOST:]SESSION[/udp], one a line; reachable on 127.0.0.1 only; needs the network on"),
                              FieldType::Ports};
        p.createOptions = {cpus, memory, pids, ttl, network, ports, mount, env, labelsOption(), gpus};
        p.capabilities = Capability::Pty | Capability::PtyResize | Capability::Exec | Capability::Files |
                         Capability::FileList | Capability::StatsCpu | Capability::StatsMemory |
                         Capability::StatsNetwork | Capability::SetTimeout | Capability::Reattach | Capability::Mounts |
                         Capability::Network | Capability::Kill | Capability::StatsStream | Capability::Logs |
                         Capability::Ports;
#ifdef Q_OS_LINUX
        // NVIDIA device nodes exist only on Linux; capabilities() drops it without a GPU.
        p.capabilities |= Capability::Gpu;
#endif
        p.selfHosted = true;
        p.look.badgeRgb = 0x2e7d32;
        p.look.docsUrl = QStringLiteral("https://github.com/containers/bubblewrap");
        return p;
    }();
    return d;
}

// ---- stats stream ----

LocalStatsStream::LocalStatsStream(LocalProvider *provider, const QString &sessionId, QObject *parent)
    : StatsStream(parent)
    , m_provider(provider)
    , m_sessionId(sessionId)
{
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &LocalStatsStream::poll);
}

void LocalStatsStream::start()
{
    m_timer.start();
    poll();
}

void LocalStatsStream::stop()
{
    m_timer.stop();
}

void LocalStatsStream::poll()
{
    if (!m_provider || m_inFlight)
        return;
    m_inFlight = true;
    m_provider->stats(m_sessionId, Callback<StatsSample>(this, [this](Result<StatsSample> r) {
                          m_inFlight = false;
                          if (r)
                              Q_EMIT sample(*r);
                          else
                              Q_EMIT errorOccurred(r.error());
                      }));
}

// ---- factory ----

Result<std::unique_ptr<Provider>> LocalProviderFactory::create(const AccountConfig &account) const
{
    // Made even when bubblewrap is missing: the account then reports why in health()
    // and refuses to create sessions, rather than disappearing.
    return std::unique_ptr<Provider>(new LocalProvider(account, LocalEnvironment::detect(account.settings)));
}

std::optional<QVariantMap> LocalProviderFactory::detectDefault() const
{
    const LocalEnvironment env = LocalEnvironment::detect();
    if (!env.unavailableReason().isEmpty())
        return std::nullopt;
    // bwrap may be installed yet unusable (user namespaces disabled): try the cheapest sandbox.
    QProcess p;
    p.start(env.bwrapPath,
            {QStringLiteral("--unshare-user"), QStringLiteral("--unshare-net"), QStringLiteral("--ro-bind"),
             QStringLiteral("/"), QStringLiteral("/"), QStringLiteral("true")});
    if (!p.waitForFinished(3000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        p.kill();
        p.waitForFinished(500);
        return std::nullopt;
    }
    return QVariantMap{};
}

} // namespace sandbar::local
