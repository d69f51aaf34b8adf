#include "sessions/SessionsPane.h"

#include "sessions/ColumnFitter.h"
#include "sessions/SessionRegistry.h"
#include "sessions/SessionsFilter.h"
#include "sessions/SessionsModel.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace sandbar::ui {

namespace {
constexpr int kTickMs = 1000;
const QLatin1String kHeaderKey("sessionsPane/header");
const QLatin1String kHiddenKey("sessionsPane/hiddenColumns");
const QLatin1String kSelectedKey("sessionsPane/selected");
const QLatin1String kColumnsChosenKey("sessionsPane/columnsChosen");
} // namespace

SessionsPane::SessionsPane(SessionRegistry &registry, QWidget *parent)
    : QWidget(parent)
    , m_registry(registry)
{
    m_model = new SessionsModel(registry, this);
    m_filter = new SessionsFilter(this);
    m_filter->setSourceModel(m_model);
    m_bulk = new BulkActions(registry, this, this);

    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("sessionSearch"));
    m_search->setAccessibleName(tr("Filter sessions"));
    m_search->setPlaceholderText(tr("Filter sessions — name, image, state:running, account:…"));
    m_search->setToolTip(tr("Words must all match. state:, account:, provider: and image: match that field "
                            "exactly; label:KEY or label:KEY=VALUE a label. Escape clears."));
    m_search->setClearButtonEnabled(true);
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, m_filter, &SessionsFilter::setSearchText);
    auto *find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, m_search, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("sessionTable"));
    m_view->setAccessibleName(tr("Sessions"));
    m_view->setModel(m_filter);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(SessionsModel::Created, Qt::DescendingOrder);
    m_view->verticalHeader()->hide();
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->installEventFilter(this);
    m_view->viewport()->installEventFilter(this);
    QHeaderView *header = m_view->horizontalHeader();
    header->setObjectName(QStringLiteral("sessionTableHeader"));
    header->setSectionsMovable(true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, &SessionsPane::showHeaderMenu);
    // Before the widths below: they are what each column prefers.
    m_fitter = new ColumnFitter(m_view, SessionsModel::Name, this);
    m_view->setColumnWidth(SessionsModel::Name, 180);
    m_view->setColumnWidth(SessionsModel::Account, 100);
    m_view->setColumnWidth(SessionsModel::Provider, 90);
    m_view->setColumnWidth(SessionsModel::Created, 150);
    m_view->setColumnWidth(SessionsModel::State, 90);
    m_view->setColumnWidth(SessionsModel::Image, 140);
    m_view->setColumnWidth(SessionsModel::Gpu, 50);
    m_view->setColumnWidth(SessionsModel::Uptime, 90);
    m_view->setColumnWidth(SessionsModel::TtlLeft, 80);
    m_view->setColumnWidth(SessionsModel::Cost, 140); // "$0.199 · $0.166/h" whole
    m_view->setColumnWidth(SessionsModel::Labels, 160);
    m_userHidden = {SessionsModel::Ref};
    applyColumnVisibility();
    connect(m_model, &SessionsModel::optionalColumnsChanged, this, &SessionsPane::applyColumnVisibility);

    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        if (const auto s = m_filter->sessionAt(index.row()))
            Q_EMIT activated(*s);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { Q_EMIT selectionChanged(); });
    connect(m_filter, &QAbstractItemModel::modelReset, this, &SessionsPane::selectionChanged);
    // After the change, not inside it: a sorted filter inserts a listing in several runs,
    // and a row of a later run is not mapped yet while the first is announced.
    m_restoreTimer.setSingleShot(true);
    m_restoreTimer.setInterval(0);
    connect(&m_restoreTimer, &QTimer::timeout, this, &SessionsPane::restorePendingSelection);
    const auto later = [this] {
        if (!m_pendingRefs.isEmpty())
            m_restoreTimer.start();
    };
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, later);
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, later);
    connect(&m_registry, &SessionRegistry::sessionsChanged, this, later);

    m_tick.setInterval(kTickMs);
    connect(&m_tick, &QTimer::timeout, this, &SessionsPane::repaintTickingColumns);
    m_tick.start();
    connect(m_bulk, &BulkActions::finished, this, &SessionsPane::showFailures);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_search);
    layout->addWidget(m_view);
    setFocusProxy(m_view);
}

QList<SessionInfo> SessionsPane::selectedSessions() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QList<SessionInfo> out;
    out.reserve(rows.size());
    for (const QModelIndex &index : std::as_const(rows)) {
        if (const auto s = m_filter->sessionAt(index.row()))
            out << *s;
    }
    return out;
}

std::optional<SessionInfo> SessionsPane::currentSession() const
{
    const QItemSelectionModel *sel = m_view->selectionModel();
    const QModelIndex current = sel->currentIndex();
    if (current.isValid() && sel->isRowSelected(current.row(), current.parent()))
        return m_filter->sessionAt(current.row());
    const auto selected = selectedSessions();
    if (selected.isEmpty())
        return std::nullopt;
    return selected.first();
}

void SessionsPane::setAccountFilter(const QString &account)
{
    m_filter->setAccountFilter(account);
}

void SessionsPane::selectRef(const QString &ref)
{
    m_pendingRefs = {ref};
    // A session just made is not listed yet although its account is: wait for the next listing.
    selectRefs(m_pendingRefs, true, true);
}

void SessionsPane::selectRefs(const QStringList &refs, bool clear, bool keepUnlisted)
{
    QItemSelection selection;
    QModelIndex first;
    QStringList left;
    for (const QString &ref : refs) {
        const int row = m_model->rowOf(ref);
        if (row < 0) {
            // Not listed yet, unless its account was listed without it: then it is gone.
            const QString account = ref.section(QLatin1Char('/'), 0, 0);
            if (keepUnlisted || m_registry.status(account).state != AccountStatus::State::Ok)
                left << ref;
            continue;
        }
        const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
        if (!index.isValid())
            continue; // filtered out
        selection.select(index, index);
        if (!first.isValid())
            first = index;
    }
    m_pendingRefs = left;
    QItemSelectionModel *sel = m_view->selectionModel();
    if (clear || !selection.isEmpty())
        sel->select(selection, QItemSelectionModel::Rows |
                                   (clear ? QItemSelectionModel::ClearAndSelect : QItemSelectionModel::Select));
    if (first.isValid()) {
        sel->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
        m_view->scrollTo(first);
    }
}

void SessionsPane::restorePendingSelection()
{
    if (!m_pendingRefs.isEmpty())
        selectRefs(m_pendingRefs, false);
}

void SessionsPane::runBulk(BulkActions::Verb verb)
{
    m_bulkVerb = verb;
    m_bulk->run(verb, selectedSessions());
}

void SessionsPane::showFailures(int ok, const BulkActions::Failures &failures)
{
    if (failures.isEmpty())
        return;
    QStringList lines;
    for (const auto &[ref, error] : failures)
        lines << QStringLiteral("%1 — %2").arg(ref, error.message);
    auto *box = new QMessageBox(
        QMessageBox::Warning, tr("%1 sessions").arg(BulkActions::verbText(m_bulkVerb)),
        ok == 1 ? tr("%1: 1 session done; these were not:").arg(BulkActions::verbText(m_bulkVerb))
                : tr("%1: %2 sessions done; these were not:").arg(BulkActions::verbText(m_bulkVerb)).arg(ok),
        QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("bulkErrors"));
    box->setInformativeText(lines.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

bool SessionsPane::isColumnShown(int column) const
{
    return !m_userHidden.contains(column);
}

void SessionsPane::setColumnShown(int column, bool shown)
{
    if (column == SessionsModel::Name)
        return; // a row needs something to recognise it by
    if (shown)
        m_userHidden.remove(column);
    else
        m_userHidden.insert(column);
    applyColumnVisibility();
}

void SessionsPane::applyColumnVisibility()
{
    for (int c = 0; c < SessionsModel::ColumnCount; ++c) {
        const bool shown = !m_userHidden.contains(c) && m_model->hasData(c);
        m_view->setColumnHidden(c, !shown);
    }
    m_fitter->fit();
}

void SessionsPane::showHeaderMenu(const QPoint &pos)
{
    auto *menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("sessionColumnsMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (int c = 0; c < SessionsModel::ColumnCount; ++c) {
        QAction *a = menu->addAction(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
        a->setCheckable(true);
        a->setChecked(isColumnShown(c));
        a->setEnabled(c != SessionsModel::Name);
        if (c == SessionsModel::Gpu && !m_model->hasData(c))
            a->setToolTip(tr("Shown when a session has GPUs"));
        if (c == SessionsModel::Labels && !m_model->hasData(c))
            a->setToolTip(tr("Shown when a session has labels of yours"));
        connect(a, &QAction::toggled, this, [this, c](bool on) { setColumnShown(c, on); });
    }
    // popup(), not exec(): no nested event loop.
    menu->popup(m_view->horizontalHeader()->viewport()->mapToGlobal(pos));
}

void SessionsPane::repaintTickingColumns()
{
    if (!m_view->isVisible() || m_filter->rowCount() == 0)
        return;
    // Only the cells on screen are repainted (their text is computed at paint time), so a
    // second passes without dataChanged, re-sorting or re-filtering.
    for (int c : {int(SessionsModel::Uptime), int(SessionsModel::TtlLeft)}) {
        if (m_view->isColumnHidden(c))
            continue;
        const int x = m_view->columnViewportPosition(c);
        m_view->viewport()->update(QRect(x, 0, m_view->columnWidth(c), m_view->viewport()->height()));
    }
}

bool SessionsPane::eventFilter(QObject *watched, QEvent *event)
{
    // The user chooses rows: a selection still waiting for its rows no longer applies. (Not
    // on selectionChanged: sorting and listings change the selection model's ranges too.)
    if ((watched == m_view && event->type() == QEvent::KeyPress) ||
        (watched == m_view->viewport() && event->type() == QEvent::MouseButtonPress))
        m_pendingRefs.clear();
    if (event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (watched == m_search && key->key() == Qt::Key_Escape && !m_search->text().isEmpty()) {
            m_search->clear();
            return true;
        }
        if (watched == m_view && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)) {
            if (const auto s = currentSession()) {
                Q_EMIT activated(*s);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool SessionsPane::columnsChosen() const
{
    return m_fitter->chosen();
}

int SessionsPane::heightForRows(int rows) const
{
    const QMargins m = layout()->contentsMargins();
    const int spacing = qMax(0, layout()->spacing());
    return m.top() + m_search->sizeHint().height() + spacing + m_view->horizontalHeader()->sizeHint().height() +
           rows * m_view->verticalHeader()->defaultSectionSize() + 2 * m_view->frameWidth() + m.bottom();
}

void SessionsPane::saveState(QSettings &settings) const
{
    settings.setValue(kHeaderKey, m_view->horizontalHeader()->saveState());
    QStringList hidden;
    for (int c : m_userHidden)
        hidden << m_model->headerData(c, Qt::Horizontal, SessionsModel::ColumnKey).toString();
    hidden.sort();
    settings.setValue(kHiddenKey, hidden);
    QStringList refs;
    for (const auto &s : selectedSessions())
        refs << s.ref();
    settings.setValue(kSelectedKey, refs.isEmpty() ? m_pendingRefs : refs);
    settings.setValue(kColumnsChosenKey, m_fitter->chosen());
}

void SessionsPane::restoreState(const QSettings &settings)
{
    QHeaderView *header = m_view->horizontalHeader();
    const QByteArray state = settings.value(kHeaderKey).toByteArray();
    bool restored = false;
    m_fitter->withoutRecording([&] { restored = !state.isEmpty() && header->restoreState(state); });
    if (restored) {
        header->setStretchLastSection(false); // the fitter shares out the room
        m_view->sortByColumn(header->sortIndicatorSection(), header->sortIndicatorOrder());
    }
    if (settings.contains(kHiddenKey)) {
        const QStringList hidden = settings.value(kHiddenKey).toStringList();
        m_userHidden.clear();
        for (int c = 0; c < SessionsModel::ColumnCount; ++c) {
            if (hidden.contains(m_model->headerData(c, Qt::Horizontal, SessionsModel::ColumnKey).toString()))
                m_userHidden.insert(c);
        }
    }
    // Widths saved before the fitter existed were the person's.
    m_fitter->setChosen(settings.value(kColumnsChosenKey, restored).toBool());
    applyColumnVisibility();
    const QStringList refs = settings.value(kSelectedKey).toStringList();
    if (!refs.isEmpty()) {
        m_pendingRefs = refs;
        selectRefs(refs, true);
    }
}

} // namespace sandbar::ui
