// TerminalView: keyboard, mouse, wheel, clipboard, drag and drop.
#include "TerminalView.h"
#include "terminal/LinkDetector.h"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QInputMethodEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMimeData>
#include <QScrollBar>
#include <QStyleHints>

namespace sandbar {

namespace {
VTermModifier vtermMods(Qt::KeyboardModifiers m)
{
    int mod = VTERM_MOD_NONE;
    if (m & Qt::ShiftModifier)
        mod |= VTERM_MOD_SHIFT;
    if (m & Qt::AltModifier)
        mod |= VTERM_MOD_ALT;
    if (m & Qt::ControlModifier)
        mod |= VTERM_MOD_CTRL;
    return VTermModifier(mod);
}

int vtermButton(Qt::MouseButton b)
{
    switch (b) {
    case Qt::LeftButton: return 1;
    case Qt::MiddleButton: return 2;
    case Qt::RightButton: return 3;
    default: return 0;
    }
}
} // namespace

// ---- keyboard ---------------------------------------------------------------------------

bool TerminalView::event(QEvent *e)
{
    // Keys the terminal uses (Ctrl+W, Ctrl+T...) must reach it, not the window's shortcuts.
    if (e->type() == QEvent::ShortcutOverride) {
        auto *ke = static_cast<QKeyEvent *>(e);
#ifndef Q_OS_MACOS
        // Ctrl+Shift+letter belongs to the window (as in other terminal emulators), except the
        // terminal's own copy, paste and find; one no shortcut takes still reaches the shell
        // through keyPressEvent.
        const auto mods = ke->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier | Qt::AltModifier);
        if (mods == (Qt::ControlModifier | Qt::ShiftModifier) && ke->key() >= Qt::Key_A && ke->key() <= Qt::Key_Z &&
            ke->key() != Qt::Key_C && ke->key() != Qt::Key_V && ke->key() != Qt::Key_F)
            return QAbstractScrollArea::event(e);
#endif
        if (mapKey(ke->key(), ke->modifiers(), ke->text()).kind != KeyAction::Kind::None) {
            e->accept();
            return true;
        }
    }
    return QAbstractScrollArea::event(e);
}

bool TerminalView::focusNextPrevChild(bool)
{
    return false; // Tab belongs to the shell
}

void TerminalView::keyPressEvent(QKeyEvent *e)
{
    const KeyAction a = mapKey(e->key(), e->modifiers(), e->text());
    if (a.kind == KeyAction::Kind::None) {
        e->ignore();
        return;
    }
    applyKeyAction(a);
    e->accept();
}

void TerminalView::applyKeyAction(const KeyAction &a)
{
    if (!m_screen)
        return;
    using K = KeyAction::Kind;
    const int rows = m_screen->rows();
    switch (a.kind) {
    case K::None: return;
    case K::Copy: copy(); return;
    case K::Paste: paste(); return;
    case K::ZoomIn: zoomIn(); return;
    case K::ZoomOut: zoomOut(); return;
    case K::ZoomReset: zoomReset(); return;
    case K::Find: Q_EMIT findRequested(); return;
    case K::ScrollPageUp: scrollLines(-rows); return;
    case K::ScrollPageDown: scrollLines(rows); return;
    case K::ScrollTop: scrollLines(-topLine()); return;
    case K::ScrollBottom: scrollToBottom(); return;
    case K::Key: m_screen->sendKey(a.key, a.mod); break;
    case K::Char: m_screen->sendChar(a.codepoint, a.mod); break;
    case K::Text:
        for (char32_t c : a.text.toUcs4())
            m_screen->sendChar(uint32_t(c));
        break;
    case K::Raw: m_screen->sendRaw(a.raw); break;
    }
    // Typing shows the live screen and a steady cursor: the blink restarts its period.
    m_blinkOn = true;
    if (m_blinkTimer.isActive())
        m_blinkTimer.start();
    if (!isAtBottom())
        scrollToBottom();
}

void TerminalView::inputMethodEvent(QInputMethodEvent *e)
{
    if (!e->commitString().isEmpty() && m_screen) {
        KeyAction a;
        a.kind = KeyAction::Kind::Text;
        a.text = e->commitString();
        applyKeyAction(a);
    }
    e->accept();
}

QVariant TerminalView::inputMethodQuery(Qt::InputMethodQuery query) const
{
    if (query == Qt::ImCursorRectangle && m_screen) {
        const QSize c = cellSize();
        const QPoint cur = m_screen->cursorPos();
        const int row = m_screen->scrollbackSize() + cur.y() - topLine();
        return QRect(cur.x() * c.width(), row * c.height(), c.width(), c.height());
    }
    return QAbstractScrollArea::inputMethodQuery(query);
}

void TerminalView::focusInEvent(QFocusEvent *e)
{
    QAbstractScrollArea::focusInEvent(e);
    m_blinkOn = true;
    m_blinkTimer.start();
    repaintAll();
}

void TerminalView::focusOutEvent(QFocusEvent *e)
{
    QAbstractScrollArea::focusOutEvent(e);
    m_blinkTimer.stop();
    m_blinkOn = true;
    repaintAll();
}

// ---- clipboard --------------------------------------------------------------------------

void TerminalView::copy()
{
    const QString t = selectedText();
    if (!t.isEmpty())
        QGuiApplication::clipboard()->setText(t, QClipboard::Clipboard);
}

void TerminalView::paste()
{
    pasteText(QGuiApplication::clipboard()->text(QClipboard::Clipboard));
}

void TerminalView::pasteText(const QString &text)
{
    if (!m_screen || text.isEmpty())
        return;
    const bool multiLine = text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'));
    if (multiLine && !m_screen->bracketedPaste() && m_pasteConfirmer) {
        QPointer<TerminalView> self(this);
        m_pasteConfirmer(this, text, [self, text](bool ok) {
            if (ok && self && self->m_screen) {
                self->m_screen->paste(text);
                self->scrollToBottom();
            }
        });
        return;
    }
    m_screen->paste(text);
    scrollToBottom();
}

void TerminalView::setSelectionClipboard()
{
    const QString t = selectedText();
    if (t.isEmpty())
        return;
    QClipboard *cb = QGuiApplication::clipboard();
    if (cb->supportsSelection())
        cb->setText(t, QClipboard::Selection);
    if (m_copyOnSelect)
        cb->setText(t, QClipboard::Clipboard);
}

// ---- mouse ------------------------------------------------------------------------------

bool TerminalView::sendMouseToProgram(QMouseEvent *e, bool pressed, bool release)
{
    // Shift gives the mouse back to selection, as in xterm.
    if (!m_screen || m_screen->mouseMode() == MouseMode::None || (e->modifiers() & Qt::ShiftModifier))
        return false;
    const QPoint cell = cellAt(e->position().toPoint());
    const int row = cell.y() - m_screen->scrollbackSize();
    if (row < 0 || row >= m_screen->rows())
        return false;
    const VTermModifier mod = vtermMods(e->modifiers());
    m_screen->sendMouseMove(row, cell.x(), mod);
    if (pressed || release) {
        const int button = vtermButton(e->button());
        if (button)
            m_screen->sendMouseButton(button, pressed, mod);
    }
    return true;
}

void TerminalView::mousePressEvent(QMouseEvent *e)
{
    if (!m_screen)
        return;
    ++m_mouseButtonsDown;
    if (sendMouseToProgram(e, true, false))
        return;
    const QPoint cell = cellAt(e->position().toPoint());
    if (e->button() == Qt::LeftButton) {
        if (e->modifiers() & Qt::ControlModifier) {
            if (const auto url = urlAt(cell.y(), cell.x())) {
                if (m_urlOpener)
                    m_urlOpener(*url);
                return;
            }
        }
        const bool triple = m_lastDoubleClick.isValid() && cell == m_pressPos &&
                            m_lastDoubleClick.elapsed() < QGuiApplication::styleHints()->mouseDoubleClickInterval();
        m_clickMode = triple ? TerminalSelection::Mode::Line : TerminalSelection::Mode::Char;
        m_lastDoubleClick.invalidate();
        m_pressPos = cell;
        m_selection.start(*m_screen, stablePos(*m_screen, cell.y(), cell.x()), m_clickMode,
                          e->modifiers() & Qt::AltModifier);
        m_selecting = true;
        if (m_clickMode == TerminalSelection::Mode::Char)
            m_selection.clear(); // a plain click selects nothing until the pointer moves
        repaintAll();
    } else if (e->button() == Qt::MiddleButton) {
        QClipboard *cb = QGuiApplication::clipboard();
        if (cb->supportsSelection())
            pasteText(cb->text(QClipboard::Selection));
    }
}

void TerminalView::mouseDoubleClickEvent(QMouseEvent *e)
{
    if (!m_screen)
        return;
    ++m_mouseButtonsDown;
    if (sendMouseToProgram(e, true, false))
        return;
    if (e->button() != Qt::LeftButton)
        return;
    const QPoint cell = cellAt(e->position().toPoint());
    m_clickMode = TerminalSelection::Mode::Word;
    m_pressPos = cell;
    m_selection.start(*m_screen, stablePos(*m_screen, cell.y(), cell.x()), m_clickMode);
    m_selecting = true;
    m_lastDoubleClick.start();
    repaintAll();
}

void TerminalView::mouseMoveEvent(QMouseEvent *e)
{
    if (!m_screen)
        return;
    const MouseMode mode = m_screen->mouseMode();
    if (mode == MouseMode::Move || (mode == MouseMode::Drag && e->buttons() != Qt::NoButton)) {
        if (sendMouseToProgram(e, false, false))
            return;
    }
    const QPoint cell = cellAt(e->position().toPoint());
    if (m_selecting && (e->buttons() & Qt::LeftButton)) {
        if (m_selection.isEmpty()) {
            if (cell == m_pressPos)
                return;
            m_selection.start(*m_screen, stablePos(*m_screen, m_pressPos.y(), m_pressPos.x()), m_clickMode,
                              e->modifiers() & Qt::AltModifier);
        }
        // Dragging past the edges scrolls the history.
        if (e->position().y() < 0)
            scrollLines(-1);
        else if (e->position().y() > viewport()->height())
            scrollLines(1);
        m_selection.extend(*m_screen, stablePos(*m_screen, cell.y(), cell.x()));
        repaintAll();
        return;
    }
    // Ctrl+hover shows links as links.
    std::optional<std::pair<int, QPair<int, int>>> hover;
    if (e->modifiers() & Qt::ControlModifier) {
        QList<int> cols;
        const QString text = m_screen->lineText(cell.y(), &cols);
        for (const DetectedLink &l : detectLinks(text)) {
            const int from = cols.value(l.start);
            const int to = cols.value(l.start + l.length - 1) + 1;
            if (cell.x() >= from && cell.x() < to)
                hover = std::make_pair(cell.y(), qMakePair(from, to));
        }
    }
    if (hover != m_hoverLink) {
        m_hoverLink = hover;
        viewport()->setCursor(hover ? Qt::PointingHandCursor : Qt::IBeamCursor);
        repaintAll();
    }
}

void TerminalView::mouseReleaseEvent(QMouseEvent *e)
{
    m_mouseButtonsDown = qMax(0, m_mouseButtonsDown - 1);
    if (sendMouseToProgram(e, false, true))
        return;
    if (e->button() == Qt::LeftButton && m_selecting) {
        m_selecting = false;
        if (!m_selection.isEmpty())
            setSelectionClipboard();
    }
}

void TerminalView::wheelEvent(QWheelEvent *e)
{
    if (!m_screen)
        return;
    m_wheelRemainder += e->angleDelta().y();
    const int notches = m_wheelRemainder / 120;
    m_wheelRemainder %= 120;
    if (notches == 0) {
        e->accept();
        return;
    }
    const bool up = notches > 0;
    const int steps = qAbs(notches);
    if (m_screen->mouseMode() != MouseMode::None && !(e->modifiers() & Qt::ShiftModifier)) {
        const QPoint cell = cellAt(e->position().toPoint());
        const int row = qBound(0, cell.y() - m_screen->scrollbackSize(), m_screen->rows() - 1);
        const VTermModifier mod = vtermMods(e->modifiers());
        m_screen->sendMouseMove(row, cell.x(), mod);
        for (int i = 0; i < steps; ++i)
            m_screen->sendMouseButton(up ? 4 : 5, true, mod);
    } else if (m_screen->altScreen() && !(e->modifiers() & Qt::ShiftModifier)) {
        // Full-screen programs without mouse support (less, man) scroll with arrows.
        for (int i = 0; i < steps * 3; ++i)
            m_screen->sendKey(up ? VTERM_KEY_UP : VTERM_KEY_DOWN, VTERM_MOD_NONE);
    } else {
        scrollLines(up ? -3 * steps : 3 * steps);
    }
    e->accept();
}

void TerminalView::contextMenuEvent(QContextMenuEvent *e)
{
    if (!m_screen)
        return;
    if (m_screen->mouseMode() != MouseMode::None && !(e->modifiers() & Qt::ShiftModifier) &&
        e->reason() == QContextMenuEvent::Mouse)
        return; // the program has the right button
    auto *menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const QPoint cell = cellAt(viewport()->mapFrom(this, e->pos()));
    if (const auto url = urlAt(cell.y(), cell.x())) {
        const QUrl u = *url;
        menu->addAction(tr("Open Link"), this, [this, u] {
            if (m_urlOpener)
                m_urlOpener(u);
        });
        menu->addAction(tr("Copy Link Address"), this, [u] { QGuiApplication::clipboard()->setText(u.toString()); });
        menu->addSeparator();
    }
    QAction *copyAction = menu->addAction(tr("Copy"), this, &TerminalView::copy);
    copyAction->setEnabled(!m_selection.isEmpty());
    menu->addAction(tr("Paste"), this, &TerminalView::paste);
    menu->addSeparator();
    menu->addAction(tr("Select All"), this, &TerminalView::selectAll);
    menu->addAction(tr("Find…"), this, &TerminalView::findRequested);
    menu->addAction(tr("Clear Scrollback"), this, [this] {
        if (m_screen) {
            m_selection.clear();
            m_screen->clearScrollback();
        }
    });
    menu->popup(e->globalPos());
}

// ---- drag and drop ----------------------------------------------------------------------

namespace {
QStringList localPaths(const QMimeData *mime)
{
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    for (const QUrl &u : mime->urls()) {
        if (!u.isLocalFile())
            return {};
        out << u.toLocalFile();
    }
    return out;
}
} // namespace

void TerminalView::dragEnterEvent(QDragEnterEvent *e)
{
    if (!localPaths(e->mimeData()).isEmpty())
        e->acceptProposedAction();
    else
        e->ignore();
}

void TerminalView::dragMoveEvent(QDragMoveEvent *e)
{
    if (!localPaths(e->mimeData()).isEmpty())
        e->acceptProposedAction();
    else
        e->ignore();
}

void TerminalView::dropEvent(QDropEvent *e)
{
    const QStringList paths = localPaths(e->mimeData());
    if (paths.isEmpty()) {
        e->ignore();
        return;
    }
    e->acceptProposedAction();
    Q_EMIT filesDropped(paths);
}

} // namespace sandbar
