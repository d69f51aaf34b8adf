#include "common/OffThread.h"
#include "providers/Provider.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"

#include <QJsonArray>

namespace sandbar::cli {

namespace {

void accountsList(Command &cmd)
{
    const auto accounts = cmd.services().accounts->accounts();
    if (cmd.json()) {
        QJsonArray arr;
        for (const auto &a : accounts) {
            QJsonObject o;
            o[QStringLiteral("name")] = a.name;
            o[QStringLiteral("provider")] = a.provider;
            o[QStringLiteral("settings")] = QJsonObject::fromVariantMap(a.settings);
            o[QStringLiteral("secrets")] = QJsonArray::fromStringList(a.secretKeys);
            o[QStringLiteral("created")] = a.created.toUTC().toString(Qt::ISODate);
            arr.append(o);
        }
        cmd.printJson(arr);
        return cmd.finish(ExitOk);
    }
    QList<QStringList> rows;
    for (const auto &a : accounts) {
        QStringList settings;
        for (auto it = a.settings.cbegin(); it != a.settings.cend(); ++it)
            settings << it.key() + QLatin1Char('=') + it.value().toString();
        for (const auto &k : a.secretKeys)
            settings << k + QStringLiteral("=(keychain)");
        rows << QStringList{a.name, a.provider, settings.join(QLatin1Char(' '))};
    }
    cmd.printTable({tr("NAME"), tr("PROVIDER"), tr("SETTINGS")}, rows);
    cmd.finish(ExitOk);
}

void accountsAdd(Command &cmd, const QStringList &args)
{
    auto &services = cmd.services();
    QString providerId;
    for (qsizetype i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--provider"))
            providerId = args.at(i + 1);
        else if (args.at(i).startsWith(QLatin1String("--provider=")))
            providerId = args.at(i).mid(11);
    }
    const ProviderFactory *factory = services.factories.find(providerId);
    if (providerId.isEmpty())
        return cmd.usage(tr("accounts add needs --provider (%1)").arg(services.factories.ids().join(QLatin1Char('|'))));
    if (!factory)
        return cmd.fail(makeError(ErrorCode::InvalidArgument,
                                  tr("Unknown provider '%1'; known providers: %2")
                                      .arg(providerId, services.factories.ids().join(QLatin1String(", ")))));
    const auto &desc = factory->descriptor();
    auto parsed = parseArgs(args, accountsAddSpec(desc));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (parsed->positional.size() != 1)
        return cmd.usage(tr("usage: accounts add NAME --provider PROVIDER [options]"));
    Account account;
    account.name = parsed->positional.first();
    account.provider = providerId;
    QMap<QString, QString> secrets;
    for (const auto &f : desc.accountFields) {
        if (f.secret) {
            const QString var = parsed->value(QStringLiteral("--%1-env").arg(f.key));
            if (var.isEmpty())
                continue;
            if (!qEnvironmentVariableIsSet(var.toLocal8Bit().constData()))
                return cmd.fail(makeError(ErrorCode::InvalidArgument,
                                          tr("Environment variable %1 (for %2) is not set").arg(var, f.label)));
            secrets.insert(f.key, qEnvironmentVariable(var.toLocal8Bit().constData()));
            continue;
        }
        const QString opt = QStringLiteral("--") + f.key;
        if (!parsed->has(opt))
            continue;
        const QString raw =
            parsed->value(opt).isEmpty() && f.type == FieldType::Boolean ? QStringLiteral("true") : parsed->value(opt);
        auto v = parseFieldValue(f, raw);
        if (!v.ok())
            return cmd.fail(v.error());
        account.settings.insert(f.key, v.value());
    }
    services.accounts->add(account, secrets, Callback<void>(&cmd, [&cmd, account](VoidResult r) {
                               if (!r.ok())
                                   return cmd.fail(r.error());
                               if (cmd.json()) {
                                   QJsonObject o;
                                   o[QStringLiteral("name")] = account.name;
                                   o[QStringLiteral("provider")] = account.provider;
                                   cmd.printJson(o);
                               } else {
                                   cmd.out(account.name);
                               }
                               cmd.finish(ExitOk);
                           }));
}

void accountsRemove(Command &cmd, const QStringList &args)
{
    if (args.size() != 1)
        return cmd.usage(tr("usage: accounts remove NAME"));
    cmd.services().accounts->remove(args.first(), Callback<void>(&cmd, [&cmd](VoidResult r) {
                                        if (!r.ok())
                                            return cmd.fail(r.error());
                                        cmd.finish(ExitOk);
                                    }));
}

void accountsCheck(Command &cmd, const QStringList &args)
{
    if (args.size() != 1)
        return cmd.usage(tr("usage: accounts check NAME"));
    const QString name = args.first();
    if (!cmd.services().accounts->find(name))
        return cmd.fail(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(name)));
    cmd.services().registry->provider(
        name, Callback<Provider *>(&cmd, [&cmd, name](Result<Provider *> p) {
            if (!p.ok())
                return cmd.fail(p.error());
            Provider *prov = p.value();
            prov->health(Callback<HealthInfo>(&cmd, [&cmd, name, prov](Result<HealthInfo> h) {
                if (!h.ok())
                    return cmd.fail(makeError(h.code(), tr("%1: %2").arg(name, h.message())));
                const HealthInfo &i = h.value();
                if (cmd.json()) {
                    QJsonObject o;
                    o[QStringLiteral("account")] = name;
                    o[QStringLiteral("ok")] = true;
                    o[QStringLiteral("server")] = i.serverName;
                    o[QStringLiteral("version")] = i.version;
                    o[QStringLiteral("api_version")] = i.apiVersion;
                    o[QStringLiteral("os")] = i.os;
                    o[QStringLiteral("endpoint")] = i.endpoint;
                    o[QStringLiteral("capabilities")] =
                        QJsonArray::fromStringList(capabilityNames(prov->capabilities()));
                    o[QStringLiteral("warnings")] = QJsonArray::fromStringList(i.warnings);
                    cmd.printJson(o);
                } else {
                    cmd.out(tr("%1: ok, %2 %3 (API %4) at %5")
                                .arg(name, i.serverName, i.version, i.apiVersion, i.endpoint));
                    for (const auto &w : i.warnings)
                        cmd.out(tr("  warning: %1").arg(w));
                }
                cmd.finish(ExitOk);
            }));
        }));
}

// The key an account's SSH host offers, written where ssh looks once the person has seen it.
void accountsTrust(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"accounts trust"));
    if (!parsed.ok())
        return cmd.usage(parsed.message());
    if (parsed->positional.size() != 1)
        return cmd.usage(tr("usage: accounts trust NAME [--fingerprint SHA256:KEY]"));
    const QString name = parsed->positional.first();
    const auto account = cmd.services().accounts->find(name);
    if (!account)
        return cmd.fail(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(name)));
    const ProviderFactory *factory = cmd.services().factories.find(account->provider);
    const auto task = factory ? factory->hostKeyTask(configWithoutSecrets(*account)) : ProviderFactory::HostKeyTask{};
    if (!task)
        return cmd.fail(makeError(ErrorCode::Unsupported, tr("Account '%1' reaches no host over SSH.").arg(name)));
    const QString pin = parsed->value(QStringLiteral("--fingerprint")).trimmed();
    runOffThread<Result<HostKeyOffer>>(
        &cmd, [task, pin] { return task(pin, true); },
        [&cmd, name](const Result<HostKeyOffer> &key) {
            if (!key.ok())
                return cmd.fail(makeError(key.code(), tr("%1: %2").arg(name, key.message())));
            if (cmd.json()) {
                cmd.printJson(QJsonObject{{QStringLiteral("account"), name},
                                          {QStringLiteral("host"), key->host},
                                          {QStringLiteral("fingerprint"), key->fingerprint},
                                          {QStringLiteral("known_hosts"), key->knownHostsFile}});
            } else {
                cmd.out(tr("%1: trusted the key %2 of %3 (in %4)")
                            .arg(name, key->fingerprint, key->host, key->knownHostsFile));
            }
            cmd.finish(ExitOk);
        });
}

} // namespace

// Account fields come from the provider's descriptor: --FIELD VALUE for settings; a secret
// is never taken from the command line (it would show in ps) but from --FIELD-env VAR.
OptionSpec accountsAddSpec(const ProviderDescriptor &provider)
{
    OptionSpec spec = optionSpecFor(u"accounts add");
    for (const auto &f : provider.accountFields) {
        if (f.secret)
            spec.valued << QStringLiteral("--%1-env").arg(f.key);
        else if (f.type == FieldType::Boolean)
            spec.flags << QStringLiteral("--") + f.key, spec.valued << QStringLiteral("--") + f.key;
        else
            spec.valued << QStringLiteral("--") + f.key;
    }
    return spec;
}

void runAccounts(Command &cmd, const QStringList &argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty())
        return cmd.usage(tr("accounts needs a subcommand: list, add, remove, check, trust"));
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("list")) {
        if (!args.isEmpty())
            return cmd.usage(tr("usage: accounts list"));
        return accountsList(cmd);
    }
    if (sub == QLatin1String("add"))
        return accountsAdd(cmd, args);
    if (sub == QLatin1String("remove") || sub == QLatin1String("rm"))
        return accountsRemove(cmd, args);
    if (sub == QLatin1String("check"))
        return accountsCheck(cmd, args);
    if (sub == QLatin1String("trust"))
        return accountsTrust(cmd, args);
    cmd.usage(tr("unknown accounts subcommand '%1'").arg(sub));
}

} // namespace sandbar::cli
