#pragma once

#include "common/Callback.h"
#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Capabilities.h"
#include "providers/Descriptors.h"
#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QIODevice>
#include <QObject>
#include <memory>

namespace sandbar {

class PtyChannel;

// How host processes are told to be a session's, where the session runs on this machine:
// NVML lists GPU processes by host PID, matched through /proc/PID/cgroup to a container id
// or a cgroup folder name. Empty where the sessions run elsewhere (a remote engine, a cloud).
struct HostProcessMatch {
    QString containerId;
    QString cgroupName;
    bool isEmpty() const { return containerId.isEmpty() && cgroupName.isEmpty(); }
};

// What is at a path inside a session (for the copy rules).
struct PathStat {
    bool exists = false;
    bool isDir = false;
};

struct ListOptions {
    bool all = false; // also sessions Sandbar did not create (a user may adopt one)
};

// One account's connection to a sandbox provider. Every operation is asynchronous and
// reports through a Callback bound to a context object; none blocks the caller's thread.
// Jobs and channels are returned unstarted and owned by the caller.
class Provider : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Provider() override = default;

    virtual const ProviderDescriptor &descriptor() const = 0;
    // Capabilities of this account's endpoint (may be narrower than the descriptor's
    // after health() learned what the server offers).
    virtual Capabilities capabilities() const { return descriptor().capabilities; }
    virtual QString accountName() const = 0;

    virtual void health(Callback<HealthInfo> done) = 0;
    virtual void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) = 0;
    virtual void create(const CreateSpec &spec, Callback<SessionInfo> done) = 0;
    virtual void info(const QString &sessionId, Callback<SessionInfo> done) = 0;
    virtual void stop(const QString &sessionId, Callback<void> done) = 0;
    virtual void kill(const QString &sessionId, Callback<void> done) = 0;
    virtual void remove(const QString &sessionId, Callback<void> done) = 0;
    virtual void pause(const QString &sessionId, Callback<void> done) = 0;
    virtual void resume(const QString &sessionId, Callback<void> done) = 0;
    virtual void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) = 0;

    virtual std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) = 0;
    virtual std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) = 0;
    // Copies as `docker cp` does, the same for every provider (files/CopyRules.h): an existing
    // folder receives the item under its own name, a path whose parent exists names the copy,
    // a trailing '/' demands a folder, "SRC/." copies a folder's contents. The default asks
    // statPath and then putItem/getItem; a decorator forwards these four calls.
    virtual std::unique_ptr<TransferJob> upload(const QString &sessionId, const QString &localPath,
                                                const QString &remoteDest);
    virtual std::unique_ptr<TransferJob> download(const QString &sessionId, const QString &remotePath,
                                                  const QString &localDest);
    // `-`: extracts the tar read from `tar` (open, readable, not sequential) into remoteDir,
    // an existing folder; writes a tar of remotePath to `out`. Neither device is owned.
    virtual std::unique_ptr<TransferJob> uploadTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir);
    virtual std::unique_ptr<TransferJob> downloadTar(const QString &sessionId, const QString &remotePath,
                                                     QIODevice *out);

    // What the copy rules ask of a provider. statPath answers exists=false (not an error)
    // when nothing is at path; putItem puts a local file or folder into the existing remote
    // folder remoteDir as remoteDir/name (a folder merges into one of that name); getItem is
    // the reverse into an existing local folder. Defaults answer Unsupported.
    virtual void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done);
    virtual std::unique_ptr<TransferJob> putItem(const QString &sessionId, const QString &localPath,
                                                 const QString &remoteDir, const QString &name);
    virtual std::unique_ptr<TransferJob> getItem(const QString &sessionId, const QString &remotePath,
                                                 const QString &localDir, const QString &name);
    // The tar streams behind uploadTar (remoteDir already checked to be a folder) and downloadTar.
    virtual std::unique_ptr<TransferJob> putTar(const QString &sessionId, QIODevice *tar, const QString &remoteDir);
    virtual std::unique_ptr<TransferJob> getTar(const QString &sessionId, const QString &remotePath, QIODevice *out);
    virtual void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) = 0;
    // The Files tab's delete (a folder with everything in it) and new folder (parents made as
    // needed, an existing folder is fine). The defaults run rm/mkdir through exec() (argv, no
    // shell, so no name is ever interpreted) and answer Unsupported without Exec.
    virtual void removePath(const QString &sessionId, const QString &path, Callback<void> done);
    virtual void makeDir(const QString &sessionId, const QString &path, Callback<void> done);
    // The session's log (Capability::Logs); returned unstarted. The default finishes with
    // Unsupported when started.
    virtual std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options);
    virtual void stats(const QString &sessionId, Callback<StatsSample> done) = 0;
    virtual std::unique_ptr<StatsStream> streamStats(const QString &sessionId) = 0;
    // The terminals kept alive for a session, to reattach after a restart (pass an id as
    // PtyOptions::attachId). Providers without the Reattach capability answer Unsupported.
    virtual void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done);

    // Takes a session Sandbar did not create (listed with ListOptions::all) into its own
    // listing, remembered per account; removing it ends the adoption. Providers without the
    // Adopt capability answer Unsupported.
    virtual void adopt(const QString &sessionId, Callback<SessionInfo> done);

    // The images the engine holds locally ("busybox:latest", untagged ones left out), for the
    // New session dialog's image list. The default answers Unsupported.
    virtual void listImages(Callback<QStringList> done);

    // Moves the session to the provider's cold storage (Capability::Archive): it costs less
    // while kept, and resume() restores it, more slowly than from a pause. The default
    // answers Unsupported.
    virtual void archive(const QString &sessionId, Callback<void> done);

    // Where this account keeps its own state (its data folder under --config-dir; empty
    // for a provider made by hand). Set by whoever makes the provider; downloads keep
    // their journal there (PartialDownloads).
    void setStateDir(const QString &dir) { m_stateDir = dir; }
    QString stateDir() const { return m_stateDir; }

    // See HostProcessMatch; the default is "runs elsewhere".
    virtual HostProcessMatch hostProcessMatch(const QString &sessionId) const
    {
        Q_UNUSED(sessionId);
        return {};
    }

Q_SIGNALS:
    // A session changed state behind our back (events stream, agent exit, ...).
    void sessionChanged(const sandbar::SessionInfo &session);
    void sessionRemoved(const QString &sessionId);
    // What create() is doing for the spec named name (CreateSpec::name; may be empty): text for
    // people ("Pulling image…"), done of total bytes where known (total 0: unknown).
    void createProgress(const QString &name, const QString &text, qint64 done, qint64 total);

private:
    QString m_stateDir;
};

// Helper for providers: a ready-made error for a capability they do not have.
Error unsupportedError(const ProviderDescriptor &provider, Capability cap);

} // namespace sandbar
