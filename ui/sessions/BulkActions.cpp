#include "sessions/BulkActions.h"

#include "providers/SessionActions.h"
#include "sessions/SessionRegistry.h"

#include <QAbstractButton>
#include <QHash>
#include <QMessageBox>
#include <QSet>

namespace sandbar::ui {

namespace {

constexpr int kNamesListed = 12;

SessionVerb verbOf(BulkActions::Verb verb)
{
    switch (verb) {
    case BulkActions::Verb::Stop: return SessionVerb::Stop;
    case BulkActions::Verb::Pause: return SessionVerb::Pause;
    case BulkActions::Verb::Resume: return SessionVerb::Resume;
    case BulkActions::Verb::Remove: return SessionVerb::Remove;
    case BulkActions::Verb::Kill: return SessionVerb::Kill;
    case BulkActions::Verb::Archive: return SessionVerb::Archive;
    }
    return SessionVerb::Stop;
}

QString displayName(const SessionInfo &s)
{
    return (s.name.isEmpty() ? s.id.left(12) : s.name) + QStringLiteral(" (") + s.account + QLatin1Char(')');
}

} // namespace

struct BulkActions::Run {
    Verb verb = Verb::Stop;
    QHash<QString, QList<SessionInfo>> queued; // by account
    QHash<QString, int> inFlight;
    QSet<QString> accounts;
    int outstanding = 0;
    int ok = 0;
    Failures failures;
    bool pumping = false;
    bool done = false;
};

BulkActions::BulkActions(SessionRegistry &registry, QWidget *dialogParent, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_dialogParent(dialogParent)
{
}

QString BulkActions::verbText(Verb verb)
{
    switch (verb) {
    case Verb::Stop: return tr("Stop");
    case Verb::Pause: return tr("Pause");
    case Verb::Resume: return tr("Resume");
    case Verb::Remove: return tr("Remove");
    case Verb::Kill: return tr("Kill");
    case Verb::Archive: return tr("Archive");
    }
    return {};
}

QString BulkActions::whyNot(Verb verb, const SessionInfo &s) const
{
    const Provider *p = m_registry.existingProvider(s.account);
    const Capabilities caps = p ? p->capabilities() : Capabilities{};
    const QString state = sessionStateName(s.state);
    switch (verb) {
    case Verb::Stop:
        if (s.state == SessionState::Stopped || s.state == SessionState::Stopping)
            return tr("it is %1").arg(state);
        return {};
    case Verb::Kill:
        if (s.state == SessionState::Stopped)
            return tr("it is %1").arg(state);
        if (p && !caps.testFlag(Capability::Kill))
            return tr("%1 cannot kill sessions").arg(s.account);
        return {};
    case Verb::Pause:
        if (s.state != SessionState::Running)
            return tr("it is %1, not running").arg(state);
        if (p && !caps.testFlag(Capability::PauseResume))
            return tr("%1 cannot pause sessions").arg(s.account);
        return {};
    case Verb::Resume:
        if (s.state != SessionState::Paused)
            return tr("it is %1, not paused").arg(state);
        return {};
    case Verb::Remove: return {};
    case Verb::Archive:
        if (p && !caps.testFlag(Capability::Archive))
            return tr("%1 cannot archive sessions").arg(s.account);
        if (s.state != SessionState::Running && s.state != SessionState::Paused)
            return tr("it is %1").arg(state);
        return {};
    }
    return {};
}

void BulkActions::run(Verb verb, const QList<SessionInfo> &sessions)
{
    QList<SessionInfo> runnable;
    Failures skipped;
    for (const SessionInfo &s : sessions) {
        const QString why = whyNot(verb, s);
        if (why.isEmpty())
            runnable << s;
        else
            skipped << qMakePair(s.ref(), makeError(ErrorCode::Conflict, tr("Skipped: %1").arg(why)));
    }
    const bool ask = verb == Verb::Stop || verb == Verb::Remove || verb == Verb::Kill;
    if (!ask || runnable.isEmpty() || !m_dialogParent)
        return start(verb, std::move(runnable), std::move(skipped));

    // Plural forms spelled out: without a translation loaded, %n leaves "session(s)".
    const int n = int(runnable.size());
    const QString one = displayName(runnable.first());
    QString question;
    switch (verb) {
    case Verb::Remove:
        question = n == 1 ? tr("Remove %1? Its files inside the sandbox are deleted.").arg(one)
                          : tr("Remove %1 sessions? Their files inside the sandboxes are deleted.").arg(n);
        break;
    case Verb::Kill:
        question = n == 1 ? tr("Kill %1? Its processes get no chance to save their work.").arg(one)
                          : tr("Kill %1 sessions? Their processes get no chance to save their work.").arg(n);
        break;
    default: question = n == 1 ? tr("Stop %1?").arg(one) : tr("Stop %1 sessions?").arg(n); break;
    }
    QStringList names;
    for (int i = 0; i < n && i < kNamesListed; ++i)
        names << QStringLiteral("• ") + displayName(runnable.at(i));
    if (n > kNamesListed)
        names << tr("and %1 more").arg(n - kNamesListed);
    QString details = names.join(QLatin1Char('\n'));
    if (!skipped.isEmpty()) {
        details += QStringLiteral("\n\n") + tr("Skipped:");
        for (const auto &[ref, error] : std::as_const(skipped))
            details += QStringLiteral("\n• %1 — %2").arg(ref, error.message);
    }
    auto *box = new QMessageBox(QMessageBox::Question, tr("%1 sessions").arg(verbText(verb)), question,
                                QMessageBox::Yes | QMessageBox::No, m_dialogParent);
    box->setObjectName(QStringLiteral("bulkConfirm"));
    box->setInformativeText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setDefaultButton(QMessageBox::No);
    box->button(QMessageBox::Yes)->setText(verbText(verb));
    connect(box, &QMessageBox::finished, this, [this, box, verb, runnable, skipped](int) {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            start(verb, runnable, skipped);
    });
    box->open();
}

void BulkActions::start(Verb verb, QList<SessionInfo> sessions, Failures skipped)
{
    auto run = std::make_shared<Run>();
    run->verb = verb;
    run->failures = std::move(skipped);
    for (const SessionInfo &s : sessions) {
        run->queued[s.account] << s;
        run->accounts.insert(s.account);
    }
    run->outstanding = int(sessions.size());
    ++m_running;
    Q_EMIT started(verb, run->outstanding);
    pump(run);
}

// Starts calls up to the per-account limit. A provider may answer synchronously, inside
// the call: then the loop below goes on instead of recursing once per session.
void BulkActions::pump(const std::shared_ptr<Run> &run)
{
    if (run->pumping)
        return;
    run->pumping = true;
    for (auto it = run->queued.begin(); it != run->queued.end(); ++it) {
        const QString account = it.key();
        while (run->inFlight.value(account) < kPerAccount && !run->queued[account].isEmpty()) {
            const SessionInfo s = run->queued[account].takeFirst();
            Provider *p = m_registry.existingProvider(account);
            if (!p) {
                run->failures << qMakePair(
                    s.ref(), makeError(ErrorCode::Unavailable, tr("The account %1 is not connected").arg(account)));
                --run->outstanding;
                continue;
            }
            ++run->inFlight[account];
            runSessionVerb(*p, verbOf(run->verb), s.id,
                           Callback<void>(this, [this, run, account, ref = s.ref()](VoidResult r) {
                               --run->inFlight[account];
                               --run->outstanding;
                               if (r.ok())
                                   ++run->ok;
                               else
                                   run->failures << qMakePair(ref, r.error());
                               pump(run);
                           }));
        }
    }
    run->pumping = false;
    if (run->outstanding == 0)
        finish(run);
}

void BulkActions::finish(const std::shared_ptr<Run> &run)
{
    if (run->done)
        return;
    run->done = true;
    --m_running;
    for (const QString &account : std::as_const(run->accounts))
        m_registry.refreshAccount(account);
    Q_EMIT finished(run->ok, run->failures);
}

QString BulkActions::summaryText(Verb verb, int ok, const Failures &failures)
{
    QStringList lines;
    lines << (ok == 1 ? tr("%1: 1 session done").arg(verbText(verb))
                      : tr("%1: %2 sessions done").arg(verbText(verb)).arg(ok));
    for (const auto &[ref, error] : failures)
        lines << QStringLiteral("%1 — %2").arg(ref, error.message);
    return lines.join(QLatin1Char('\n'));
}

} // namespace sandbar::ui
