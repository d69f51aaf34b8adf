#include "sessions/ColumnFitter.h"

#include <QEvent>
#include <QHeaderView>
#include <QTableView>

namespace sandbar::ui {

ColumnFitter::ColumnFitter(QTableView *view, int growColumn, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_grow(growColumn)
{
    QHeaderView *header = view->horizontalHeader();
    // Fitting decides who gets the room; a stretched last column would take it first.
    header->setStretchLastSection(false);
    connect(header, &QHeaderView::sectionResized, this, &ColumnFitter::columnResized);
    header->viewport()->installEventFilter(this);
    view->viewport()->installEventFilter(this);
}

void ColumnFitter::setChosen(bool chosen)
{
    m_chosen = chosen;
    fit();
}

bool ColumnFitter::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->horizontalHeader()->viewport()) {
        if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::MouseButtonDblClick)
            m_pressed = true;
        else if (event->type() == QEvent::MouseButtonRelease)
            m_pressed = false;
    } else if (watched == m_view->viewport() && event->type() == QEvent::Resize) {
        fit();
    }
    return QObject::eventFilter(watched, event);
}

void ColumnFitter::columnResized(int column, int, int newSize)
{
    if (m_quiet)
        return;
    if (m_pressed) {
        m_chosen = true;
        return;
    }
    if (newSize > 0)
        m_preferred.insert(column, newSize);
}

int ColumnFitter::minimumWidth(int column) const
{
    const QHeaderView *header = m_view->horizontalHeader();
    const QString title = m_view->model() ? m_view->model()->headerData(column, Qt::Horizontal).toString() : QString();
    return qMax(header->minimumSectionSize(), header->fontMetrics().horizontalAdvance(title) + 24);
}

void ColumnFitter::fit()
{
    QHeaderView *header = m_view->horizontalHeader();
    const int room = m_view->viewport()->width();
    if (m_chosen || !m_view->isVisible() || room <= 0)
        return;
    QList<int> shown;
    qint64 wanted = 0;
    for (int c = 0; c < header->count(); ++c) {
        if (header->isSectionHidden(c))
            continue;
        shown << c;
        wanted += m_preferred.value(c, header->defaultSectionSize());
    }
    if (shown.isEmpty())
        return;
    QHash<int, int> width;
    int used = 0;
    for (int c : shown) {
        const int preferred = m_preferred.value(c, header->defaultSectionSize());
        const int w =
            wanted > room ? qMax(qMin(preferred, minimumWidth(c)), int(preferred * room / wanted)) : preferred;
        width.insert(c, w);
        used += w;
    }
    const int grow = shown.contains(m_grow) ? m_grow : shown.first();
    width[grow] = qMax(minimumWidth(grow), width.value(grow) + room - used);
    m_quiet = true;
    for (int c : shown)
        header->resizeSection(c, width.value(c));
    m_quiet = false;
}

} // namespace sandbar::ui
