#include "audit/Sanitizer.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <algorithm>

namespace sandbar::audit {

namespace {

QString redactedText()
{
    return QLatin1String(Redacted);
}

// KEY=VALUE, optionally after --env/-e, optionally opened by a quote that wraps the pair.
// The value is one quoted string or a run up to whitespace, a quote or a shell operator.
const QRegularExpression &pairPattern()
{
    static const QRegularExpression re(QStringLiteral(
        R"((?<![A-Za-z0-9_.-])(?<flag>--env(?:=|\s+)|-e\s+)?(?<q>['"])?(?<key>-{0,2}[A-Za-z_][A-Za-z0-9_.-]*)=)"
        R"((?<val>(?(<q>)[^'"]*|(?:"[^"]*"|'[^']*'|[^\s'";&|)]*))))"));
    return re;
}

// A flag whose name looks secret, followed by its value as the next word.
const QRegularExpression &secretFlagPattern()
{
    static const QRegularExpression re(QStringLiteral(
        R"((?<![A-Za-z0-9_-])(?<flag>--?[A-Za-z][A-Za-z0-9_.-]*)(?<sp>\s+)(?<val>"[^"]*"|'[^']*'|[^\s'";&|)-][^\s'";&|)]*))"));
    return re;
}

const QRegularExpression &urlPasswordPattern()
{
    static const QRegularExpression re(QStringLiteral(R"((?<=://)(?<user>[^\s/:@'"]+):(?<pass>[^\s@/'"]+)@)"));
    return re;
}

// Replaces the named capture "val" of each match for which keep() says false.
template <typename Pred>
QString replaceValues(const QString &text, const QRegularExpression &re, Pred redact)
{
    QString out;
    qsizetype last = 0;
    auto it = re.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        if (!redact(m) || m.capturedLength(u"val") == 0)
            continue;
        out += QStringView(text).mid(last, m.capturedStart(u"val") - last);
        out += redactedText();
        last = m.capturedEnd(u"val");
    }
    if (last == 0)
        return text;
    out += QStringView(text).mid(last);
    return out;
}

QJsonValue sanitizeValue(const QString &key, const QVariant &value, const QList<FieldDescriptor> &fields);

QJsonObject sanitizeMap(const QVariantMap &map, const QList<FieldDescriptor> &fields)
{
    QJsonObject out;
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        const FieldDescriptor *field = nullptr;
        for (const auto &f : fields) {
            if (f.key == it.key())
                field = &f;
        }
        if (field && (field->secret || field->type == FieldType::Secret))
            continue;
        if (looksSecret(it.key()))
            continue;
        out.insert(it.key(), sanitizeValue(it.key(), it.value(), fields));
    }
    return out;
}

QJsonValue sanitizeValue(const QString &key, const QVariant &value, const QList<FieldDescriptor> &fields)
{
    const bool isEnv = key == QLatin1String(createkeys::Env);
    switch (value.typeId()) {
    case QMetaType::QVariantMap: return sanitizeMap(value.toMap(), fields);
    case QMetaType::QVariantHash: {
        QVariantMap m;
        const auto h = value.toHash();
        for (auto it = h.cbegin(); it != h.cend(); ++it)
            m.insert(it.key(), it.value());
        return sanitizeMap(m, fields);
    }
    case QMetaType::QStringList:
    case QMetaType::QVariantList: {
        const QVariantList items = value.toList();
        const bool allStrings = std::all_of(items.cbegin(), items.cend(),
                                            [](const QVariant &v) { return v.typeId() == QMetaType::QString; });
        if (value.typeId() == QMetaType::QStringList || isEnv || allStrings) {
            const QStringList list = value.toStringList();
            return QJsonArray::fromStringList(isEnv ? redactEnv(list) : redactArgv(list));
        }
        QJsonArray arr;
        for (const QVariant &v : items)
            arr.append(sanitizeValue(QString(), v, fields));
        return arr;
    }
    case QMetaType::QString:
    case QMetaType::QByteArray: {
        const QString s = value.toString();
        if (isEnv) // the create option spells the environment one K=V per line
            return redactEnv(s.split(QLatin1Char('\n'))).join(QLatin1Char('\n'));
        return redactCommandLine(s);
    }
    default: return QJsonValue::fromVariant(value);
    }
}

} // namespace

bool looksSecret(const QString &key)
{
    const QString k = key.toUpper();
    for (const char *word : {"TOKEN", "SECRET", "KEY", "PASSWORD", "PASSWD", "CREDENTIAL"}) {
        if (k.contains(QLatin1String(word)))
            return true;
    }
    return false;
}

QString redactEnvEntry(const QString &entry)
{
    const auto eq = entry.indexOf(QLatin1Char('='));
    if (eq < 0)
        return entry; // "K" alone passes the caller's value through; there is none to hide
    return entry.left(eq + 1) + redactedText();
}

QStringList redactEnv(const QStringList &env)
{
    QStringList out;
    out.reserve(env.size());
    for (const auto &e : env)
        out << redactEnvEntry(e);
    return out;
}

QString redactCommandLine(const QString &line)
{
    QString s = replaceValues(line, pairPattern(), [](const QRegularExpressionMatch &m) {
        return m.capturedLength(u"flag") > 0 || looksSecret(m.captured(u"key"));
    });
    s = replaceValues(s, secretFlagPattern(), [](const QRegularExpressionMatch &m) {
        const QString flag = m.captured(u"flag");
        return flag != QLatin1String("-e") && flag != QLatin1String("--env") && looksSecret(flag) &&
               m.captured(u"val") != redactedText();
    });
    s.replace(urlPasswordPattern(), QStringLiteral("\\1:***@"));
    return s;
}

QStringList redactArgv(const QStringList &argv)
{
    QStringList out;
    out.reserve(argv.size());
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &a = argv.at(i);
        const bool hasNext = i + 1 < argv.size();
        if ((a == QLatin1String("--env") || a == QLatin1String("-e")) && hasNext) {
            out << a << redactEnvEntry(argv.at(++i));
        } else if (a.startsWith(QLatin1String("--env="))) {
            out << QStringLiteral("--env=") + redactEnvEntry(a.mid(6));
        } else if (a.startsWith(QLatin1Char('-')) && !a.contains(QLatin1Char('=')) && looksSecret(a) && hasNext &&
                   !argv.at(i + 1).startsWith(QLatin1Char('-'))) {
            out << a << redactedText();
            ++i;
        } else if (const auto eq = a.indexOf(QLatin1Char('='));
                   eq > 0 && looksSecret(a.left(eq)) && !a.left(eq).contains(QLatin1Char(' '))) {
            out << a.left(eq + 1) + redactedText(); // one argument: the whole value, spaces and all
        } else {
            out << redactCommandLine(a);
        }
    }
    return out;
}

QJsonObject sanitizeDetail(const QVariantMap &detail, const QList<FieldDescriptor> &fields)
{
    return sanitizeMap(detail, fields);
}

QJsonObject execDetail(const ExecRequest &request)
{
    QJsonObject o;
    const QStringList argv = redactArgv(request.argv);
    o[QStringLiteral("argv")] = QJsonArray::fromStringList(argv);
    o[QStringLiteral("command")] = argv.join(QLatin1Char(' '));
    if (!request.env.isEmpty())
        o[QStringLiteral("env")] = QJsonArray::fromStringList(redactEnv(request.env));
    if (!request.workingDir.isEmpty())
        o[QStringLiteral("workdir")] = request.workingDir;
    if (!request.user.isEmpty())
        o[QStringLiteral("user")] = request.user;
    if (!request.stdinData.isEmpty())
        o[QStringLiteral("stdin_bytes")] = double(request.stdinData.size());
    return o;
}

QJsonObject ptyDetail(const PtyOptions &options)
{
    QJsonObject o;
    if (!options.argv.isEmpty()) {
        const QStringList argv = redactArgv(options.argv);
        o[QStringLiteral("argv")] = QJsonArray::fromStringList(argv);
        o[QStringLiteral("command")] = argv.join(QLatin1Char(' '));
    }
    if (!options.env.isEmpty())
        o[QStringLiteral("env")] = QJsonArray::fromStringList(redactEnv(options.env));
    if (!options.workingDir.isEmpty())
        o[QStringLiteral("workdir")] = options.workingDir;
    if (!options.attachId.isEmpty())
        o[QStringLiteral("attach")] = options.attachId;
    return o;
}

QJsonObject createDetail(const CreateSpec &spec, const QList<FieldDescriptor> &createOptions)
{
    QJsonObject o = sanitizeDetail(spec.options, createOptions);
    if (!spec.name.isEmpty())
        o[QStringLiteral("name")] = spec.name;
    if (!spec.image.isEmpty())
        o[QStringLiteral("image")] = spec.image;
    if (spec.cpus)
        o[QStringLiteral("cpus")] = *spec.cpus;
    if (spec.memoryBytes)
        o[QStringLiteral("memory")] = double(*spec.memoryBytes);
    if (spec.ttlSeconds > 0)
        o[QStringLiteral("ttl")] = double(spec.ttlSeconds);
    if (!spec.env.isEmpty())
        o[QStringLiteral("env")] = QJsonArray::fromStringList(redactEnv(spec.env));
    o[QStringLiteral("network")] = spec.network;
    if (spec.gpus != 0)
        o[QStringLiteral("gpus")] = spec.gpus;
    if (!spec.mounts.isEmpty()) {
        QJsonArray mounts;
        for (const auto &m : spec.mounts)
            mounts.append(QString(m.hostPath + QLatin1Char(':') + m.sessionPath +
                                  (m.readOnly ? QStringLiteral(":ro") : QString())));
        o[QStringLiteral("mounts")] = mounts;
    }
    return o;
}

QJsonObject fileDetail(const QString &path, qint64 sizeBytes, const QString &localPath)
{
    QJsonObject o;
    o[QStringLiteral("path")] = path;
    if (sizeBytes >= 0)
        o[QStringLiteral("size")] = double(sizeBytes);
    if (!localPath.isEmpty())
        o[QStringLiteral("local_path")] = localPath;
    return o;
}

QJsonObject moveDetail(const QString &from, const QString &to)
{
    QJsonObject o = fileDetail(from, -1);
    o[QStringLiteral("to")] = to;
    return o;
}

QJsonObject modeDetail(const QString &path, quint32 mode)
{
    QJsonObject o = fileDetail(path, -1);
    o[QStringLiteral("mode")] = QStringLiteral("%1").arg(mode & 07777, 4, 8, QLatin1Char('0'));
    return o;
}

QJsonObject ttlDetail(qint64 ttlSeconds)
{
    QJsonObject o;
    o[QStringLiteral("ttl")] = double(ttlSeconds);
    return o;
}

QJsonObject snapshotDetail(const QString &snapshotId, const QString &comment)
{
    QJsonObject o;
    if (!snapshotId.isEmpty())
        o[QStringLiteral("snapshot")] = snapshotId;
    if (!comment.isEmpty())
        o[QStringLiteral("comment")] = redactCommandLine(comment.left(500));
    return o;
}

QJsonObject budgetDetail(double monthSpendUsd, double monthlyBudgetUsd)
{
    QJsonObject o;
    o[QStringLiteral("spend_usd")] = monthSpendUsd;
    o[QStringLiteral("budget_usd")] = monthlyBudgetUsd;
    return o;
}

namespace {

// Enough of a value to see what an agent asked for, not a copy of what it sent.
constexpr qsizetype kArgumentChars = 512;

QJsonValue agentValue(const QString &key, const QJsonValue &v)
{
    if (looksSecret(key))
        return redactedText();
    if (v.isObject())
        return agentArgumentsDetail(v.toObject());
    if (v.isArray()) {
        QStringList strings;
        QJsonArray out;
        for (const auto &x : v.toArray()) {
            if (x.isString())
                strings << x.toString();
            else
                out.append(agentValue(QString(), x));
        }
        if (strings.isEmpty())
            return out;
        const bool isEnv = key == QLatin1String("env");
        const QStringList clean = isEnv ? redactEnv(strings) : redactArgv(strings);
        for (const auto &c : clean)
            out.append(c.left(kArgumentChars));
        return out;
    }
    if (!v.isString())
        return v;
    const QString text = v.toString();
    if (key == QLatin1String("content") || key == QLatin1String("stdin"))
        return QStringLiteral("(%1 characters)").arg(text.size());
    const QString clean = redactCommandLine(text);
    return clean.size() > kArgumentChars
               ? clean.left(kArgumentChars) + QStringLiteral("... (%1 characters)").arg(clean.size())
               : clean;
}

} // namespace

QJsonObject agentArgumentsDetail(const QJsonObject &arguments)
{
    QJsonObject out;
    for (auto it = arguments.constBegin(); it != arguments.constEnd(); ++it)
        out[it.key()] = agentValue(it.key(), it.value());
    return out;
}

QJsonObject agentCallDetail(const QString &clientName, const QString &clientVersion, const QString &transport,
                            const QString &tool, const QJsonObject &arguments, qint64 durationMs)
{
    return QJsonObject{
        {QStringLiteral("client"), redactCommandLine(clientName).left(kArgumentChars)},
        {QStringLiteral("client_version"), redactCommandLine(clientVersion).left(kArgumentChars)},
        {QStringLiteral("transport"), transport},
        {QStringLiteral("tool"), tool},
        {QStringLiteral("arguments"), agentArgumentsDetail(arguments)},
        {QStringLiteral("duration_ms"), double(durationMs)},
    };
}

} // namespace sandbar::audit
