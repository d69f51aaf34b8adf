#pragma once

#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/docker/DockerApi.h"

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QTimer>

namespace sandbar::docker {

// Docker and Podman (its Docker-compatible service) spoken over the Engine API.
class DockerProvider : public Provider,
                       public TerminalFacet,
                       public ExecFacet,
                       public CopyingFiles,
                       public StatsFacet,
                       public LogsFacet,
                       public ImagesFacet,
                       public PauseFacet,
                       public TimeLimitFacet
{
    Q_OBJECT
public:
    DockerProvider(const ProviderDescriptor &descriptor, QString accountName, net::Endpoint endpoint,
                   QString dataDir = {}, QObject *parent = nullptr);
    ~DockerProvider() override;

    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    QString accountName() const override { return m_account; }
    // A "docker" account that turns out to be a Podman engine loses Gpu (DeviceRequests
    // are ignored there).
    Capabilities coreCapabilities() const override;
    DockerApi *api() const { return m_api; }

    void health(Callback<HealthInfo> done) override;
    void listImages(Callback<QStringList> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &sessionId, Callback<SessionInfo> done) override;
    void adopt(const QString &sessionId, Callback<SessionInfo> done) override;
    // An engine on a unix socket or named pipe runs its containers on this machine.
    HostProcessMatch hostProcessMatch(const QString &sessionId) const override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;
    void pause(const QString &sessionId, Callback<void> done) override;
    void resume(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    // No terminal outlives its exec here, so none is listed for reattaching.
    Capabilities terminalFlags() const override { return Capability::PtyResize; }
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override;
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
    // rm and mkdir run in the container (ExecFileOps.h).
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;
    Capabilities statsFlags() const override;
    void stats(const QString &sessionId, Callback<StatsSample> done) override;
    std::unique_ptr<StatsStream> streamStats(const QString &sessionId) override;
    std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) override;

    // Events are watched while anyone listens to sessionChanged/sessionRemoved; tests may
    // shorten the reconnect back-off.
    void setEventsBackoff(std::chrono::milliseconds first, std::chrono::milliseconds max);
    // The engine runs on another machine (reached over SSH through a local socket): its
    // processes are not this machine's, and a socket that stops answering is restored by
    // recovery (the master connection and its forwarding made again).
    void setRemoteHost(const QString &host, std::shared_ptr<net::ConnectRecovery> recovery)
    {
        m_remoteHost = host;
        m_api->setConnectRecovery(std::move(recovery));
    }
    bool eventsConnected() const { return m_eventsConnected; }
    QString remoteHost() const override { return m_remoteHost; }
    // What a session's published ports are reached at from here (a remote engine's, forwarded).
    void setEndpointMapper(std::function<QList<SessionEndpoint>(QList<SessionEndpoint>)> mapper)
    {
        m_endpointMapper = std::move(mapper);
    }

protected:
    void connectNotify(const QMetaMethod &signal) override;
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    void simple(const QByteArray &method, const QByteArray &path, const QString &sessionId, const QString &action,
                Callback<void> done, bool notModifiedIsOk = false);
    void createContainer(const QByteArray &body, const QString &image, const QString &name, bool pulled,
                         Callback<SessionInfo> done);
    // Streams the engine's progress as createProgress(name, ...).
    void pullImage(const QString &image, const QString &name, Callback<void> done);
    void startContainer(const QString &id, Callback<SessionInfo> done);
    // Docker makes a working folder the image lacks as root's (Podman as the user's), and the
    // session's user could not write in its own folder: the folder (not what is in it) is
    // given to that user before the start, through the archive API (no exec, no shell).
    void claimWorkingDir(const QString &id, const QByteArray &body, Callback<void> done);
    SessionInfo withOverrides(SessionInfo s) const;
    void loadOverrides();
    void saveOverrides() const;
    void updateEventsWatch();
    void connectEvents();
    void scheduleEventsReconnect();

    ProviderDescriptor m_descriptor;
    QString m_account;
    QString m_dataDir;
    QString m_remoteHost;
    std::function<QList<SessionEndpoint>(QList<SessionEndpoint>)> m_endpointMapper;
    DockerApi *m_api = nullptr;
    // Deadlines changed by setTimeout (labels cannot change after create).
    QHash<QString, QDateTime> m_deadlines;
    QSet<QString> m_adopted;              // full container ids
    QHash<QString, CpuReading> m_lastCpu; // per session, for one-shot CPU deltas
    // OOM kills and writable-layer sizes for the statistics (DockerUsage.h).
    class DockerUsageTracker *m_usage = nullptr;
    // events
    QPointer<net::HttpExchange> m_events;
    QByteArray m_eventsBuffer;
    QTimer m_eventsRetry;
    std::chrono::milliseconds m_backoffFirst{500}, m_backoffMax{30000}, m_backoff{500};
    qint64 m_lastEventTime = 0;
    bool m_eventsWanted = false;
    bool m_eventsConnected = false;
};

} // namespace sandbar::docker
