#include "providers/daytona/DaytonaParsers.h"

#include "cloud/JsonValues.h"
#include "providers/daytona/DaytonaTr.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QRegularExpression>
#include <cmath>
#include <utility>

namespace sandbar::daytona {

namespace {
Error badReply(const QString &what)
{
    return cloud::malformedReply(QStringLiteral("Daytona"), what, tr("it is not what the API describes"));
}

Result<QJsonDocument> parseDoc(const QByteArray &json, const QString &what)
{
    return cloud::parseReply(json, QStringLiteral("Daytona"), what);
}

qint64 gbToBytes(double gb)
{
    return cloud::saturated(std::round(gb * double(kGiB)));
}

qint64 bytesToWholeGb(qint64 bytes)
{
    return (bytes + kGiB - 1) / kGiB;
}
} // namespace

SessionState stateFromDaytona(const QString &state)
{
    static const QHash<QString, SessionState> map = {
        {QStringLiteral("started"), SessionState::Running},
        {QStringLiteral("creating"), SessionState::Creating},
        {QStringLiteral("restoring"), SessionState::Creating},
        {QStringLiteral("starting"), SessionState::Creating},
        {QStringLiteral("resuming"), SessionState::Creating},
        {QStringLiteral("pending_build"), SessionState::Creating},
        {QStringLiteral("building_snapshot"), SessionState::Creating},
        {QStringLiteral("pulling_snapshot"), SessionState::Creating},
        {QStringLiteral("stopping"), SessionState::Stopping},
        {QStringLiteral("destroying"), SessionState::Stopping},
        {QStringLiteral("archiving"), SessionState::Stopping},
        {QStringLiteral("pausing"), SessionState::Stopping},
        // Daytona's stop keeps the sandbox's files and is undone by start: for Sandbar that is a
        // pause (Resume starts it again), not the end of the session.
        {QStringLiteral("stopped"), SessionState::Paused},
        {QStringLiteral("archived"), SessionState::Paused}, // start restores it, more slowly
        {QStringLiteral("destroyed"), SessionState::Stopped},
        {QStringLiteral("paused"), SessionState::Paused},
        {QStringLiteral("error"), SessionState::Error},
        {QStringLiteral("build_failed"), SessionState::Error},
        // Operations on a sandbox that keeps its state: what it was is not told.
        {QStringLiteral("resizing"), SessionState::Unknown},
        {QStringLiteral("snapshotting"), SessionState::Unknown},
        {QStringLiteral("forking"), SessionState::Unknown},
    };
    return map.value(state.toLower(), SessionState::Unknown);
}

Result<SandboxRecord> parseSandbox(const QJsonObject &o, const QString &account, const QString &providerId)
{
    const QString id = o.value(QLatin1String("id")).toString();
    if (id.isEmpty())
        return badReply(tr("sandbox"));
    SandboxRecord rec;
    SessionInfo &s = rec.info;
    s.id = id;
    s.account = account;
    s.provider = providerId;
    const QJsonObject labelsObj = o.value(QLatin1String("labels")).toObject();
    for (auto it = labelsObj.begin(); it != labelsObj.end(); ++it)
        s.labels.insert(it.key(), it.value().toString());
    s.owned = s.labels.value(QLatin1String(labels::App)) == QLatin1String(labels::AppValue);
    s.name = s.labels.value(QLatin1String(labels::Name));
    if (s.name.isEmpty())
        s.name = o.value(QLatin1String("name")).toString();
    rec.state = o.value(QLatin1String("state")).toString();
    s.state = stateFromDaytona(rec.state);
    s.errorMessage = o.value(QLatin1String("errorReason")).toString();
    if (rec.state == QLatin1String("stopped"))
        s.statusText = QCoreApplication::translate("sandbar::daytona",
                                                   "Stopped: files kept, memory lost, not billed for CPU and memory");
    else if (rec.state == QLatin1String("archived"))
        s.statusText = QCoreApplication::translate(
            "sandbar::daytona", "Archived: kept in cheaper storage; Resume restores it, more slowly than from a stop");
    else
        s.statusText = rec.state;
    s.image = o.value(QLatin1String("snapshot")).toString();
    s.created = cloud::parseTime(s.labels.value(QLatin1String(labels::Created)));
    if (!s.created.isValid())
        s.created = cloud::parseTime(o.value(QLatin1String("createdAt")).toString());
    bool ttlOk = false;
    const qint64 ttl = s.labels.value(QLatin1String(labels::Ttl)).toLongLong(&ttlOk);
    if (ttlOk && ttl > 0) {
        s.ttlSeconds = ttl;
        if (s.created.isValid()) {
            s.expiresAt = s.created.addSecs(ttl);
            rec.deadline = s.expiresAt;
        }
    }
    if (auto cpu = cloud::number(o.value(QLatin1String("cpu"))); cpu && *cpu > 0)
        s.cpus = *cpu;
    if (auto mem = cloud::number(o.value(QLatin1String("memory"))); mem && *mem > 0)
        s.memoryBytes = gbToBytes(*mem);
    if (auto disk = cloud::number(o.value(QLatin1String("disk"))); disk && *disk > 0)
        rec.diskBytes = gbToBytes(*disk);
    if (auto gpu = cloud::number(o.value(QLatin1String("gpu"))); gpu && *gpu > 0)
        s.gpus = int(std::lround(*gpu));
    // Absent means Daytona's default, which lets traffic through.
    s.network = !o.value(QLatin1String("networkBlockAll")).toBool(false);
    rec.toolboxProxyUrl = o.value(QLatin1String("toolboxProxyUrl")).toString();
    rec.token = s.labels.value(QLatin1String(TokenLabel));
    s.rawJson = QJsonDocument(o).toJson(QJsonDocument::Indented);
    return rec;
}

Result<SandboxRecord> parseSandboxJson(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = parseDoc(json, tr("sandbox"));
    if (!doc)
        return doc.error();
    if (!doc->isObject())
        return badReply(tr("sandbox"));
    return parseSandbox(doc->object(), account, providerId);
}

Result<SandboxPage> parseSandboxList(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = parseDoc(json, tr("sandbox list"));
    if (!doc)
        return doc.error();
    SandboxPage page;
    QJsonArray items;
    if (doc->isArray()) {
        items = doc->array();
    } else {
        const QJsonObject o = doc->object();
        if (!o.value(QLatin1String("items")).isArray())
            return badReply(tr("sandbox list"));
        items = o.value(QLatin1String("items")).toArray();
        page.nextCursor = o.value(QLatin1String("nextCursor")).toString();
        page.page = cloud::saturatedInt(cloud::number(o.value(QLatin1String("page"))).value_or(0));
        page.totalPages = cloud::saturatedInt(cloud::number(o.value(QLatin1String("totalPages"))).value_or(0));
    }
    for (const QJsonValue &v : items) {
        auto rec = parseSandbox(v.toObject(), account, providerId);
        if (rec)
            page.items.append(std::move(rec.value()));
    }
    return page;
}

QJsonObject createBody(const CreateSpec &spec, const QString &account, const QString &token, const QDateTime &now,
                       const QString &target)
{
    QJsonObject body;
    QJsonObject lbl;
    for (auto it = spec.labels.begin(); it != spec.labels.end(); ++it)
        lbl.insert(it.key(), it.value());
    lbl.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
    lbl.insert(QLatin1String(labels::Account), account);
    lbl.insert(QLatin1String(labels::Created), now.toUTC().toString(Qt::ISODate));
    lbl.insert(QLatin1String(labels::Ttl), QString::number(qMax<qint64>(0, spec.ttlSeconds)));
    if (!spec.name.isEmpty())
        lbl.insert(QLatin1String(labels::Name), spec.name);
    lbl.insert(QLatin1String(TokenLabel), token);
    body.insert(QLatin1String("labels"), lbl);

    const QVariantMap &opt = spec.options;
    const QString snapshot = opt.value(QStringLiteral("snapshot")).toString().trimmed();
    if (!snapshot.isEmpty())
        body.insert(QLatin1String("snapshot"), snapshot);
    else if (!spec.image.trimmed().isEmpty())
        body.insert(QLatin1String("snapshot"), spec.image.trimmed());
    if (spec.cpus && *spec.cpus > 0)
        body.insert(QLatin1String("cpu"), qMax<qint64>(1, qint64(std::ceil(*spec.cpus))));
    if (spec.memoryBytes && *spec.memoryBytes > 0)
        body.insert(QLatin1String("memory"), bytesToWholeGb(*spec.memoryBytes));
    const qint64 disk = opt.value(QStringLiteral("disk")).toLongLong();
    if (disk > 0)
        body.insert(QLatin1String("disk"), bytesToWholeGb(disk));
    if (spec.gpus > 0)
        body.insert(QLatin1String("gpu"), spec.gpus);
    QJsonObject env;
    for (const QString &kv : spec.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            env.insert(kv.left(eq), kv.mid(eq + 1));
    }
    if (!env.isEmpty())
        body.insert(QLatin1String("env"), env);
    const QString region = opt.value(QStringLiteral("target")).toString().trimmed();
    if (!region.isEmpty())
        body.insert(QLatin1String("target"), region);
    else if (!target.isEmpty())
        body.insert(QLatin1String("target"), target);
    // Daytona counts idle minutes; Sandbar's option is in seconds (a Duration).
    const QVariant autoStop = opt.value(QStringLiteral("autoStop"));
    const qint64 autoStopSeconds = autoStop.isValid() ? autoStop.toLongLong() : 15 * 60;
    body.insert(QLatin1String("autoStopInterval"),
                autoStopSeconds <= 0 ? 0 : qMax<qint64>(1, (autoStopSeconds + 59) / 60));
    body.insert(QLatin1String("networkBlockAll"), !spec.network);
    if (!spec.user.isEmpty())
        body.insert(QLatin1String("user"), spec.user);
    return body;
}

PtyCloseReason parsePtyCloseReason(const QString &reason)
{
    PtyCloseReason out;
    const QJsonDocument doc = QJsonDocument::fromJson(reason.toUtf8());
    if (!doc.isObject())
        return out;
    const QJsonObject o = doc.object();
    if (auto code = cloud::number(o.value(QLatin1String("exitCode"))))
        out.exitCode = cloud::saturatedInt(*code);
    out.exitReason = o.value(QLatin1String("exitReason")).toString();
    return out;
}

Result<bool> parsePtyControl(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isObject())
        return badReply(tr("terminal control message"));
    const QJsonObject o = doc.object();
    const QString status = o.value(QLatin1String("status")).toString();
    if (status == QLatin1String("error")) {
        const QString why = o.value(QLatin1String("error")).toString();
        return makeError(ErrorCode::Unavailable, why.isEmpty() ? tr("Daytona refused the terminal")
                                                               : tr("Daytona refused the terminal: %1").arg(why));
    }
    return status == QLatin1String("connected");
}

Result<QString> parsePtyCreated(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("terminal reply"));
    if (!doc)
        return doc.error();
    const QString id = doc->object().value(QLatin1String("sessionId")).toString();
    if (id.isEmpty())
        return badReply(tr("terminal reply"));
    return id;
}

Result<QList<PtyEntry>> parsePtyList(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("terminal list"));
    if (!doc)
        return doc.error();
    const QJsonValue sessions =
        doc->isArray() ? QJsonValue(doc->array()) : doc->object().value(QLatin1String("sessions"));
    if (!sessions.isArray())
        return badReply(tr("terminal list"));
    QList<PtyEntry> out;
    for (const QJsonValue &v : sessions.toArray()) {
        const QJsonObject o = v.toObject();
        PtyEntry e;
        e.id = o.value(QLatin1String("id")).toString();
        if (e.id.isEmpty())
            continue;
        e.exited = !o.value(QLatin1String("active")).toBool(true);
        out.append(e);
    }
    return out;
}

Result<ExecOutput> parseExecute(const QByteArray &json)
{
    auto doc = parseDoc(json, tr("command result"));
    if (!doc)
        return doc.error();
    const QJsonObject o = doc->object();
    if (!doc->isObject() || !o.contains(QLatin1String("result")))
        return badReply(tr("command result"));
    ExecOutput out;
    out.exitCode = cloud::saturatedInt(cloud::number(o.value(QLatin1String("exitCode"))).value_or(0));
    out.stdoutData = o.value(QLatin1String("result")).toString().toUtf8();
    return out;
}

Result<StatsSample> parseTelemetry(const QByteArray &json, std::optional<double> cores)
{
    auto doc = parseDoc(json, tr("metrics reply"));
    if (!doc)
        return doc.error();
    const QJsonValue series = doc->object().value(QLatin1String("series"));
    if (!series.isArray())
        return badReply(tr("metrics reply"));
    QHash<QString, double> last;
    QDateTime newest;
    for (const QJsonValue &sv : series.toArray()) {
        const QJsonObject so = sv.toObject();
        const QString name = so.value(QLatin1String("metricName")).toString();
        QDateTime at;
        std::optional<double> value;
        for (const QJsonValue &pv : so.value(QLatin1String("dataPoints")).toArray()) {
            const QJsonObject po = pv.toObject();
            const QDateTime t = cloud::parseTime(po.value(QLatin1String("timestamp")).toString());
            auto v = cloud::number(po.value(QLatin1String("value")));
            if (!v || std::isnan(*v))
                continue;
            if (!value || !at.isValid() || (t.isValid() && t >= at)) {
                value = v;
                at = t;
            }
        }
        if (!value || name.isEmpty())
            continue;
        last.insert(name, *value);
        if (at.isValid() && (!newest.isValid() || at > newest))
            newest = at;
    }
    StatsSample s;
    s.time = newest.isValid() ? newest : QDateTime::currentDateTimeUtc();
    const auto get = [&](const char *key) -> std::optional<double> {
        const QString k = QLatin1String("daytona.sandbox.") + QLatin1String(key);
        if (last.contains(k))
            return last.value(k);
        return std::nullopt;
    };
    if (auto limit = get("cpu.limit"); limit && *limit > 0)
        cores = *limit;
    if (auto util = get("cpu.utilization"))
        s.cpuPercent = *util * cores.value_or(1.0);
    if (auto used = get("memory.usage"))
        s.memoryUsedBytes = cloud::saturated(*used);
    if (auto limit = get("memory.limit"); limit && *limit > 0)
        s.memoryLimitBytes = cloud::saturated(*limit);
    if (!s.memoryUsedBytes && s.memoryLimitBytes)
        if (auto util = get("memory.utilization"))
            s.memoryUsedBytes = cloud::saturated(*util / 100.0 * double(*s.memoryLimitBytes));
    if (auto used = get("filesystem.usage"))
        s.filesystemUsedBytes = cloud::saturated(*used);
    if (auto total = get("filesystem.total"); total && *total > 0)
        s.filesystemTotalBytes = cloud::saturated(*total);
    else if (auto avail = get("filesystem.available"); avail && s.filesystemUsedBytes)
        s.filesystemTotalBytes = cloud::saturated(*avail + double(*s.filesystemUsedBytes));
    return s;
}

quint32 parseMode(const QString &text)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return 0;
    bool ok = false;
    const uint octal = t.toUInt(&ok, 8);
    if (ok)
        return octal & 07777;
    // "-rwxr-xr-x" / "drwxr-xr-x" (Go's FileMode.String); the last nine letters are the bits.
    if (t.size() < 9)
        return 0;
    const QString bits = t.right(9);
    quint32 mode = 0;
    for (int i = 0; i < 9; ++i) {
        const QChar c = bits.at(i);
        if (c != QLatin1Char('-'))
            mode |= 1u << (8 - i);
    }
    return mode;
}

Result<FileEntry> parseFileInfo(const QJsonObject &o, const QString &dir)
{
    const QString name = o.value(QLatin1String("name")).toString();
    if (name.isEmpty())
        return badReply(tr("file entry"));
    FileEntry e;
    e.name = name;
    if (dir.isEmpty())
        e.path = name;
    else
        e.path = dir.endsWith(QLatin1Char('/')) ? QString(dir + name) : QString(dir + QLatin1Char('/') + name);
    e.size = cloud::saturated(cloud::number(o.value(QLatin1String("size"))).value_or(0));
    e.isDir = o.value(QLatin1String("isDir")).toBool();
    QString mode = o.value(QLatin1String("permissions")).toString();
    if (parseMode(mode) == 0)
        mode = o.value(QLatin1String("mode")).toString();
    e.mode = parseMode(mode);
    const QString modeText = o.value(QLatin1String("mode")).toString();
    e.isLink = modeText.startsWith(QLatin1Char('L'));
    e.modified = cloud::parseTime(o.value(QLatin1String("modifiedAt")).toString());
    if (!e.modified.isValid())
        e.modified = cloud::parseTime(o.value(QLatin1String("modTime")).toString());
    return e;
}

Result<FileEntry> parseFileInfoJson(const QByteArray &json, const QString &path)
{
    auto doc = parseDoc(json, tr("file entry"));
    if (!doc)
        return doc.error();
    if (!doc->isObject())
        return badReply(tr("file entry"));
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    auto e =
        parseFileInfo(doc->object(), slash > 0 ? path.left(slash) : (slash == 0 ? QStringLiteral("/") : QString()));
    if (e)
        e->path = path;
    return e;
}

Result<QList<FileEntry>> parseFileList(const QByteArray &json, const QString &dir)
{
    auto doc = parseDoc(json, tr("folder listing"));
    if (!doc)
        return doc.error();
    if (!doc->isArray())
        return badReply(tr("folder listing"));
    QList<FileEntry> out;
    for (const QJsonValue &v : doc->array())
        if (auto e = parseFileInfo(v.toObject(), dir))
            out.append(e.value());
    return out;
}

QString errorMessage(const QByteArray &body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    if (!doc.isObject())
        return {};
    const QJsonObject o = doc.object();
    for (const char *key : {"message", "error", "detail"}) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
        if (v.isArray() && !v.toArray().isEmpty()) // NestJS validation: "message": ["..."]
            return v.toArray().first().toString();
        if (v.isObject() && v.toObject().value(QLatin1String("message")).isString())
            return v.toObject().value(QLatin1String("message")).toString();
    }
    return {};
}

QString shellJoin(const QStringList &argv)
{
    static const QRegularExpression safe(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList out;
    for (const QString &a : argv) {
        if (!a.isEmpty() && safe.match(a).hasMatch())
            out << a;
        else
            out << QLatin1Char('\'') + QString(a).replace(QLatin1String("'"), QLatin1String("'\\''")) +
                       QLatin1Char('\'');
    }
    return out.join(QLatin1Char(' '));
}

} // namespace sandbar::daytona
