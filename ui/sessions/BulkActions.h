#pragma once

#include "common/Result.h"
#include "providers/Session.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <memory>

class QWidget;

namespace sandbar {
class SessionRegistry;
}

namespace sandbar::ui {

// One verb over many sessions: one question for all of them, the calls run concurrently
// (at most kPerAccount at a time per account, so one account's API is not flooded), and one
// summary at the end. Sessions the verb cannot apply to (stopping a stopped one) are
// skipped and named in the question and in the summary.
class BulkActions : public QObject
{
    Q_OBJECT
public:
    enum class Verb { Stop, Pause, Resume, Remove, Kill, Archive };
    Q_ENUM(Verb)
    using Failures = QList<QPair<QString, Error>>;
    static constexpr int kPerAccount = 4;

    // Questions open window-modal over dialogParent.
    BulkActions(SessionRegistry &registry, QWidget *dialogParent, QObject *parent = nullptr);

    // Asks first for Stop, Kill and Remove ("Remove 3 sessions? …"), then runs. finished()
    // follows (also when nothing could run); nothing at all when the question is declined.
    void run(Verb verb, const QList<SessionInfo> &sessions);
    // Why verb cannot run on session now; empty when it can.
    QString whyNot(Verb verb, const SessionInfo &session) const;
    bool isBusy() const { return m_running > 0; }
    // "Stop", "Remove", ... for titles and buttons.
    static QString verbText(Verb verb);
    // The summary as the window shows it: one line per failed or skipped ref.
    static QString summaryText(Verb verb, int ok, const Failures &failures);

Q_SIGNALS:
    void started(sandbar::ui::BulkActions::Verb verb, int count);
    // ok: sessions the verb succeeded on; failures: each failed or skipped ref with why
    // (skips carry ErrorCode::Conflict).
    void finished(int ok, const QList<QPair<QString, sandbar::Error>> &failures);

private:
    struct Run;
    void start(Verb verb, QList<SessionInfo> sessions, Failures skipped);
    void pump(const std::shared_ptr<Run> &run);
    void finish(const std::shared_ptr<Run> &run);

    SessionRegistry &m_registry;
    QPointer<QWidget> m_dialogParent;
    int m_running = 0;
};

} // namespace sandbar::ui
