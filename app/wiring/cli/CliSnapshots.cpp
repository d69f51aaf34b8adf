// sandbarctl snapshots: list, create and restore a session's snapshots (SnapshotFacet).
#include "providers/Provider.h"
#include "wiring/AppServices.h"
#include "wiring/cli/CliSupport.h"
#include "wiring/cli/CliTr.h"

#include <QJsonArray>
#include <QJsonObject>

namespace sandbar::cli {

QJsonObject snapshotToJson(const SnapshotEntry &e)
{
    QJsonObject o{{QStringLiteral("id"), e.id}};
    if (e.created.isValid())
        o[QStringLiteral("created")] = e.created.toUTC().toString(Qt::ISODate);
    if (!e.comment.isEmpty())
        o[QStringLiteral("comment")] = e.comment;
    return o;
}

namespace {

// Resolves ref to a provider with snapshots, or fails.
void withSnapshots(Command &cmd, const QString &ref, std::function<void(SnapshotFacet *, const SessionHandle &)> next)
{
    cmd.withSession(ref, [&cmd, next](const SessionHandle &h) {
        SnapshotFacet *snapshots = h.provider->snapshots();
        if (!snapshots)
            return cmd.fail(unsupportedError(h.provider->descriptor(), Capability::Snapshots));
        next(snapshots, h);
    });
}

void snapshotsList(Command &cmd, const QString &ref)
{
    withSnapshots(cmd, ref, [&cmd](SnapshotFacet *snapshots, const SessionHandle &h) {
        snapshots->listSnapshots(
            h.session.id, Callback<QList<SnapshotEntry>>(&cmd, [&cmd](Result<QList<SnapshotEntry>> r) {
                if (!r)
                    return cmd.fail(r.error());
                if (cmd.json()) {
                    QJsonArray a;
                    for (const SnapshotEntry &e : r.value())
                        a.append(snapshotToJson(e));
                    cmd.printJson(a);
                    return cmd.finish(ExitOk);
                }
                QList<QStringList> rows;
                for (const SnapshotEntry &e : r.value())
                    rows << QStringList{e.id, e.created.isValid() ? formatAge(e.created) : QString(), e.comment};
                cmd.printTable({tr("ID"), tr("CREATED"), tr("COMMENT")}, rows);
                cmd.finish(ExitOk);
            }));
    });
}

void snapshotsCreate(Command &cmd, const QString &ref, const QString &comment)
{
    withSnapshots(cmd, ref, [&cmd, comment](SnapshotFacet *snapshots, const SessionHandle &h) {
        // What the provider says while it saves: stderr, so that stdout is only the id.
        QObject::connect(h.provider, &Provider::snapshotProgress, &cmd,
                         [&cmd, id = h.session.id](const QString &session, const QString &text) {
                             if (session == id)
                                 cmd.err(text);
                         });
        snapshots->createSnapshot(h.session.id, comment, Callback<SnapshotEntry>(&cmd, [&cmd](Result<SnapshotEntry> r) {
                                      if (!r)
                                          return cmd.fail(r.error());
                                      if (cmd.json())
                                          cmd.printJson(snapshotToJson(r.value()));
                                      else
                                          cmd.out(r->id);
                                      cmd.finish(ExitOk);
                                  }));
    });
}

void snapshotsRestore(Command &cmd, const QString &ref, const QString &snapshotId)
{
    withSnapshots(cmd, ref, [&cmd, snapshotId](SnapshotFacet *snapshots, const SessionHandle &h) {
        QObject::connect(h.provider, &Provider::snapshotProgress, &cmd,
                         [&cmd, id = h.session.id](const QString &session, const QString &text) {
                             if (session == id)
                                 cmd.err(text);
                         });
        snapshots->restoreSnapshot(h.session.id, snapshotId, Callback<void>(&cmd, [&cmd](VoidResult r) {
                                       if (!r)
                                           return cmd.fail(r.error());
                                       cmd.finish(ExitOk);
                                   }));
    });
}

} // namespace

void runSnapshots(Command &cmd, const QStringList &argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty())
        return cmd.usage(tr("snapshots needs a subcommand: list, create, restore"));
    const QString sub = args.takeFirst();
    if (sub == QLatin1String("list") || sub == QLatin1String("ls")) {
        if (args.size() != 1)
            return cmd.usage(tr("usage: snapshots list REF"));
        return snapshotsList(cmd, args.first());
    }
    if (sub == QLatin1String("create")) {
        auto parsed = parseArgs(args, optionSpecFor(u"snapshots create"));
        if (!parsed.ok())
            return cmd.usage(parsed.message());
        if (parsed->positional.size() != 1)
            return cmd.usage(tr("usage: snapshots create REF [--comment TEXT]"));
        return snapshotsCreate(cmd, parsed->positional.first(), parsed->value(QStringLiteral("--comment")));
    }
    if (sub == QLatin1String("restore")) {
        if (args.size() != 2)
            return cmd.usage(tr("usage: snapshots restore REF ID"));
        return snapshotsRestore(cmd, args.at(0), args.at(1));
    }
    cmd.usage(tr("unknown snapshots subcommand '%1'").arg(sub));
}

} // namespace sandbar::cli
