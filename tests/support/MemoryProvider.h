#pragma once

#include "providers/Provider.h"
#include "providers/ProviderFactory.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <functional>

namespace sandbar::test {

// The one configurable provider for tests: sessions live in memory, and every facet is there
// to be offered (offer()) and answered by a hook the test sets. For tests of the registry, the
// window, the CLI plumbing and the wrappers, where no engine is the point. A facet method
// answers after the call has returned (the completion contract), as the core's answers from
// memory do; without a hook it answers Unsupported.
class MemoryProvider : public Provider,
                       public TerminalFacet,
                       public ExecFacet,
                       public FilesFacet,
                       public StatsFacet,
                       public LogsFacet,
                       public ImagesFacet,
                       public PauseFacet,
                       public ArchiveFacet,
                       public SnapshotFacet,
                       public TimeLimitFacet,
                       public ForkFacet,
                       public SettingsFacet,
                       public BackgroundFacet,
                       public LabelsFacet
{
    Q_OBJECT
public:
    // Offers the descriptor's capabilities.
    MemoryProvider(const ProviderDescriptor &desc, QString account, QObject *parent = nullptr);

    // What it has from now on: a facet is handed out where one of its bits is set, and reports
    // the finer flags set with it (PtyResize, FileList, which statistics).
    void offer(Capabilities caps);

    // Every call it received, by method name, in order (the wrapper tests read it).
    mutable QStringList calls;

    const ProviderDescriptor &descriptor() const override
    {
        note("descriptor");
        return m_desc;
    }
    Capabilities coreCapabilities() const override;
    QString accountName() const override;
    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &id, Callback<SessionInfo> done) override;
    void stop(const QString &id, Callback<void> done) override;
    void kill(const QString &id, Callback<void> done) override;
    void remove(const QString &id, Callback<void> done) override;
    void adopt(const QString &id, Callback<SessionInfo> done) override;
    HostProcessMatch hostProcessMatch(const QString &id) const override;
    QString remoteHost() const override;

    Capabilities terminalFlags() const override;
    std::unique_ptr<PtyChannel> openPty(const QString &id, const PtyOptions &options) override;
    void listPtys(const QString &id, Callback<QList<PtyEntry>> done) override;
    std::unique_ptr<ExecJob> exec(const QString &id, const ExecRequest &request) override;
    Capabilities fileFlags() const override;
    std::unique_ptr<TransferJob> upload(const QString &id, const QString &local, const QString &remoteDest) override;
    std::unique_ptr<TransferJob> download(const QString &id, const QString &remote, const QString &localDest) override;
    std::unique_ptr<TransferJob> uploadTar(const QString &id, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> downloadTar(const QString &id, const QString &remotePath, QIODevice *out) override;
    void statPath(const QString &id, const QString &path, Callback<PathStat> done) override;
    void listFiles(const QString &id, const QString &path, Callback<QList<FileEntry>> done) override;
    void removePath(const QString &id, const QString &path, Callback<void> done) override;
    void makeDir(const QString &id, const QString &path, Callback<void> done) override;
    void movePath(const QString &id, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &id, const QString &path, quint32 mode, Callback<void> done) override;
    Capabilities statsFlags() const override;
    // What one stats() call gives: all of statsFlags() less the memory (as if only its stream
    // read that), so that a wrapper passing statsFlags() on instead shows.
    Capabilities onceFlags() const override;
    void stats(const QString &id, Callback<StatsSample> done) override;
    std::unique_ptr<StatsStream> streamStats(const QString &id) override;
    std::unique_ptr<LogStream> logs(const QString &id, const LogOptions &options) override;
    void listImages(Callback<QStringList> done) override;
    void pause(const QString &id, Callback<void> done) override;
    void resume(const QString &id, Callback<void> done) override;
    void archive(const QString &id, Callback<void> done) override;
    void setTimeout(const QString &id, qint64 ttl, Callback<void> done) override;
    // Snapshots "snap-1", "snap-2", ... as made; restore takes any id of a known session.
    void listSnapshots(const QString &id, Callback<QList<SnapshotEntry>> done) override;
    void createSnapshot(const QString &id, const QString &comment, Callback<SnapshotEntry> done) override;
    void restoreSnapshot(const QString &id, const QString &snapshotId, Callback<void> done) override;
    bool keepsComments() const override;
    // A copy of the session under the name ("NAME" or "ID-fork"), running.
    void fork(const QString &id, const ForkSpec &spec, Callback<SessionInfo> done) override;
    // "Copies the files as they are now."
    void forkOrigin(const QString &id, Callback<QString> done) override;
    void changeSettings(const QString &id, const QVariantMap &values, Callback<SessionInfo> done) override;
    bool keepsSnapshotComments = true;
    // Commands left running, "cmd-1", "cmd-2", ... as started. Their output is what
    // backgroundOutput holds for the id, delivered at once; a signal ends one (exit 128 + the
    // signal) and the output streams open on it.
    void startBackground(const QString &id, const ExecRequest &request, Callback<BackgroundCommand> done) override;
    void listBackground(const QString &id, Callback<QList<BackgroundCommand>> done) override;
    std::unique_ptr<LogStream> backgroundOutput(const QString &id, const QString &commandId) override;
    void signalBackground(const QString &id, const QString &commandId, int signal, Callback<void> done) override;
    QHash<QString, QByteArray> backgroundOutputs;
    // The person's labels replaced, Sandbar's (dev.sandbar.*) kept.
    void setLabels(const QString &id, const QMap<QString, QString> &labels, Callback<SessionInfo> done) override;
    void injectBackground(const QString &id, const BackgroundCommand &command) { m_background[id].prepend(command); }

    // Health and create answered by the test (a failing engine, a slow pull with progress):
    // unset, health answers "Memory 1" and create succeeds at once.
    std::function<void(Callback<HealthInfo> done)> healthHook;
    std::function<bool(const CreateSpec &spec, Callback<SessionInfo> &done)> createHook; // true: handled
    // Where its sessions' processes run on this machine (tests of NVML matching).
    std::function<HostProcessMatch(const QString &id)> hostMatch;
    QString host; // what remoteHost() answers: a machine reached over SSH, as an engine's

    // The facets' answers; unset ones answer Unsupported.
    std::function<std::unique_ptr<PtyChannel>(const QString &id, const PtyOptions &options)> ptyHook;
    std::function<void(const QString &id, Callback<QList<PtyEntry>> done)> listPtysHook;
    std::function<std::unique_ptr<ExecJob>(const QString &id, const ExecRequest &request)> execHook;
    using CopyHook =
        std::function<std::unique_ptr<TransferJob>(const QString &id, const QString &source, const QString &dest)>;
    CopyHook uploadHook, downloadHook;
    std::function<std::unique_ptr<TransferJob>(const QString &id, QIODevice *tar, const QString &dir)> uploadTarHook;
    std::function<std::unique_ptr<TransferJob>(const QString &id, const QString &path, QIODevice *out)> downloadTarHook;
    std::function<void(const QString &id, const QString &path, Callback<PathStat> done)> statHook;
    std::function<void(const QString &id, const QString &path, Callback<QList<FileEntry>> done)> listFilesHook;
    using PathHook = std::function<void(const QString &id, const QString &path, Callback<void> done)>;
    PathHook removePathHook, makeDirHook;
    std::function<void(const QString &id, const QString &from, const QString &to, Callback<void> done)> movePathHook;
    std::function<void(const QString &id, const QString &path, quint32 mode, Callback<void> done)> setModeHook;
    std::function<void(const QString &id, Callback<StatsSample> done)> statsHook;
    std::function<std::unique_ptr<StatsStream>(const QString &id)> streamHook;
    std::function<std::unique_ptr<LogStream>(const QString &id, const LogOptions &options)> logsHook;
    std::function<void(Callback<QStringList> done)> listImagesHook;

    // Seeds a session as if another Sandbar (or account) had made it.
    void inject(const SessionInfo &session) { m_sessions.insert(session.id, session); }
    bool failListing = false;
    // Stop, kill, pause, resume, archive and remove of these ids fail (tests of error reporting).
    QSet<QString> failIds;
    // Like Docker's container list: limits and GPUs only in info().
    bool listWithoutLimits = false;

private:
    void note(const char *method) const { calls << QLatin1String(method); }
    VoidResult setState(const QString &id, SessionState state);
    Error unsupported(Capability cap) const;

    ProviderDescriptor m_desc;
    QString m_account;
    Capabilities m_offered;
    QHash<QString, QList<SnapshotEntry>> m_snapshots;
    QHash<QString, QList<BackgroundCommand>> m_background; // by session, newest first
    QList<QPointer<LogStream>> m_outputs;
    QHash<QString, SessionInfo> m_sessions;
    int m_next = 1;
};

class MemoryProviderFactory final : public ProviderFactory
{
public:
    MemoryProviderFactory();
    const ProviderDescriptor &descriptor() const override { return m_desc; }
    Result<std::unique_ptr<Provider>> create(const AccountConfig &account) const override;
    // The providers it made, by account, so tests can reach in.
    mutable QHash<QString, MemoryProvider *> made;

private:
    ProviderDescriptor m_desc;
};

} // namespace sandbar::test
