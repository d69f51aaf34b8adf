#pragma once

#include "AgentProtocol.h"
#include "Cgroups.h"
#include "SandboxLayout.h"
#include "SessionStore.h"
#include "WorkspaceUsage.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/ProviderFactory.h"

#include <QHash>
#include <QJsonObject>
#include <QTimer>
#include <functional>

namespace sandbar::local {

// Where the Local provider's helpers are on this machine. Found by LocalEnvironment::detect,
// or given by tests.
struct LocalEnvironment {
    QString bwrapPath;      // empty: bubblewrap is not installed
    QString slirpPath;      // empty: no user-mode networking
    QString agentPath;      // sandbar-agent
    QString cgroupOverride; // account setting / SANDBAR_LOCAL_CGROUP_ROOT
    QString nvidiaSmiPath;  // empty: GPUs only by number (/dev/nvidiaN), not by UUID
    // Where GPU device nodes are looked for (tests: a fake tree).
    QString devRoot = QStringLiteral("/dev");
    int startTimeoutMs = 10000;

    static LocalEnvironment detect(const QVariantMap &settings = {});
    // Why sessions cannot be made here, with how to fix it; empty when they can.
    QString unavailableReason() const;

private:
    // Translates in the context lupdate gives this struct's tr() calls, "sandbar::local::LocalEnvironment".
    static QString tr(const char *text);
};

// Sandbar's default provider: one long-lived bubblewrap sandbox per session whose first
// process, sandbar-agent, runs its terminals and commands (see app/agent). Sessions live
// in DATADIR/sessions/<id> and outlive the app; a new provider object finds them again.
class LocalProvider : public Provider,
                      public TerminalFacet,
                      public ExecFacet,
                      public CopyingFiles,
                      public StatsFacet,
                      public LogsFacet,
                      public TimeLimitFacet
{
    Q_OBJECT
public:
    LocalProvider(const AccountConfig &account, const LocalEnvironment &environment, QObject *parent = nullptr);
    ~LocalProvider() override;

    static const ProviderDescriptor &staticDescriptor();
    const ProviderDescriptor &descriptor() const override { return staticDescriptor(); }
    // Without Gpu where this computer has no NVIDIA GPU.
    Capabilities coreCapabilities() const override;
    QString accountName() const override { return m_account.name; }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    Capabilities terminalFlags() const override;
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;
    Capabilities fileFlags() const override { return Capability::FileList; }
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override;
    std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath, const QString &remoteDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath, const QString &localDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out) override;
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override;
    // rm and mkdir through the agent (ExecFileOps.h).
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;
    Capabilities statsFlags() const override;
    void stats(const QString &sessionId, Callback<StatsSample> done) override;
    std::unique_ptr<StatsStream> streamStats(const QString &sessionId) override;
    // agent.log in the session's folder, as one combined stream (LocalLogs.h).
    std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) override;

    // The terminals the agent keeps for a session.
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override;
    // Sessions run here, in cgroups named sandbar-<id> where cgroups are usable.
    HostProcessMatch hostProcessMatch(const QString &sessionId) const override
    {
        return HostProcessMatch{{}, QStringLiteral("sandbar-") + sessionId};
    }

    QString sessionsDir() const;
    QString sessionDir(const QString &sessionId) const;
    QString socketPath(const QString &sessionId) const;

private:
    using Reply = std::function<void(Result<QJsonObject>)>;
    void request(const QString &sessionId, wire::FrameType type, const QJsonObject &body, const Reply &done,
                 int timeoutMs = 10000);
    Result<SessionRecord> runningRecord(const QString &sessionId) const;
    // create() once a GPU request's UUIDs are mapped (nvidia-smi's table, when they needed it).
    void createSession(const CreateSpec &spec, const std::optional<QList<NvidiaSmiGpu>> &smi,
                       Callback<SessionInfo> done);
    // createSession's steps (LocalProviderCreate.cpp).
    SessionRecord newRecord(const CreateSpec &spec, const GpuSelection &gpus) const;
    VoidResult makeSessionDir(const SessionRecord &record) const;
    QJsonObject launchSpec(const SessionRecord &record, const CreateSpec &spec, const QString &host,
                           const QString &etcDir, const QStringList &procs) const;
    void startLauncher(const SessionRecord &record, const QString &launchPath, Callback<SessionInfo> done);
    void finishCreate(SessionRecord record, const QByteArray &launcherOutput, Callback<SessionInfo> done);
    void failCreate(const SessionRecord &record, const Error &error, Callback<SessionInfo> done);
    void waitGone(const QString &sessionId, int attemptsLeft, const std::function<void()> &then);
    void waitCgroupsEmpty(const QStringList &dirs, int attemptsLeft, const std::function<void()> &then);
    void watch();

    AccountConfig m_account;
    LocalEnvironment m_env;
    QTimer m_watch;
    QHash<QString, SessionState> m_lastStates;
    struct CpuMark {
        qint64 cpuNs = 0;
        qint64 monoNs = 0;
        bool cgroup = false; // the cgroup's counter and our clock, else the agent's
    };
    QHash<QString, CpuMark> m_cpuMarks;
    WorkspaceUsage m_workspaceUsage;
};

class LocalProviderFactory : public ProviderFactory
{
public:
    const ProviderDescriptor &descriptor() const override { return LocalProvider::staticDescriptor(); }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;
    // Settings for the first-start account when bubblewrap can make a sandbox here.
    std::optional<QVariantMap> detectDefault() const override;
};

} // namespace sandbar::local
