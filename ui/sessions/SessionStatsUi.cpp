#include "sessions/SessionStatsUi.h"

#include "charts/SparklineDelegate.h"
#include "charts/StatsView.h"
#include "sessions/SessionsModel.h"

#include <QAbstractProxyModel>
#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>

namespace sandbar::ui {

namespace {

// The sessions model under the view's proxies (the pane's filter) and the source row of
// a view row: the table may be sorted and filtered, the refs are the model's.
std::pair<const SessionsModel *, int> sourceRow(const QAbstractItemModel *model, QModelIndex index)
{
    while (const auto *proxy = qobject_cast<const QAbstractProxyModel *>(model)) {
        index = proxy->mapToSource(index);
        model = proxy->sourceModel();
    }
    const auto *sessions = qobject_cast<const SessionsModel *>(model);
    if (!sessions || !index.isValid())
        return {nullptr, -1};
    return {sessions, index.row()};
}

SessionsModel *sessionsModelOf(QAbstractItemModel *model)
{
    while (auto *proxy = qobject_cast<QAbstractProxyModel *>(model))
        model = proxy->sourceModel();
    return qobject_cast<SessionsModel *>(model);
}

} // namespace

SessionStatsUi::SessionStatsUi(metrics::StatsCollector &collector, QTableView *table, QTabWidget *tabs, QObject *parent)
    : QObject(parent)
    , m_collector(collector)
    , m_table(table)
    , m_tabs(tabs)
{
    // The ref alone: a paint must not copy the whole SessionInfo through a QVariant.
    const auto lookup = [this](const QModelIndex &index) -> metrics::SessionStats * {
        const QString ref = index.data(SessionsModel::RefRole).toString();
        return ref.isEmpty() ? nullptr : m_collector.find(ref);
    };
    auto *cpu = new SparklineDelegate(SparklineDelegate::Figure::Cpu, lookup, table);
    auto *memory = new SparklineDelegate(SparklineDelegate::Figure::Memory, lookup, table);
    // Countdowns count on the clock that set the retry times.
    cpu->setClock(m_collector.clock());
    memory->setClock(m_collector.clock());
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
    if (SessionsModel *sessions = sessionsModelOf(model)) {
        // CPU and Memory sort by the newest sample.
        sessions->setStatsLookup([collector = &m_collector](const QString &ref) -> const metrics::SessionStats * {
            return collector->find(ref);
        });
    }
    connect(model, &QAbstractItemModel::modelReset, this, later);
    connect(model, &QAbstractItemModel::rowsInserted, this, later);
    connect(model, &QAbstractItemModel::rowsRemoved, this, later);
    connect(model, &QAbstractItemModel::layoutChanged, this, later);
    connect(table->verticalScrollBar(), &QScrollBar::valueChanged, this, later);
    connect(table->verticalHeader(), &QHeaderView::sectionResized, this, later);
    // Hiding both figure columns (the header menu) ends the sampling.
    connect(table->horizontalHeader(), &QHeaderView::sectionResized, this, later);
    table->viewport()->installEventFilter(this);
    connect(&collector, &metrics::StatsCollector::statsRemoved, this, later);
    m_interestTimer.start();
}

QStringList SessionStatsUi::visibleRefs() const
{
    QStringList refs;
    if (!m_table || !m_table->isVisible())
        return refs; // a hidden window samples nothing
    if (m_table->isColumnHidden(SessionsModel::Cpu) && m_table->isColumnHidden(SessionsModel::Memory))
        return refs;
    const QAbstractItemModel *model = m_table->model();
    const int first = qMax(0, m_table->rowAt(0));
    int last = m_table->rowAt(m_table->viewport()->height() - 1);
    if (last < 0)
        last = model->rowCount() - 1;
    for (int row = first; row <= last && row < model->rowCount(); ++row) {
        const auto [sessions, source] = sourceRow(model, model->index(row, 0));
        if (!sessions)
            continue;
        const SessionInfo &s = sessions->session(source);
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
    view->setClock(m_collector.clock());
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
