#include "wiring/cli/CliSupport.h"

#include "clispec/CliSpec.h"

#include <QJsonDocument>
#include <cstdio>

namespace sandbar::cli {

QStringList ParsedArgs::values(const QString &opt) const
{
    QStringList v = options.values(opt);
    std::reverse(v.begin(), v.end()); // QMultiMap returns the newest first
    return v;
}

OptionSpec optionSpecFor(QStringView words)
{
    const clispec::Command *command = clispec::findCommand(words);
    Q_ASSERT_X(command, "optionSpecFor", "a command clispec does not define");
    OptionSpec spec;
    if (!command)
        return spec;
    for (const auto &o : command->options) {
        if (o.providerDependent)
            continue;
        (o.value ? spec.valued : spec.flags) << QLatin1String(o.name);
    }
    spec.allowRest = command->allowRest;
    return spec;
}

Result<ParsedArgs> parseArgs(const QStringList &args, const OptionSpec &spec)
{
    ParsedArgs out;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--")) {
            if (!spec.allowRest)
                return makeError(ErrorCode::InvalidArgument,
                                 QCoreApplication::translate("sandbarctl", "unexpected '--'"));
            out.rest = args.mid(i + 1);
            break;
        }
        if (a.startsWith(QLatin1String("--")) && a.size() > 2) {
            QString name = a;
            QString inlineValue;
            bool hasInline = false;
            if (const auto eq = a.indexOf(QLatin1Char('=')); eq > 0) {
                name = a.left(eq);
                inlineValue = a.mid(eq + 1);
                hasInline = true;
            }
            if (spec.flags.contains(name) && !hasInline) {
                out.options.insert(name, QString());
            } else if (spec.valued.contains(name)) {
                if (hasInline) {
                    out.options.insert(name, inlineValue);
                } else if (i + 1 < args.size()) {
                    out.options.insert(name, args.at(++i));
                } else {
                    return makeError(ErrorCode::InvalidArgument,
                                     QCoreApplication::translate("sandbarctl", "%1 needs a value").arg(name));
                }
            } else {
                return makeError(ErrorCode::InvalidArgument,
                                 QCoreApplication::translate("sandbarctl", "unknown option %1").arg(name));
            }
            continue;
        }
        out.positional << a;
    }
    return out;
}

Command::Command(AppServices &services, bool json, QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_json(json)
{
}

void Command::out(const QString &line)
{
    outRaw(line.toUtf8() + '\n');
}

void Command::outRaw(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void Command::errRaw(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

void Command::err(const QString &line)
{
    errRaw(line.toUtf8() + '\n');
}

void Command::printJson(const QJsonValue &value)
{
    QJsonDocument doc = value.isArray() ? QJsonDocument(value.toArray()) : QJsonDocument(value.toObject());
    outRaw(doc.toJson(QJsonDocument::Indented));
}

void Command::printTable(const QStringList &header, const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const auto &h : header)
        widths << h.size();
    for (const auto &r : rows) {
        for (qsizetype i = 0; i < r.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], r.at(i).size());
    }
    const auto line = [&](const QStringList &cells) {
        QString s;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            if (i + 1 < cells.size())
                s += cells.at(i).leftJustified(widths.value(i) + 2);
            else
                s += cells.at(i);
        }
        out(s);
    };
    line(header);
    for (const auto &r : rows)
        line(r);
}

void Command::finish(int code)
{
    if (m_finished)
        return;
    m_finished = true;
    Q_EMIT done(code);
}

void Command::fail(const Error &error)
{
    // One line: newlines inside an engine's message would read as several errors.
    QString msg = error.message;
    msg.replace(QLatin1Char('\n'), QLatin1Char(' '));
    err(QStringLiteral("sandbarctl: ") + msg.trimmed());
    finish(ExitFailure);
}

void Command::usage(const QString &message)
{
    err(QStringLiteral("sandbarctl: ") + message);
    err(QCoreApplication::translate("sandbarctl", "Try 'sandbarctl help'."));
    finish(ExitUsage);
}

void Command::withSession(const QString &ref, std::function<void(const SessionHandle &)> next)
{
    m_services.registry->resolve(ref, Callback<SessionHandle>(this, [this, next](Result<SessionHandle> h) {
                                     if (!h.ok())
                                         return fail(h.error());
                                     next(h.value());
                                 }));
}

QJsonObject sessionToJson(const SessionInfo &s)
{
    QJsonObject o;
    o[QStringLiteral("ref")] = s.ref();
    o[QStringLiteral("id")] = s.id;
    o[QStringLiteral("account")] = s.account;
    o[QStringLiteral("provider")] = s.provider;
    o[QStringLiteral("name")] = s.name;
    o[QStringLiteral("state")] = sessionStateName(s.state);
    o[QStringLiteral("status")] = s.statusText;
    if (!s.errorMessage.isEmpty())
        o[QStringLiteral("error")] = s.errorMessage;
    o[QStringLiteral("image")] = s.image;
    o[QStringLiteral("created")] = s.created.toUTC().toString(Qt::ISODate);
    o[QStringLiteral("ttl_seconds")] = double(s.ttlSeconds);
    if (s.expiresAt.isValid())
        o[QStringLiteral("expires")] = s.expiresAt.toUTC().toString(Qt::ISODate);
    if (s.cpus)
        o[QStringLiteral("cpus")] = *s.cpus;
    if (s.memoryBytes)
        o[QStringLiteral("memory_bytes")] = double(*s.memoryBytes);
    o[QStringLiteral("network")] = s.network;
    if (s.asleep)
        o[QStringLiteral("asleep")] = true;
    if (s.gpus != 0)
        o[QStringLiteral("gpus")] = s.gpus; // -1: all
    if (!s.gpuUuids.isEmpty())
        o[QStringLiteral("gpu_ids")] = QJsonArray::fromStringList(s.gpuUuids);
    o[QStringLiteral("owned")] = s.owned;
    o[QStringLiteral("adopted")] = s.adopted;
    QJsonObject labels;
    for (auto it = s.labels.cbegin(); it != s.labels.cend(); ++it)
        labels[it.key()] = it.value();
    o[QStringLiteral("labels")] = labels;
    if (!s.settings.isEmpty())
        o[QStringLiteral("settings")] = QJsonObject::fromVariantMap(s.settings);
    if (s.labels.contains(QLatin1String(labels::Agent)))
        o[QStringLiteral("agent")] = s.labels.value(QLatin1String(labels::Agent));
    return o;
}

QJsonObject fileEntryToJson(const FileEntry &e)
{
    QJsonObject o;
    o[QStringLiteral("name")] = e.name;
    o[QStringLiteral("path")] = e.path;
    o[QStringLiteral("size")] = double(e.size);
    o[QStringLiteral("dir")] = e.isDir;
    o[QStringLiteral("link")] = e.isLink;
    if (e.isLink)
        o[QStringLiteral("target")] = e.linkTarget;
    o[QStringLiteral("mode")] = QString::number(e.mode, 8);
    o[QStringLiteral("modified")] = e.modified.toUTC().toString(Qt::ISODate);
    return o;
}

QString formatBytes(qint64 bytes)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    return u == 0 ? QStringLiteral("%1 B").arg(bytes)
                  : QStringLiteral("%1 %2").arg(v, 0, 'f', 1).arg(QLatin1String(units[u]));
}

QString formatAge(const QDateTime &t)
{
    if (!t.isValid())
        return QStringLiteral("-");
    const qint64 s = t.secsTo(QDateTime::currentDateTimeUtc());
    const qint64 a = std::abs(s);
    QString v;
    if (a < 60)
        v = QStringLiteral("%1s").arg(a);
    else if (a < 3600)
        v = QStringLiteral("%1m").arg(a / 60);
    else if (a < 86400)
        v = QStringLiteral("%1h").arg(a / 3600);
    else
        v = QStringLiteral("%1d").arg(a / 86400);
    return s >= 0 ? QCoreApplication::translate("sandbarctl", "%1 ago").arg(v)
                  : QCoreApplication::translate("sandbarctl", "in %1").arg(v);
}

} // namespace sandbar::cli
