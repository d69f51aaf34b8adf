#pragma once

#include "cloud/CloudClient.h"
#include "cloud/PolledStats.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/e2b/E2bEnvd.h"
#include "providers/e2b/E2bParsers.h"

#include <QHash>
#include <QPointer>

namespace sandbar::e2b {

struct E2bSettings {
    QUrl apiUrl;     // https://api.e2b.app
    QUrl sandboxUrl; // empty: https://49983-ID.DOMAIN per sandbox
    QString user = QStringLiteral("user");
    qint64 maxTimeoutSeconds = 3600; // the plan's cap (Hobby 1 h, Pro 24 h)
};

// E2B on the Provider contract. Stop is pause (a paused sandbox keeps its memory and files
// and is not billed for compute), remove and kill end it. The time limit is E2B's own
// wall-clock timeout, clamped to the plan's cap.
class E2bProvider : public Provider,
                    public TerminalFacet,
                    public ExecFacet,
                    public CopyingFiles,
                    public LogsFacet,
                    public PauseFacet,
                    public TimeLimitFacet
{
    Q_OBJECT
public:
    E2bProvider(const ProviderDescriptor &descriptor, QString account, E2bSettings settings,
                cloud::CloudClient::Options client, QObject *parent = nullptr);

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
    void resume(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    Capabilities terminalFlags() const override { return Capability::PtyResize | Capability::Reattach; }
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;
    Capabilities fileFlags() const override { return Capability::FileList; }
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override;
    std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath, const QString &remoteDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath, const QString &localDir,
                                         const QString &name) override;
    // envd moves files one by one: a tar stream is Unsupported.
    std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out) override;
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override;
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;
    std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) override;
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override;

    // The seconds a create or resume asks E2B for: the ttl clamped to the plan's cap, and a
    // note for people when it was clamped. 0 (no limit) is not something E2B offers.
    static std::pair<qint64, QString> clampTimeout(qint64 ttlSeconds, qint64 capSeconds);

private:
    // The control plane's metrics of one sandbox (the statistics facet's one-shot call).
    void metrics(const QString &sessionId, Callback<StatsSample> done);
    EnvdTarget targetFor(const SandboxRecord &record) const;
    // Where the sandbox's envd is; asks the control plane once for a sandbox not seen yet.
    void resolveEnvd(const QString &sessionId, Callback<EnvdTarget> done);
    EnvdResolver resolver(const QString &sessionId);
    void filesystem(const QString &sessionId, const QString &method, const QJsonObject &body,
                    Callback<QByteArray> done);
    // A transfer made once envd's address is known.
    std::unique_ptr<TransferJob> deferred(const QString &sessionId,
                                          std::function<std::unique_ptr<TransferJob>(const EnvdTarget &)> make);
    std::unique_ptr<TransferJob> uploadFile(const QString &sessionId, const QString &localFile,
                                            const QString &remoteFile);
    std::unique_ptr<TransferJob> downloadFile(const QString &sessionId, const QString &remoteFile,
                                              const QString &localFile);
    void remember(const SandboxRecord &record);
    void createAttempt(const QJsonObject &body, const QString &token, int attempt, Callback<SessionInfo> done);
    void findByToken(const QString &token, Callback<std::optional<SessionInfo>> done);
    void listPage(QMap<QString, QString> filter, QString nextToken, QList<SessionInfo> acc,
                  Callback<QList<SessionInfo>> done);
    void simple(const QByteArray &method, const QString &path, const QJsonObject &body, Callback<void> done,
                QList<int> okStatuses = {});
    ProviderDescriptor m_descriptor;
    QString m_account;
    E2bSettings m_settings;
    cloud::CloudClient *m_client = nullptr;
    // What envd needs per sandbox (its domain, its access token), learnt from the control plane.
    QHash<QString, SandboxRecord> m_known;
    cloud::PolledStats m_stats;
};

} // namespace sandbar::e2b
