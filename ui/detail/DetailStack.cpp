#include "detail/DetailStack.h"

#include <QCloseEvent>
#include <QVBoxLayout>

namespace sandbar::ui {

namespace {

// Closing a detached detail's window docks the detail back instead of destroying it.
class DetailWindow : public QWidget
{
public:
    DetailWindow(SessionDetail *detail, std::function<void()> dockBack)
        : m_dockBack(std::move(dockBack))
    {
        setAttribute(Qt::WA_DeleteOnClose);
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(detail);
        detail->show();
    }

protected:
    void closeEvent(QCloseEvent *event) override
    {
        m_dockBack();
        QWidget::closeEvent(event);
    }

private:
    std::function<void()> m_dockBack;
};

} // namespace

DetailStack::DetailStack(SessionRegistry &registry, QWidget *placeholder, QWidget *parent)
    : QStackedWidget(parent)
    , m_registry(registry)
    , m_placeholder(placeholder)
{
    setObjectName(QStringLiteral("detailStack"));
    addWidget(placeholder);
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, &DetailStack::onSessionsChanged);
}

void DetailStack::setServices(DetailServices services)
{
    m_services = std::move(services);
    for (SessionDetail *d : details())
        d->setServices(m_services);
}

SessionDetail *DetailStack::ensure(const SessionInfo &session)
{
    const QString ref = session.ref();
    if (SessionDetail *d = m_details.value(ref))
        return d;
    auto *d = new SessionDetail(m_registry.existingProvider(session.account), session, m_services, this);
    addWidget(d);
    m_details.insert(ref, d);
    connect(d, &SessionDetail::detachRequested, this, [this, d]() {
        if (isDetached(d->ref()))
            dock(d);
        else
            detach(d);
    });
    connect(d, &SessionDetail::terminalsChanged, this, &DetailStack::onSessionsChanged);
    return d;
}

SessionDetail *DetailStack::showSession(const std::optional<SessionInfo> &session)
{
    if (!session) {
        setCurrentWidget(m_placeholder);
        return nullptr;
    }
    SessionDetail *d = ensure(*session);
    if (isDetached(d->ref())) {
        // The detail is in its own window: bring that forward, keep the placeholder here.
        QWidget *w = m_windows.value(d->ref());
        w->raise();
        setCurrentWidget(m_placeholder);
        return d;
    }
    setCurrentWidget(d);
    return d;
}

SessionDetail *DetailStack::currentDetail() const
{
    return qobject_cast<SessionDetail *>(currentWidget());
}

QList<SessionDetail *> DetailStack::details() const
{
    QList<SessionDetail *> out;
    for (const auto &d : m_details) {
        if (d)
            out << d;
    }
    return out;
}

bool DetailStack::isDetached(const QString &ref) const
{
    return !m_windows.value(ref).isNull();
}

void DetailStack::detach(SessionDetail *detail)
{
    const QString ref = detail->ref();
    if (isDetached(ref))
        return;
    const bool wasCurrent = currentWidget() == detail;
    removeWidget(detail);
    QPointer<SessionDetail> guard(detail);
    auto *window = new DetailWindow(detail, [this, guard]() {
        if (guard)
            dock(guard);
    });
    window->setWindowTitle(tr("%1 — Sandbar").arg(ref));
    window->resize(qMax(900, width()), qMax(600, height()));
    m_windows.insert(ref, window);
    window->show();
    if (wasCurrent)
        setCurrentWidget(m_placeholder);
}

void DetailStack::dock(SessionDetail *detail)
{
    const QString ref = detail->ref();
    QPointer<QWidget> window = m_windows.take(ref);
    addWidget(detail); // reparents it out of the window before the window goes
    setCurrentWidget(detail);
    if (window) {
        window->hide();
        window->deleteLater();
    }
}

// Listed sessions' details follow their listing; a detail of a session that went away keeps
// its terminals (with the end state shown) until they are closed, then it goes too.
void DetailStack::onSessionsChanged()
{
    QHash<QString, SessionInfo> listed;
    for (const auto &s : m_registry.sessions())
        listed.insert(s.ref(), s);
    const auto refs = m_details.keys();
    for (const QString &ref : refs) {
        SessionDetail *d = m_details.value(ref);
        if (!d) {
            m_details.remove(ref);
            continue;
        }
        if (const auto it = listed.constFind(ref); it != listed.constEnd()) {
            d->setSession(*it);
            continue;
        }
        if (!d->isRemoved() && m_registry.status(d->session().account).state == AccountStatus::State::Ok)
            d->setRemoved();
        if (d->isRemoved() && d->terminalCount() == 0 && !isDetached(ref)) {
            if (currentWidget() == d)
                setCurrentWidget(m_placeholder);
            m_details.remove(ref);
            d->deleteLater();
        }
    }
}

} // namespace sandbar::ui
