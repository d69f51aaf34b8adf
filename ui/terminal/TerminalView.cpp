#include "TerminalView.h"

#include "DisconnectBanner.h"
#include "terminal/LinkDetector.h"
#include "terminal/PtyChannel.h"

#include <QAbstractButton>
#include <QDesktopServices>
#include <QFontDatabase>
#include <QMessageBox>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>

namespace sandbar {

namespace {
void defaultPasteConfirmer(QWidget *parent, const QString &text, std::function<void(bool)> done)
{
    const auto lines = text.count(QLatin1Char('\n')) + (text.endsWith(QLatin1Char('\n')) ? 0 : 1);
    auto *box = new QMessageBox(QMessageBox::Warning, TerminalView::tr("Paste several lines?"),
                                TerminalView::tr("You are pasting %n line(s). The program in this terminal will "
                                                 "receive them as if typed, and each line may run as a command.",
                                                 nullptr, int(lines)),
                                QMessageBox::Yes | QMessageBox::Cancel, parent);
    box->setDetailedText(text.left(4000));
    box->setDefaultButton(QMessageBox::Cancel);
    box->button(QMessageBox::Yes)->setText(TerminalView::tr("Paste"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, box,
                     [done = std::move(done)](int result) { done(result == QMessageBox::Yes); });
    box->open(); // window-modal without a nested event loop
}
} // namespace

TerminalView::TerminalView(TerminalScreen *screen, QWidget *parent)
    : QAbstractScrollArea(parent)
    , m_screen(screen)
{
    Q_ASSERT(screen);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_InputMethodEnabled);
    setAcceptDrops(true);
    viewport()->setAutoFillBackground(false);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    viewport()->setCursor(Qt::IBeamCursor);
    viewport()->setMouseTracking(true);
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    m_pasteConfirmer = &defaultPasteConfirmer;
    m_urlOpener = [](const QUrl &url) { QDesktopServices::openUrl(url); };

    QFont f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    f.setStyleHint(QFont::TypeWriter);
    m_baseFont = f;
    m_painter.setFont(f);

    m_frameTimer.setSingleShot(true);
    connect(&m_frameTimer, &QTimer::timeout, this, &TerminalView::flushRepaint);
    m_blinkTimer.setInterval(530);
    connect(&m_blinkTimer, &QTimer::timeout, this, [this] {
        if (!m_screen || !m_screen->cursorBlink() || !hasFocus()) {
            if (!m_blinkOn) {
                m_blinkOn = true;
                repaintAll();
            }
            return;
        }
        m_blinkOn = !m_blinkOn;
        const QPoint c = m_screen->cursorPos();
        const int y = (m_screen->scrollbackSize() + c.y() - topLine()) * cellSize().height();
        scheduleRepaint(QRect(0, y, viewport()->width(), cellSize().height()));
    });

    connect(screen, &TerminalScreen::updated, this, &TerminalView::onScreenUpdated);
    connect(screen, &TerminalScreen::modesChanged, this, [this] { repaintAll(); });
    connect(screen, &QObject::destroyed, this, [this] { viewport()->update(); });
    m_lastDropped = screen->droppedLines();
    if (screen->channel())
        setChannel(screen->channel());
    updateScrollBar();
}

TerminalView::~TerminalView() = default;

// ---- channel ----------------------------------------------------------------------------

void TerminalView::setChannel(PtyChannel *channel)
{
    if (m_channel)
        m_channel->disconnect(this);
    m_channel = channel;
    if (m_banner)
        m_banner->hide();
    if (!m_screen)
        return;
    if (m_screen->channel() != channel)
        m_screen->attach(channel);
    if (!channel)
        return;
    connect(channel, &PtyChannel::finished, this,
            [this](int code) { onChannelGone(tr("The session ended (exit code %1).").arg(code)); });
    connect(channel, &PtyChannel::errorOccurred, this, [this](const Error &error) {
        onChannelGone(tr("The connection to the session was lost: %1").arg(error.message));
    });
    connect(channel, &QObject::destroyed, this, [this] {
        if (!isDisconnected())
            onChannelGone(tr("The connection to the session was closed."));
    });
}

bool TerminalView::isDisconnected() const
{
    return m_banner && !m_banner->isHidden();
}

void TerminalView::onChannelGone(const QString &message)
{
    showEndState(message, tr("Reconnect"));
}

QString TerminalView::bannerMessage() const
{
    return m_banner && !m_banner->isHidden() ? m_banner->message() : QString();
}

void TerminalView::showEndState(const QString &message, const QString &action)
{
    if (!m_banner) {
        m_banner = new DisconnectBanner(this);
        connect(m_banner, &DisconnectBanner::reconnectClicked, this, &TerminalView::reconnectRequested);
    }
    m_banner->setMessage(message);
    m_banner->setAction(action);
    m_banner->show();
    m_banner->raise();
    layoutBanner();
}

void TerminalView::layoutBanner()
{
    if (!m_banner)
        return;
    const QRect vp = viewport()->geometry();
    m_banner->setGeometry(vp.left(), vp.top(), vp.width(), m_banner->sizeHint().height());
}

// ---- fonts and geometry -----------------------------------------------------------------

void TerminalView::setTerminalFont(const QFont &font)
{
    m_baseFont = font;
    m_zoom = 0;
    applyFont();
}

void TerminalView::zoomIn()
{
    if (m_zoom < 40) {
        ++m_zoom;
        applyFont();
    }
}

void TerminalView::zoomOut()
{
    const qreal base = m_baseFont.pointSizeF() > 0 ? m_baseFont.pointSizeF() : 10;
    if (base + m_zoom - 1 >= 4) {
        --m_zoom;
        applyFont();
    }
}

void TerminalView::zoomReset()
{
    m_zoom = 0;
    applyFont();
}

void TerminalView::applyFont()
{
    QFont f = m_baseFont;
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() + m_zoom);
    else if (f.pixelSize() > 0)
        f.setPixelSize(f.pixelSize() + m_zoom);
    m_painter.setFont(f);
    verticalScrollBar()->setSingleStep(1);
    updateGeometryFromViewport();
    updateGeometry();
    repaintAll();
}

void TerminalView::setColors(const TerminalColors &colors)
{
    m_painter.setColors(colors);
    repaintAll();
}

QSize TerminalView::sizeHint() const
{
    const QSize c = m_painter.cellSize();
    return QSize(c.width() * 80 + verticalScrollBar()->sizeHint().width(), c.height() * 24);
}

void TerminalView::resizeEvent(QResizeEvent *e)
{
    QAbstractScrollArea::resizeEvent(e);
    updateGeometryFromViewport();
    layoutBanner();
}

void TerminalView::updateGeometryFromViewport()
{
    // Only a laid-out, visible view sizes the screen: a view made for an existing session
    // (a tab opened again) must not squeeze its content into the default widget size first.
    if (!m_screen || !isVisible())
        return;
    const QSize c = m_painter.cellSize();
    const int cols = qMax(2, viewport()->width() / c.width());
    const int rows = qMax(1, viewport()->height() / c.height());
    m_screen->resize(cols, rows);
    updateScrollBar();
    repaintAll();
}

// ---- scrolling --------------------------------------------------------------------------

int TerminalView::topLine() const
{
    // While the scroll bar waits for the next frame: the line it will show.
    return m_scrollBarDirty && m_screen ? syncedTopLine() : verticalScrollBar()->value();
}

bool TerminalView::isAtBottom() const
{
    if (m_scrollBarDirty && m_screen)
        return syncedTopLine() >= m_screen->scrollbackSize();
    return verticalScrollBar()->value() >= verticalScrollBar()->maximum();
}

void TerminalView::scrollToBottom()
{
    m_followOutput = true;
    if (m_scrollBarDirty)
        updateScrollBar();
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

void TerminalView::scrollLines(int delta)
{
    if (m_scrollBarDirty)
        updateScrollBar();
    verticalScrollBar()->setValue(verticalScrollBar()->value() + delta);
}

void TerminalView::scrollContentsBy(int, int)
{
    m_followOutput = isAtBottom();
    repaintAll();
}

void TerminalView::updateScrollBar()
{
    if (!m_screen)
        return;
    QScrollBar *bar = verticalScrollBar();
    const int top = syncedTopLine();
    m_scrollBarDirty = false;
    m_lastDropped = m_screen->droppedLines();
    const QSignalBlocker block(bar);
    bar->setRange(0, m_screen->scrollbackSize());
    bar->setPageStep(m_screen->rows());
    bar->setValue(top);
}

int TerminalView::syncedTopLine() const
{
    // Viewing history keeps the same lines in view while output continues below.
    const qint64 dropped = m_screen->droppedLines() - m_lastDropped;
    const int value = verticalScrollBar()->value();
    return m_followOutput ? m_screen->scrollbackSize()
                          : int(qBound<qint64>(0, value - dropped, qint64(m_screen->scrollbackSize())));
}

void TerminalView::onScreenUpdated(const QRect &damage, int linesScrolled)
{
    if (linesScrolled > 0 || m_screen->droppedLines() != m_lastDropped ||
        verticalScrollBar()->maximum() != m_screen->scrollbackSize()) {
        // The scroll bar follows with the next frame, not with every slice of a flood: each
        // change repaints it (and flushes the window) outside the frame pacing.
        m_scrollBarDirty = true;
        repaintAll();
        return;
    }
    if (damage.isNull())
        return;
    // Screen rows map to viewport rows by their line index; whole rows are repainted so wide
    // glyphs and italic overhang are never cut.
    const int ch = cellSize().height();
    const int firstLine = m_screen->scrollbackSize() + damage.top();
    const int y = (firstLine - topLine()) * ch;
    const QRect r(0, y, viewport()->width(), damage.height() * ch);
    if (r.intersects(viewport()->rect()))
        scheduleRepaint(r);
}

// ---- repaint coalescing -----------------------------------------------------------------

void TerminalView::repaintAll()
{
    scheduleRepaint(viewport()->rect());
}

void TerminalView::repaintLines(qint64 firstStable, qint64 lastStable)
{
    if (!m_screen)
        return;
    const int ch = cellSize().height();
    const int first = lineIndex(*m_screen, firstStable) - topLine();
    const int last = lineIndex(*m_screen, lastStable) - topLine();
    scheduleRepaint(QRect(0, first * ch, viewport()->width(), (last - first + 1) * ch));
}

void TerminalView::scheduleRepaint(const QRegion &region)
{
    m_pendingRegion += region;
    if (!isVisible()) {
        m_dirtyWhileHidden = true;
        return;
    }
    if (m_frameTimer.isActive())
        return;
    // During a flood (a backlog, or more output since the last frame than a person reads),
    // frames it would overwrite at once are wasted work, for us and for the display server:
    // paint at a quarter of the rate until it calms down. Typing is neither, so its latency
    // is untouched.
    constexpr qint64 kFloodBytesPerFrame = 64 * 1024;
    const bool flood = m_screen->pendingBytes() > 0 || m_screen->parsedBytes() - m_parsedAtPaint > kFloodBytesPerFrame;
    const qint64 frame = flood ? 4 * m_frameMs : m_frameMs;
    const qint64 since = m_lastPaint.isValid() ? m_lastPaint.elapsed() : frame;
    if (since >= frame)
        flushRepaint(); // idle: paint at once (typing latency), the next frame waits
    else
        m_frameTimer.start(int(frame - since));
}

void TerminalView::flushRepaint()
{
    if (m_pendingRegion.isEmpty())
        return;
    if (!isVisible()) {
        m_dirtyWhileHidden = true;
        return;
    }
    if (m_scrollBarDirty)
        updateScrollBar();
    viewport()->update(m_pendingRegion);
    m_pendingRegion = QRegion();
}

void TerminalView::showEvent(QShowEvent *e)
{
    QAbstractScrollArea::showEvent(e);
    updateGeometryFromViewport();
    if (m_dirtyWhileHidden) {
        m_dirtyWhileHidden = false;
        updateScrollBar();
        repaintAll();
    }
}

void TerminalView::paintEvent(QPaintEvent *e)
{
    if (m_scrollBarDirty)
        updateScrollBar(); // painted for another reason (an expose) before the frame came
    QPainter p(viewport());
    const QRect r = e->rect();
    p.fillRect(r, m_painter.colors().background);
    if (!m_screen)
        return;
    const QSize c = m_painter.cellSize();
    const int top = topLine();
    const int total = m_screen->totalLines();
    const int cols = m_screen->cols();
    const int firstRow = qMax(0, r.top() / c.height());
    const int lastRow = r.bottom() / c.height();
    const int colFrom = qMax(0, r.left() / c.width());
    const int colTo = qMin(cols, r.right() / c.width() + 1);
    const qint64 dropped = m_screen->droppedLines();
    for (int row = firstRow; row <= lastRow; ++row) {
        const int line = top + row;
        if (line >= total)
            break;
        const QList<Cell> cells = m_screen->lineCells(line);
        const qint64 stable = dropped + line;
        std::function<bool(int)> selected;
        if (!m_selection.isEmpty() && stable >= m_selection.begin().line && stable <= m_selection.end().line)
            selected = [this, stable](int col) { return m_selection.contains(TermPos{stable, col}); };
        std::function<bool(int)> link;
        if (m_hoverLink && m_hoverLink->first == line) {
            const auto range = m_hoverLink->second;
            link = [range](int col) { return col >= range.first && col < range.second; };
        }
        m_painter.paintRow(p, row * c.height(), cells, colFrom, colTo, selected, link);
    }
    // The cursor belongs to the live screen; it is not drawn while history is in view above it.
    const QPoint cur = m_screen->cursorPos();
    const int cursorRow = m_screen->scrollbackSize() + cur.y() - top;
    const bool blinkHidden = m_screen->cursorBlink() && hasFocus() && !m_blinkOn;
    if (m_screen->cursorVisible() && !blinkHidden && cursorRow >= 0 && cursorRow * c.height() < viewport()->height()) {
        const Cell cell = m_screen->cell(m_screen->scrollbackSize() + cur.y(), cur.x());
        m_painter.paintCursor(p, cur.x() * c.width(), cursorRow * c.height(), cell, m_screen->cursorShape(),
                              hasFocus());
    }
    m_lastPaint.restart();
    m_parsedAtPaint = m_screen ? m_screen->parsedBytes() : 0;
    Q_EMIT painted();
}

// ---- selection, search, links -----------------------------------------------------------

QString TerminalView::selectedText() const
{
    return m_screen ? m_selection.text(*m_screen) : QString();
}

void TerminalView::selectAll()
{
    if (!m_screen)
        return;
    m_selection.selectAll(*m_screen);
    setSelectionClipboard();
    repaintAll();
}

void TerminalView::clearSelection()
{
    m_selection.clear();
    repaintAll();
}

void TerminalView::find(const QString &needle, Qt::CaseSensitivity cs, bool forward, bool *found)
{
    *found = false;
    if (!m_screen)
        return;
    m_search.setNeedle(needle, cs);
    const auto m = forward ? m_search.next(*m_screen) : m_search.previous(*m_screen);
    if (!m)
        return;
    *found = true;
    m_selection.start(*m_screen, m->start, TerminalSelection::Mode::Char);
    m_selection.extend(*m_screen, m->last);
    const int line = lineIndex(*m_screen, m->start.line);
    const int rows = m_screen->rows();
    if (line < topLine() || line >= topLine() + rows)
        scrollLines(qMax(0, line - rows / 2) - topLine());
    m_followOutput = isAtBottom();
    repaintAll();
}

bool TerminalView::findNext(const QString &needle, Qt::CaseSensitivity cs)
{
    bool found = false;
    find(needle, cs, true, &found);
    return found;
}

bool TerminalView::findPrevious(const QString &needle, Qt::CaseSensitivity cs)
{
    bool found = false;
    find(needle, cs, false, &found);
    return found;
}

QPoint TerminalView::cellAt(const QPoint &pos) const
{
    const QSize c = m_painter.cellSize();
    const int cols = m_screen ? m_screen->cols() : 1;
    const int col = qBound(0, pos.x() / c.width(), cols - 1);
    const int row = pos.y() < 0 ? -1 - (-pos.y() / c.height()) : pos.y() / c.height();
    return QPoint(col, topLine() + row);
}

std::optional<QUrl> TerminalView::urlAt(int line, int col) const
{
    if (!m_screen || line < 0 || line >= m_screen->totalLines())
        return std::nullopt;
    QList<int> cols;
    const QString text = m_screen->lineText(line, &cols);
    for (const DetectedLink &l : detectLinks(text)) {
        const int from = cols.value(l.start);
        const int to = cols.value(l.start + l.length - 1);
        if (col >= from && col <= to)
            return l.url;
    }
    return std::nullopt;
}

} // namespace sandbar
