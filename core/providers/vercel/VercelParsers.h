#pragma once

#include "cloud/JsonValues.h"
#include "cloud/Paging.h"
#include "cloud/ServiceTags.h"
#include "common/Result.h"
#include "providers/Facets.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

// Pure translations between Vercel Sandbox's JSON (the REST API as @vercel/sandbox 3.5.0 calls
// it: ../shared/research/vercel-sandbox-sdk-3.5.0-wire.md) and Sandbar's types.
//
// Vercel has two things where Sandbar has one session: a named sandbox (its files, tags and
// settings, kept across stops when persistent) and its current session (the running VM, with a
// new id after each resume). Sandbar's session id is the sandbox's name; the session id is
// looked up from the sandbox when a call needs it.
namespace sandbar::vercel {

// Vercel allows five tags a sandbox; Sandbar's labels fit in four (the fifth stays the
// person's), under Vercel's own names, and come back as Sandbar's labels.
using cloud::kAccountTag;
using cloud::kAgentTag;
using cloud::kTokenTag;
using cloud::kTtlTag;

struct VercelRecord {
    SessionInfo info;
    QString sessionId; // the current session (the running VM), empty when there is none
    QString status;    // Vercel's own word (pending, running, stopping, stopped, ...)
    QString token;     // kTokenTag, where there is one
    QString cwd;       // the session's working folder (/vercel/sandbox)
    bool persistent = false;
    QString currentSnapshotId; // the latest snapshot, which a fork or a resume starts from
    qint64 timeoutMs = 0;      // the session's timeout, counted from its start
    QDateTime sessionStarted;
    std::optional<qint64> activeCpuMs; // CPU time used by the session so far
    std::optional<qint64> ingressBytes;
    std::optional<qint64> egressBytes;
    QDateTime deadline; // created + Sandbar's ttl tag; invalid: none
};

SessionState stateFromVercel(const QString &status);

// {sandbox, session, routes} as create, get, fork and resume answer.
Result<VercelRecord> parseSandboxReply(const QByteArray &json, const QString &account, const QString &providerId);

// A page of GET /v2/sandboxes: {sandboxes:[Sandbox], pagination:{count, next}}; items that do
// not parse are skipped. A listed sandbox has no session object: its state and current session
// id come from the sandbox itself.
using SandboxPage = cloud::Page<VercelRecord>;
Result<SandboxPage> parseSandboxList(const QByteArray &json, const QString &account, const QString &providerId);

// A snapshot of a sandbox (GET /v2/sandboxes/snapshots, POST .../snapshot). Vercel keeps no
// comment with it: the entry's comment says how it came to be (at a stop, or asked for), its
// size and when it expires, in words. Statuses other than created (creating, failed, deleted)
// are left out: nothing can be restored from them.
std::optional<SnapshotEntry> snapshotEntry(const QJsonObject &snapshot);
using SnapshotPage = cloud::Page<SnapshotEntry>;
// {snapshots:[Snapshot], pagination:{count, next}}
Result<SnapshotPage> parseSnapshotList(const QByteArray &json);
// {snapshot, session}: the snapshot just taken (its status may still be creating).
Result<SnapshotEntry> parseSnapshotReply(const QByteArray &json);

// One line of a command's NDJSON stream: {"command":{...}} (first with exitCode null, last with
// its exit code), {"stream":"stdout"|"stderr","data":"..."} or {"stream":"error","data":{code,
// message}}.
struct CommandEvent {
    enum class Kind { Command, Output, Error };
    Kind kind = Kind::Output;
    QString commandId;
    std::optional<int> exitCode; // Command: set once the command has ended
    int stream = 1;              // Output: 1 stdout, 2 stderr
    QByteArray data;             // Output
    QString message;             // Error: "code: message"
};
Result<CommandEvent> parseCommandLine(const QByteArray &line);
// {"command":{id, name, args, startedAt, exitCode}}: a detached command as POST .../cmd (without
// wait), GET .../cmd/ID and POST .../kill answer it; exitCode null while it runs.
Result<BackgroundCommand> parseCommandReply(const QByteArray &json);

// The kit's line splitter, which the command stream uses.
using cloud::takeLines;

// POST .../interactive: {url, token}.
struct Interactive {
    QString url;
    QString token;
};
Result<Interactive> parseInteractive(const QByteArray &json);

// A text frame of the interactive WebSocket: {"type":"exit","code":N} gives N; another
// frame nullopt.
std::optional<int> parseExitFrame(const QString &text);

// The server's own words in an error body ({"error":{"code","message"}}); empty if none.
QString errorMessage(const QByteArray &body);

// Whether a token is a JWT (an OIDC token of a deployment, good for minutes), not an access
// token: three base64url parts whose middle one is a JSON object.
bool isJwt(const QString &token);

// What create sends (POST /v3/sandboxes): projectId, ports, timeout (ms, the ttl), resources
// {vcpus}, image, runtime, persistent, networkPolicy (deny-all unless network is on), env,
// tags (Sandbar's and the person's labels: see tagRoom), source (git or tarball URL, snapshot).
// How many of the person's labels fit beside Sandbar's tags (Vercel keeps five a sandbox).
int tagRoom(const CreateSpec &spec);
// timeoutSeconds is Vercel's; the ttl tag is spec's ttl, where it has one.
QJsonObject createBody(const CreateSpec &spec, const QString &account, const QString &token, const QString &projectId,
                       qint64 timeoutSeconds);

// What a fork sends (POST /v2/sandboxes/{name}/fork): its name where one is given, and the
// source's tags as the copy's own (the account, a new create token; labels carried over, the
// spec's over them).
QJsonObject forkBody(const VercelRecord &source, const ForkSpec &spec, const QString &account, const QString &token);

// A sandbox's tags as they are, with Sandbar's time limit set to ttlSeconds (from creation);
// for PATCH /v2/sandboxes/{name}, which replaces them all.
QJsonObject tagsWithTtl(const VercelRecord &record, qint64 ttlSeconds);

// The CPU use between two readings of a session's active CPU time, in Sandbar's percent of
// one core; nullopt when it cannot be told (no earlier reading, time not moving forward).
std::optional<double> cpuPercent(qint64 cpuMsBefore, qint64 cpuMsNow, qint64 wallMsBetween);

} // namespace sandbar::vercel
