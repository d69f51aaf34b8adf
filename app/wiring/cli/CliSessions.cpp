#include "providers/Provider.h"
#include "providers/SessionActions.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"

#include <QJsonArray>
#include <algorithm>
#include <memory>

namespace sandbar::cli {

namespace {

QStringList sessionRow(const SessionInfo &s, bool orphan)
{
    QString state = sessionStateName(s.state);
    if (orphan)
        state += tr(" (orphan)");
    else if (s.asleep)
        state += tr(" (asleep)");
    else if (s.adopted)
        state += tr(" (adopted)");
    else if (!s.owned && s.provider != QLatin1String("local"))
        state += tr(" (not Sandbar's)");
    return {s.ref(),
            s.name.isEmpty() ? QStringLiteral("-") : s.name,
            state,
            s.image.isEmpty() ? QStringLiteral("-") : s.image,
            formatAge(s.created),
            s.expiresAt.isValid() ? formatAge(s.expiresAt) : QStringLiteral("-")};
}

// Prints the session a call answers with (its REF, or JSON) and finishes the command.
// askedTtl: the time limit asked for (0: none or not a create); a provider that gave less (a
// plan's cap) is said on stderr, so a script learns that its session ends sooner.
Callback<SessionInfo> printSessionThenFinish(Command &cmd, const QString &account, qint64 askedTtl = 0)
{
    return Callback<SessionInfo>(&cmd, [&cmd, account, askedTtl](Result<SessionInfo> r) {
        if (!r.ok())
            return cmd.fail(r.error());
        SessionInfo s = r.value();
        s.account = account;
        if (askedTtl > 0 && s.ttlSeconds > 0 && s.ttlSeconds + 60 < askedTtl)
            cmd.err(tr("warning: %1 shortened the time limit to %2 minutes, the most the account allows")
                        .arg(s.provider)
                        .arg(s.ttlSeconds / 60));
        if (cmd.json())
            cmd.printJson(sessionToJson(s));
        else
            cmd.out(s.ref());
        cmd.finish(ExitOk);
    });
}

// Whether a session has every label asked for (sessions list --label, repeated: all of them).
bool hasLabels(const SessionInfo &s, const QList<LabelSelector> &wanted)
{
    return std::all_of(wanted.cbegin(), wanted.cend(),
                       [&s](const LabelSelector &w) { return matchesLabel(s.labels, w); });
}

void printSessions(Command &cmd, QList<SessionInfo> list, QList<SessionInfo> orphans,
                   const QList<LabelSelector> &wanted = {})
{
    list.removeIf([&wanted](const SessionInfo &s) { return !hasLabels(s, wanted); });
    orphans.removeIf([&wanted](const SessionInfo &s) { return !hasLabels(s, wanted); });
    if (cmd.json()) {
        QJsonArray arr;
        for (const auto &s : list)
            arr.append(sessionToJson(s));
        for (const auto &s : orphans) {
            auto o = sessionToJson(s);
            o[QStringLiteral("orphan")] = true;
            arr.append(o);
        }
        return cmd.printJson(arr);
    }
    QList<QStringList> rows;
    for (const auto &s : list)
        rows << sessionRow(s, false);
    for (const auto &s : orphans)
        rows << sessionRow(s, true);
    cmd.printTable({tr("REF"), tr("NAME"), tr("STATE"), tr("IMAGE"), tr("CREATED"), tr("EXPIRES")}, rows);
}

// `sessions list --all`: everything each engine runs, Sandbar's or not, straight from the
// providers (the registry keeps only Sandbar's own and adopted sessions).
void sessionsListAll(Command &cmd, const QStringList &accounts, const QList<LabelSelector> &wanted)
{
    struct State {
        int pending = 0;
        QList<SessionInfo> list;
        QStringList errors;
    };
    auto state = std::make_shared<State>();
    state->pending = int(accounts.size());
    const auto oneDone = [&cmd, state, wanted]() {
        if (--state->pending > 0)
            return;
        printSessions(cmd, state->list, {}, wanted);
        for (const auto &e : state->errors)
            cmd.err(QStringLiteral("sandbarctl: ") + e);
        cmd.finish(state->errors.isEmpty() ? ExitOk : ExitFailure);
    };
    if (accounts.isEmpty())
        return printSessions(cmd, {}, {}), cmd.finish(ExitOk);
    for (const auto &a : accounts) {
        cmd.services().registry->provider(
            a, Callback<Provider *>(&cmd, [&cmd, a, state, oneDone](Result<Provider *> p) {
                if (!p.ok()) {
                    state->errors << QStringLiteral("%1: %2").arg(a, p.message());
                    return oneDone();
                }
                ListOptions all;
                all.all = true;
                (*p)->listSessions(
                    all, Callback<QList<SessionInfo>>(&cmd, [a, state, oneDone](Result<QList<SessionInfo>> r) {
                        if (r.ok()) {
                            for (SessionInfo s : r.value()) {
                                s.account = a;
                                state->list << s;
                            }
                        } else {
                            state->errors << QStringLiteral("%1: %2").arg(a, r.message());
                        }
                        oneDone();
                    }));
            }));
    }
}

void sessionsList(Command &cmd, const QStringList &args)
{
    auto parsed = parseArgs(args, optionSpecFor(u"sessions list"));
    if (!parsed.ok() || !parsed->positional.isEmpty())
        return cmd.usage(parsed.ok() ? tr("usage: sessions list [--account NAME] [--all] [--label KEY[=VALUE]]...")
                                     : parsed.message());
    QList<LabelSelector> wanted;
    for (const QString &text : parsed->values(QStringLiteral("--label"))) {
        wanted << parseLabelSelector(text);
        if (wanted.last().key.isEmpty())
            return cmd.usage(tr("--label needs a KEY or KEY=VALUE"));
    }
    auto &services = cmd.services();
    QStringList accounts;
    if (parsed->has(QStringLiteral("--account"))) {
        const QString a = parsed->value(QStringLiteral("--account"));
        if (!services.accounts->find(a))
            return cmd.fail(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(a)));
        accounts << a;
    } else {
        for (const auto &a : services.accounts->accounts())
            accounts << a.name;
    }
    if (parsed->has(QStringLiteral("--all")))
        return sessionsListAll(cmd, accounts, wanted);
    struct State {
        int pending = 0;
        QStringList errors;
    };
    auto state = std::make_shared<State>();
    state->pending = int(accounts.size());
    const auto print = [&cmd, accounts, state, wanted]() {
        auto &reg = *cmd.services().registry;
        QList<SessionInfo> list;
        for (const auto &s : reg.sessions()) {
            if (accounts.contains(s.account))
                list << s;
        }
        QList<SessionInfo> orphans;
        for (const auto &s : reg.orphans()) {
            if (accounts.contains(s.account))
                orphans << s;
        }
        printSessions(cmd, list, orphans, wanted);
        for (const auto &e : state->errors)
            cmd.err(QStringLiteral("sandbarctl: ") + e);
        // Listing what could be reached is still useful; the exit code says not all could.
        cmd.finish(state->errors.isEmpty() ? ExitOk : ExitFailure);
    };
    if (accounts.isEmpty())
        return print();
    for (const auto &a : accounts) {
        services.registry->refreshAccount(
            a, Callback<QList<SessionInfo>>(&cmd, [state, a, print](Result<QList<SessionInfo>> r) {
                if (!r.ok())
                    state->errors << QStringLiteral("%1: %2").arg(a, r.message());
                if (--state->pending == 0)
                    print();
            }));
    }
}

// The options come from the account's provider descriptor (CliCreateOptions), parsed as the
// window's New session form parses them.
void sessionsCreate(Command &cmd, const QStringList &args)
{
    QString account;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--account") && i + 1 < args.size())
            account = args.at(i + 1);
        else if (args.at(i).startsWith(QLatin1String("--account=")))
            account = args.at(i).mid(10);
    }
    if (account.isEmpty())
        return cmd.usage(tr("usage: sessions create --account NAME [options of its provider]"));
    const auto acct = cmd.services().accounts->find(account);
    if (!acct)
        return cmd.fail(makeError(ErrorCode::NotFound, tr("No account named '%1'").arg(account)));
    const ProviderFactory *factory = cmd.services().factories.find(acct->provider);
    if (!factory)
        return cmd.fail(makeError(ErrorCode::NotFound, tr("Unknown provider '%1'").arg(acct->provider)));
    const CreateOptionsCli cli = createOptionsCli(factory->descriptor());
    auto parsed = parseArgs(args, cli.spec);
    if (!parsed.ok())
        return cmd.usage(parsed.message() + QLatin1Char('\n') + cli.usage);
    if (!parsed->positional.isEmpty())
        return cmd.usage(cli.usage);
    auto spec = createSpecFromArgs(cli, *parsed);
    if (!spec.ok())
        return cmd.usage(spec.message());
    const CreateSpec cs = *spec;
    if (cs.ttlSeconds == 0 && factory->descriptor().createOption(QLatin1String(createkeys::Ttl)))
        cmd.err(tr("warning: no time limit: this session runs until you stop it"));
    cmd.services().registry->provider(account, Callback<Provider *>(&cmd, [&cmd, cs, account](Result<Provider *> p) {
                                          if (!p.ok())
                                              return cmd.fail(p.error());
                                          p.value()->create(cs, printSessionThenFinish(cmd, account, cs.ttlSeconds));
                                      }));
}

void sessionsInfo(Command &cmd, const QString &ref)
{
    cmd.withSession(ref, [&cmd](const SessionHandle &h) {
        const SessionInfo &s = h.session;
        if (cmd.json()) {
            auto o = sessionToJson(s);
            o[QStringLiteral("capabilities")] = QJsonArray::fromStringList(capabilityNames(h.provider->capabilities()));
            cmd.printJson(o);
            return cmd.finish(ExitOk);
        }
        const auto row = [&cmd](const QString &k, const QString &v) { cmd.out(k.leftJustified(12) + v); };
        row(tr("Ref"), s.ref());
        row(tr("Name"), s.name);
        row(tr("Provider"), s.provider);
        row(tr("State"),
            sessionStateName(s.state) +
                (s.statusText.isEmpty() ? QString() : QStringLiteral(" (") + s.statusText + QLatin1Char(')')));
        if (!s.errorMessage.isEmpty())
            row(tr("Error"), s.errorMessage);
        row(tr("Image"), s.image);
        row(tr("Created"),
            s.created.toUTC().toString(Qt::ISODate) + QStringLiteral(" (") + formatAge(s.created) + QLatin1Char(')'));
        row(tr("TTL"),
            s.ttlSeconds > 0 ? tr("%1 s, expires %2").arg(s.ttlSeconds).arg(formatAge(s.expiresAt)) : tr("none"));
        row(tr("CPUs"), s.cpus ? QString::number(*s.cpus) : tr("unlimited"));
        row(tr("Memory"), s.memoryBytes ? formatBytes(*s.memoryBytes) : tr("unlimited"));
        row(tr("Network"), s.network ? tr("on") : tr("off"));
        if (s.gpus != 0 || !s.gpuUuids.isEmpty())
            row(tr("GPUs"), (s.gpus < 0 ? tr("all") : QString::number(s.gpus)) +
                                (s.gpuUuids.isEmpty() ? QString()
                                                      : QStringLiteral(" (") + s.gpuUuids.join(QStringLiteral(", ")) +
                                                            QLatin1Char(')')));
        for (const auto &m : s.mounts)
            row(tr("Mount"),
                m.hostPath + QStringLiteral(" -> ") + m.sessionPath + (m.readOnly ? tr(" (read-only)") : QString()));
        row(tr("Abilities"), capabilityNames(h.provider->capabilities()).join(QLatin1Char(' ')));
        cmd.finish(ExitOk);
    });
}

void sessionsAction(Command &cmd, const QString &ref, SessionVerb verb)
{
    cmd.withSession(ref, [&cmd, verb](const SessionHandle &h) {
        const Capability needed = capabilityFor(verb);
        if (needed != Capability::None && !h.provider->capabilities().testFlag(needed))
            return cmd.fail(unsupportedError(h.provider->descriptor(), needed));
        runSessionVerb(*h.provider, verb, h.session.id, Callback<void>(&cmd, [&cmd](VoidResult r) {
            if (!r.ok())
                return cmd.fail(r.error());
            cmd.finish(ExitOk);
        }));
    });
}

void sessionsAdopt(Command &cmd, const QString &ref)
{
    cmd.withSession(ref, [&cmd](const SessionHandle &h) {
        if (!h.provider->capabilities().testFlag(Capability::Adopt))
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Adopt));
        const QString account = h.session.account;
        h.provider->adopt(h.session.id, printSessionThenFinish(cmd, account));
    });
}

void sessionsFork(Command &cmd, const QString &ref, const QString &name)
{
    cmd.withSession(ref, [&cmd, name](const SessionHandle &h) {
        ForkFacet *fork = h.provider->forking();
        if (!fork)
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Fork));
        // Where the copy's files come from (a snapshot's lack what changed since), then the copy.
        fork->forkOrigin(
            h.session.id, Callback<QString>(&cmd, [&cmd, fork, h, name](Result<QString> origin) {
                if (origin.ok() && !origin->isEmpty())
                    cmd.err(QStringLiteral("sandbarctl: ") + *origin);
                fork->fork(h.session.id, ForkSpec{name, {}}, printSessionThenFinish(cmd, h.session.account));
            }));
    });
}

void sessionsTtl(Command &cmd, const QString &ref, const QString &secondsText)
{
    bool ok = false;
    const qint64 seconds = secondsText.toLongLong(&ok);
    if (!ok || seconds < 0)
        return cmd.usage(tr("sessions ttl takes a whole number of seconds (0 for none)"));
    cmd.withSession(ref, [&cmd, seconds](const SessionHandle &h) {
        TimeLimitFacet *limit = h.provider->timeLimit();
        if (!limit)
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::SetTimeout));
        limit->setTimeout(h.session.id, seconds, Callback<void>(&cmd, [&cmd](VoidResult r) {
                              if (!r.ok())
                                  return cmd.fail(r.error());
                              cmd.finish(ExitOk);
                          }));
    });
}

// sessions set: the provider's changeable create options, parsed once the session (and so its
// provider) is known.
void sessionsSet(Command &cmd, const QStringList &args)
{
    if (args.isEmpty() || args.first().startsWith(QLatin1String("--")))
        return cmd.usage(tr("usage: sessions set REF --OPTION VALUE..."));
    const QStringList options = args.mid(1);
    cmd.withSession(args.first(), [&cmd, options](const SessionHandle &h) {
        SettingsFacet *settings = h.provider->sessionSettings();
        const CreateOptionsCli cli = settingsOptionsCli(h.provider->descriptor());
        if (!settings || cli.fields.isEmpty())
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Settings));
        auto parsed = parseArgs(options, cli.spec);
        if (!parsed.ok())
            return cmd.usage(parsed.message() + QLatin1Char('\n') + cli.usage);
        if (!parsed->positional.isEmpty() || parsed->options.isEmpty())
            return cmd.usage(cli.usage);
        const auto values = settingsFromArgs(cli, *parsed);
        if (!values)
            return cmd.usage(values.message());
        settings->changeSettings(h.session.id, *values, printSessionThenFinish(cmd, h.session.account));
    });
}

// sessions label: KEY=VALUE sets a label of the person's, KEY- removes one; the rest stay.
void sessionsLabel(Command &cmd, const QStringList &args)
{
    if (args.size() < 2)
        return cmd.usage(tr("usage: sessions label REF KEY=VALUE... [KEY-]..."));
    QMap<QString, QString> set;
    QStringList removed;
    for (const QString &item : args.mid(1)) {
        if (item.endsWith(QLatin1Char('-')) && !item.contains(QLatin1Char('='))) {
            removed << item.chopped(1);
            continue;
        }
        const auto label = parseLabel(item);
        if (!label)
            return cmd.usage(label.message());
        set.insert(label->first, label->second);
    }
    cmd.withSession(args.first(), [&cmd, set, removed](const SessionHandle &h) {
        LabelsFacet *facet = h.provider->labelling();
        if (!facet)
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Labels));
        QMap<QString, QString> all = labels::personsOnly(h.session.labels);
        for (const QString &key : removed)
            all.remove(key);
        all.insert(set);
        facet->setLabels(h.session.id, all, printSessionThenFinish(cmd, h.session.account));
    });
}

} // namespace

void runSessions(Command &cmd, const QStringList &argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty())
        return cmd.usage(
            tr("sessions needs a subcommand: list, create, info, stop, kill, rm, pause, resume, ttl, adopt, fork, "
               "set, label"));
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("list") || sub == QLatin1String("ls"))
        return sessionsList(cmd, args);
    if (sub == QLatin1String("create"))
        return sessionsCreate(cmd, args);
    if (sub == QLatin1String("ttl")) {
        if (args.size() != 2)
            return cmd.usage(tr("usage: sessions ttl REF SECONDS"));
        return sessionsTtl(cmd, args.at(0), args.at(1));
    }
    const QList<std::pair<QString, SessionVerb>> actions = {
        {QStringLiteral("stop"), SessionVerb::Stop},     {QStringLiteral("kill"), SessionVerb::Kill},
        {QStringLiteral("rm"), SessionVerb::Remove},     {QStringLiteral("pause"), SessionVerb::Pause},
        {QStringLiteral("resume"), SessionVerb::Resume}, {QStringLiteral("archive"), SessionVerb::Archive},
    };
    if (sub == QLatin1String("fork")) {
        auto parsed = parseArgs(args, optionSpecFor(u"sessions fork"));
        if (!parsed.ok())
            return cmd.usage(parsed.message());
        if (parsed->positional.size() != 1)
            return cmd.usage(tr("usage: sessions fork REF [--name NAME]"));
        return sessionsFork(cmd, parsed->positional.first(), parsed->value(QStringLiteral("--name")));
    }
    if (sub == QLatin1String("set"))
        return sessionsSet(cmd, args);
    if (sub == QLatin1String("label"))
        return sessionsLabel(cmd, args);
    if (sub == QLatin1String("adopt")) {
        if (args.size() != 1)
            return cmd.usage(tr("usage: sessions adopt REF (a session listed by 'sessions list --all')"));
        return sessionsAdopt(cmd, args.first());
    }
    if (sub == QLatin1String("info")) {
        if (args.size() != 1)
            return cmd.usage(tr("usage: sessions info REF"));
        return sessionsInfo(cmd, args.first());
    }
    for (const auto &[name, verb] : actions) {
        if (name != sub)
            continue;
        if (args.size() != 1)
            return cmd.usage(tr("usage: sessions %1 REF").arg(sub));
        return sessionsAction(cmd, args.first(), verb);
    }
    cmd.usage(tr("unknown sessions subcommand '%1'").arg(sub));
}

} // namespace sandbar::cli
