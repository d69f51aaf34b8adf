#include "mcp/AgentPolicy.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <algorithm>
#include <cmath>

namespace sandbar::mcp {

namespace {

QString tr(const char *s, const char *c = nullptr, int n = -1)
{
    return QCoreApplication::translate("sandbar::mcp", s, c, n);
}

// The keys of the file, each once: the reader, the writer and the error for an unknown key
// all come from this table.
enum class Kind { Strings, Int, Seconds, Usd, Bool };
struct Key {
    const char *name;
    Kind kind;
    QStringList AgentPolicy::*strings = nullptr;
    int AgentPolicy::*integer = nullptr;
    qint64 AgentPolicy::*seconds = nullptr;
    double AgentPolicy::*usd = nullptr;
    bool AgentPolicy::*flag = nullptr;
};

const QList<Key> &keys()
{
    static const QList<Key> k{
        {"accounts", Kind::Strings, &AgentPolicy::accounts},
        {"max_sessions", Kind::Int, nullptr, &AgentPolicy::maxSessions},
        {"default_ttl_seconds", Kind::Seconds, nullptr, nullptr, &AgentPolicy::defaultTtlSeconds},
        {"max_ttl_seconds", Kind::Seconds, nullptr, nullptr, &AgentPolicy::maxTtlSeconds},
        {"max_usd_per_hour", Kind::Usd, nullptr, nullptr, nullptr, &AgentPolicy::maxUsdPerHour},
        {"allow_network", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::allowNetwork},
        {"allow_host_paths", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::allowHostPaths},
        {"disabled_tools", Kind::Strings, &AgentPolicy::disabledTools},
        {"approve_paid_create", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::approvePaidCreate},
        {"approve_network", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::approveNetwork},
        {"approve_host_paths", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::approveHostPaths},
        {"approve_tools", Kind::Strings, &AgentPolicy::approveTools},
        {"remove_on_disconnect", Kind::Bool, nullptr, nullptr, nullptr, nullptr, &AgentPolicy::removeOnDisconnect},
    };
    return k;
}

Error invalidPolicy(const QString &message)
{
    return makeError(ErrorCode::InvalidArgument, message);
}

QString durationText(qint64 seconds)
{
    if (seconds % 3600 == 0)
        return tr("%n hour(s)", nullptr, int(seconds / 3600));
    if (seconds % 60 == 0)
        return tr("%n minute(s)", nullptr, int(seconds / 60));
    return tr("%n second(s)", nullptr, int(seconds));
}

} // namespace

bool AgentPolicy::allowsAccount(const QString &account) const
{
    return accounts.contains(QStringLiteral("*")) || accounts.contains(account);
}

QJsonObject agentPolicyToJson(const AgentPolicy &p)
{
    QJsonObject o{{QStringLiteral("version"), 1}};
    for (const Key &k : keys()) {
        const QString name = QLatin1String(k.name);
        switch (k.kind) {
        case Kind::Strings: o[name] = QJsonArray::fromStringList(p.*(k.strings)); break;
        case Kind::Int: o[name] = p.*(k.integer); break;
        case Kind::Seconds: o[name] = double(p.*(k.seconds)); break;
        case Kind::Usd: o[name] = p.*(k.usd); break;
        case Kind::Bool: o[name] = p.*(k.flag); break;
        }
    }
    return o;
}

Result<AgentPolicy> agentPolicyFromJson(const QJsonObject &json)
{
    AgentPolicy p;
    for (auto it = json.constBegin(); it != json.constEnd(); ++it) {
        const QString name = it.key();
        const QJsonValue v = it.value();
        if (name == QLatin1String("version")) {
            if (v.toDouble(-1) != 1)
                return invalidPolicy(tr("\"version\" must be 1."));
            continue;
        }
        const auto k = std::find_if(keys().cbegin(), keys().cend(),
                                    [&](const Key &key) { return name == QLatin1String(key.name); });
        if (k == keys().cend())
            return invalidPolicy(tr("Unknown key \"%1\".").arg(name));
        switch (k->kind) {
        case Kind::Strings: {
            if (!v.isArray())
                return invalidPolicy(tr("\"%1\" must be a list of names.").arg(name));
            QStringList list;
            for (const auto &x : v.toArray()) {
                if (!x.isString() || x.toString().isEmpty())
                    return invalidPolicy(tr("\"%1\" must be a list of names.").arg(name));
                list << x.toString();
            }
            p.*(k->strings) = list;
            break;
        }
        case Kind::Int:
        case Kind::Seconds: {
            const double d = v.toDouble(-1);
            if (!v.isDouble() || d < 0 || d != std::floor(d) || d > 1e12)
                return invalidPolicy(tr("\"%1\" must be a whole number of at least 0.").arg(name));
            if (k->kind == Kind::Int)
                p.*(k->integer) = int(std::min(d, 1e6));
            else
                p.*(k->seconds) = qint64(d);
            break;
        }
        case Kind::Usd:
            if (!v.isDouble() || v.toDouble() < 0 || !std::isfinite(v.toDouble()))
                return invalidPolicy(tr("\"%1\" must be a number of at least 0.").arg(name));
            p.*(k->usd) = v.toDouble();
            break;
        case Kind::Bool:
            if (!v.isBool())
                return invalidPolicy(tr("\"%1\" must be true or false.").arg(name));
            p.*(k->flag) = v.toBool();
            break;
        }
    }
    if (p.maxTtlSeconds > 0 && p.defaultTtlSeconds > p.maxTtlSeconds)
        return invalidPolicy(tr("\"default_ttl_seconds\" is longer than \"max_ttl_seconds\"."));
    if (p.maxTtlSeconds > 0 && p.defaultTtlSeconds == 0)
        return invalidPolicy(tr("\"default_ttl_seconds\" is 0 (no limit) while \"max_ttl_seconds\" sets one."));
    return p;
}

Result<AgentPolicy> loadAgentPolicy(const QString &configDir)
{
    const QString path = QDir(configDir).filePath(QLatin1String(kAgentPolicyFile));
    QFile f(path);
    if (!f.exists())
        return AgentPolicy{};
    if (!f.open(QIODevice::ReadOnly))
        return makeError(
            ErrorCode::Unavailable,
            tr("The agent policy %1 cannot be read: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
    // A policy is a handful of keys; a huge file is not one.
    const QByteArray data = f.read(1024 * 1024 + 1);
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
    if (data.size() > 1024 * 1024 || pe.error != QJsonParseError::NoError || !doc.isObject())
        return invalidPolicy(tr("The agent policy %1 is not a JSON object (%2). Fix or remove it; until then agents "
                                "may do nothing.")
                                 .arg(QDir::toNativeSeparators(path),
                                      pe.error != QJsonParseError::NoError ? pe.errorString() : tr("not an object")));
    auto p = agentPolicyFromJson(doc.object());
    if (!p.ok())
        return invalidPolicy(
            tr("The agent policy %1 is not valid: %2 Fix or remove it; until then agents may do nothing.")
                .arg(QDir::toNativeSeparators(path), p.message()));
    return p;
}

VoidResult saveAgentPolicy(const QString &configDir, const AgentPolicy &policy)
{
    if (auto valid = agentPolicyFromJson(agentPolicyToJson(policy)); !valid.ok())
        return valid.error();
    QDir().mkpath(configDir);
    const QString path = QDir(configDir).filePath(QLatin1String(kAgentPolicyFile));
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(QJsonDocument(agentPolicyToJson(policy)).toJson(QJsonDocument::Indented));
    if (!f.commit())
        return makeError(ErrorCode::Unavailable,
                         tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
    return {};
}

PolicyVerdict evaluateTool(const AgentPolicy &policy, const QString &tool)
{
    PolicyVerdict v;
    if (!policy.toolEnabled(tool)) {
        v.kind = PolicyVerdict::Kind::Deny;
        v.message = tr("The tool '%1' is disabled by the agent policy.").arg(tool);
    } else if (policy.approveTools.contains(tool)) {
        v.kind = PolicyVerdict::Kind::NeedsApproval;
        v.reasons << tr("the policy asks for approval of every %1 call").arg(tool);
    }
    return v;
}

PolicyVerdict evaluateCreate(const AgentPolicy &policy, const CreateFacts &f)
{
    PolicyVerdict v;
    const auto deny = [&v](const QString &message) {
        v.kind = PolicyVerdict::Kind::Deny;
        v.message = message;
        v.reasons.clear();
        return v;
    };
    if (!policy.allowsAccount(f.account))
        return deny(
            tr("Account '%1' is not allowed by the agent policy (allowed: %2).")
                .arg(f.account, policy.accounts.isEmpty() ? tr("none") : policy.accounts.join(QStringLiteral(", "))));
    if (!f.budgetReached.isEmpty())
        return deny(f.budgetReached);
    if (f.network && !policy.allowNetwork)
        return deny(tr("Network access is not allowed by the agent policy; create the session without network."));
    if (f.hostPaths && !policy.allowHostPaths)
        return deny(tr("Host folders are not allowed by the agent policy; create the session without mounts."));
    if (f.hasTtl && policy.maxTtlSeconds > 0 && (f.ttlSeconds == 0 || f.ttlSeconds > policy.maxTtlSeconds))
        return deny(tr("A ttl of %1 is over the agent policy's maximum of %2; ask for %2 or less.")
                        .arg(f.ttlSeconds == 0 ? tr("0 (no limit)") : durationText(f.ttlSeconds),
                             durationText(policy.maxTtlSeconds)));
    if (f.agentSessions >= policy.maxSessions)
        return deny(tr("Agents already have %n session(s), the agent policy's maximum; remove one first "
                       "(list_sessions shows them).",
                       nullptr, f.agentSessions));
    if (policy.maxUsdPerHour > 0 && f.paid) {
        if (!f.usdPerHour)
            return deny(tr("The price of this session is not known (give cpus and memory, or check the catalog), "
                           "so the agent policy's limit of $%1 an hour cannot be checked.")
                            .arg(policy.maxUsdPerHour, 0, 'f', 2));
        const double total = f.agentUsdPerHour + *f.usdPerHour;
        if (total > policy.maxUsdPerHour)
            return deny(tr("This session (about $%1 an hour) would bring agents' sessions to $%2 an hour, over the "
                           "agent policy's limit of $%3; ask for fewer resources or stop a session.")
                            .arg(*f.usdPerHour, 0, 'f', 2)
                            .arg(total, 0, 'f', 2)
                            .arg(policy.maxUsdPerHour, 0, 'f', 2));
    }
    if (f.paid && policy.approvePaidCreate)
        v.reasons << tr("it creates a session on the paid account '%1'").arg(f.account);
    if (f.network && policy.approveNetwork)
        v.reasons << tr("the session has network access");
    if (f.hostPaths && policy.approveHostPaths)
        v.reasons << tr("it mounts folders of this computer into the session");
    if (!v.reasons.isEmpty())
        v.kind = PolicyVerdict::Kind::NeedsApproval;
    return v;
}

PolicyVerdict evaluateHostPath(const AgentPolicy &policy, const QString &tool, const QString &hostPath)
{
    PolicyVerdict v;
    if (!policy.allowHostPaths) {
        v.kind = PolicyVerdict::Kind::Deny;
        v.message = tr("Host paths are not allowed by the agent policy, so %1 cannot read %2.").arg(tool, hostPath);
    } else if (policy.approveHostPaths) {
        v.kind = PolicyVerdict::Kind::NeedsApproval;
        v.reasons << tr("it reads %1 from this computer").arg(hostPath);
    }
    return v;
}

} // namespace sandbar::mcp
