#pragma once

#include "common/Callback.h"
#include "metrics/StatsSample.h"
#include "providers/Capabilities.h"
#include "providers/Jobs.h"
#include "providers/Session.h"

#include <QDateTime>
#include <QIODevice>
#include <QStringList>
#include <memory>

namespace sandbar {

class PtyChannel;

// What a provider offers beyond its core, one interface per capability, as libvirt's driver
// tables do: a provider hands out only the facets it has (Provider::setFacets), and a facet
// that is absent means "unsupported" to every caller at once. Every method is pure, so a
// decorator that wraps a facet cannot forget one. The completion contract of Provider.h
// holds for each: no callback runs before the call that started it has returned.

// What is at a path inside a session (for the copy rules).
struct PathStat {
    bool exists = false;
    bool isDir = false;
};

// Terminals into a session (Capability::Pty; terminalFlags() adds PtyResize and Reattach).
class TerminalFacet
{
public:
    virtual ~TerminalFacet() = default;
    virtual Capabilities terminalFlags() const = 0;
    virtual std::unique_ptr<PtyChannel> openPty(const QString &sessionId, const PtyOptions &options) = 0;
    // The terminals kept alive for a session, to reattach after a restart (pass an id as
    // PtyOptions::attachId); without Reattach it answers Unsupported.
    virtual void listPtys(const QString &sessionId, Callback<QList<PtyEntry>> done) = 0;
};

// Commands run to completion (Capability::Exec).
class ExecFacet
{
public:
    virtual ~ExecFacet() = default;
    virtual std::unique_ptr<ExecJob> exec(const QString &sessionId, const ExecRequest &request) = 0;
};

// Files inside a session (Capability::Files; fileFlags() adds FileList). Most providers write
// only the steps of a copy and inherit the copy itself from CopyingFiles (CopyingFiles.h).
class FilesFacet
{
public:
    virtual ~FilesFacet() = default;
    virtual Capabilities fileFlags() const = 0;

    // Copies as `docker cp` does, the same for every provider (files/CopyRules.h): an existing
    // folder receives the item under its own name, a path whose parent exists names the copy,
    // a trailing '/' demands a folder, "SRC/." copies a folder's contents.
    virtual std::unique_ptr<TransferJob> upload(const QString &sessionId, const QString &localPath,
                                                const QString &remoteDest) = 0;
    virtual std::unique_ptr<TransferJob> download(const QString &sessionId, const QString &remotePath,
                                                  const QString &localDest) = 0;
    // `-`: extracts the tar read from `tar` (open, readable, not sequential) into remoteDir,
    // an existing folder; writes a tar of remotePath to `out`. Neither device is owned.
    virtual std::unique_ptr<TransferJob> uploadTar(const QString &sessionId, QIODevice *tar,
                                                   const QString &remoteDir) = 0;
    virtual std::unique_ptr<TransferJob> downloadTar(const QString &sessionId, const QString &remotePath,
                                                     QIODevice *out) = 0;

    // exists=false (not an error) when nothing is at path.
    virtual void statPath(const QString &sessionId, const QString &path, Callback<PathStat> done) = 0;
    virtual void listFiles(const QString &sessionId, const QString &path, Callback<QList<FileEntry>> done) = 0;
    // The Files tab's delete (a folder with everything in it) and new folder (parents made as
    // needed, an existing folder is fine). ExecFileOps.h runs them as rm/mkdir for providers
    // without calls of their own.
    virtual void removePath(const QString &sessionId, const QString &path, Callback<void> done) = 0;
    virtual void makeDir(const QString &sessionId, const QString &path, Callback<void> done) = 0;
    // The Files tab's rename (a move within the session, absolute paths): refused with Conflict
    // when something is at `to` already, so that nothing is overwritten.
    virtual void movePath(const QString &sessionId, const QString &from, const QString &to, Callback<void> done) = 0;
    // The Files tab's permissions: the mode's permission bits (at most 07777), on path itself.
    virtual void setMode(const QString &sessionId, const QString &path, quint32 mode, Callback<void> done) = 0;
};

// Resource use (statsFlags(): which of StatsCpu, StatsMemory, StatsNetwork, StatsDisk,
// StatsGpu it reports, and StatsStream where streamStats pushes instead of polling).
class StatsFacet
{
public:
    virtual ~StatsFacet() = default;
    virtual Capabilities statsFlags() const = 0;
    // What one stats() call reports; the rest of statsFlags() comes only on the stream (read
    // inside the session while the Stats tab is open, never by a one-off call).
    virtual Capabilities onceFlags() const { return statsFlags(); }
    virtual void stats(const QString &sessionId, Callback<StatsSample> done) = 0;
    virtual std::unique_ptr<StatsStream> streamStats(const QString &sessionId) = 0;
};

// The session's log (Capability::Logs); returned unstarted.
class LogsFacet
{
public:
    virtual ~LogsFacet() = default;
    virtual std::unique_ptr<LogStream> logs(const QString &sessionId, const LogOptions &options) = 0;
};

// The images the engine holds locally ("busybox:latest", untagged ones left out), for the New
// session dialog's image list (Capability::Images).
class ImagesFacet
{
public:
    virtual ~ImagesFacet() = default;
    virtual void listImages(Callback<QStringList> done) = 0;
};

// Capability::PauseResume.
class PauseFacet
{
public:
    virtual ~PauseFacet() = default;
    virtual void pause(const QString &sessionId, Callback<void> done) = 0;
    virtual void resume(const QString &sessionId, Callback<void> done) = 0;
};

// Moves a session to the provider's cold storage (Capability::Archive): it costs less while
// kept, and PauseFacet::resume restores it, more slowly than from a pause.
class ArchiveFacet
{
public:
    virtual ~ArchiveFacet() = default;
    virtual void archive(const QString &sessionId, Callback<void> done) = 0;
};

// Capability::SetTimeout: the session ends by itself ttlSeconds from now (0: never).
class TimeLimitFacet
{
public:
    virtual ~TimeLimitFacet() = default;
    virtual void setTimeout(const QString &sessionId, qint64 ttlSeconds, Callback<void> done) = 0;
};

// A saved state of a session that it can be put back to (a Fly.io checkpoint).
struct SnapshotEntry {
    QString id;
    QDateTime created;
    QString comment;
};

// Capability::Snapshots: save a session's state and go back to one. Long saves report what
// they do through Provider::snapshotProgress.
class SnapshotFacet
{
public:
    virtual ~SnapshotFacet() = default;
    // Newest first.
    virtual void listSnapshots(const QString &sessionId, Callback<QList<SnapshotEntry>> done) = 0;
    virtual void createSnapshot(const QString &sessionId, const QString &comment, Callback<SnapshotEntry> done) = 0;
    // Puts the session back as it was then; what runs in it ends.
    virtual void restoreSnapshot(const QString &sessionId, const QString &snapshotId, Callback<void> done) = 0;
    // Whether createSnapshot keeps its comment; where not, the window asks for none.
    virtual bool keepsComments() const { return true; }
};

// Capability::Fork: a new session with a copy of this one's files (as the provider keeps them:
// Vercel's from the sandbox's current snapshot) and settings, running, with Sandbar's labels
// of its own (the time limit and the person's carried over).
struct ForkSpec {
    QString name; // the new session's name; empty: the provider picks one
    // Set on the copy over those it carries: an agent's fork is the agent's (its label and the
    // policy's time limit), so that the agent policy counts it as it counts what the agent made.
    QMap<QString, QString> labels;
};

class ForkFacet
{
public:
    virtual ~ForkFacet() = default;
    virtual void fork(const QString &sessionId, const ForkSpec &spec, Callback<SessionInfo> done) = 0;
    // Where the copy's files would come from, in a sentence for the person asked to fork (the
    // window's Fork dialog, sandbarctl sessions fork, fork_session): "as they are now", or a
    // snapshot's, whose later changes the copy lacks. Empty: nothing to say.
    virtual void forkOrigin(const QString &sessionId, Callback<QString> done) = 0;
};

// Capability::Settings: the create options the descriptor marks changeable, changed on a
// session that exists (a sprite's URL made public, or private again). SessionInfo::settings
// holds their current values.
class SettingsFacet
{
public:
    virtual ~SettingsFacet() = default;
    // values: typed, as parseFieldValues gives them, only the changeable options to change.
    // Answers the session as it is afterwards.
    virtual void changeSettings(const QString &sessionId, const QVariantMap &values, Callback<SessionInfo> done) = 0;
};

// A command left running in a session (Capability::Background): a dev server, a watcher, a
// long build, started now and looked at later.
struct BackgroundCommand {
    QString id;
    QStringList argv;
    QDateTime started;
    bool running = true;
    std::optional<int> exitCode; // once it ended, where the service knows it
};

// Capability::Background: commands that run on their own (Vercel's detached commands), whose
// output can be read while and after they run, and that can be sent a signal.
class BackgroundFacet
{
public:
    virtual ~BackgroundFacet() = default;
    // Answers once the command runs. It takes no input: request.stdinData must be empty.
    virtual void startBackground(const QString &sessionId, const ExecRequest &request,
                                 Callback<BackgroundCommand> done) = 0;
    // Newest first.
    virtual void listBackground(const QString &sessionId, Callback<QList<BackgroundCommand>> done) = 0;
    // The command's output from its start, then as it comes; finished once the command has
    // ended. Returned unstarted.
    virtual std::unique_ptr<LogStream> backgroundOutput(const QString &sessionId, const QString &commandId) = 0;
    // signal: a POSIX signal number (15 asks the command to end, 9 makes it); an ended command
    // is left as it was.
    virtual void signalBackground(const QString &sessionId, const QString &commandId, int signal,
                                  Callback<void> done) = 0;
};

// Capability::Labels: the person's labels on a session that exists (labels::isSandbars() tells
// Sandbar's own, which stay as they are).
class LabelsFacet
{
public:
    virtual ~LabelsFacet() = default;
    // labels: all of the person's labels as they are to be (a key left out is removed); none of
    // Sandbar's. Answers the session as it is afterwards.
    virtual void setLabels(const QString &sessionId, const QMap<QString, QString> &labels,
                           Callback<SessionInfo> done) = 0;
};

// The table a provider fills in; null where it does not have the facet.
struct Facets {
    TerminalFacet *terminals = nullptr;
    ExecFacet *exec = nullptr;
    FilesFacet *files = nullptr;
    StatsFacet *stats = nullptr;
    LogsFacet *logs = nullptr;
    ImagesFacet *images = nullptr;
    PauseFacet *pause = nullptr;
    ArchiveFacet *archive = nullptr;
    TimeLimitFacet *timeLimit = nullptr;
    SnapshotFacet *snapshots = nullptr;
    ForkFacet *fork = nullptr;
    SettingsFacet *settings = nullptr;
    BackgroundFacet *background = nullptr;
    LabelsFacet *labels = nullptr;
};

// The capability bits each facet may report; the rest are the core's (Provider::coreCapabilities).
Capabilities facetCapabilities(const Facets &facets);
inline constexpr quint32 kTerminalFlags =
    quint32(Capability::Pty) | quint32(Capability::PtyResize) | quint32(Capability::Reattach);
inline constexpr quint32 kFileFlags = quint32(Capability::Files) | quint32(Capability::FileList);
inline constexpr quint32 kStatsFlags = quint32(Capability::StatsCpu) | quint32(Capability::StatsMemory) |
                                       quint32(Capability::StatsNetwork) | quint32(Capability::StatsDisk) |
                                       quint32(Capability::StatsGpu) | quint32(Capability::StatsStream);
inline constexpr quint32 kFacetFlags =
    kTerminalFlags | kFileFlags | kStatsFlags | quint32(Capability::Exec) | quint32(Capability::Logs) |
    quint32(Capability::Images) | quint32(Capability::PauseResume) | quint32(Capability::Archive) |
    quint32(Capability::SetTimeout) | quint32(Capability::Snapshots) | quint32(Capability::Fork) |
    quint32(Capability::Settings) | quint32(Capability::Background) | quint32(Capability::Labels);

} // namespace sandbar
