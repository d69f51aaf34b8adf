// sandbar-bench ui (part): the sessions table's search and sort over 5,000 sessions.
//   ui.filter_5000_ms  median of 5 runs of: set a search text ("agent state:running", which
//                      keeps a quarter of the rows) and sort by a date column (Created,
//                      then Uptime), until the proxy and its (hidden) table view are updated
//                      (target <= 50)
// The sessions come through the model's seam (setSessions), as a registry listing would.

#include "Bench.h"
#include "accounts/AccountStore.h"
#include "accounts/SecretStore.h"
#include "sessions/SessionRegistry.h"
#include "sessions/SessionsFilter.h"
#include "sessions/SessionsModel.h"

#include <QElapsedTimer>
#include <QTableView>
#include <QTemporaryDir>
#include <cstdio>

using namespace sandbar;

namespace {

constexpr int kSessions = 5000;
constexpr int kRuns = 5;

// The registry under the model needs an account store; no account is ever added.
class NoSecrets final : public SecretStore
{
public:
    void write(const QString &, const QString &, Callback<void> done) override { done(VoidResult{}); }
    void read(const QString &, Callback<QString> done) override
    {
        done(makeError(ErrorCode::NotFound, QStringLiteral("none")));
    }
    void remove(const QString &, Callback<void> done) override { done(VoidResult{}); }
};

QList<SessionInfo> makeSessions()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const SessionState states[] = {SessionState::Running, SessionState::Stopped, SessionState::Paused};
    const char *images[] = {"python:3.12", "node:20", "pytorch:2.4", "busybox", "ubuntu:24.04"};
    QList<SessionInfo> out;
    out.reserve(kSessions);
    for (int i = 0; i < kSessions; ++i) {
        SessionInfo s;
        s.account = QStringLiteral("account-%1").arg(i % 7);
        s.id = QStringLiteral("%1").arg(quint64(i) * 2654435761u, 16, 16, QLatin1Char('0'));
        s.provider = i % 2 ? QStringLiteral("docker") : QStringLiteral("e2b");
        s.name = (i % 4 ? QStringLiteral("agent-%1") : QStringLiteral("build-%1")).arg(i);
        s.state = states[i % 3];
        s.image = QLatin1String(images[i % 5]);
        s.created = now.addSecs(-qint64((i * 7919) % 500000));
        if (i % 4)
            s.expiresAt = now.addSecs((i * 104729) % 90000);
        s.gpus = i % 11 == 0 ? 1 : 0;
        out << s;
    }
    return out;
}

int run(const QStringList &)
{
    QTemporaryDir dir;
    ProviderFactories factories;
    NoSecrets secrets;
    AccountStore accounts(dir.path(), factories, secrets);
    SessionRegistry registry(accounts, factories);
    ui::SessionsModel model(registry);
    model.setSessions(makeSessions());
    ui::SessionsFilter filter;
    filter.setSourceModel(&model);
    QTableView view; // as the pane has one: the view's own bookkeeping counts
    view.setModel(&filter);
    view.setSortingEnabled(true);
    view.sortByColumn(ui::SessionsModel::Name, Qt::AscendingOrder);

    QList<double> samples;
    int kept = 0;
    for (int i = 0; i < kRuns; ++i) {
        filter.setSearchText(QString());
        view.sortByColumn(ui::SessionsModel::Name, Qt::AscendingOrder);
        QElapsedTimer t;
        t.start();
        filter.setSearchText(QStringLiteral("agent state:running"));
        view.sortByColumn(i % 2 ? ui::SessionsModel::Uptime : ui::SessionsModel::Created, Qt::DescendingOrder);
        kept = filter.rowCount();
        samples << double(t.nsecsElapsed()) / 1e6;
    }
    if (kept <= 0)
        return bench::fail("ui", QStringLiteral("ui.filter_5000_ms"),
                           QStringLiteral("the search \"agent state:running\" kept no rows of %1").arg(kSessions));
    bench::printFigure(QStringLiteral("ui.filter_5000_ms"), bench::percentile(samples, 50), QStringLiteral("ms"));
    return 0;
}

} // namespace

const bench::Registration filterReg("ui", &run, true, "Sessions table: search and sort over 5,000 sessions");
