#pragma once

#include "common/Result.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariantMap>
#include <optional>

namespace sandbar {

enum class SessionState { Creating, Running, Paused, Stopping, Stopped, Error, Unknown };

QString sessionStateName(SessionState state);
SessionState sessionStateFromName(const QString &name);

// Labels Sandbar puts on everything it creates, so that a restart finds what it started.
namespace labels {
inline constexpr char App[] = "dev.sandbar.app";         // always "sandbar"
inline constexpr char Account[] = "dev.sandbar.account"; // account name
inline constexpr char Created[] = "dev.sandbar.created"; // ISO-8601 UTC
inline constexpr char Ttl[] = "dev.sandbar.ttl";         // seconds, 0 = none
inline constexpr char Name[] = "dev.sandbar.name";       // the user's name for it
inline constexpr char Agent[] = "dev.sandbar.agent";     // the MCP client that created it ("name version")
inline constexpr char AppValue[] = "sandbar";
// Sandbar's own keys: the person's labels are the others. "sandbar" and "sandbar-..." are the
// names Sandbar's labels take on a service that keeps short tags (cloud/ServiceTags.h).
inline bool isSandbars(const QString &key)
{
    return key.startsWith(QLatin1String("dev.sandbar.")) || key == QLatin1String("sandbar") ||
           key.startsWith(QLatin1String("sandbar-"));
}
inline QMap<QString, QString> personsOnly(const QMap<QString, QString> &all)
{
    QMap<QString, QString> out;
    for (auto it = all.cbegin(); it != all.cend(); ++it) {
        if (!isSandbars(it.key()))
            out.insert(it.key(), it.value());
    }
    return out;
}
} // namespace labels

// One of the person's labels as a person writes it: KEY=VALUE, or KEY alone for an empty value.
// Refused with a message for people: an empty key, a key with white space, one of Sandbar's.
Result<std::pair<QString, QString>> parseLabel(const QString &text);

// A label to look for, as `sessions list --label` and the window's search (label:) spell it:
// KEY (the session has the label, whatever its value) or KEY=VALUE (that value exactly).
struct LabelSelector {
    QString key;
    std::optional<QString> value;
};
LabelSelector parseLabelSelector(const QString &text);
bool matchesLabel(const QMap<QString, QString> &sessionLabels, const LabelSelector &selector);

struct MountSpec {
    QString hostPath;
    QString sessionPath;
    bool readOnly = false;
};

// A session port forwarded to this computer. Sandbar binds forwarded ports to 127.0.0.1 only:
// an agent's dev server is for the person at this computer, not the local network.
struct PortSpec {
    int sessionPort = 0;
    int hostPort = 0; // 0: the provider picks a free one
    QString protocol = QStringLiteral("tcp");
};

// Where a session can be reached: a forwarded port or a provider's preview URL.
struct SessionEndpoint {
    QString name; // "8080/tcp", or the provider's name for a preview
    QString url;  // http://127.0.0.1:49153 or https://...; what Open opens and Copy copies
    int sessionPort = 0;
    int hostPort = 0;
};

struct CreateSpec {
    QString name;
    QString image;              // providers without images ignore it
    std::optional<double> cpus; // whole or fractional cores
    std::optional<qint64> memoryBytes;
    std::optional<qint64> pidsLimit;
    qint64 ttlSeconds = 0; // 0 = no limit
    QStringList env;       // "K=V"; values are never logged
    QList<MountSpec> mounts;
    bool network = false;          // off by default: Sandbar's secure default
    QString user;                  // empty: the provider's unprivileged default
    int gpus = 0;                  // -1 = all
    QStringList gpuUuids;          // chosen GPUs (GPU-..., MIG-... or an index); gpus is then their count
    QMap<QString, QString> labels; // added to the ownership labels
    QList<PortSpec> ports;         // forwarded to 127.0.0.1 (Capability::Ports)
    QVariantMap options;           // provider-specific create options, keyed by descriptor
};

struct SessionInfo {
    QString id;       // provider's id
    QString account;  // account name
    QString provider; // provider id
    QString name;
    SessionState state = SessionState::Unknown;
    QString statusText; // provider's own words ("Up 3 minutes")
    QString errorMessage;
    QString image;
    QDateTime created;
    qint64 ttlSeconds = 0;
    QDateTime expiresAt;
    std::optional<double> cpus;
    std::optional<qint64> memoryBytes;
    int gpus = 0;
    QStringList gpuUuids; // the GPUs it was given, where the provider tells
    bool network = false;
    // Running, but asleep: nothing runs in it and it pays no compute until the next terminal,
    // command or file call wakes it (a Fly.io sprite); the cost meter bills it as stopped.
    bool asleep = false;
    bool owned = false;   // carries Sandbar's labels
    bool adopted = false; // not Sandbar's, but the user asked Sandbar to manage it
    QMap<QString, QString> labels;
    QList<MountSpec> mounts;
    QList<SessionEndpoint> endpoints;
    QVariantMap settings; // the changeable create options' current values (SettingsFacet), by key
    QByteArray rawJson;   // the provider's own description (inspect JSON), for the Info tab; may be empty

    QString ref() const { return account + QLatin1Char('/') + id; }
};

struct FileEntry {
    QString name;
    QString path;
    qint64 size = 0;
    bool isDir = false;
    bool isLink = false;
    QString linkTarget;
    quint32 mode = 0; // permission bits
    QDateTime modified;
};

struct ExecRequest {
    QStringList argv;
    QStringList env; // "K=V"
    QString workingDir;
    QString user;
    QByteArray stdinData; // written then closed; empty = no stdin
};

struct ExecOutput {
    int exitCode = -1;
    QByteArray stdoutData;
    QByteArray stderrData;
};

struct PtyOptions {
    QStringList argv; // empty: the provider's login shell
    QStringList env;
    QString workingDir;
    int cols = 80;
    int rows = 24;
    QString attachId; // reattach to a kept PTY (Reattach capability)
};

// A terminal a provider keeps alive between connections (Reattach capability).
struct PtyEntry {
    QString id;
    QStringList argv;
    bool exited = false;
    int exitCode = -1;
};

struct LogOptions {
    bool follow = false; // keep the stream open and deliver new lines as they come
    int tail = -1;       // the last N lines only; -1: everything kept
    bool timestamps = false;
};

struct HealthInfo {
    QString serverName; // "Docker Engine", "Podman Engine", ...
    QString version;
    QString apiVersion;
    QString os;
    QString endpoint;
    QStringList warnings;
};

} // namespace sandbar

Q_DECLARE_METATYPE(sandbar::SessionInfo)

namespace sandbar {

// Create options that every provider spells the same way in its descriptor; the rest
// travel in CreateSpec::options. Keys: image, cpus, memory (bytes), pidsLimit, ttl
// (seconds), network, user, gpus, name, env (K=V entries), mounts (HOST:PATH[:ro] entries),
// readOnlyMounts (every mount read-only), ports ([HOST:]SESSION[/tcp|/udp] entries).
namespace createkeys {
inline constexpr char Image[] = "image";
inline constexpr char Cpus[] = "cpus";
inline constexpr char Memory[] = "memory";
inline constexpr char PidsLimit[] = "pidsLimit";
inline constexpr char Ttl[] = "ttl";
inline constexpr char Network[] = "network";
inline constexpr char User[] = "user";
inline constexpr char Gpus[] = "gpus";
inline constexpr char Name[] = "name";
inline constexpr char Env[] = "env";
inline constexpr char Mounts[] = "mounts";
inline constexpr char ReadOnlyMounts[] = "readOnlyMounts";
inline constexpr char Ports[] = "ports";
inline constexpr char Labels[] = "labels";
} // namespace createkeys

// Typed create options (parseFieldValues over a provider's createOptions) -> the spec. Every
// option also stays in CreateSpec::options. env and mounts may be lists or one entry a line;
// the old keys "pids" and "mount" (Local, before they were shared) still read.
CreateSpec createSpecFromOptions(const QVariantMap &options);

// HOST:PATH[:ro|:rw], PATH absolute; HOST is taken as given (it may hold a drive letter's ':').
Result<MountSpec> parseMountSpec(const QString &text);

// A forwarded port as the `ports` create option spells it: "8080" (the provider picks the
// host port), "3000:8080" (HOST:SESSION) or either with "/tcp" or "/udp". Ports are 1..65535.
Result<PortSpec> parsePortSpec(const QString &text);
// The canonical text of a port: "8080", "3000:8080", "3000:8080/udp" (tcp is not written).
QString portSpecText(const PortSpec &port);

// A GPU request as the `gpus` create option spells it, parsed once for the window's form,
// sandbarctl and createSpecFromOptions alike:
//   ""/"none"/"0"   no GPU
//   "all" ("-1")    every GPU
//   "N"             N GPUs, 1..64, the engine picks which
//   "ID[,ID...]"    these GPUs; an ID is a UUID (GPU-..., MIG-..., as nvidia-smi -L prints
//                   them) or an index; "device=ID[,ID...]" (Docker's spelling) also names
//                   a single index, which a bare number would count.
struct GpuRequest {
    int gpus = 0;          // -1 = all; with ids: how many they name
    QStringList deviceIds; // as given, without repeats
};
Result<GpuRequest> parseGpuRequest(const QString &text);
// The canonical text of a request: "none", "all", "2", "GPU-...,1" ("device=1" for one index).
QString gpuRequestText(const GpuRequest &request);

} // namespace sandbar
