#pragma once

#include "common/Callback.h"
#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Capabilities.h"
#include "providers/Descriptors.h"
#include "providers/Facets.h"
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

struct ListOptions {
    bool all = false; // also sessions Sandbar did not create (a user may adopt one)
};

// One account's connection to a sandbox provider: the core every provider has, and the facets
// (Facets.h) it hands out for the rest.
//
// Every operation is asynchronous and reports through a Callback bound to a context object;
// none blocks the caller's thread. Jobs and channels are returned unstarted and owned by the
// caller. The completion contract, for the core and every facet alike: no callback runs before
// the call that started it has returned (answer an immediate error with Callback::post), and a
// job reports only after start() has returned.
//
// Where the 35 virtual methods of the old Provider went:
// - core, still here: descriptor, accountName, health, listSessions, create, info, stop, kill,
//   remove, adopt, hostProcessMatch; capabilities() is no longer virtual but computed from
//   coreCapabilities() (the descriptor's core bits, which health may narrow) and the facets.
// - TerminalFacet: openPty, listPtys. ExecFacet: exec.
// - FilesFacet: upload, download, uploadTar, downloadTar, statPath, listFiles, removePath,
//   makeDir. putItem, getItem, putTar and getTar, the steps of a copy, went to CopyingFiles,
//   which builds the copy from them the same way for every provider (CopyingFiles.h).
// - StatsFacet: stats, streamStats. LogsFacet: logs. ImagesFacet: listImages.
// - PauseFacet: pause, resume. ArchiveFacet: archive. TimeLimitFacet: setTimeout.
// - SnapshotFacet (new since): listSnapshots, createSnapshot, restoreSnapshot.
class Provider : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Provider() override = default;

    virtual const ProviderDescriptor &descriptor() const = 0;
    // What this account offers now: the core's bits and those of the facets it has.
    Capabilities capabilities() const;
    // The descriptor's bits that are not a facet's (Gpu, Kill, Adopt, Ports, ...); a provider
    // narrows them after health() learned what the server offers.
    virtual Capabilities coreCapabilities() const;
    virtual QString accountName() const = 0;

    virtual void health(Callback<HealthInfo> done) = 0;
    virtual void listSessions(const ListOptions &options, Callback<QList<SessionInfo>> done) = 0;
    virtual void create(const CreateSpec &spec, Callback<SessionInfo> done) = 0;
    virtual void info(const QString &sessionId, Callback<SessionInfo> done) = 0;
    virtual void stop(const QString &sessionId, Callback<void> done) = 0;
    virtual void kill(const QString &sessionId, Callback<void> done) = 0;
    virtual void remove(const QString &sessionId, Callback<void> done) = 0;
    // Takes a session Sandbar did not create (listed with ListOptions::all) into its own
    // listing, remembered per account; removing it ends the adoption. Providers without the
    // Adopt capability answer Unsupported.
    virtual void adopt(const QString &sessionId, Callback<SessionInfo> done);
    // The machine this account's sessions run on when the account reaches another one (an
    // engine over SSH): audit rows name it. Empty: this machine, or a service.
    virtual QString remoteHost() const { return {}; }
    // See HostProcessMatch; the default is "runs elsewhere".
    virtual HostProcessMatch hostProcessMatch(const QString &sessionId) const
    {
        Q_UNUSED(sessionId);
        return {};
    }

    // The facets; null where the provider does not have one.
    const Facets &facets() const { return m_facets; }
    TerminalFacet *terminals() const { return m_facets.terminals; }
    ExecFacet *commands() const { return m_facets.exec; }
    FilesFacet *files() const { return m_facets.files; }
    StatsFacet *statistics() const { return m_facets.stats; }
    LogsFacet *logReader() const { return m_facets.logs; }
    ImagesFacet *images() const { return m_facets.images; }
    PauseFacet *pausing() const { return m_facets.pause; }
    ArchiveFacet *archiving() const { return m_facets.archive; }
    TimeLimitFacet *timeLimit() const { return m_facets.timeLimit; }
    SnapshotFacet *snapshots() const { return m_facets.snapshots; }
    ForkFacet *forking() const { return m_facets.fork; }
    SettingsFacet *sessionSettings() const { return m_facets.settings; }
    BackgroundFacet *background() const { return m_facets.background; }
    LabelsFacet *labelling() const { return m_facets.labels; }

    // Where this account keeps its own state (its data folder under --config-dir; empty
    // for a provider made by hand). Set by whoever makes the provider; downloads keep
    // their journal there (PartialDownloads).
    void setStateDir(const QString &dir) { m_stateDir = dir; }
    QString stateDir() const { return m_stateDir; }

Q_SIGNALS:
    // A session changed state behind our back (events stream, agent exit, ...).
    void sessionChanged(const sandbar::SessionInfo &session);
    void sessionRemoved(const QString &sessionId);
    // What create() is doing for the spec named name (CreateSpec::name; may be empty): text for
    // people ("Pulling image…"), done of total bytes where known (total 0: unknown).
    void createProgress(const QString &name, const QString &text, qint64 done, qint64 total);
    // What a snapshot being saved or restored is doing, in the service's words.
    void snapshotProgress(const QString &sessionId, const QString &text);
    // The facet table changed (setFacets after construction): wrappers mirror it again.
    void facetsChanged();

protected:
    // Called by the provider's constructor (or a wrapper's) with what it has; later calls
    // tell the wrappers (facetsChanged).
    void setFacets(const Facets &facets)
    {
        m_facets = facets;
        Q_EMIT facetsChanged();
    }

private:
    QString m_stateDir;
    Facets m_facets;
};

// Helper for providers: a ready-made error for a capability they do not have.
Error unsupportedError(const ProviderDescriptor &provider, Capability cap);

} // namespace sandbar
