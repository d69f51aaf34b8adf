#pragma once

// E2B's JSON, read without a network: the control plane's sandboxes and metrics
// (e2b/openapi.yml) and envd's Connect messages (process.proto, filesystem.proto in their
// protobuf JSON form: lowerCamelCase, bytes as base64, zero values left out).

#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>

namespace sandbar::e2b {

// Metadata key carrying the client token of a create (see E2bProvider::create).
inline constexpr char kTokenKey[] = "dev.sandbar.token";

struct SandboxRecord {
    QString id;
    QString templateId;
    QString alias;
    QString state; // "running", "paused"
    QString envdVersion;
    QString envdAccessToken; // secure sandboxes only; a secret
    QString domain;
    QDateTime startedAt;
    QDateTime endAt;
    int cpuCount = 0;
    qint64 memoryMB = 0;
    qint64 diskSizeMB = 0;
    std::optional<bool> allowInternet;
    QMap<QString, QString> metadata;
    QByteArray raw; // the object as received, envdAccessToken removed
};

// One sandbox object (create reply, SandboxDetail, ListedSandbox).
Result<SandboxRecord> parseSandbox(const QByteArray &json);
// GET /v2/sandboxes: an array of ListedSandbox.
Result<QList<SandboxRecord>> parseSandboxList(const QByteArray &json);
SessionInfo toSessionInfo(const SandboxRecord &record, const QString &account);

// GET /sandboxes/{id}/metrics: the latest point of the series; NotFound when it is empty.
Result<StatsSample> parseMetrics(const QByteArray &json);

// The `metadata` query value of GET /v2/sandboxes: "k=v&k2=v2", each key and value
// URL-encoded (QUrlQuery encodes the whole again as the parameter's value).
QString metadataFilter(const QMap<QString, QString> &metadata);

// One message of a process.Process Start or Connect stream.
struct ProcessEvent {
    enum class Kind { Start, Data, Keepalive, End, Unknown };
    Kind kind = Kind::Unknown;
    qint64 pid = 0;
    QByteArray data;
    int stream = 0; // 1 stdout, 2 stderr, 0 pty
    int exitCode = 0;
    bool exited = false;
    QString status;
    QString error;
};
Result<ProcessEvent> parseProcessEvent(const QByteArray &message);

// process.Process/List: running processes (pid, cmd + args, tag).
struct ProcessRecord {
    qint64 pid = 0;
    QString cmd;
    QStringList args;
    QString tag;
};
Result<QList<ProcessRecord>> parseProcessList(const QByteArray &json);

// filesystem.Filesystem: ListDir's entries, Stat's and MakeDir's entry.
Result<QList<FileEntry>> parseListDir(const QByteArray &json);
Result<FileEntry> parseEntryReply(const QByteArray &json);

// A Connect unary error body ({"code":"not_found","message":...}) as Sandbar's error,
// falling back to the HTTP status.
Error connectUnaryError(int httpStatus, const QByteArray &body, const QString &service);

} // namespace sandbar::e2b
