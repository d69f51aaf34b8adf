#include "main/SessionStatsUi.h"

#include "charts/SparklineDelegate.h"
#include "charts/StatsView.h"
#include "main/SessionsModel.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>

namespace sandbar::ui {

SessionStatsUi::SessionStatsUi(metrics::StatsCollector &collector, QTableView *table, QTabWidget *tabs, QObject *parent)
    : QObject(parent)
    , m_collector(collector)
    , m_table(table)
    , m_tabs(tabs)
{
    const auto lookup = [this](const QModelIndex &index) -> metrics::SessionStats * {
        const auto s = index.data(SessionsModel::SessionRole).value<SessionInfo>();
        return s.id.isEmpty() ? nullptr : m_collector.find(s.ref());
    };
    auto *cpu = new SparklineDelegate(SparklineDelegate::Figure::Cpu, lookup, table);
    auto *memory = new SparklineDelegate(SparklineDelegate::Figure::Memory, lookup, table);
    table->setItemDelegateForColumn(SessionsModel::Cpu, cpu);
    table->setItemDelegateForColumn(SessionsModel::Memory, memory);
    // One once-a-second repaint of the viewport serves both columns: a second watcher would
    // paint the whole table twice a second.
    cpu->watch(table);
    table->setColumnWidth(SessionsModel::Cpu, 130);
    table->setColumnWidth(SessionsModel::Memory, 150);

    m_interestTimer.setSingleShot(true);
    m_interestTimer.setInterval(150);
    connect(&m_interestTimer, &QTimer::timeout, this, &SessionStatsUi::updateInterest);
    const auto later = [this] { m_interestTimer.start(); };
    QAbstractItemModel *model = table->model();
    connect(model, &QAbstractItemModel::modelReset, this, later);
    connect(model, &QAbstractItemModel::rowsInserted, this, later);
    connect(model, &QAbstractItemModel::rowsRemoved, this, later);
    connect(model, &QAbstractItemModel::layoutChanged, this, later);
    connect(table->verticalScrollBar(), &QScrollBar::valueChanged, this, later);
    connect(table->verticalHeader(), &QHeaderView::sectionResized, this, later);
    table->viewport()->installEventFilter(this);
    connect(&collector, &metrics::StatsCollector::statsRemoved, this, later);
    m_interestTimer.start();
}

QStringList SessionStatsUi::visibleRefs() const
{
    QStringList refs;
    if (!m_table || !m_table->isVisible())
        return refs; // a hidden window samples nothing
    const QAbstractItemModel *model = m_table->model();
    const int first = qMax(0, m_table->rowAt(0));
    int last = m_table->rowAt(m_table->viewport()->height() - 1);
    if (last < 0)
        last = model->rowCount() - 1;
    for (int row = first; row <= last && row < model->rowCount(); ++row) {
        const auto s = model->index(row, 0).data(SessionsModel::SessionRole).value<SessionInfo>();
        if (s.state == SessionState::Running)
            refs << s.ref();
    }
    return refs;
}

bool SessionStatsUi::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::Show || event->type() == QEvent::Hide)
        m_interestTimer.start();
    return QObject::eventFilter(watched, event);
}

void SessionStatsUi::updateInterest()
{
    m_collector.setListInterest(visibleRefs());
    if (m_table)
        m_table->viewport()->update();
}

void SessionStatsUi::openStatsTab(const SessionInfo &session)
{
    if (!m_tabs)
        return;
    const QString name = QStringLiteral("stats:") + session.ref();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->objectName() == name) {
            m_tabs->setCurrentIndex(i);
            return;
        }
    }
    metrics::SessionStats *stats = m_collector.stats(session.ref());
    auto *view = new StatsView(m_tabs);
    view->setObjectName(name);
    view->setStats(stats);
    // The tab's interest lasts as long as the view: closing (deleting) it ends it.
    const QString ref = session.ref();
    m_collector.addDetailInterest(ref);
    connect(view, &QObject::destroyed, &m_collector,
            [collector = &m_collector, ref] { collector->removeDetailInterest(ref); });
    const QString title = session.name.isEmpty() ? session.id.left(12) : session.name;
    const int i = m_tabs->addTab(view, tr("Stats: %1").arg(title));
    m_tabs->setCurrentIndex(i);
}

} // namespace sandbar::ui
