#include "audit/AuditLog.h"
#include "providers/Provider.h"
#include "wiring/cli/CliCreateOptions.h"
#include "wiring/cli/CliSupport.h"

#include <QTimer>
#include <memory>

namespace sandbar::cli {

namespace {

// A completion runs while the person waits at the prompt: an engine that does not answer by
// then leaves its sessions out rather than holding the shell.
constexpr int kSessionsDeadlineMs = 1500;

void printAndFinish(Command &cmd, QStringList lines)
{
    lines.removeDuplicates();
    for (const auto &l : std::as_const(lines))
        cmd.out(l);
    cmd.finish(ExitOk);
}

QStringList optionsOf(const OptionSpec &spec)
{
    QStringList out = spec.valued + spec.flags;
    out.removeDuplicates();
    out.sort();
    return out;
}

void completeSessions(Command &cmd)
{
    QStringList accounts;
    for (const auto &a : cmd.services().accounts->accounts())
        accounts << a.name;
    auto pending = std::make_shared<int>(int(accounts.size()));
    auto printed = std::make_shared<bool>(false);
    const auto print = [&cmd, printed]() {
        if (std::exchange(*printed, true))
            return;
        QStringList refs;
        QStringList names;
        for (const auto &s : cmd.services().registry->sessions()) {
            refs << s.ref();
            if (!s.name.isEmpty())
                names << s.name;
        }
        printAndFinish(cmd, refs + names);
    };
    if (accounts.isEmpty())
        return print();
    QTimer::singleShot(kSessionsDeadlineMs, &cmd, print);
    for (const auto &a : accounts) {
        cmd.services().registry->refreshAccount(
            a, Callback<QList<SessionInfo>>(&cmd, [pending, print](const Result<QList<SessionInfo>> &) {
                if (--*pending == 0)
                    print();
            }));
    }
}

} // namespace

// Offline but for `sessions`, which asks each account's engine with a short deadline. Unknown
// kinds and accounts print nothing: the shell then offers nothing, which is the right answer.
void runComplete(Command &cmd, const QStringList &args)
{
    const QString kind = args.value(0);
    const QString arg = args.value(1);
    auto &services = cmd.services();
    if (kind == QLatin1String("accounts")) {
        QStringList names;
        for (const auto &a : services.accounts->accounts())
            names << a.name;
        return printAndFinish(cmd, names);
    }
    if (kind == QLatin1String("providers"))
        return printAndFinish(cmd, services.factories.ids());
    if (kind == QLatin1String("actions")) {
        QStringList names;
        for (auto a : audit::allActions())
            names << audit::actionName(a);
        return printAndFinish(cmd, names);
    }
    if (kind == QLatin1String("sessions"))
        return completeSessions(cmd);
    if (kind == QLatin1String("create-options")) {
        const auto account = services.accounts->find(arg);
        const ProviderFactory *factory = account ? services.factories.find(account->provider) : nullptr;
        const OptionSpec spec =
            factory ? createOptionsCli(factory->descriptor()).spec : optionSpecFor(u"sessions create");
        return printAndFinish(cmd, optionsOf(spec));
    }
    if (kind == QLatin1String("account-fields")) {
        const ProviderFactory *factory = services.factories.find(arg);
        return printAndFinish(
            cmd, optionsOf(factory ? accountsAddSpec(factory->descriptor()) : optionSpecFor(u"accounts add")));
    }
    printAndFinish(cmd, {});
}

} // namespace sandbar::cli
