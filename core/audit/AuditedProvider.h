#pragma once

#include "providers/Provider.h"

#include <memory>

namespace sandbar::audit {

class AuditLog;

// Wraps an account's provider so that every action taken through it - by the window or
// by sandbarctl - leaves one audit row with its outcome. The log must outlive the wrapper.
class AuditedProvider final : public Provider
{
    Q_OBJECT
public:
    AuditedProvider(std::unique_ptr<Provider> inner, AuditLog &log, QObject *parent = nullptr);
    ~AuditedProvider() override;

    Provider *inner() const { return m_inner.get(); }

    const ProviderDescriptor &descriptor() const override { return m_inner->descriptor(); }
    Capabilities capabilities() const override { return m_inner->capabilities(); }
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
    void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) override
    {
        m_inner->listFiles(sessionId, path, std::move(done));
    }
    // The transfer queue asks it before each upload (name conflicts); the base answers Unsupported.
    void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) override
    {
        m_inner->statPath(sessionId, path, std::move(done));
    }
    void stats(const QString &sessionId, Callback<StatsSample> done) override
    {
        m_inner->stats(sessionId, std::move(done));
    }
    std::unique_ptr<StatsStream> streamStats(const QString &sessionId) override
    {
        return m_inner->streamStats(sessionId);
    }
    void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) override
    {
        m_inner->listPtys(sessionId, std::move(done));
    }
    HostProcessMatch hostProcessMatch(const QString &sessionId) const override
    {
        return m_inner->hostProcessMatch(sessionId);
    }
    std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) override
    {
        return m_inner->logs(sessionId, options);
    }
    void listImages(Callback<QStringList> done) override { m_inner->listImages(std::move(done)); }

    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void adopt(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    void kill(const QString &sessionId, Callback<void> done) override;
    void remove(const QString &sessionId, Callback<void> done) override;
    void pause(const QString &sessionId, Callback<void> done) override;
    void resume(const QString &sessionId, Callback<void> done) override;
    void archive(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;
    std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) override;
    std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) override;
    std::unique_ptr<TransferJob> upload(const QString &sessionId, const QString &localPath,
                                        const QString &remoteDest) override;
    std::unique_ptr<TransferJob> download(const QString &sessionId, const QString &remotePath,
                                          const QString &localDest) override;
    std::unique_ptr<TransferJob> uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> downloadTar(const QString &sessionId, const QString &remotePath,
                                             QIODevice *out) override;
    // The copy rules' steps, which upload() and download() reach inside the provider; forwarded
    // so that a caller holding only the wrapper gets the provider's own and an audit row.
    std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath, const QString &remoteDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath, const QString &localDir,
                                         const QString &name) override;
    std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir) override;
    std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out) override;
    // Forwarded, not left to the base: E2B and Daytona have calls of their own for these, and
    // the base would run rm/mkdir through exec() instead.
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;

private:
    void record(int action, const QString &sessionId, const QJsonObject &detail, const VoidResult &outcome);
    Callback<void> logged(int action, const QString &sessionId, const QJsonObject &detail, Callback<void> done);
    // Records one row when the job finishes.
    std::unique_ptr<TransferJob> loggedJob(std::unique_ptr<TransferJob> job, int action, const QString &sessionId,
                                           const QJsonObject &detail);

    std::unique_ptr<Provider> m_inner;
    AuditLog &m_log;
};

} // namespace sandbar::audit
