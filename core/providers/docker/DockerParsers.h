#pragma once

#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <optional>

// Pure functions over what the Engine API sends: no I/O, table-tested in tests/dockerunit.
namespace sandbar::docker {

// ---- API versions ------------------------------------------------------------------------
struct ApiVersion {
    int major = 0;
    int minor = 0;
    static std::optional<ApiVersion> parse(const QByteArray &text); // "1.41"
    QString toString() const { return QStringLiteral("%1.%2").arg(major).arg(minor); }
    auto operator<=>(const ApiVersion &) const = default;
};
inline constexpr ApiVersion kMaxApi{1, 47};
inline constexpr ApiVersion kMinApi{1, 41};
// min(ours, server), or Unsupported for an engine older than 1.41 or no header at all.
Result<ApiVersion> negotiateApiVersion(const QByteArray &serverApiVersionHeader);

// ---- errors ------------------------------------------------------------------------------
// The "message" of an error body ({"message":"..."}), else the trimmed text.
QString engineMessage(const QByteArray &body);
// An Error for an HTTP status; `what` names the operation for the person reading it.
Error errorFromStatus(int status, const QByteArray &body, const QString &what);

// ---- multiplexed exec/attach streams ------------------------------------------------------
// Incremental demuxer for the 8-byte-header frames of a non-TTY stream
// ([type,0,0,0,size(be32)] + payload). Payload bytes are handed out as they arrive, so a
// frame may come back in pieces; zero-length frames produce nothing.
class StreamDemuxer
{
public:
    struct Chunk {
        int stream = 1; // 0 stdin (echo), 1 stdout, 2 stderr
        QByteArray data;
    };
    // An error (sticky) for an unknown stream type or non-zero padding bytes.
    Result<QList<Chunk>> feed(const QByteArray &bytes);
    // True when the stream stopped inside a header or payload.
    bool midFrame() const { return m_header.size() > 0 || m_left > 0; }

private:
    // Translates in the context lupdate gives this class's tr() calls, "sandbar::docker::StreamDemuxer".
    static QString tr(const char *text);

    QByteArray m_header;
    int m_stream = 1;
    qint64 m_left = 0;
    std::optional<Error> m_error;
};

// ---- containers --------------------------------------------------------------------------
struct MapContext {
    QString account;
    QString providerId;
};
// Docker's State.Status to ours.
SessionState stateFromDocker(const QString &status, int exitCode, bool hasError);
// GET /containers/{id}/json.
Result<SessionInfo> sessionFromInspect(const QByteArray &json, const MapContext &ctx);
// GET /containers/json.
Result<QList<SessionInfo>> sessionsFromList(const QByteArray &json, const MapContext &ctx);
// Mount points of tmpfs kind in an inspect body (HostConfig.Tmpfs keys, Mounts[Type=tmpfs]).
Result<QStringList> tmpfsMountsFromInspect(const QByteArray &json);
// The first line of /proc/mounts-style text that is a tmpfs, for each mount point.
QStringList tmpfsMountsFromProcMounts(const QByteArray &text);

// ---- stats -------------------------------------------------------------------------------
// What one sample needs to be compared with the next one.
struct CpuReading {
    QDateTime time;
    quint64 totalUsage = 0;
    quint64 systemUsage = 0;
    int onlineCpus = 0;
};
struct ParsedStats {
    StatsSample sample;
    CpuReading reading;            // this sample's cpu_stats
    std::optional<CpuReading> pre; // precpu_stats when the engine filled it
};
// Parses one stats object (without computing CPU%).
Result<ParsedStats> parseStats(const QByteArray &json);
// CPU% from two readings the way the docker CLI computes it, or, when the system counter
// is unusable (Podman, or preferWallClock), Δcpu over the wall-clock interval.
std::optional<double> cpuPercent(const CpuReading &now, const CpuReading &before, bool preferWallClock);
// parseStats + cpuPercent against precpu_stats or else `previous` (a sample kept locally).
Result<StatsSample> statsSample(const QByteArray &json, const std::optional<CpuReading> &previous, bool preferWallClock,
                                CpuReading *current = nullptr);

// What an inspect (GET /containers/{id}/json[?size=true]) tells about a container's use
// that its stats do not carry.
struct ContainerUsage {
    QString id;
    QDateTime startedAt;
    bool oomKilled = false;       // State.OOMKilled
    bool running = false;         // State.Running
    std::optional<qint64> sizeRw; // only with ?size=true: the writable layer's size in bytes
};
Result<ContainerUsage> usageFromInspect(const QByteArray &json);

// ---- TTL keep-alive ----------------------------------------------------------------------
// PID 1's script: exits once `date +%s` reaches the deadline in kDeadlineFile (argv $1 seeds
// it), so a container ends on time with no Sandbar process running.
inline constexpr char kDeadlineFile[] = "/tmp/.sandbar-deadline";
QString keepAliveScript();

// ---- the session's working folder --------------------------------------------------------
// A user as Docker's User field gives it in numbers ("1000", "1000:1000"): uid and gid (0 when
// only the uid is given, as Docker runs it without a passwd entry). Names need the image's
// passwd: nullopt, as for anything else.
struct NumericUser {
    uint uid = 0;
    uint gid = 0;
};
std::optional<NumericUser> numericUser(const QString &user);
// The permission bits (setuid, setgid and sticky as 04000, 02000, 01000) of a folder from the
// X-Docker-Container-Path-Stat header (base64 JSON whose mode is Go's FileMode); nullopt when
// it is not a folder or the header is not that.
std::optional<uint> folderModeFromPathStat(const QByteArray &header);

// ---- events ------------------------------------------------------------------------------
struct EngineEvent {
    QString type;
    QString action;
    QString id;
    QMap<QString, QString> attributes;
    qint64 time = 0; // unix seconds
};
// Splits newline-delimited JSON (RFC 7464 record separators stripped) kept in *buffer,
// returning complete events and leaving a partial line in the buffer. Bad lines are skipped.
QList<EngineEvent> takeEvents(QByteArray *buffer);

} // namespace sandbar::docker
