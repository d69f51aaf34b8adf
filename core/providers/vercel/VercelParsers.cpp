#include "providers/vercel/VercelParsers.h"

#include "cloud/JsonValues.h"
#include "providers/vercel/VercelTr.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>
#include <QUrl>
#include <QtMath>
#include <algorithm>

namespace sandbar::vercel {

namespace {

QString service()
{
    return tr("Vercel Sandbox");
}

QDateTime msTime(const QJsonValue &v)
{
    const auto n = cloud::number(v);
    return n && *n > 0 ? QDateTime::fromMSecsSinceEpoch(cloud::saturated(*n), QTimeZone::utc()) : QDateTime();
}

std::optional<qint64> optionalInt(const QJsonObject &o, const char *key)
{
    const auto n = cloud::number(o.value(QLatin1String(key)));
    return n ? std::optional<qint64>(cloud::saturated(*n)) : std::nullopt;
}

constexpr qint64 kTenYearsMs = 10LL * 366 * 86400 * 1000;

// memory (MB, as Vercel counts it) in bytes; nullopt when absent, negative or absurd (past a
// pebibyte), so that no multiplication overflows.
std::optional<qint64> mebibytes(const QJsonObject &o)
{
    const auto mb = optionalInt(o, "memory");
    if (!mb || *mb < 0 || *mb > (qint64(1) << 30))
        return std::nullopt;
    return *mb * 1024 * 1024;
}

// The tags as Sandbar's labels; a tag of the person's stays as it is.
QMap<QString, QString> labelsFromTags(const QJsonObject &tags, QString *token)
{
    QMap<QString, QString> out;
    for (auto it = tags.begin(); it != tags.end(); ++it)
        cloud::putServiceTag(out, it.key(), it.value().toString(), token);
    return out;
}

// The sandbox's own fields; the session's, where there is one, are laid over them.
VercelRecord fromSandbox(const QJsonObject &sandbox, const QString &account, const QString &providerId)
{
    VercelRecord r;
    SessionInfo &info = r.info;
    info.id = sandbox.value(QLatin1String("name")).toString();
    info.name = info.id;
    info.account = account;
    info.provider = providerId;
    r.status = sandbox.value(QLatin1String("status")).toString();
    info.state = stateFromVercel(r.status);
    info.statusText = r.status;
    info.image = sandbox.value(QLatin1String("image")).toString();
    if (info.image.isEmpty())
        info.image = sandbox.value(QLatin1String("runtime")).toString();
    info.created = msTime(sandbox.value(QLatin1String("createdAt")));
    r.sessionId = sandbox.value(QLatin1String("currentSessionId")).toString();
    r.persistent = sandbox.value(QLatin1String("persistent")).toBool();
    r.currentSnapshotId = sandbox.value(QLatin1String("currentSnapshotId")).toString();
    r.cwd = sandbox.value(QLatin1String("cwd")).toString();
    if (const auto v = cloud::number(sandbox.value(QLatin1String("vcpus"))))
        info.cpus = *v;
    if (const auto bytes = mebibytes(sandbox))
        info.memoryBytes = *bytes;
    const QJsonObject policy = sandbox.value(QLatin1String("networkPolicy")).toObject();
    info.network = !policy.isEmpty() && policy.value(QLatin1String("mode")).toString() != QLatin1String("deny-all");
    info.labels = labelsFromTags(sandbox.value(QLatin1String("tags")).toObject(), &r.token);
    info.owned = info.labels.value(QLatin1String(labels::App)) == QLatin1String(labels::AppValue);
    r.deadline = cloud::applyTtlLabel(info);
    return r;
}

void applySession(VercelRecord &r, const QJsonObject &session)
{
    r.sessionId = session.value(QLatin1String("id")).toString(r.sessionId);
    r.status = session.value(QLatin1String("status")).toString(r.status);
    r.info.state = stateFromVercel(r.status);
    r.info.statusText = r.status;
    r.cwd = session.value(QLatin1String("cwd")).toString(r.cwd);
    if (const auto v = cloud::number(session.value(QLatin1String("vcpus"))))
        r.info.cpus = *v;
    if (const auto bytes = mebibytes(session))
        r.info.memoryBytes = *bytes;
    // Beyond ten years is not a timeout but garbage: none.
    r.timeoutMs = std::clamp<qint64>(optionalInt(session, "timeout").value_or(0), 0, kTenYearsMs);
    r.sessionStarted = msTime(session.value(QLatin1String("startedAt")));
    r.activeCpuMs = optionalInt(session, "activeCpuDurationMs");
    const QJsonObject transfer = session.value(QLatin1String("networkTransfer")).toObject();
    r.ingressBytes = optionalInt(transfer, "ingress");
    r.egressBytes = optionalInt(transfer, "egress");
    // Vercel's own limit, where Sandbar set none: the session ends then.
    if (!r.deadline.isValid() && r.sessionStarted.isValid() && r.timeoutMs > 0)
        r.info.expiresAt = r.sessionStarted.addMSecs(r.timeoutMs);
}

void applyRoutes(VercelRecord &r, const QJsonArray &routes)
{
    for (const QJsonValue &v : routes) {
        const QJsonObject route = v.toObject();
        const int port = cloud::saturatedInt(cloud::number(route.value(QLatin1String("port"))).value_or(0));
        QString url = route.value(QLatin1String("url")).toString();
        const QString subdomain = route.value(QLatin1String("subdomain")).toString();
        if (url.isEmpty() && !subdomain.isEmpty())
            url = QStringLiteral("https://%1.vercel.run").arg(subdomain);
        const QUrl parsed(url);
        if (port <= 0 || !parsed.isValid() ||
            (parsed.scheme() != QLatin1String("https") && parsed.scheme() != QLatin1String("http")))
            continue;
        SessionEndpoint e;
        e.name = QStringLiteral("%1/tcp").arg(port);
        e.url = url;
        e.sessionPort = port;
        r.info.endpoints.append(e);
    }
}

} // namespace

SessionState stateFromVercel(const QString &status)
{
    if (status == QLatin1String("running"))
        return SessionState::Running;
    if (status == QLatin1String("pending"))
        return SessionState::Creating;
    if (status == QLatin1String("stopping") || status == QLatin1String("snapshotting"))
        return SessionState::Stopping;
    if (status == QLatin1String("stopped"))
        return SessionState::Stopped;
    if (status == QLatin1String("failed") || status == QLatin1String("aborted"))
        return SessionState::Error;
    return SessionState::Unknown;
}

Result<VercelRecord> parseSandboxReply(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = cloud::parseReply(json, service(), tr("sandbox"));
    if (!doc)
        return doc.error();
    const QJsonObject o = doc->object();
    const QJsonObject sandbox = o.value(QLatin1String("sandbox")).toObject();
    if (sandbox.value(QLatin1String("name")).toString().isEmpty())
        return cloud::malformedReply(service(), tr("sandbox"), tr("it names no sandbox"));
    VercelRecord r = fromSandbox(sandbox, account, providerId);
    if (o.value(QLatin1String("session")).isObject())
        applySession(r, o.value(QLatin1String("session")).toObject());
    applyRoutes(r, o.value(QLatin1String("routes")).toArray());
    r.info.rawJson = json;
    return r;
}

Result<SandboxPage> parseSandboxList(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = cloud::parseReply(json, service(), tr("sandbox list"));
    if (!doc)
        return doc.error();
    const QJsonObject o = doc->object();
    if (!o.value(QLatin1String("sandboxes")).isArray())
        return cloud::malformedReply(service(), tr("sandbox list"), tr("it has no sandboxes"));
    SandboxPage page;
    for (const QJsonValue &v : o.value(QLatin1String("sandboxes")).toArray()) {
        const QJsonObject sandbox = v.toObject();
        if (sandbox.value(QLatin1String("name")).toString().isEmpty())
            continue;
        VercelRecord r = fromSandbox(sandbox, account, providerId);
        r.info.rawJson = QJsonDocument(sandbox).toJson(QJsonDocument::Compact);
        page.items.append(r);
    }
    page.next = o.value(QLatin1String("pagination")).toObject().value(QLatin1String("next")).toString();
    return page;
}

namespace {
QString snapshotWords(const QJsonObject &o)
{
    QStringList words;
    words << (o.value(QLatin1String("creationMethod")).toString() == QLatin1String("auto") ? tr("saved at a stop")
                                                                                           : tr("taken on request"));
    if (const auto size = optionalInt(o, "sizeBytes"); size && *size >= 1024 * 1024)
        words << tr("%1 MiB").arg(double(*size) / (1024.0 * 1024.0), 0, 'f', 1);
    else if (size && *size > 0)
        words << tr("%1 KiB").arg(qMax<qint64>(1, *size / 1024));
    if (const QDateTime expires = msTime(o.value(QLatin1String("expiresAt"))); expires.isValid())
        words << tr("kept until %1").arg(expires.toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
    return words.join(QStringLiteral(", "));
}
} // namespace

std::optional<SnapshotEntry> snapshotEntry(const QJsonObject &snapshot)
{
    const QString status = snapshot.value(QLatin1String("status")).toString();
    SnapshotEntry e;
    e.id = snapshot.value(QLatin1String("id")).toString();
    if (e.id.isEmpty() || (status != QLatin1String("created") && status != QLatin1String("creating")))
        return std::nullopt;
    e.created = msTime(snapshot.value(QLatin1String("createdAt")));
    e.comment = snapshotWords(snapshot);
    return e;
}

Result<SnapshotPage> parseSnapshotList(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, service(), tr("snapshot list"));
    if (!doc)
        return doc.error();
    const QJsonObject o = doc->object();
    if (!o.value(QLatin1String("snapshots")).isArray())
        return cloud::malformedReply(service(), tr("snapshot list"), tr("it has no snapshots"));
    SnapshotPage page;
    for (const QJsonValue &v : o.value(QLatin1String("snapshots")).toArray()) {
        if (auto e = snapshotEntry(v.toObject()))
            page.items.append(*e);
    }
    page.next = o.value(QLatin1String("pagination")).toObject().value(QLatin1String("next")).toString();
    return page;
}

Result<SnapshotEntry> parseSnapshotReply(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, service(), tr("snapshot"));
    if (!doc)
        return doc.error();
    const QJsonObject snapshot = doc->object().value(QLatin1String("snapshot")).toObject();
    auto e = snapshotEntry(snapshot);
    if (!e)
        return cloud::malformedReply(
            service(), tr("snapshot"),
            snapshot.isEmpty() ? tr("it names no snapshot")
                               : tr("the snapshot is %1").arg(snapshot.value(QLatin1String("status")).toString()));
    return *e;
}

Result<CommandEvent> parseCommandLine(const QByteArray &line)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return cloud::malformedReply(service(), tr("command output"), tr("a line is not a JSON object"));
    const QJsonObject o = doc.object();
    CommandEvent e;
    if (o.value(QLatin1String("command")).isObject()) {
        const QJsonObject c = o.value(QLatin1String("command")).toObject();
        e.kind = CommandEvent::Kind::Command;
        e.commandId = c.value(QLatin1String("id")).toString();
        if (const auto code = cloud::number(c.value(QLatin1String("exitCode"))))
            e.exitCode = cloud::saturatedInt(*code);
        if (e.commandId.isEmpty())
            return cloud::malformedReply(service(), tr("command output"), tr("a command has no id"));
        return e;
    }
    const QString stream = o.value(QLatin1String("stream")).toString();
    if (stream == QLatin1String("stdout") || stream == QLatin1String("stderr")) {
        e.stream = stream == QLatin1String("stdout") ? 1 : 2;
        e.data = o.value(QLatin1String("data")).toString().toUtf8();
        return e;
    }
    if (stream == QLatin1String("error")) {
        const QJsonObject d = o.value(QLatin1String("data")).toObject();
        e.kind = CommandEvent::Kind::Error;
        e.message = d.value(QLatin1String("message")).toString();
        const QString code = d.value(QLatin1String("code")).toString();
        if (!code.isEmpty())
            e.message = e.message.isEmpty() ? code : code + QStringLiteral(": ") + e.message;
        return e;
    }
    return cloud::malformedReply(service(), tr("command output"), tr("a line is neither a command nor output"));
}

Result<BackgroundCommand> parseCommandReply(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, service(), tr("command"));
    if (!doc)
        return doc.error();
    const QJsonObject c = doc->object().value(QLatin1String("command")).toObject();
    BackgroundCommand command;
    command.id = c.value(QLatin1String("id")).toString();
    if (command.id.isEmpty())
        return cloud::malformedReply(service(), tr("command"), tr("it names no command"));
    const QString name = c.value(QLatin1String("name")).toString();
    if (!name.isEmpty())
        command.argv << name;
    for (const QJsonValue &arg : c.value(QLatin1String("args")).toArray())
        command.argv << arg.toString();
    command.started = msTime(c.value(QLatin1String("startedAt")));
    if (const auto code = cloud::number(c.value(QLatin1String("exitCode"))))
        command.exitCode = cloud::saturatedInt(*code);
    command.running = !command.exitCode.has_value();
    return command;
}

Result<Interactive> parseInteractive(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, service(), tr("terminal address"));
    if (!doc)
        return doc.error();
    Interactive i;
    i.url = doc->object().value(QLatin1String("url")).toString();
    i.token = doc->object().value(QLatin1String("token")).toString();
    const QUrl url(i.url);
    const QStringList schemes{QStringLiteral("wss"), QStringLiteral("ws"), QStringLiteral("https"),
                              QStringLiteral("http")};
    if (i.token.isEmpty() || !url.isValid() || url.host().isEmpty() || !schemes.contains(url.scheme()))
        return cloud::malformedReply(service(), tr("terminal address"), tr("it has no URL or no token"));
    return i;
}

std::optional<int> parseExitFrame(const QString &text)
{
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    if (o.value(QLatin1String("type")).toString() != QLatin1String("exit"))
        return std::nullopt;
    const auto code = cloud::number(o.value(QLatin1String("code")));
    return code ? std::optional<int>(cloud::saturatedInt(*code)) : std::optional<int>(-1);
}

QString errorMessage(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    const QJsonValue error = o.value(QLatin1String("error"));
    if (error.isObject()) {
        const QString message = error.toObject().value(QLatin1String("message")).toString();
        return message.isEmpty() ? error.toObject().value(QLatin1String("code")).toString() : message;
    }
    return error.isString() ? error.toString() : o.value(QLatin1String("message")).toString();
}

bool isJwt(const QString &token)
{
    const QStringList parts = token.trimmed().split(QLatin1Char('.'));
    if (parts.size() != 3 || parts.at(1).isEmpty())
        return false;
    const auto payload = QByteArray::fromBase64Encoding(
        parts.at(1).toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    return payload && QJsonDocument::fromJson(payload.decoded).isObject();
}

int tagRoom(const CreateSpec &spec)
{
    // The account, the create token and the time limit (Vercel always has one); the agent's.
    const int ours = 3 + (spec.labels.contains(QLatin1String(labels::Agent)) ? 1 : 0);
    return 5 - ours;
}

QJsonObject forkBody(const VercelRecord &source, const ForkSpec &spec, const QString &account, const QString &token)
{
    QJsonObject body;
    if (!spec.name.trimmed().isEmpty())
        body.insert(QStringLiteral("name"), spec.name.trimmed());
    QMap<QString, QString> labelsIn = source.info.labels;
    labelsIn.insert(spec.labels);
    QJsonObject tags;
    const QMap<QString, QString> all = cloud::serviceTagsFor(labelsIn, account, token);
    for (auto it = all.cbegin(); it != all.cend(); ++it)
        tags.insert(it.key(), it.value());
    // Vercel keeps five tags: Sandbar's own (account, token, time limit, agent) stay, and the
    // person's labels that no longer fit are left off the copy, last first.
    const QStringList ours{QLatin1String(cloud::kAccountTag), QLatin1String(cloud::kTokenTag),
                           QLatin1String(cloud::kTtlTag), QLatin1String(cloud::kAgentTag)};
    for (auto keys = tags.keys(); tags.size() > 5 && !keys.isEmpty(); keys.removeLast()) {
        if (!ours.contains(keys.last()))
            tags.remove(keys.last());
    }
    body.insert(QStringLiteral("tags"), tags);
    return body;
}

QJsonObject createBody(const CreateSpec &spec, const QString &account, const QString &token, const QString &projectId,
                       qint64 timeoutSeconds)
{
    QJsonObject body{{QStringLiteral("projectId"), projectId}};
    QJsonArray ports;
    for (const PortSpec &p : spec.ports)
        ports.append(p.sessionPort);
    body.insert(QStringLiteral("ports"), ports);
    if (timeoutSeconds > 0)
        body.insert(QStringLiteral("timeout"), double(timeoutSeconds) * 1000);
    if (spec.cpus)
        body.insert(QStringLiteral("resources"), QJsonObject{{QStringLiteral("vcpus"), qCeil(*spec.cpus)}});
    const QString runtime = spec.options.value(QStringLiteral("runtime")).toString().trimmed();
    if (!runtime.isEmpty())
        body.insert(QStringLiteral("runtime"), runtime);
    else if (!spec.image.trimmed().isEmpty())
        body.insert(QStringLiteral("image"), spec.image.trimmed());
    if (!spec.name.trimmed().isEmpty())
        body.insert(QStringLiteral("name"), spec.name.trimmed());
    // Vercel's own default: a stop snapshots the files and a resume brings them back.
    body.insert(QStringLiteral("persistent"), spec.options.value(QStringLiteral("persistent"), true).toBool());
    body.insert(
        QStringLiteral("networkPolicy"),
        QJsonObject{{QStringLiteral("mode"), spec.network ? QStringLiteral("allow-all") : QStringLiteral("deny-all")}});
    const QString source = spec.options.value(QStringLiteral("source")).toString().trimmed();
    if (source.startsWith(QLatin1String("snap_")))
        body.insert(QStringLiteral("source"), QJsonObject{{QStringLiteral("type"), QStringLiteral("snapshot")},
                                                          {QStringLiteral("snapshotId"), source}});
    else if (source.endsWith(QLatin1String(".tar.gz")) || source.endsWith(QLatin1String(".tgz")))
        body.insert(QStringLiteral("source"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("tarball")}, {QStringLiteral("url"), source}});
    else if (!source.isEmpty())
        body.insert(QStringLiteral("source"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("git")}, {QStringLiteral("url"), source}});
    QJsonObject env;
    for (const QString &kv : spec.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            env.insert(kv.left(eq), kv.mid(eq + 1));
    }
    if (!env.isEmpty())
        body.insert(QStringLiteral("env"), env);
    QJsonObject tags{{QLatin1String(kAccountTag), account}, {QLatin1String(kTokenTag), token}};
    if (spec.ttlSeconds > 0)
        tags.insert(QLatin1String(kTtlTag), QString::number(spec.ttlSeconds));
    const QString agent = spec.labels.value(QLatin1String(labels::Agent));
    if (!agent.isEmpty())
        tags.insert(QLatin1String(kAgentTag), agent.left(256));
    for (auto it = spec.labels.cbegin(); it != spec.labels.cend(); ++it)
        if (it.key() != QLatin1String(labels::Agent))
            tags.insert(it.key(), it.value());
    body.insert(QStringLiteral("tags"), tags);
    return body;
}

QJsonObject tagsWithTtl(const VercelRecord &record, qint64 ttlSeconds)
{
    QMap<QString, QString> all = cloud::serviceTagsFor(
        record.info.labels, record.info.labels.value(QLatin1String(labels::Account)), record.token);
    if (!record.info.labels.contains(QLatin1String(labels::Account)))
        all.remove(QLatin1String(kAccountTag));
    if (record.token.isEmpty())
        all.remove(QLatin1String(kTokenTag));
    all.remove(QLatin1String(kTtlTag));
    if (ttlSeconds > 0)
        all.insert(QLatin1String(kTtlTag), QString::number(ttlSeconds));
    QJsonObject tags;
    for (auto it = all.cbegin(); it != all.cend(); ++it)
        tags.insert(it.key(), it.value());
    return tags;
}

std::optional<double> cpuPercent(qint64 cpuMsBefore, qint64 cpuMsNow, qint64 wallMsBetween)
{
    if (wallMsBetween <= 0 || cpuMsNow < cpuMsBefore)
        return std::nullopt;
    return 100.0 * double(cpuMsNow - cpuMsBefore) / double(wallMsBetween);
}

} // namespace sandbar::vercel
