#pragma once

#include "cloud/CloudClient.h"
#include "cloud/CommandBook.h"
#include "cloud/DeadlineKeeper.h"
#include "cloud/PolledStats.h"
#include "cloud/TerminalKeepAlive.h"
#include "cloud/WebSocketTerminals.h"
#include "providers/CopyingFiles.h"
#include "providers/Provider.h"
#include "providers/vercel/VercelParsers.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSslCertificate>
#include <QUrl>

class QTimer;

namespace sandbar::vercel {

// A Vercel account's sandboxes in one project (the REST API under https://vercel.com/api, as
// @vercel/sandbox 3.5.0 calls it; every request carries teamId).
//
// Mapping onto Provider: the session id is the sandbox's name. stop() ends the sandbox's
// current session (a persistent sandbox snapshots itself first); pause() is the same stop for a
// persistent sandbox and resume() its get with resume=true, which starts a new session from
// that snapshot. remove() deletes the sandbox. The ttl is Vercel's own session timeout, set at
// create and extended through extend-timeout; Vercel cannot shorten it, so a shorter limit is
// kept in a tag and enforced by Sandbar while it runs. Without a limit of Sandbar's, the
// sandbox gets Vercel's five minutes, lengthened while a terminal is attached (as Vercel's CLI
// does), never past the plan's longest session.
class VercelProvider : public Provider,
                       public ExecFacet,
                       public CopyingFiles,
                       public PauseFacet,
                       public TimeLimitFacet,
                       public SnapshotFacet,
                       public ForkFacet,
                       public BackgroundFacet
{
    Q_OBJECT
public:
    struct Settings {
        QUrl endpoint; // https://vercel.com/api
        QString token;
        QString team;
        QString project;
        QList<QSslCertificate> caCertificates;
        qint64 maxTimeoutSeconds = 5 * 3600; // the plan's longest session; a longer ttl is shortened
        qint64 plainTimeoutSeconds = 300;    // Vercel's own default: a sandbox without Sandbar's limit
        // While a terminal is attached, the session is lengthened as Vercel's CLI does it.
        cloud::TerminalKeepAlive::Timing keepAlive;
    };

    VercelProvider(ProviderDescriptor descriptor, QString accountName, Settings settings,
                   const Clock &clock = systemClock(), QObject *parent = nullptr);
    ~VercelProvider() override;

    const ProviderDescriptor &descriptor() const override { return m_descriptor; }
    QString accountName() const override { return m_account; }

    void health(Callback<HealthInfo> done) override;
    void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) override;
    void create(const CreateSpec &spec, Callback<SessionInfo> done) override;
    void info(const QString &sessionId, Callback<SessionInfo> done) override;
    void stop(const QString &sessionId, Callback<void> done) override;
    // Vercel has no forced stop: its stop ends the session at once.
    void kill(const QString &sessionId, Callback<void> done) override { stop(sessionId, std::move(done)); }
    void remove(const QString &sessionId, Callback<void> done) override;
    void pause(const QString &sessionId, Callback<void> done) override;
    void resume(const QString &sessionId, Callback<void> done) override;
    void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) override;

    // VercelSnapshots.cpp
    void listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done) override;
    void createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done) override;
    void restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done) override;
    bool keepsComments() const override { return false; }
    // VercelFork.cpp
    void fork(const QString &sessionId, const ForkSpec &spec, Callback<SessionInfo> done) override;
    void forkOrigin(const QString &sessionId, Callback<QString> done) override;
    // VercelBackground.cpp
    void startBackground(const QString &sessionId, const ExecRequest &request,
                         Callback<BackgroundCommand> done) override;
    void listBackground(const QString &sessionId, Callback<QList<BackgroundCommand>> done) override;
    std::unique_ptr<LogStream> backgroundOutput(const QString &sessionId, const QString &commandId) override;
    void signalBackground(const QString &sessionId, const QString &commandId, int signal, Callback<void> done) override;

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
    void removePath(const QString &sessionId, const QString &path, Callback<void> done) override;
    void makeDir(const QString &sessionId, const QString &path, Callback<void> done) override;
    void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) override;
    void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) override;

    cloud::CloudClient *client() const { return m_client; }
    // The URL of a call on the sandbox's current session (/v2/sandboxes/sessions/ID/suffix,
    // teamId added), once its session is known; NotFound-free Unavailable when it has none.
    void sessionUrl(const QString &sandbox, const QString &suffix, Callback<QUrl> done);
    // A JSON call on the current session.
    void sessionCall(const QString &sandbox, const QString &suffix, QByteArray body, Callback<cloud::ApiReply> done,
                     QList<int> okStatuses = {});
    // The same with call's method, body and idempotence (its URL is the session's).
    void sessionCall(const QString &sandbox, const QString &suffix, const cloud::ApiCall &call,
                     Callback<cloud::ApiReply> done, QList<int> okStatuses = {});

private:
    cloud::ApiCall apiCall(const QByteArray &method, const QString &path) const;
    cloud::WebSocketTerminals::Connection ptyConnection(const QString &sessionId, const PtyOptions &options);
    void sample(const QString &sessionId, Callback<StatsSample> done);
    // A create or fork on its way: what it asked, its token tag, whom to tell.
    struct CreateState {
        CreateSpec spec;
        QString token;
        Callback<SessionInfo> done;
    };
    void waitRunning(std::shared_ptr<CreateState> state, const VercelRecord &rec, int polls);
    // Sends a create (or fork) once, whatever happens to its reply, then waits for it to run;
    // failure ("...: %1") words a refusal, empty: as it came.
    void makeOnce(const cloud::ApiCall &call, std::shared_ptr<CreateState> state, const QString &failure);
    void getSandbox(const QString &name, bool resume, Callback<VercelRecord> done);
    // The sandbox once it is no longer stopping or snapshotting.
    void waitSettled(const QString &name, int polls, Callback<VercelRecord> done);
    void listPages(QUrlQuery query, Callback<QList<VercelRecord>> done);
    void findByToken(const QString &token, Callback<std::optional<VercelRecord>> done);
    void remember(const VercelRecord &rec);
    // Sandbar's deadline for a running session: extend-timeout where Vercel's ends sooner, a
    // local stop where it ends later.
    void extendTo(const VercelRecord &rec, const QDateTime &deadline, Callback<void> done);
    // The keep-alive's hooks (VercelSessionParts.cpp): when Vercel ends the running session and
    // the earliest of Sandbar's deadline and the plan's longest session; extend-timeout.
    void keptUntil(const QString &sessionId, Callback<cloud::TerminalKeepAlive::Ends> done);
    void lengthen(const QString &sessionId, qint64 ms, Callback<void> done);
    static QString enc(const QString &name);
    cloud::CommandBook &commandBook();
    bool hasStopped(const QString &sandbox) const;

    ProviderDescriptor m_descriptor;
    QString m_account;
    Settings m_settings;
    const Clock *m_clock;
    cloud::CloudClient *m_client = nullptr;
    QHash<QString, VercelRecord> m_records; // by sandbox name, the last seen
    struct CpuReading {
        qint64 cpuMs = 0;
        qint64 atMs = 0;
    };
    QHash<QString, CpuReading> m_cpu; // the previous active-CPU reading, for a rate
    QElapsedTimer m_since;
    cloud::DeadlineKeeper *m_ttl = nullptr; // Sandbar's ttl where it is shorter than Vercel's
    cloud::WebSocketTerminals m_terminals;
    cloud::TerminalKeepAlive *m_keepAlive = nullptr; // in front of m_terminals
    cloud::PolledStats m_stats;
    std::unique_ptr<cloud::CommandBook> m_book; // the detached commands started (commandBook())
};

} // namespace sandbar::vercel
