#include "providers/Descriptors.h"

#include "providers/Session.h"

namespace sandbar {

namespace {
const FieldDescriptor *findField(const QList<FieldDescriptor> &fields, const QString &key)
{
    for (const auto &f : fields) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}
} // namespace

FieldDescriptor makeField(QString key, QString label, QString help, FieldType type, QVariant defaultValue,
                          QVariant minimum, QVariant maximum)
{
    FieldDescriptor f;
    f.key = std::move(key);
    f.label = std::move(label);
    f.help = std::move(help);
    f.type = type;
    f.secret = type == FieldType::Secret;
    f.defaultValue = std::move(defaultValue);
    f.minimum = std::move(minimum);
    f.maximum = std::move(maximum);
    return f;
}

const FieldDescriptor *ProviderDescriptor::accountField(const QString &key) const
{
    return findField(accountFields, key);
}

const FieldDescriptor *ProviderDescriptor::createOption(const QString &key) const
{
    return findField(createOptions, key);
}

} // namespace sandbar

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <cmath>

namespace sandbar {

namespace {

std::optional<double> parseScaled(const QString &text, const QList<QPair<QString, double>> &units)
{
    static const QRegularExpression re(QStringLiteral("^\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const double n = m.captured(1).toDouble();
    const QString unit = m.captured(2).toLower();
    for (const auto &[name, scale] : units) {
        if (unit == name)
            return n * scale;
    }
    return std::nullopt;
}

VoidResult checkRange(const FieldDescriptor &field, double v)
{
    if (field.minimum.isValid() && v < field.minimum.toDouble())
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::FieldDescriptor", "%1 must be at least %2")
                             .arg(field.label, field.minimum.toString()));
    if (field.maximum.isValid() && v > field.maximum.toDouble())
        return makeError(ErrorCode::InvalidArgument,
                         QCoreApplication::translate("sandbar::FieldDescriptor", "%1 must be at most %2")
                             .arg(field.label, field.maximum.toString()));
    return {};
}

Result<QVariant> badValue(const FieldDescriptor &field, const QString &why)
{
    return Result<QVariant>(
        makeError(ErrorCode::InvalidArgument,
                  QCoreApplication::translate("sandbar::FieldDescriptor", "%1: %2").arg(field.label, why)));
}

std::optional<bool> parseBoolean(const QString &t)
{
    const QString l = t.toLower();
    if (l == QLatin1String("1") || l == QLatin1String("true") || l == QLatin1String("yes") || l == QLatin1String("on"))
        return true;
    if (l == QLatin1String("0") || l == QLatin1String("false") || l == QLatin1String("no") || l == QLatin1String("off"))
        return false;
    return std::nullopt;
}

std::optional<double> parseBytes(const QString &t)
{
    const double k = 1024.0;
    return parseScaled(t, {{QString(), 1},
                           {QStringLiteral("b"), 1},
                           {QStringLiteral("k"), k},
                           {QStringLiteral("kb"), k},
                           {QStringLiteral("kib"), k},
                           {QStringLiteral("m"), k * k},
                           {QStringLiteral("mb"), k * k},
                           {QStringLiteral("mib"), k * k},
                           {QStringLiteral("g"), k * k * k},
                           {QStringLiteral("gb"), k * k * k},
                           {QStringLiteral("gib"), k * k * k},
                           {QStringLiteral("t"), k * k * k * k},
                           {QStringLiteral("tib"), k * k * k * k}});
}

std::optional<double> parseDuration(const QString &t)
{
    return parseScaled(t, {{QString(), 1},
                           {QStringLiteral("s"), 1},
                           {QStringLiteral("m"), 60},
                           {QStringLiteral("h"), 3600},
                           {QStringLiteral("d"), 86400}});
}

// Integer, Number, Bytes or Duration: whole numbers for all but Number.
Result<QVariant> parseNumericValue(const FieldDescriptor &field, const QString &t)
{
    const auto bad = [&](const QString &why) { return badValue(field, why); };
    if (field.type == FieldType::Integer) {
        bool ok = false;
        const qlonglong v = t.toLongLong(&ok);
        if (!ok)
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not a whole number").arg(t));
        return QVariant(v);
    }
    if (field.type == FieldType::Number) {
        bool ok = false;
        const double v = t.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not a number").arg(t));
        return QVariant(v);
    }
    if (field.type == FieldType::Bytes) {
        const auto v = parseBytes(t);
        if (!v)
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not a size such as 512M or 2G")
                           .arg(t));
        return QVariant(qint64(std::llround(*v)));
    }
    const auto v = parseDuration(t);
    if (!v)
        return bad(
            QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not a duration such as 90, 30m or 2h")
                .arg(t));
    return QVariant(qint64(std::llround(*v)));
}

// One non-blank line of an Env, Mounts or Ports field, in the form it is stored in.
Result<QString> parseListLine(const FieldDescriptor &field, const QString &line)
{
    const auto bad = [&](const QString &why) { return Result<QString>(badValue(field, why).error()); };
    if (field.type == FieldType::Env) {
        const auto eq = line.indexOf(QLatin1Char('='));
        const QString key = line.left(qMax<qsizetype>(0, eq));
        static const QRegularExpression keyRe(QStringLiteral("^[^\\s=]+$"));
        if (eq <= 0 || !keyRe.match(key).hasMatch())
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not KEY=VALUE")
                           .arg(eq < 0 ? line.left(40) : key.left(40)));
        return line;
    }
    if (field.type == FieldType::Labels) {
        const auto l = parseLabel(line);
        if (!l)
            return bad(l.message());
        return l->second.isEmpty() ? l->first : l->first + QLatin1Char('=') + l->second;
    }
    if (field.type == FieldType::Ports) {
        const auto p = parsePortSpec(line);
        if (!p)
            return bad(p.message());
        return portSpecText(*p);
    }
    const auto m = parseMountSpec(line.trimmed());
    if (!m)
        return bad(m.message());
    const QFileInfo host(m->hostPath);
    if (!host.exists())
        return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "host folder '%1' does not exist")
                       .arg(m->hostPath));
    return QString(QDir::cleanPath(host.absoluteFilePath()) + QLatin1Char(':') + m->sessionPath +
                   (m->readOnly ? QStringLiteral(":ro") : QString()));
}

Result<QStringList> parseListValue(const FieldDescriptor &field, const QString &text)
{
    QStringList list;
    for (QString line : text.split(QLatin1Char('\n'))) {
        // Leading blanks and a CR go; the value keeps its own spaces.
        while (!line.isEmpty() && line.front().isSpace())
            line.remove(0, 1);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        if (line.trimmed().isEmpty())
            continue;
        auto item = parseListLine(field, line);
        if (!item)
            return item.error();
        list << std::move(*item);
    }
    if (list.isEmpty() && field.required)
        return badValue(field, QCoreApplication::translate("sandbar::FieldDescriptor", "a value is required")).error();
    return list;
}

} // namespace

Result<QVariant> parseFieldValue(const FieldDescriptor &field, const QString &text)
{
    const QString t = text.trimmed();
    const auto bad = [&](const QString &why) { return badValue(field, why); };
    if (t.isEmpty() && field.required)
        return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "a value is required"));
    QVariant out;
    switch (field.type) {
    case FieldType::String:
    case FieldType::Secret:
    case FieldType::Path: out = text; break;
    case FieldType::Url: {
        static const QRegularExpression re(QStringLiteral("^[a-z][a-z0-9+.-]*://\\S+$"));
        if (!t.isEmpty() && !re.match(t).hasMatch())
            return bad(
                QCoreApplication::translate("sandbar::FieldDescriptor",
                                            "'%1' is not a URL such as unix:///var/run/docker.sock or https://host")
                    .arg(t));
        out = t;
        break;
    }
    case FieldType::Boolean: {
        const auto v = parseBoolean(t);
        if (!v)
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not yes or no").arg(t));
        out = *v;
        break;
    }
    case FieldType::Choice:
        if (!field.choices.contains(t))
            return bad(QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not one of %2")
                           .arg(t, field.choices.join(QLatin1String(", "))));
        out = t;
        break;
    case FieldType::Integer:
    case FieldType::Number:
    case FieldType::Bytes:
    case FieldType::Duration: {
        auto v = parseNumericValue(field, t);
        if (!v)
            return v.error();
        out = std::move(*v);
        break;
    }
    case FieldType::Gpus: {
        const auto g = parseGpuRequest(t);
        if (!g)
            return bad(g.message());
        out = gpuRequestText(*g);
        break;
    }
    case FieldType::Env:
    case FieldType::Mounts:
    case FieldType::Ports:
    case FieldType::Labels: {
        auto list = parseListValue(field, text);
        if (!list)
            return list.error();
        out = std::move(*list);
        break;
    }
    }
    if (auto r = validateFieldValue(field, out); !r.ok())
        return r.error();
    return out;
}

VoidResult validateFieldValue(const FieldDescriptor &field, const QVariant &value)
{
    switch (field.type) {
    case FieldType::Integer:
    case FieldType::Number:
    case FieldType::Bytes:
    case FieldType::Duration: {
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (!ok)
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::FieldDescriptor", "%1 is not a number").arg(field.label));
        return checkRange(field, v);
    }
    case FieldType::Choice:
        if (!field.choices.contains(value.toString()))
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::FieldDescriptor", "%1 has an unknown value").arg(field.label));
        return {};
    case FieldType::Gpus:
        if (const auto g = parseGpuRequest(value.toString()); !g)
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::FieldDescriptor", "%1: %2").arg(field.label, g.message()));
        return {};
    case FieldType::Labels: {
        const QStringList list = value.typeId() == QMetaType::QStringList
                                     ? value.toStringList()
                                     : value.toString().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        if (field.maximum.isValid() && list.size() > field.maximum.toLongLong())
            return makeError(ErrorCode::InvalidArgument,
                             QCoreApplication::translate("sandbar::FieldDescriptor", "%1: at most %2 here")
                                 .arg(field.label, field.maximum.toString()));
        for (const QString &l : list) {
            if (const auto label = parseLabel(l); !label)
                return makeError(ErrorCode::InvalidArgument,
                                 QCoreApplication::translate("sandbar::FieldDescriptor", "%1: %2")
                                     .arg(field.label, label.message()));
        }
        return {};
    }
    default: return {};
    }
}

Result<QVariantMap> parseFieldValues(const QList<FieldDescriptor> &fields, const QMap<QString, QStringList> &texts)
{
    for (auto it = texts.cbegin(); it != texts.cend(); ++it) {
        if (!findField(fields, it.key()))
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::FieldDescriptor", "'%1' is not an option here").arg(it.key()));
    }
    QVariantMap out;
    for (const auto &f : fields) {
        const QStringList given = texts.value(f.key);
        if (given.size() > 1 && !isMultiValued(f.type))
            return makeError(
                ErrorCode::InvalidArgument,
                QCoreApplication::translate("sandbar::FieldDescriptor", "%1 is given more than once").arg(f.label));
        const QString text = given.join(QLatin1Char('\n'));
        if (text.trimmed().isEmpty()) {
            if (f.required)
                return makeError(
                    ErrorCode::InvalidArgument,
                    QCoreApplication::translate("sandbar::FieldDescriptor", "%1 is required").arg(f.label));
            continue;
        }
        auto v = parseFieldValue(f, text);
        if (!v)
            return v.error();
        out.insert(f.key, *v);
    }
    return out;
}

FieldDescriptor labelsOption(int most)
{
    FieldDescriptor f = makeField(
        QLatin1String(createkeys::Labels), QCoreApplication::translate("sandbar::FieldDescriptor", "Labels"),
        most > 0
            ? QCoreApplication::translate("sandbar::FieldDescriptor", "KEY=VALUE, one a line; at most %1").arg(most)
            : QCoreApplication::translate("sandbar::FieldDescriptor", "KEY=VALUE, one a line"),
        FieldType::Labels);
    if (most > 0)
        f.maximum = most;
    return f;
}

QList<FieldDescriptor> changeableOptions(const ProviderDescriptor &descriptor)
{
    QList<FieldDescriptor> out;
    for (const FieldDescriptor &f : descriptor.createOptions) {
        if (f.changeable)
            out << f;
    }
    return out;
}

} // namespace sandbar
