#include "providers/sprites/SpritesParsers.h"

#include "cloud/JsonValues.h"
#include "providers/sprites/SpritesTr.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUuid>
#include <algorithm>
#include <cmath>

namespace sandbar::sprites {

namespace {

constexpr qint64 kMaxMegabytes = qint64(1) << 30; // a pebibyte: beyond is garbage

// "key=value" (or a bare word) as a key and a value.
std::pair<QString, QString> splitLabel(const QString &label)
{
    const qsizetype eq = label.indexOf(QLatin1Char('='));
    if (eq < 0)
        return {label, QString()};
    return {label.left(eq), label.mid(eq + 1)};
}

// The labels as Sandbar's; a label of the person's stays as it is.
QMap<QString, QString> labelsFrom(const QStringList &raw, QString *token)
{
    QMap<QString, QString> out;
    for (const QString &label : raw) {
        const auto [key, value] = splitLabel(label);
        cloud::putServiceTag(out, key, value, token);
    }
    return out;
}

SpriteRecord fromObject(const QJsonObject &o, const QString &account, const QString &providerId)
{
    SpriteRecord r;
    SessionInfo &info = r.info;
    info.id = o.value(QLatin1String("name")).toString();
    info.name = info.id;
    info.account = account;
    info.provider = providerId;
    r.status = o.value(QLatin1String("status")).toString();
    info.state = stateFromSprite(r.status);
    info.asleep = r.status == QLatin1String("cold") || r.status == QLatin1String("warm");
    info.statusText = info.asleep ? tr("asleep (%1)").arg(r.status) : r.status;
    info.created = cloud::parseTime(o.value(QLatin1String("created_at")).toString());
    const QJsonObject config = o.value(QLatin1String("config")).toObject();
    if (const auto cpus = cloud::number(config.value(QLatin1String("cpus"))); cpus && *cpus > 0)
        info.cpus = *cpus;
    if (const auto mb = cloud::number(config.value(QLatin1String("ram_mb"))); mb && *mb > 0 && *mb < kMaxMegabytes)
        info.memoryBytes = cloud::saturated(*mb) * 1024 * 1024;
    for (const QJsonValue &v : o.value(QLatin1String("labels")).toArray())
        if (v.isString())
            r.rawLabels << v.toString();
    info.labels = labelsFrom(r.rawLabels, &r.token);
    info.owned = info.labels.value(QLatin1String(labels::App)) == QLatin1String(labels::AppValue);
    r.deadline = cloud::applyTtlLabel(info);
    const QString url = o.value(QLatin1String("url")).toString();
    if (url.startsWith(QLatin1String("https://")) || url.startsWith(QLatin1String("http://"))) {
        const QString auth = o.value(QLatin1String("url_settings")).toObject().value(QLatin1String("auth")).toString();
        info.endpoints.append(
            SessionEndpoint{auth == QLatin1String("public") ? tr("URL (public)") : tr("URL"), url, 8080, 0});
    }
    info.settings.insert(QStringLiteral("public-url"),
                         o.value(QLatin1String("url_settings")).toObject().value(QLatin1String("auth")).toString() ==
                             QLatin1String("public"));
    info.rawJson = QJsonDocument(o).toJson(QJsonDocument::Indented);
    return r;
}

} // namespace

QString serviceName()
{
    return tr("Fly.io Sprites");
}

SessionState stateFromSprite(const QString &status)
{
    // A sleeping sprite is not stopped: the next command or terminal wakes it.
    if (status == QLatin1String("running") || status == QLatin1String("warm") || status == QLatin1String("cold"))
        return SessionState::Running;
    if (status == QLatin1String("creating") || status == QLatin1String("starting"))
        return SessionState::Creating;
    if (status == QLatin1String("destroying") || status == QLatin1String("deleting"))
        return SessionState::Stopping;
    if (status == QLatin1String("error") || status == QLatin1String("failed"))
        return SessionState::Error;
    return SessionState::Unknown;
}

Result<SpriteRecord> parseSprite(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = cloud::parseReply(json, serviceName(), tr("sprite"));
    if (!doc)
        return doc.error();
    if (!doc->isObject() || doc->object().value(QLatin1String("name")).toString().isEmpty())
        return cloud::malformedReply(serviceName(), tr("sprite"), tr("it has no name"));
    return fromObject(doc->object(), account, providerId);
}

Result<SpritePage> parseSpriteList(const QByteArray &json, const QString &account, const QString &providerId)
{
    auto doc = cloud::parseReply(json, serviceName(), tr("sprite list"));
    if (!doc)
        return doc.error();
    const QJsonValue sprites = doc->object().value(QLatin1String("sprites"));
    if (!doc->isObject() || !sprites.isArray())
        return cloud::malformedReply(serviceName(), tr("sprite list"), tr("it has no sprites array"));
    SpritePage page;
    for (const QJsonValue &v : sprites.toArray()) {
        if (v.isObject() && !v.toObject().value(QLatin1String("name")).toString().isEmpty())
            page.items.append(fromObject(v.toObject(), account, providerId));
    }
    if (doc->object().value(QLatin1String("has_more")).toBool())
        page.next = doc->object().value(QLatin1String("next_continuation_token")).toString();
    return page;
}

Result<QList<ExecSession>> parseSessionList(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, serviceName(), tr("session list"));
    if (!doc)
        return doc.error();
    const QJsonValue sessions = doc->object().value(QLatin1String("sessions"));
    if (!doc->isObject() || !(sessions.isArray() || sessions.isNull() || sessions.isUndefined()))
        return cloud::malformedReply(serviceName(), tr("session list"), tr("it has no sessions array"));
    QList<ExecSession> out;
    for (const QJsonValue &v : sessions.toArray()) {
        const QJsonObject o = v.toObject();
        // Ids are numbers on some servers and strings on others.
        const QJsonValue id = o.value(QLatin1String("id"));
        ExecSession s;
        s.id = id.isDouble() ? QString::number(cloud::saturated(id.toDouble())) : id.toString();
        if (s.id.isEmpty())
            continue;
        s.command = o.value(QLatin1String("command")).toString();
        s.tty = o.value(QLatin1String("tty")).toBool();
        s.active = o.value(QLatin1String("is_active")).toBool();
        out.append(s);
    }
    return out;
}

Result<QList<FileEntry>> parseFsList(const QByteArray &json, const QString &folder)
{
    auto doc = cloud::parseReply(json, serviceName(), tr("file list"));
    if (!doc)
        return doc.error();
    const QJsonValue entries = doc->object().value(QLatin1String("entries"));
    if (!doc->isObject() || !(entries.isArray() || entries.isNull()))
        return cloud::malformedReply(serviceName(), tr("file list"), tr("it has no entries array"));
    QList<FileEntry> out;
    const QString base = folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/');
    for (const QJsonValue &v : entries.toArray()) {
        const QJsonObject o = v.toObject();
        FileEntry e;
        e.name = o.value(QLatin1String("name")).toString();
        // A name is one path component: anything else is not a child of the folder.
        if (e.name.isEmpty() || e.name == QLatin1String(".") || e.name == QLatin1String("..") ||
            e.name.contains(QLatin1Char('/')))
            continue;
        e.path = base + e.name;
        e.isDir = o.value(QLatin1String("isDir")).toBool();
        e.isLink = o.value(QLatin1String("type")).toString() == QLatin1String("symlink");
        e.size = qMax<qint64>(0, cloud::saturated(cloud::number(o.value(QLatin1String("size"))).value_or(0)));
        bool ok = false;
        const uint mode = o.value(QLatin1String("mode")).toString().toUInt(&ok, 8);
        e.mode = ok ? (mode & 07777) : 0;
        e.modified = cloud::parseTime(o.value(QLatin1String("modTime")).toString());
        out.append(e);
    }
    return out;
}

ExecFrame parseExecFrame(const QByteArray &frame)
{
    ExecFrame f;
    if (frame.isEmpty())
        return f;
    switch (quint8(frame.at(0))) {
    case 1:
        f.kind = ExecFrame::Kind::Stdout;
        f.data = frame.mid(1);
        break;
    case 2:
        f.kind = ExecFrame::Kind::Stderr;
        f.data = frame.mid(1);
        break;
    case 3:
        f.kind = ExecFrame::Kind::Exit;
        // As the SDK reads it: no code byte is a clean exit.
        f.exitCode = frame.size() > 1 ? quint8(frame.at(1)) : 0;
        break;
    default: break;
    }
    return f;
}

QByteArray stdinFrame(const QByteArray &bytes)
{
    return QByteArray(1, '\0') + bytes;
}

QByteArray stdinEofFrame()
{
    return QByteArray(1, '\4');
}

std::optional<ControlMessage> parseControl(const QString &text)
{
    const QJsonObject o = QJsonDocument::fromJson(text.toUtf8()).object();
    const QString type = o.value(QLatin1String("type")).toString();
    ControlMessage m;
    if (type == QLatin1String("session_info")) {
        const QJsonValue id = o.value(QLatin1String("session_id"));
        m.sessionId = id.isDouble() ? QString::number(cloud::saturated(id.toDouble())) : id.toString();
        return m;
    }
    if (type == QLatin1String("exit")) {
        m.kind = ControlMessage::Kind::Exit;
        m.exitCode = cloud::saturatedInt(cloud::number(o.value(QLatin1String("exit_code"))).value_or(0));
        return m;
    }
    if (type == QLatin1String("port_opened") || type == QLatin1String("port_closed")) {
        m.kind =
            type == QLatin1String("port_opened") ? ControlMessage::Kind::PortOpened : ControlMessage::Kind::PortClosed;
        m.port = cloud::saturatedInt(cloud::number(o.value(QLatin1String("port"))).value_or(0));
        m.address = o.value(QLatin1String("address")).toString();
        if (m.port <= 0 || m.port > 65535)
            return std::nullopt;
        return m;
    }
    return std::nullopt;
}

QString resizeText(int cols, int rows)
{
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("type"), QStringLiteral("resize")},
                                                       {QStringLiteral("cols"), qBound(1, cols, 1000)},
                                                       {QStringLiteral("rows"), qBound(1, rows, 1000)}})
                                 .toJson(QJsonDocument::Compact));
}

QUrlQuery execQuery(const QStringList &argv, const QStringList &env, const QString &dir, bool tty, int cols, int rows)
{
    QUrlQuery q;
    const auto add = [&q](const QString &key, const QString &value) {
        q.addQueryItem(key, QString::fromLatin1(QUrl::toPercentEncoding(value)));
    };
    for (const QString &arg : argv)
        add(QStringLiteral("cmd"), arg);
    if (!argv.isEmpty())
        add(QStringLiteral("path"), argv.first());
    add(QStringLiteral("stdin"), QStringLiteral("true"));
    for (const QString &kv : env)
        add(QStringLiteral("env"), kv);
    if (!dir.isEmpty())
        add(QStringLiteral("dir"), dir);
    if (tty) {
        add(QStringLiteral("tty"), QStringLiteral("true"));
        add(QStringLiteral("rows"), QString::number(qBound(1, rows, 1000)));
        add(QStringLiteral("cols"), QString::number(qBound(1, cols, 1000)));
    }
    return q;
}

QString errorMessage(const QByteArray &body)
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    const QString message = o.value(QLatin1String("message")).toString();
    if (!message.isEmpty())
        return message;
    return o.value(QLatin1String("error")).toString();
}

QJsonObject createBody(const CreateSpec &spec, const QString &name, const QString &account, const QString &token)
{
    QJsonObject body{{QStringLiteral("name"), name}};
    QJsonObject config;
    if (spec.cpus)
        config.insert(QStringLiteral("cpus"), qMax(1, int(std::ceil(*spec.cpus))));
    if (spec.memoryBytes)
        config.insert(QStringLiteral("ram_mb"), double(qMax<qint64>(1, *spec.memoryBytes / (1024 * 1024))));
    const QString region = spec.options.value(QStringLiteral("region")).toString().trimmed();
    if (!region.isEmpty())
        config.insert(QStringLiteral("region"), region);
    if (const qint64 gb = spec.options.value(QStringLiteral("storage")).toLongLong(); gb > 0)
        config.insert(QStringLiteral("storage_gb"), double(gb));
    if (!config.isEmpty())
        body.insert(QStringLiteral("config"), config);
    QJsonObject env;
    for (const QString &kv : spec.env) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        if (eq > 0)
            env.insert(kv.left(eq), kv.mid(eq + 1));
    }
    if (!env.isEmpty())
        body.insert(QStringLiteral("environment"), env);
    QStringList labelList{QLatin1String(cloud::kAccountTag) + QLatin1Char('=') + account,
                          QLatin1String(cloud::kTokenTag) + QLatin1Char('=') + token};
    if (spec.ttlSeconds > 0)
        labelList << QLatin1String(cloud::kTtlTag) + QLatin1Char('=') + QString::number(spec.ttlSeconds);
    for (auto it = spec.labels.cbegin(); it != spec.labels.cend(); ++it) {
        if (it.key() == QLatin1String(labels::Agent))
            labelList << QLatin1String(cloud::kAgentTag) + QLatin1Char('=') + it.value();
        else
            labelList << (it.value().isEmpty() ? it.key() : it.key() + QLatin1Char('=') + it.value());
    }
    body.insert(QStringLiteral("labels"), QJsonArray::fromStringList(labelList));
    const QJsonObject urlSettings = urlSettingsBody(spec.options.value(QStringLiteral("public-url")).toBool());
    body.insert(QStringLiteral("url_settings"), urlSettings.value(QStringLiteral("url_settings")));
    return body;
}

QStringList labelsWithTtl(const SpriteRecord &record, qint64 ttlSeconds)
{
    QStringList out;
    for (const QString &label : record.rawLabels)
        if (splitLabel(label).first != QLatin1String(cloud::kTtlTag))
            out << label;
    if (ttlSeconds > 0)
        out << QLatin1String(cloud::kTtlTag) + QLatin1Char('=') + QString::number(ttlSeconds);
    return out;
}

QStringList labelsWithPersons(const SpriteRecord &record, const QMap<QString, QString> &persons)
{
    QStringList out;
    for (const QString &label : record.rawLabels)
        if (cloud::isServiceTag(splitLabel(label).first) || labels::isSandbars(splitLabel(label).first))
            out << label;
    for (auto it = persons.cbegin(); it != persons.cend(); ++it)
        out << (it.value().isEmpty() ? it.key() : it.key() + QLatin1Char('=') + it.value());
    return out;
}

QJsonObject urlSettingsBody(bool publicUrl)
{
    return {{QStringLiteral("url_settings"),
             QJsonObject{{QStringLiteral("auth"), publicUrl ? QStringLiteral("public") : QStringLiteral("sprite")}}}};
}

QJsonObject denyAllPolicy()
{
    return QJsonObject{
        {QStringLiteral("rules"), QJsonArray{QJsonObject{{QStringLiteral("action"), QStringLiteral("deny")},
                                                         {QStringLiteral("domain"), QStringLiteral("*")}}}}};
}

Result<QList<SnapshotEntry>> parseCheckpointList(const QByteArray &json)
{
    auto doc = cloud::parseReply(json, serviceName(), tr("checkpoint list"));
    if (!doc)
        return doc.error();
    if (!doc->isArray())
        return cloud::malformedReply(serviceName(), tr("checkpoint list"), tr("it is not a list"));
    QList<SnapshotEntry> out;
    for (const QJsonValue &v : doc->array()) {
        const QJsonObject o = v.toObject();
        SnapshotEntry e;
        e.id = o.value(QLatin1String("id")).toString();
        if (e.id.isEmpty() || e.id.compare(QLatin1String("current"), Qt::CaseInsensitive) == 0)
            continue;
        e.created = cloud::parseTime(o.value(QLatin1String("create_time")).toString());
        e.comment = o.value(QLatin1String("comment")).toString();
        out.append(e);
    }
    std::stable_sort(out.begin(), out.end(), [](const SnapshotEntry &a, const SnapshotEntry &b) {
        return a.created.isValid() && (!b.created.isValid() || a.created > b.created);
    });
    return out;
}

Result<StreamMessage> parseStreamMessage(const QByteArray &line)
{
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject())
        return cloud::malformedReply(serviceName(), tr("progress line"), tr("it is not a JSON object"));
    const QJsonObject o = doc.object();
    StreamMessage m;
    m.type = o.value(QLatin1String("type")).toString();
    m.text = o.value(QLatin1String("data")).toString();
    if (m.type == QLatin1String("error")) {
        m.failed = true;
        const QString why = o.value(QLatin1String("error")).toString();
        m.text = why.isEmpty() ? (m.text.isEmpty() ? tr("the service gave no reason") : m.text) : why;
    }
    return m;
}

QJsonObject resourcesPolicy(qint64 memoryBytes)
{
    const qint64 mb = qMax<qint64>(1, (memoryBytes + 1024 * 1024 - 1) / (1024 * 1024));
    return QJsonObject{{QStringLiteral("memory"), QJsonObject{{QStringLiteral("limit_mb"), double(mb)}}}};
}

std::optional<qint64> memoryLimit(const QByteArray &json)
{
    const QJsonValue mb = QJsonDocument::fromJson(json)
                              .object()
                              .value(QLatin1String("memory"))
                              .toObject()
                              .value(QLatin1String("limit_mb"));
    const auto n = cloud::number(mb);
    if (!n || *n <= 0 || *n >= double(kMaxMegabytes))
        return std::nullopt;
    return cloud::saturated(*n) * 1024 * 1024;
}

QString spriteName(const QString &wanted)
{
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9][a-z0-9-]{0,62}$"));
    if (valid.match(wanted).hasMatch() && !wanted.endsWith(QLatin1Char('-')))
        return wanted;
    QString name = wanted.toLower();
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9-]+")), QStringLiteral("-"));
    name.replace(QRegularExpression(QStringLiteral("-{2,}")), QStringLiteral("-"));
    while (name.startsWith(QLatin1Char('-')))
        name.remove(0, 1);
    name = name.left(50);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    if (name.isEmpty())
        name = QStringLiteral("sandbar");
    // A short suffix keeps two sessions of one wanted name apart.
    return name + QLatin1Char('-') + QUuid::createUuid().toString(QUuid::Id128).left(6);
}

} // namespace sandbar::sprites
