// The state the parts of the Sprites server share: sprites, their status, the paths of their
// files, and the listening ports of their processes (polled from /proc, as the service's
// port notifications report them).
#include "SpritesContext.h"

#include "kit/ProcTree.h"
#include "kit/SandboxHost.h"
#include "kit/Server.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QWebSocket>
#include <sys/stat.h>
#include <unistd.h>

using sandbar::ErrorCode;
using sandbar::makeError;

namespace contract::sprites {

namespace {

constexpr int kTickMs = 250;
const QString kKitHome = QStringLiteral("/home/user");
const QString kTmp = QStringLiteral("/tmp");

bool isWithin(const QString &path, const QString &base)
{
    return path == base || path.startsWith(base + QLatin1Char('/'));
}

QString readLink(const QString &path)
{
    QByteArray target(512, '\0');
    const ssize_t n = ::readlink(QFile::encodeName(path).constData(), target.data(), size_t(target.size()));
    return n > 0 ? QString::fromLatin1(target.left(n)) : QString();
}

// The socket inodes the processes hold, each with the pid that holds it.
QHash<qint64, qint64> socketInodes(const QList<qint64> &pids)
{
    static const QRegularExpression socket(QStringLiteral("^socket:\\[(\\d+)\\]$"));
    QHash<qint64, qint64> inodes;
    for (qint64 pid : pids) {
        const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
        const QStringList entries = QDir(fds).entryList(QDir::System | QDir::NoDotAndDotDot);
        for (const QString &fd : entries) {
            const QRegularExpressionMatch m = socket.match(readLink(fds + QLatin1Char('/') + fd));
            if (m.hasMatch())
                inodes.insert(m.captured(1).toLongLong(), pid);
        }
    }
    return inodes;
}

// The TCP ports in LISTEN state on sockets the processes hold: each process's own network
// namespace (bubblewrap gives every command one) is read once.
QMap<int, qint64> listeningPorts(const QList<qint64> &pids)
{
    QMap<int, qint64> ports;
    const QHash<qint64, qint64> inodes = socketInodes(pids);
    if (inodes.isEmpty())
        return ports;
    QSet<QString> namespaces;
    for (qint64 pid : pids) {
        const QString ns = readLink(QStringLiteral("/proc/%1/ns/net").arg(pid));
        if (ns.isEmpty() || namespaces.contains(ns))
            continue;
        namespaces.insert(ns);
        for (const char *table : {"tcp", "tcp6"}) {
            QFile file(QStringLiteral("/proc/%1/net/%2").arg(pid).arg(QLatin1String(table)));
            if (!file.open(QIODevice::ReadOnly))
                continue;
            const QList<QByteArray> lines = file.readAll().split('\n');
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QList<QByteArray> f = lines.at(i).simplified().split(' ');
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                if (f.size() < 10 || f.at(3) != "0A")
                    continue;
                const qint64 inode = f.at(9).toLongLong();
                if (inodes.contains(inode))
                    ports.insert(f.at(1).mid(f.at(1).indexOf(':') + 1).toInt(nullptr, 16), inodes.value(inode));
            }
        }
    }
    return ports;
}

} // namespace

Context::Context(Server &srv, SandboxHost &sandboxHost, const Options &options, QObject *parent)
    : QObject(parent)
    , server(srv)
    , host(sandboxHost)
    , apiKey(options.apiKey)
    , baseUrl(options.baseUrl)
{
    bool ok = false;
    const qint64 cold = qEnvironmentVariable("SANDBAR_CONTRACT_SPRITES_COLD_MS").toLongLong(&ok);
    if (ok && cold >= 0)
        coldMs = cold;
    const qint64 hold = qEnvironmentVariable("SANDBAR_CONTRACT_SPRITES_EXIT_HOLD_MS").toLongLong(&ok);
    if (ok && hold >= 0)
        exitHoldMs = hold;
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &Context::tick);
    m_timer.start();
}

void Context::error(Responder *responder, int status, const QString &code, const QString &message)
{
    responder->sendJson(status, QJsonObject{{QStringLiteral("error"), code}, {QStringLiteral("message"), message}});
}

void Context::fsError(Responder *responder, int status, const QString &code, const QString &message,
                      const QString &path)
{
    responder->sendJson(status, QJsonObject{{QStringLiteral("error"), message},
                                            {QStringLiteral("code"), code},
                                            {QStringLiteral("path"), path}});
}

QString Context::iso(const QDateTime &time)
{
    return time.toUTC().toString(Qt::ISODateWithMs);
}

QByteArray Context::ndjson(const QJsonObject &line)
{
    return QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
}

QStringList Context::queryValues(const Request &request, const QString &key)
{
    QStringList values;
    const qsizetype mark = request.target.indexOf('?');
    if (mark < 0)
        return values;
    const QList<QByteArray> pairs = request.target.mid(mark + 1).split('&');
    for (const QByteArray &pair : pairs) {
        const qsizetype eq = pair.indexOf('=');
        QByteArray name = pair.left(eq < 0 ? pair.size() : eq);
        QByteArray value = eq < 0 ? QByteArray() : pair.mid(eq + 1);
        name.replace('+', ' ');
        value.replace('+', ' ');
        if (QString::fromUtf8(QByteArray::fromPercentEncoding(name)) == key)
            values.append(QString::fromUtf8(QByteArray::fromPercentEncoding(value)));
    }
    return values;
}

QString Context::queryValue(const Request &request, const QString &key, const QString &fallback)
{
    const QStringList values = queryValues(request, key);
    return values.isEmpty() ? fallback : values.constLast();
}

bool Context::jsonBody(const Request &request, Responder *responder, QJsonObject *out)
{
    const QByteArray body = request.readBody();
    if (body.trimmed().isEmpty()) {
        *out = {};
        return true;
    }
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        error(responder, 400, QStringLiteral("invalid_request"),
              QStringLiteral("invalid JSON body: %1")
                  .arg(doc.isObject() ? parseError.errorString() : QStringLiteral("an object is expected")));
        return false;
    }
    *out = doc.object();
    return true;
}

std::optional<qint64> Context::durationMs(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d+(?:\\.\\d+)?)(ms|s|m|h)?$"));
    const QRegularExpressionMatch m = pattern.match(text.trimmed());
    if (!m.hasMatch())
        return std::nullopt;
    const double value = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("ms")  ? 1
                         : unit == QLatin1String("m") ? 60000
                         : unit == QLatin1String("h") ? 3600000
                                                      : 1000;
    return qint64(value * scale);
}

bool Context::authorized(const Request &request) const
{
    const QByteArray header = request.header("authorization");
    return header.startsWith("Bearer ") && QString::fromUtf8(header.mid(7).trimmed()) == apiKey;
}

bool Context::authorize(const Request &request, Responder *responder) const
{
    if (authorized(request))
        return true;
    error(responder, 401, QStringLiteral("unauthorized"),
          request.hasHeader("authorization") ? QStringLiteral("invalid token")
                                             : QStringLiteral("missing Authorization: Bearer token"));
    return false;
}

SpritePtr Context::spriteFor(const Request &request, Responder *responder) const
{
    if (!authorize(request, responder))
        return nullptr;
    const QString name = request.param(QStringLiteral("name"));
    const SpritePtr record = sprites.value(name);
    if (!record)
        error(responder, 404, QStringLiteral("not_found"), QStringLiteral("sprite not found: %1").arg(name));
    return record;
}

Sandbox *Context::kit(const SpriteRecord &record) const
{
    return host.find(record.kitId);
}

QJsonObject Context::spriteJson(const SpriteRecord &record) const
{
    QJsonObject urlSettings{{QStringLiteral("auth"), record.urlAuth}};
    if (!record.privateAccess.isEmpty())
        urlSettings.insert(QStringLiteral("private_access"), record.privateAccess);
    const auto optionalTime = [](const QDateTime &time) {
        return time.isValid() ? QJsonValue(iso(time)) : QJsonValue();
    };
    QJsonObject out{{QStringLiteral("id"), record.id},
                    {QStringLiteral("name"), record.name},
                    {QStringLiteral("organization"), QLatin1String(kOrg)},
                    {QStringLiteral("status"), record.status},
                    {QStringLiteral("config"), record.config},
                    {QStringLiteral("environment"), record.environment},
                    {QStringLiteral("created_at"), iso(record.createdAt)},
                    {QStringLiteral("updated_at"), iso(record.updatedAt)},
                    {QStringLiteral("url"), record.url},
                    {QStringLiteral("url_settings"), urlSettings},
                    {QStringLiteral("primary_region"), record.config.value(QStringLiteral("region"))},
                    {QStringLiteral("version"), QStringLiteral("v0.0.1-rc48")},
                    {QStringLiteral("environment_version"), QStringLiteral("v0.0.1-rc48")},
                    {QStringLiteral("last_running_at"), optionalTime(record.lastRunningAt)},
                    {QStringLiteral("last_warming_at"), optionalTime(record.lastWarmingAt)}};
    if (!record.labels.isEmpty()) // the service omits an empty list
        out.insert(QStringLiteral("labels"), QJsonArray::fromStringList(record.labels));
    return out;
}

QList<ExecSession *> Context::sessionsOf(const QString &sprite) const
{
    QList<ExecSession *> out;
    for (const QPointer<ExecSession> &session : sessions) {
        if (session && session->spriteName == sprite)
            out.append(session);
    }
    return out;
}

void Context::killSessions(const QString &sprite)
{
    for (ExecSession *session : sessionsOf(sprite))
        session->abandon();
}

void Context::deleteSprite(const QString &name)
{
    const SpritePtr record = sprites.take(name);
    if (!record)
        return;
    killSessions(name);
    for (const CheckpointRecord &checkpoint : std::as_const(record->checkpoints))
        QDir(checkpoint.folder).removeRecursively();
    host.kill(record->kitId);
}

void Context::updateStatus(SpriteRecord &record)
{
    bool running = false;
    for (ExecSession *session : sessionsOf(record.name))
        running = running || session->isRunning();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (running) {
        record.status = QStringLiteral("running");
        record.lastRunningAt = now;
    } else if (record.status == QLatin1String("running")) {
        record.status = QStringLiteral("warm");
        record.warmSince = now;
        record.lastWarmingAt = now;
    }
}

void Context::touch(SpriteRecord &record)
{
    if (record.status == QLatin1String("running"))
        return;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    record.status = QStringLiteral("warm");
    record.warmSince = now;
    record.lastWarmingAt = now;
}

void Context::tick()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const bool pollNow = (++m_ticks % 2) == 0; // every 500 ms
    for (const SpritePtr &record : std::as_const(sprites)) {
        if (record->status == QLatin1String("warm") && record->warmSince.msecsTo(now) >= coldMs)
            record->status = QStringLiteral("cold");
        if (pollNow)
            pollPorts(*record);
        if (Sandbox *sandbox = kit(*record)) // what GET /_contract/state lists
            sandbox->setState(record->status);
    }
}

void Context::pollPorts(SpriteRecord &record)
{
    QList<qint64> pids;
    for (ExecSession *session : sessionsOf(record.name)) {
        if (session->isRunning() && session->process) {
            pids.append(session->process->pid());
            pids.append(ProcTree::descendants(session->process->pid()));
        }
    }
    const QMap<int, qint64> now = pids.isEmpty() ? QMap<int, qint64>() : listeningPorts(pids);
    if (now == record.ports)
        return;
    QList<QJsonObject> events;
    const auto event = [&record](const QString &type, int port, qint64 pid) {
        return QJsonObject{{QStringLiteral("type"), type},
                           {QStringLiteral("port"), port},
                           {QStringLiteral("address"), QStringLiteral("%1:%2").arg(record.url).arg(port)},
                           {QStringLiteral("pid"), pid}};
    };
    for (auto it = now.cbegin(); it != now.cend(); ++it) {
        if (!record.ports.contains(it.key()))
            events.append(event(QStringLiteral("port_opened"), it.key(), it.value()));
    }
    for (auto it = record.ports.cbegin(); it != record.ports.cend(); ++it) {
        if (!now.contains(it.key()))
            events.append(event(QStringLiteral("port_closed"), it.key(), it.value()));
    }
    record.ports = now;
    for (const QJsonObject &e : std::as_const(events)) {
        for (ExecSession *session : sessionsOf(record.name))
            session->sendText(e);
        for (const QPointer<QWebSocket> &watcher : std::as_const(portWatchers)) {
            if (watcher && watcher->property("sprite").toString() == record.name)
                watcher->sendTextMessage(QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact)));
        }
    }
}

sandbar::Result<QString> Context::kitPath(const QString &apiPath, const QString &workingDir)
{
    if (apiPath.isEmpty() || apiPath.contains(QChar(0)))
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("invalid path"));
    QString path = apiPath;
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/")))
        path = QLatin1String(kHome) + path.mid(1);
    if (!path.startsWith(QLatin1Char('/'))) {
        const QString base = workingDir.isEmpty() ? QStringLiteral("/") : workingDir;
        path = base + QLatin1Char('/') + path;
    }
    path = QDir::cleanPath(path);
    if (isWithin(path, QLatin1String(kHome)))
        return QString(kKitHome + path.mid(qsizetype(qstrlen(kHome))));
    if (isWithin(path, kTmp))
        return path;
    return makeError(ErrorCode::Unauthorized,
                     QStringLiteral("permission denied: %1 is outside %2 and /tmp").arg(path, QLatin1String(kHome)));
}

sandbar::Result<QString> Context::hostPath(const SpriteRecord &record, const QString &apiPath,
                                           const QString &workingDir) const
{
    auto inKit = kitPath(apiPath, workingDir);
    if (!inKit)
        return inKit;
    Sandbox *sandbox = kit(record);
    if (!sandbox)
        return makeError(ErrorCode::NotFound, QStringLiteral("the sprite has no files"));
    return sandbox->mapPath(*inKit);
}

QString Context::apiPath(const SpriteRecord &record, const QString &hostPath) const
{
    Sandbox *sandbox = kit(record);
    const QString inKit = sandbox ? sandbox->apiPath(hostPath) : hostPath;
    if (isWithin(inKit, kKitHome))
        return QLatin1String(kHome) + inKit.mid(kKitHome.size());
    return inKit;
}

} // namespace contract::sprites
