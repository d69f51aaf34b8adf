#pragma once

#include "providers/Provider.h"

#include <memory>

namespace sandbar::audit {

class AuditLog;

// Wraps an account's provider so that every action taken through it - by the window or
// by sandbarctl - leaves one audit row with its outcome. It wraps facet by facet and hands
// out only the facets the inner provider has; every facet method is pure, so none can be
// missed here. The log must outlive the wrapper.
class AuditedProvider final : public Provider,
                              public TerminalFacet,
                              public ExecFacet,
                              public FilesFacet,
                              public StatsFacet,
                              public LogsFacet,
                              public ImagesFacet,
                              public PauseFacet,
                              public ArchiveFacet,
                              public TimeLimitFacet,
                              public SnapshotFacet,
                              public ForkFacet,
                              public SettingsFacet,
                              public BackgroundFacet,
                              public LabelsFacet
{
    Q_OBJECT
public:
    AuditedProvider(std::unique_ptr<Provider> inner, AuditLog &log, QObject *parent = nullptr);
    ~AuditedProvider() override;

    Provider *inner() const { return m_inner.get(); }

    // The core: what changes a session is recorded, the rest is passed on.
    const ProviderDescriptor &descriptor() const override { return m_inner->descriptor(); }
    Capabilities coreCapabilities() const override { return m_inner->coreCapabilities(); }
    QString accountName() const override { return m_inner->accountName(); }
    void health(Callback<HealthInfo> done) override { m_inner->health(std::move(done)); }
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override
    {
        m_inner->listSessions(options, std::move(done));
    }
    void info(const QString &sessionId, Callback<SessionInfo> done) override
    {
        m_inner->info(sessionId, std::move(done));
    }
    QString remoteHost() const override { return m_inner->remoteHost(); }
    HostProcessMatch hostProcessMatch(const QString &sessionId) const override
    {
        return m_inner->hostProcessMatch(sessionId);
    }
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void adopt(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;

    // TerminalFacet: an opened terminal is recorded.
    Capabilities terminalFlags() const override { return m_inner->terminals()->terminalFlags(); }
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override
    {
        m_inner->terminals()->listPtys(sessionId, std::move(done));
    }

    // ExecFacet: each command with its exit code.
    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;

    // FilesFacet: what moves or changes a file is recorded, a copy once, where it landed.
    Capabilities fileFlags() const override { return m_inner->files()->fileFlags(); }
    std::unique_ptr<TransferJob> upload(const QString &sessionId, const QString &localPath,
                                        const QString &remoteDest) override;
    std::unique_ptr<TransferJob> download(const QString &sessionId, const QString &remotePath,
                                          const QString &localDest) override;
    std::unique_ptr<TransferJob> uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> downloadTar(const QString &sessionId, const QString &remotePath,
                                             QIODevice *out) override;
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override
    {
        m_inner->files()->statPath(sessionId, path, std::move(done));
    }
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override
    {
        m_inner->files()->listFiles(sessionId, path, std::move(done));
    }
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;

    // StatsFacet, LogsFacet, ImagesFacet: reading only, passed on.
    Capabilities statsFlags() const override { return m_inner->statistics()->statsFlags(); }
    Capabilities onceFlags() const override { return m_inner->statistics()->onceFlags(); }
    void stats(const QString &sessionId, Callback<StatsSample> done) override
    {
        m_inner->statistics()->stats(sessionId, std::move(done));
    }
    std::unique_ptr<StatsStream> streamStats(const QString &sessionId) override
    {
        return m_inner->statistics()->streamStats(sessionId);
    }
    std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) override
    {
        return m_inner->logReader()->logs(sessionId, options);
    }
    void listImages(Callback<QStringList> done) override { m_inner->images()->listImages(std::move(done)); }

    // PauseFacet, ArchiveFacet, TimeLimitFacet: recorded.
    void pause(const QString &sessionId, Callback<void> done) override;
    void resume(const QString &sessionId, Callback<void> done) override;
    void archive(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    // SnapshotFacet: saving and restoring recorded, the list passed on.
    void listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done) override
    {
        m_inner->snapshots()->listSnapshots(sessionId, std::move(done));
    }
    void createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done) override;
    bool keepsComments() const override { return m_inner->snapshots()->keepsComments(); }
    void restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done) override;

    // ForkFacet: session.forked on the source, naming the new one.
    void fork(const QString &sessionId, const ForkSpec &spec, Callback<SessionInfo> done) override;
    void forkOrigin(const QString &sessionId, Callback<QString> done) override
    {
        m_inner->forking()->forkOrigin(sessionId, std::move(done));
    }

    // SettingsFacet: session.settings with the values asked for.
    void changeSettings(const QString &sessionId, const QVariantMap &values, Callback<SessionInfo> done) override;

    // BackgroundFacet: a start and a signal recorded, the list and the output passed on.
    void startBackground(const QString &sessionId, const ExecRequest &request,
                         Callback<BackgroundCommand> done) override;
    void listBackground(const QString &sessionId, Callback<QList<BackgroundCommand>> done) override
    {
        m_inner->background()->listBackground(sessionId, std::move(done));
    }
    std::unique_ptr<LogStream> backgroundOutput(const QString &sessionId, const QString &commandId) override
    {
        return m_inner->background()->backgroundOutput(sessionId, commandId);
    }
    void signalBackground(const QString &sessionId, const QString &commandId, int signal, Callback<void> done) override;

    // LabelsFacet: session.labels with the keys.
    void setLabels(const QString &sessionId, const QMap<QString, QString> &labels, Callback<SessionInfo> done) override;

private:
    void mirrorFacets();
    void record(int action, const QString &sessionId, const QJsonObject &detail, const VoidResult &outcome);
    Callback<void> logged(int action, const QString &sessionId, const QJsonObject &detail, Callback<void> done);
    // Records one row when the job finishes.
    std::unique_ptr<TransferJob> loggedJob(std::unique_ptr<TransferJob> job, int action, const QString &sessionId,
                                           const QJsonObject &detail);

    std::unique_ptr<Provider> m_inner;
    AuditLog &m_log;
};

} // namespace sandbar::audit
