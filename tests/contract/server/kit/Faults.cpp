#include "Faults.h"

#include <QJsonValue>
#include <QRegularExpression>

using sandbar::ErrorCode;
using sandbar::makeError;

namespace contract {

bool FaultRule::matches(const QByteArray &requestMethod, const QString &requestPath) const
{
    if (times >= 0 && hits >= times)
        return false;
    if (!method.isEmpty() && method != "*" && method.compare(requestMethod, Qt::CaseInsensitive) != 0)
        return false;
    if (path == QLatin1String("*"))
        return true;
    return prefix ? requestPath.startsWith(path) : requestPath == path;
}

QJsonObject FaultRule::toJson() const
{
    QJsonObject o{{QStringLiteral("path"), prefix ? path + QLatin1Char('*') : path},
                  {QStringLiteral("fault"), Faults::kindName(kind, argument)},
                  {QStringLiteral("hits"), hits}};
    if (!method.isEmpty())
        o.insert(QStringLiteral("method"), QString::fromLatin1(method));
    if (times >= 0)
        o.insert(QStringLiteral("times"), times);
    return o;
}

sandbar::Result<FaultKind> Faults::parseKind(const QString &word, int *argument)
{
    const QString w = word.trimmed().toLower();
    const int colon = w.indexOf(QLatin1Char(':'));
    const QString name = colon >= 0 ? w.left(colon) : w;
    int arg = 0;
    if (colon >= 0) {
        bool ok = false;
        arg = w.mid(colon + 1).toInt(&ok);
        if (!ok || arg < 0)
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("bad fault argument in '%1'").arg(word));
    }
    *argument = arg;
    if (colon < 0 || name == QLatin1String("slow") || name == QLatin1String("reset") ||
        name == QLatin1String("ws-close")) {
        if (name == QLatin1String("500"))
            return FaultKind::Status500;
        if (name == QLatin1String("503"))
            return FaultKind::Status503;
        if (name == QLatin1String("429"))
            return FaultKind::Status429;
        if (name == QLatin1String("401"))
            return FaultKind::Status401;
        if (name == QLatin1String("malformed"))
            return FaultKind::Malformed;
        if (name == QLatin1String("truncate"))
            return FaultKind::Truncate;
        if (name == QLatin1String("lost-reply"))
            return FaultKind::LostReply;
        if (name == QLatin1String("reset"))
            return FaultKind::Reset;
        if (name == QLatin1String("ws-close"))
            return FaultKind::WsClose;
        if (name == QLatin1String("slow") && colon >= 0)
            return FaultKind::Slow;
    }
    return makeError(ErrorCode::InvalidArgument, QStringLiteral("unknown fault '%1'").arg(word));
}

QString Faults::kindName(FaultKind kind, int argument)
{
    switch (kind) {
    case FaultKind::Status500: return QStringLiteral("500");
    case FaultKind::Status503: return QStringLiteral("503");
    case FaultKind::Status429: return QStringLiteral("429");
    case FaultKind::Status401: return QStringLiteral("401");
    case FaultKind::Slow: return QStringLiteral("slow:%1").arg(argument);
    case FaultKind::Malformed: return QStringLiteral("malformed");
    case FaultKind::Reset: return argument ? QStringLiteral("reset:%1").arg(argument) : QStringLiteral("reset");
    case FaultKind::Truncate: return QStringLiteral("truncate");
    case FaultKind::WsClose: return argument ? QStringLiteral("ws-close:%1").arg(argument) : QStringLiteral("ws-close");
    case FaultKind::LostReply: return QStringLiteral("lost-reply");
    }
    return {};
}

namespace {

void setPath(FaultRule &rule, QString path)
{
    if (path != QLatin1String("*") && path.endsWith(QLatin1Char('*'))) {
        path.chop(1);
        rule.prefix = true;
    }
    rule.path = path;
}

} // namespace

sandbar::Result<QList<FaultRule>> Faults::parseList(const QString &spec)
{
    QList<FaultRule> rules;
    static const QRegularExpression separators(QStringLiteral("[,;]"));
    static const QRegularExpression ruleRe(
        QStringLiteral("^([a-z0-9:-]+?)(?:x(\\d+))?@(?:([A-Za-z]+|\\*):)?(\\*|/\\S*)$"));
    for (QString item : spec.split(separators, Qt::SkipEmptyParts)) {
        item.remove(QLatin1Char(' '));
        if (item.isEmpty())
            continue;
        const QRegularExpressionMatch m = ruleRe.match(item);
        if (!m.hasMatch())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("bad fault rule '%1' (want FAULT[xN]@[METHOD:]PATH)").arg(item));
        FaultRule rule;
        auto kind = parseKind(m.captured(1), &rule.argument);
        if (!kind)
            return kind.error();
        rule.kind = *kind;
        if (!m.captured(2).isEmpty())
            rule.times = m.captured(2).toInt();
        rule.method = m.captured(3).toUpper().toLatin1();
        setPath(rule, m.captured(4));
        rules.append(rule);
    }
    return rules;
}

sandbar::Result<QList<FaultRule>> Faults::parseJson(const QJsonObject &body)
{
    const QJsonValue list = body.value(QStringLiteral("rules"));
    if (!list.isArray())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("'rules' must be an array"));
    QList<FaultRule> rules;
    for (const QJsonValue &v : list.toArray()) {
        const QJsonObject o = v.toObject();
        FaultRule rule;
        auto kind = parseKind(o.value(QStringLiteral("fault")).toVariant().toString(), &rule.argument);
        if (!kind)
            return kind.error();
        rule.kind = *kind;
        rule.method = o.value(QStringLiteral("method")).toString().toUpper().toLatin1();
        const QString path = o.value(QStringLiteral("path")).toString();
        if (path.isEmpty() || (path != QLatin1String("*") && !path.startsWith(QLatin1Char('/'))))
            return makeError(ErrorCode::InvalidArgument, QStringLiteral("'path' must start with / or be *"));
        setPath(rule, path);
        rule.times = o.value(QStringLiteral("times")).toInt(-1);
        rules.append(rule);
    }
    return rules;
}

std::optional<FaultRule> Faults::take(const QByteArray &method, const QString &path)
{
    for (FaultRule &rule : m_rules) {
        if (rule.matches(method, path)) {
            ++rule.hits;
            return rule;
        }
    }
    return std::nullopt;
}

QJsonArray Faults::toJson() const
{
    QJsonArray out;
    for (const FaultRule &rule : m_rules)
        out.append(rule.toJson());
    return out;
}

} // namespace contract
