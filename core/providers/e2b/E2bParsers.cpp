#include "providers/e2b/E2bParsers.h"

#include "cloud/JsonValues.h"
#include "cloud/Retry.h"
#include "net/ConnectEnvelope.h"
#include "providers/e2b/E2bTr.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <limits>

namespace sandbar::e2b {

namespace {
Error badReply(const QString &what, const QString &why)
{
    return cloud::malformedReply(QStringLiteral("E2B"), what, why);
}

Result<QJsonDocument> parseDoc(const QByteArray &json, const QString &what)
{
    return cloud::parseReply(json, QStringLiteral("E2B"), what);
}

Result<SandboxRecord> sandboxFrom(const QJsonObject &o)
{
    SandboxRecord r;
    r.id = o.value(QLatin1String("sandboxID")).toString();
    if (r.id.isEmpty())
        return badReply(tr("sandbox"), tr("it has no sandboxID"));
    r.templateId = o.value(QLatin1String("templateID")).toString();
    r.alias = o.value(QLatin1String("alias")).toString();
    r.state = o.value(QLatin1String("state")).toString();
    r.envdVersion = o.value(QLatin1String("envdVersion")).toString();
    r.envdAccessToken = o.value(QLatin1String("envdAccessToken")).toString();
    r.domain = o.value(QLatin1String("domain")).toString();
    r.startedAt = cloud::parseTime(o.value(QLatin1String("startedAt")).toString());
    r.endAt = cloud::parseTime(o.value(QLatin1String("endAt")).toString());
    r.cpuCount = o.value(QLatin1String("cpuCount")).toInt();
    r.memoryMB = cloud::saturated(o.value(QLatin1String("memoryMB")).toDouble());
    r.diskSizeMB = cloud::saturated(o.value(QLatin1String("diskSizeMB")).toDouble());
    const QJsonValue net = o.value(QLatin1String("allowInternetAccess"));
    if (net.isBool())
        r.allowInternet = net.toBool();
    const QJsonObject meta = o.value(QLatin1String("metadata")).toObject();
    for (auto it = meta.begin(); it != meta.end(); ++it)
        r.metadata.insert(it.key(), it.value().toString());
    QJsonObject shown = o;
    shown.remove(QLatin1String("envdAccessToken"));
    shown.remove(QLatin1String("trafficAccessToken"));
    r.raw = QJsonDocument(shown).toJson(QJsonDocument::Indented);
    return r;
}

FileEntry entryFrom(const QJsonObject &o)
{
    FileEntry e;
    e.name = o.value(QLatin1String("name")).toString();
    e.path = o.value(QLatin1String("path")).toString();
    const QString type = o.value(QLatin1String("type")).toString();
    e.isDir = type == QLatin1String("FILE_TYPE_DIRECTORY");
    e.isLink = type == QLatin1String("FILE_TYPE_SYMLINK") || o.contains(QLatin1String("symlinkTarget"));
    e.linkTarget = o.value(QLatin1String("symlinkTarget")).toString();
    e.size = cloud::int64Of(o.value(QLatin1String("size")));
    e.mode = quint32(cloud::saturated(o.value(QLatin1String("mode")).toDouble()) & 07777);
    e.modified = cloud::parseTime(o.value(QLatin1String("modifiedTime")).toString());
    return e;
}
} // namespace

Result<SandboxRecord> parseSandbox(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("sandbox"));
    if (!doc.ok())
        return doc.error();
    if (!doc->isObject())
        return badReply(tr("sandbox"), tr("it is not an object"));
    return sandboxFrom(doc->object());
}

Result<QList<SandboxRecord>> parseSandboxList(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("sandbox list"));
    if (!doc.ok())
        return doc.error();
    if (!doc->isArray())
        return badReply(tr("sandbox list"), tr("it is not an array"));
    QList<SandboxRecord> out;
    for (const QJsonValue &v : doc->array()) {
        auto r = sandboxFrom(v.toObject());
        if (!r.ok())
            return r.error();
        out << r.value();
    }
    return out;
}

SessionInfo toSessionInfo(const SandboxRecord &r, const QString &account)
{
    SessionInfo s;
    s.id = r.id;
    s.account = account;
    s.provider = QStringLiteral("e2b");
    s.labels = r.metadata;
    s.name = r.metadata.value(QLatin1String(labels::Name));
    if (s.name.isEmpty())
        s.name = r.id;
    s.image = r.alias.isEmpty() ? r.templateId : r.alias;
    if (r.state == QLatin1String("running")) {
        s.state = SessionState::Running;
        s.statusText = tr("Running");
    } else if (r.state == QLatin1String("paused")) {
        s.state = SessionState::Paused;
        s.statusText = tr("Paused (not billed for compute)");
    } else {
        s.state = r.state.isEmpty() ? SessionState::Running : SessionState::Unknown; // a create reply has no state
        s.statusText = r.state;
    }
    s.created = r.startedAt;
    const QString created = r.metadata.value(QLatin1String(labels::Created));
    if (!s.created.isValid() && !created.isEmpty())
        s.created = cloud::parseTime(created);
    s.expiresAt = r.endAt;
    if (r.startedAt.isValid() && r.endAt.isValid())
        s.ttlSeconds = r.startedAt.secsTo(r.endAt);
    if (r.cpuCount > 0)
        s.cpus = r.cpuCount;
    // More than qint64 holds in bytes is no size at all (fuzzing found the overflow).
    if (r.memoryMB > 0 && r.memoryMB <= std::numeric_limits<qint64>::max() / (1024 * 1024))
        s.memoryBytes = r.memoryMB * 1024 * 1024;
    s.network =
        r.allowInternet.value_or(r.metadata.value(QStringLiteral("dev.sandbar.network")) == QLatin1String("on"));
    s.owned = r.metadata.value(QLatin1String(labels::App)) == QLatin1String(labels::AppValue);
    s.rawJson = r.raw;
    return s;
}

Result<StatsSample> parseMetrics(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("metrics reply"));
    if (!doc.ok())
        return doc.error();
    if (!doc->isArray())
        return badReply(tr("metrics reply"), tr("it is not an array"));
    const QJsonArray points = doc->array();
    QJsonObject latest;
    qint64 latestTs = -1;
    for (const QJsonValue &v : points) {
        const QJsonObject p = v.toObject();
        const qint64 ts = cloud::int64Of(p.value(QLatin1String("timestampUnix")));
        if (ts >= latestTs) {
            latestTs = ts;
            latest = p;
        }
    }
    if (latest.isEmpty())
        return makeError(ErrorCode::NotFound, tr("E2B has no metrics for this sandbox yet"));
    StatsSample s;
    s.time = latestTs > 0 ? QDateTime::fromSecsSinceEpoch(latestTs, Qt::UTC) : QDateTime::currentDateTimeUtc();
    // cpuUsedPct is of the whole sandbox (all its vCPUs); Sandbar's 100 is one core.
    const double pct = latest.value(QLatin1String("cpuUsedPct")).toDouble();
    const int cpus = qMax(1, latest.value(QLatin1String("cpuCount")).toInt());
    if (latest.contains(QLatin1String("cpuUsedPct")))
        s.cpuPercent = pct * cpus;
    if (latest.contains(QLatin1String("memUsed")))
        s.memoryUsedBytes = cloud::int64Of(latest.value(QLatin1String("memUsed")));
    if (latest.contains(QLatin1String("memTotal")))
        s.memoryLimitBytes = cloud::int64Of(latest.value(QLatin1String("memTotal")));
    if (latest.contains(QLatin1String("diskUsed")))
        s.filesystemUsedBytes = cloud::int64Of(latest.value(QLatin1String("diskUsed")));
    if (latest.contains(QLatin1String("diskTotal")))
        s.filesystemTotalBytes = cloud::int64Of(latest.value(QLatin1String("diskTotal")));
    return s;
}

QString metadataFilter(const QMap<QString, QString> &metadata)
{
    QStringList parts;
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        parts << QString::fromLatin1(QUrl::toPercentEncoding(it.key()) + '=' + QUrl::toPercentEncoding(it.value()));
    return parts.join(QLatin1Char('&'));
}

Result<ProcessEvent> parseProcessEvent(const QByteArray &message)
{
    auto doc = parseDoc(message, tr("process event"));
    if (!doc.ok())
        return doc.error();
    const QJsonObject event = doc->object().value(QLatin1String("event")).toObject();
    ProcessEvent e;
    if (event.contains(QLatin1String("start"))) {
        e.kind = ProcessEvent::Kind::Start;
        e.pid = cloud::int64Of(event.value(QLatin1String("start")).toObject().value(QLatin1String("pid")));
    } else if (event.contains(QLatin1String("data"))) {
        e.kind = ProcessEvent::Kind::Data;
        const QJsonObject d = event.value(QLatin1String("data")).toObject();
        QString b64;
        if (d.contains(QLatin1String("pty"))) {
            b64 = d.value(QLatin1String("pty")).toString();
        } else if (d.contains(QLatin1String("stdout"))) {
            b64 = d.value(QLatin1String("stdout")).toString();
            e.stream = 1;
        } else if (d.contains(QLatin1String("stderr"))) {
            b64 = d.value(QLatin1String("stderr")).toString();
            e.stream = 2;
        }
        const auto decoded = QByteArray::fromBase64Encoding(b64.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return badReply(tr("process event"), tr("its data is not base64"));
        e.data = *decoded;
    } else if (event.contains(QLatin1String("keepalive"))) {
        e.kind = ProcessEvent::Kind::Keepalive;
    } else if (event.contains(QLatin1String("end"))) {
        e.kind = ProcessEvent::Kind::End;
        const QJsonObject end = event.value(QLatin1String("end")).toObject();
        e.exitCode = end.value(QLatin1String("exitCode")).toInt();
        e.exited = end.value(QLatin1String("exited")).toBool();
        e.status = end.value(QLatin1String("status")).toString();
        e.error = end.value(QLatin1String("error")).toString();
    } else if (!doc->isObject() || !doc->object().contains(QLatin1String("event"))) {
        return badReply(tr("process event"), tr("it has no event"));
    }
    return e;
}

Result<QList<ProcessRecord>> parseProcessList(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("process list"));
    if (!doc.ok())
        return doc.error();
    QList<ProcessRecord> out;
    for (const QJsonValue &v : doc->object().value(QLatin1String("processes")).toArray()) {
        const QJsonObject p = v.toObject();
        ProcessRecord r;
        r.pid = cloud::int64Of(p.value(QLatin1String("pid")));
        const QJsonObject config = p.value(QLatin1String("config")).toObject();
        r.cmd = config.value(QLatin1String("cmd")).toString();
        for (const QJsonValue &a : config.value(QLatin1String("args")).toArray())
            r.args << a.toString();
        r.tag = p.value(QLatin1String("tag")).toString();
        out << r;
    }
    return out;
}

Result<QList<FileEntry>> parseListDir(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("folder listing"));
    if (!doc.ok())
        return doc.error();
    if (!doc->isObject())
        return badReply(tr("folder listing"), tr("it is not an object"));
    QList<FileEntry> out;
    for (const QJsonValue &v : doc->object().value(QLatin1String("entries")).toArray())
        out << entryFrom(v.toObject());
    return out;
}

Result<FileEntry> parseEntryReply(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("file entry"));
    if (!doc.ok())
        return doc.error();
    const QJsonObject entry = doc->object().value(QLatin1String("entry")).toObject();
    if (entry.isEmpty())
        return badReply(tr("file entry"), tr("it has no entry"));
    return entryFrom(entry);
}

Error connectUnaryError(int httpStatus, const QByteArray &body, const QString &service)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    const QString code = o.value(QLatin1String("code")).toString();
    if (!code.isEmpty()) {
        const QString message = o.value(QLatin1String("message")).toString();
        return makeError(net::connect::errorCodeFromConnect(code),
                         tr("%1: %2 (%3)").arg(service, message.isEmpty() ? code : message, code));
    }
    return cloud::errorFromHttp(httpStatus, body, service);
}

} // namespace sandbar::e2b
