#pragma once

#include "cloud/CloudClient.h"
#include "cloud/DeadlineKeeper.h"
#include "cloud/PolledStats.h"
#include "cloud/WebSocketTerminals.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/daytona/DaytonaParsers.h"

#include <QHash>
#include <QPointer>
#include <QSslCertificate>
#include <QUrl>

class QTimer;

namespace sandbar::daytona {

// A Daytona account (control plane `/api`, v0.190's openapi.yaml) and its sandboxes' toolbox
// (toolbox-swagger.yaml) at the toolboxProxyUrl each Sandbox DTO hands out.
//
// Mapping onto Provider: stop() and pause() are Daytona's stop (processes end, the disk stays;
// compute is no longer billed), shown as Paused because start (resume()) brings the sandbox
// back with its files; kill() is
// a forced stop (`stop?force=true`: everything is killed at once, the sandbox stays, as
// `docker kill` keeps a container); remove() deletes it. The ttl is a wall-clock limit that
// Sandbar enforces while it runs (Daytona's own autoStop counts idle minutes, a separate
// create option): it is kept in Sandbar's labels and the provider stops the sandbox at its
// deadline.
class DaytonaProvider : public Provider,
                        public ExecFacet,
                        public CopyingFiles,
                        public PauseFacet,
                        public ArchiveFacet,
                        public TimeLimitFacet,
                        public LabelsFacet
{
    Q_OBJECT
public:
    struct Settings {
        QUrl endpoint; // the control plane, e.g. https://app.daytona.io/api
        QString apiKey;
        QString organization;
        QString target;
        QList<QSslCertificate> caCertificates;
    };

    // The ttl's deadlines, the labels that carry them and Retry-After dates are read on
    // clock, which must outlive the provider.
    DaytonaProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
                    const Clock &clock = systemClock(), QObject *parent = nullptr);
    ~DaytonaProvider() override;

    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    QString accountName() const override { return m_account; }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;
    void pause(const QString &sessionId, Callback<void> done) override;
    void archive(const QString &sessionId, Callback<void> done) override;
    void resume(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;
    // The person's labels among the sandbox's, Sandbar's (dev.sandbar.*) kept.
    void setLabels(const QString &sessionId, const QMap<QString, QString> &labels, Callback<SessionInfo> done) override;

    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;
    Capabilities fileFlags() const override { return Capability::FileList; }
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override;
    std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath, const QString &remoteDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath, const QString &localDir,
                                         const QString &name) override;
    // The toolbox moves files one by one: a tar stream is Unsupported.
    std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out) override;
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override;
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;

    cloud::CloudClient *client() const { return m_client; }

    // The toolbox URL for a sandbox (toolboxProxyUrl/ID + path), learnt from its DTO.
    void toolboxUrl(const QString &sessionId, const QString &path, Callback<QUrl> done);
    // An authenticated request to a toolbox URL (checked when it was learnt).
    QNetworkRequest toolboxRequest(const QUrl &url) const;
    // A toolbox JSON call.
    void toolboxCall(const QString &sessionId, cloud::ApiCall call, Callback<cloud::ApiReply> done,
                     QList<int> okStatuses = {});

private:
    // PUT /sandbox/ID/labels with these labels, all of them.
    void putLabels(const QString &sessionId, const QMap<QString, QString> &all, Callback<void> done);
    // The toolbox's terminals (the terminals facet): made with POST /process/pty, reached on
    // its WebSocket, listed for reattaching.
    cloud::WebSocketTerminals::Connection ptyConnection(const QString &sessionId, const PtyOptions &options);
    void ptyList(const QString &sessionId, Callback<QList<PtyEntry>> done);
    // The sandbox's telemetry of the last ten minutes (the statistics facet's one-shot call).
    void telemetry(const QString &sessionId, Callback<StatsSample> done);
    struct CreateState;
    void waitStarted(std::shared_ptr<CreateState> state, const SandboxRecord &rec, int polls);
    void listPages(QUrlQuery query, std::shared_ptr<QList<SandboxRecord>> acc, int pageNo,
                   Callback<QList<SandboxRecord>> done);
    void findByToken(const QString &token, Callback<std::optional<SandboxRecord>> done);
    void lifecycle(const QString &sessionId, const QString &action, QUrlQuery query, const QString &failure,
                   Callback<void> done);
    void remember(const SandboxRecord &rec);
    QString enc(const QString &id) const;

    ProviderDescriptor m_descriptor;
    QString m_account;
    Settings m_settings;
    const Clock *m_clock;
    cloud::CloudClient *m_client = nullptr;
    QHash<QString, QUrl> m_toolbox; // sandbox id -> toolbox base (proxy/ID)
    QHash<QString, double> m_cpus;  // for telemetry's utilisation
    QHash<QString, SessionState> m_states;
    cloud::DeadlineKeeper *m_ttl = nullptr; // Sandbar's ttl
    cloud::WebSocketTerminals m_terminals;
    cloud::PolledStats m_stats;
};

} // namespace sandbar::daytona
