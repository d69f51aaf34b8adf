#pragma once

#include "detail/SessionDetail.h"
#include "sessions/SessionRegistry.h"

#include <QHash>
#include <QPointer>
#include <QStackedWidget>

namespace sandbar::ui {

// The lower half of the window: the selected session's detail, or a placeholder. A detail is
// built when its session is first selected and kept while the session is listed (its
// terminals live on when the selection moves), or while it still has terminals to show after
// the session went away. A detail can be moved into a window of its own and docked back.
class DetailStack : public QStackedWidget
{
    Q_OBJECT
public:
    DetailStack(SessionRegistry &registry, QWidget *placeholder, QWidget *parent = nullptr);

    // Also given to the details already made.
    void setServices(DetailServices services);
    const DetailServices &services() const { return m_services; }
    // Shows the session's detail (building it), or the placeholder for none.
    SessionDetail *showSession(const std::optional<SessionInfo> &session);
    SessionDetail *ensure(const SessionInfo &session);
    SessionDetail *detail(const QString &ref) const { return m_details.value(ref); }
    SessionDetail *currentDetail() const;
    QList<SessionDetail *> details() const;
    bool isDetached(const QString &ref) const;
    void detach(SessionDetail *detail);
    void dock(SessionDetail *detail);

private:
    void onSessionsChanged();

    SessionRegistry &m_registry;
    DetailServices m_services;
    QWidget *m_placeholder;
    QHash<QString, QPointer<SessionDetail>> m_details;
    QHash<QString, QPointer<QWidget>> m_windows; // ref -> the window a detached detail lives in
};

} // namespace sandbar::ui
