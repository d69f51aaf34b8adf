#include "TrayIcon.h"

#include "costs/CostMeter.h"
#include "sessions/SessionRegistry.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QIcon>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSystemTrayIcon>
#include <QWidget>

namespace sandbar::ui {

TrayIcon::TrayIcon(SessionRegistry &registry, CostMeter *costs, QWidget *window, QObject *parent)
    : QObject(parent)
    , m_registry(registry)
    , m_costs(costs)
    , m_window(window)
{
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, &TrayIcon::updateStatus);
    if (m_costs)
        connect(m_costs, &CostMeter::updated, this, &TrayIcon::updateStatus);
    if (!isSystemTrayAvailable())
        return;

    m_menu = new QMenu();
    m_menu->setAccessibleName(tr("Sandbar tray menu"));
    m_status = m_menu->addAction(QString());
    m_status->setEnabled(false);
    m_menu->addSeparator();
    m_menu->addAction(tr("Show Sandbar"), this, &TrayIcon::showWindow);
    m_stopAll = m_menu->addAction(tr("Stop all sessions…"), this, &TrayIcon::requestStopAll);
    m_menu->addSeparator();
    m_menu->addAction(tr("Quit"), this, &TrayIcon::quitRequested);

    m_tray = new QSystemTrayIcon(this);
    QIcon icon = QApplication::windowIcon();
    if (icon.isNull())
        icon = QIcon(QStringLiteral(":/sandbar/icons/sandbar.svg"));
    m_tray->setIcon(icon);
    m_tray->setContextMenu(m_menu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
            showWindow();
    });
    connect(m_tray, &QSystemTrayIcon::messageClicked, this, &TrayIcon::showWindow);
    updateStatus();
    m_tray->show();
}

TrayIcon::~TrayIcon()
{
    // The menu has no parent (a tray menu must not be a child of a window that hides).
    delete m_menu;
}

bool TrayIcon::isSystemTrayAvailable()
{
    return QSystemTrayIcon::isSystemTrayAvailable();
}

QString TrayIcon::statusText() const
{
    std::optional<double> cost;
    if (m_costs)
        cost = m_costs->usdPerHour();
    return trayStatusText(runningSessionCount(m_registry.sessions()), cost);
}

void TrayIcon::updateStatus()
{
    if (!m_tray)
        return;
    const QString text = statusText();
    m_status->setText(text);
    m_tray->setToolTip(tr("Sandbar — %1").arg(text));
    m_stopAll->setEnabled(!m_stopping && runningSessionCount(m_registry.sessions()) > 0);
}

bool TrayIcon::showMessage(const Notification &n)
{
    if (!m_tray)
        return false;
    m_tray->showMessage(n.title, n.message, n.critical ? QSystemTrayIcon::Warning : QSystemTrayIcon::Information);
    return true;
}

Notifier::Sink TrayIcon::notificationSink(std::function<void(const QString &text)> fallback)
{
    return [guard = QPointer<TrayIcon>(this), fallback = std::move(fallback)](const Notification &n) {
        if (guard && guard->showMessage(n))
            return;
        if (fallback)
            fallback(QStringLiteral("%1: %2").arg(n.title, n.message));
    };
}

void TrayIcon::showWindow()
{
    if (m_window) {
        m_window->showNormal();
        m_window->raise();
        m_window->activateWindow();
    }
    Q_EMIT showRequested();
}

void TrayIcon::requestStopAll()
{
    if (m_stopping)
        return;
    const int running = runningSessionCount(m_registry.sessions());
    auto *box =
        new QMessageBox(QMessageBox::Warning, tr("Stop all sessions"),
                        tr("Stop %n running session(s) in every account?", "", running), QMessageBox::Cancel, m_window);
    QAbstractButton *stop = box->addButton(tr("Stop All"), QMessageBox::DestructiveRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("stopAllConfirmation"));
    connect(box, &QMessageBox::finished, this, [this, box, stop]() {
        if (box->clickedButton() != stop)
            return;
        m_stopping = true;
        updateStatus();
        stopAllRunningSessions(m_registry, this, [this](const StopAllSummary &summary) {
            m_stopping = false;
            Notification n;
            n.kind = Notification::Kind::Info;
            n.title = tr("Stop all sessions");
            n.message = summary.text();
            n.critical = !summary.failures.isEmpty();
            showMessage(n);
            m_registry.refresh();
            updateStatus();
            Q_EMIT stopAllFinished(summary);
        });
    });
    box->open();
}

CloseToTrayFilter::CloseToTrayFilter(QWidget *window, std::function<bool()> shouldHide)
    : QObject(window)
    , m_window(window)
    , m_shouldHide(std::move(shouldHide))
{
    window->installEventFilter(this);
    // Qt 6 closes every window on a quit (Cmd+Q, logout, the tray's Quit): see it first,
    // so a hidden-to-tray close never cancels a quit.
    if (qApp)
        qApp->installEventFilter(this);
}

bool CloseToTrayFilter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == qApp && event->type() == QEvent::Quit)
        m_quitting = true;
    if (watched != m_window || event->type() != QEvent::Close || m_quitting || !m_shouldHide || !m_shouldHide())
        return QObject::eventFilter(watched, event);
    event->ignore();
    m_window->hide();
    const bool first = !m_toldOnce;
    m_toldOnce = true;
    Q_EMIT hiddenToTray(first);
    return true;
}

} // namespace sandbar::ui
