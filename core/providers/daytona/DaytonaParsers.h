#pragma once

#include "common/Result.h"
#include "metrics/StatsSample.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

// Pure translations between Daytona's JSON (control plane openapi.yaml, toolbox
// toolbox-swagger.yaml, v0.190) and Sandbar's types: no network, so every case is unit-tested.
namespace sandbar::daytona {

// The label every create carries so that a create whose reply was lost is found again.
inline constexpr char TokenLabel[] = "dev.sandbar.token";

inline constexpr qint64 kGiB = 1024LL * 1024 * 1024;

struct SandboxRecord {
    SessionInfo info;
    QString toolboxProxyUrl; // the toolbox base, without the sandbox id
    QString state;           // Daytona's own state word
    QString token;           // the client token label, where there is one
    std::optional<qint64> diskBytes;
    QDateTime deadline; // created + Sandbar's ttl label; invalid: none
};

SessionState stateFromDaytona(const QString &state);

// A Sandbox DTO (or a list item). Fails on what is not an object with an id.
Result<SandboxRecord> parseSandbox(const QJsonObject &object, const QString &account, const QString &providerId);
Result<SandboxRecord> parseSandboxJson(const QByteArray &json, const QString &account, const QString &providerId);

// One page of a listing: a bare array, {items, nextCursor} (GET /sandbox) or the older
// {items, page, totalPages} (GET /sandbox/paginated). Items that fail to parse are skipped.
struct SandboxPage {
    QList<SandboxRecord> items;
    QString nextCursor; // empty: the last page by cursor
    int page = 0;       // the older form: this page and how many there are
    int totalPages = 0;
};
Result<SandboxPage> parseSandboxList(const QByteArray &json, const QString &account, const QString &providerId);

// What a create sends (POST /sandbox): name, snapshot, cpu/memory/disk (whole cores and GB,
// rounded up), gpu, env, the labels (Sandbar's and the token), target, autoStopInterval,
// networkBlockAll. `options` are CreateSpec::options (snapshot, disk, autoStop, target).
QJsonObject createBody(const CreateSpec &spec, const QString &account, const QString &token, const QDateTime &now,
                       const QString &target);

// The reason of a PTY WebSocket's close frame: {"exitCode":N,"exitReason":"..."}.
struct PtyCloseReason {
    std::optional<int> exitCode;
    QString exitReason;
};
PtyCloseReason parsePtyCloseReason(const QString &reason);

// The first text frame of a PTY WebSocket: {"type":"control","status":"connected"} or
// {"status":"error","error":"..."}. Ok(true) when connected, ok(false) for another control
// frame, an error with the server's words otherwise.
Result<bool> parsePtyControl(const QString &text);

Result<QString> parsePtyCreated(const QByteArray &json); // {sessionId}
Result<QList<PtyEntry>> parsePtyList(const QByteArray &json);
Result<ExecOutput> parseExecute(const QByteArray &json); // {exitCode, result}

// GET /sandbox/{id}/telemetry/metrics: the last point of each series. cpu.utilization is a
// percentage of the sandbox's cores (cpu.limit, else `cores`), Sandbar's 100 is one core.
Result<StatsSample> parseTelemetry(const QByteArray &json, std::optional<double> cores);

// Toolbox FileInfo: mode as "0755", "-rwxr-xr-x" or "drwxr-xr-x"; permissions likewise.
quint32 parseMode(const QString &text);
Result<FileEntry> parseFileInfo(const QJsonObject &object, const QString &dir);
Result<FileEntry> parseFileInfoJson(const QByteArray &json, const QString &path);
Result<QList<FileEntry>> parseFileList(const QByteArray &json, const QString &dir);

// The server's own words in an error body ({"message"}, {"error"}, {"detail"}); empty if none.
QString errorMessage(const QByteArray &body);

// argv as one POSIX shell command line (process/execute takes a string).
QString shellJoin(const QStringList &argv);

} // namespace sandbar::daytona
