#pragma once

#include "cloud/Paging.h"
#include "cloud/ServiceTags.h"
#include "common/Result.h"
#include "providers/Facets.h"
#include "providers/Session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QUrlQuery>
#include <optional>

// Pure translations between Fly.io Sprites' API (as @fly/sprites 0.1.0 calls it; the SDK is
// what the service answers where it and the published spec differ) and Sandbar's types.
//
// A sprite is a persistent VM that sleeps when nothing runs in it: Sandbar's session id is its
// name, it is Running while awake and asleep (SessionInfo::asleep) when warm or cold, and it
// never stops. Labels are plain strings.
namespace sandbar::sprites {

// Sandbar's labels are "key=value" under the kit's tag names (cloud/ServiceTags.h).

struct SpriteRecord {
    SessionInfo info;
    QString status; // cold, warm, running
    QString token;  // cloud::kTokenTag, where there is one
    QStringList rawLabels;
    QDateTime deadline; // created + Sandbar's ttl label; invalid: none
};

// "Fly.io Sprites", for messages.
QString serviceName();

SessionState stateFromSprite(const QString &status);

// One sprite, as create, get and update answer.
Result<SpriteRecord> parseSprite(const QByteArray &json, const QString &account, const QString &providerId);

// GET /v1/sprites: {sprites[], has_more, next_continuation_token}; items that do not parse are
// skipped.
using SpritePage = cloud::Page<SpriteRecord>;
Result<SpritePage> parseSpriteList(const QByteArray &json, const QString &account, const QString &providerId);

// GET /v1/sprites/{name}/exec: {"sessions":[{id, command, tty, is_active, created, ...}]}.
struct ExecSession {
    QString id;
    QString command;
    bool tty = false;
    bool active = false; // a client is attached (every listed session runs)
};
Result<QList<ExecSession>> parseSessionList(const QByteArray &json);

// GET .../fs/list: {entries:[{name, path, type, size, mode (octal text), modTime, isDir}]}.
Result<QList<FileEntry>> parseFsList(const QByteArray &json, const QString &folder);

// A binary frame of a non-TTY exec: one stream byte (1 stdout, 2 stderr, 3 exit with the code
// in the next byte), then the payload. Stdin (0) and stdin EOF (4) go the other way.
struct ExecFrame {
    enum class Kind { Stdout, Stderr, Exit, Ignored };
    Kind kind = Kind::Ignored;
    QByteArray data;
    int exitCode = 0;
};
ExecFrame parseExecFrame(const QByteArray &frame);
QByteArray stdinFrame(const QByteArray &bytes);
QByteArray stdinEofFrame();

// A text frame of the exec WebSocket: session_info (the session's id), exit (the code),
// port_opened / port_closed (a port in the sprite starts or stops listening); nullopt for
// anything else.
struct ControlMessage {
    enum class Kind { SessionInfo, Exit, PortOpened, PortClosed };
    Kind kind = Kind::SessionInfo;
    QString sessionId;
    int exitCode = 0;
    int port = 0;
    QString address;
};
std::optional<ControlMessage> parseControl(const QString &text);
QString resizeText(int cols, int rows);

// The query of a new exec: cmd (each argument), path, tty with its size, stdin, dir, env.
QUrlQuery execQuery(const QStringList &argv, const QStringList &env, const QString &dir, bool tty, int cols, int rows);

// The server's own words in an error body ({"error":CODE,"message":...}, or the files API's
// {"error":TEXT,"code":"ENOENT"}); empty if none.
QString errorMessage(const QByteArray &body);

// POST /v1/sprites: name, config {ram_mb, cpus, region, storage_gb}, environment, labels
// (Sandbar's and the person's), url_settings {auth: sprite unless public}.
QJsonObject createBody(const CreateSpec &spec, const QString &name, const QString &account, const QString &token);

// The sprite's labels as they are with Sandbar's time limit set to ttlSeconds (from creation),
// for PUT /v1/sprites/{name}, which replaces them.
QStringList labelsWithTtl(const SpriteRecord &record, qint64 ttlSeconds);
// The sprite's labels with the person's replaced by these ("KEY=VALUE", or KEY alone for an
// empty value); Sandbar's own kept as they are.
QStringList labelsWithPersons(const SpriteRecord &record, const QMap<QString, QString> &persons);
// {"url_settings": {"auth": "public" | "sprite"}}: who may open the sprite's URL (an update's
// body, and part of a create's).
QJsonObject urlSettingsBody(bool publicUrl);

// The network policy Sandbar's secure default asks for: every domain denied.
QJsonObject denyAllPolicy();

// The resources policy that limits memory (POST .../policy/resources {memory:{limit_mb}}), and
// the limit in bytes read back from its GET; nullopt when there is none or it is garbage.
QJsonObject resourcesPolicy(qint64 memoryBytes);
std::optional<qint64> memoryLimit(const QByteArray &json);

// GET .../checkpoints: [{id, create_time, comment, ...}], newest first; the live state
// ("Current") is not a checkpoint and is left out, as are entries without an id.
Result<QList<SnapshotEntry>> parseCheckpointList(const QByteArray &json);

// One line of a checkpoint's or a restore's NDJSON progress: {type: info|stdout|stderr|
// complete|error, data, error}. text is what to show; failed for an error line.
struct StreamMessage {
    QString type;
    QString text;
    bool failed = false;
};
Result<StreamMessage> parseStreamMessage(const QByteArray &line);

// The person's name where Sprites accepts it (lower-case letters, digits and '-', at most 63);
// else one made from it, with a random suffix.
QString spriteName(const QString &wanted);

} // namespace sandbar::sprites
