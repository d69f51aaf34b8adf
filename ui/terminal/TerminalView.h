#pragma once

#include "KeyMapper.h"
#include "TerminalPainter.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalSearch.h"
#include "terminal/TerminalSelection.h"

#include <QAbstractScrollArea>
#include <QElapsedTimer>
#include <QPointer>
#include <QRegion>
#include <QTimer>
#include <QUrl>
#include <functional>
#include <optional>

namespace sandbar {

class DisconnectBanner;
class PtyChannel;

// Paints a TerminalScreen and turns keyboard, mouse and clipboard into terminal input.
// Repaints are coalesced to at most one per frame and skipped while hidden; only damaged
// rows are repainted. The screen (and its scrollback) is not owned and outlives channels:
// when a channel drops, a banner offers to reconnect and the content stays.
class TerminalView : public QAbstractScrollArea
{
    Q_OBJECT
public:
    // Asks whether to paste text of several lines into a program without bracketed paste;
    // calls `done(true)` to paste. Asynchronous so the default needs no nested event loop.
    using PasteConfirmer = std::function<void(QWidget *parent, const QString &text, std::function<void(bool)> done)>;
    using UrlOpener = std::function<void(const QUrl &url)>;

    explicit TerminalView(TerminalScreen *screen, QWidget *parent = nullptr);
    ~TerminalView() override;

    TerminalScreen *screen() const { return m_screen; }

    // Attaches a channel to the screen and watches it for the banner.
    void setChannel(PtyChannel *channel);
    bool isDisconnected() const;
    // The session itself ended or changed (stopped, paused, removed): the banner says so and
    // its button offers `action` (empty: no button). Shown even while a channel is attached.
    void showEndState(const QString &message, const QString &action);
    QString bannerMessage() const;

    void setTerminalFont(const QFont &font);
    QFont terminalFont() const { return m_baseFont; }
    void zoomIn();
    void zoomOut();
    void zoomReset();
    int zoomSteps() const { return m_zoom; }
    QSize cellSize() const { return m_painter.cellSize(); }
    void setColors(const TerminalColors &colors);
    const TerminalColors &colors() const { return m_painter.colors(); }

    void setCopyOnSelect(bool on) { m_copyOnSelect = on; }
    bool copyOnSelect() const { return m_copyOnSelect; }
    void setPasteConfirmer(PasteConfirmer fn) { m_pasteConfirmer = std::move(fn); }
    void setUrlOpener(UrlOpener fn) { m_urlOpener = std::move(fn); }
    // Frame interval for repaint coalescing (default 16 ms).
    void setFrameInterval(int ms) { m_frameMs = qMax(1, ms); }

    // Selection and clipboard.
    const TerminalSelection &selection() const { return m_selection; }
    QString selectedText() const;
    void copy();
    void paste();
    void pasteText(const QString &text);
    void selectAll();
    void clearSelection();

    // Search: selects and scrolls to the match; false when nothing matches.
    bool findNext(const QString &needle, Qt::CaseSensitivity cs = Qt::CaseInsensitive);
    bool findPrevious(const QString &needle, Qt::CaseSensitivity cs = Qt::CaseInsensitive);

    // Line index shown at the top of the viewport; at the bottom it follows the output.
    int topLine() const;
    bool isAtBottom() const;
    void scrollToBottom();
    void scrollLines(int delta);

    // The cell under a viewport point (x col, y line index).
    QPoint cellAt(const QPoint &viewportPos) const;
    std::optional<QUrl> urlAt(int line, int col) const;

    QSize sizeHint() const override;
    QVariant inputMethodQuery(Qt::InputMethodQuery query) const override;

Q_SIGNALS:
    void reconnectRequested();
    void filesDropped(const QStringList &localPaths);
    void findRequested();
    // After every paint (tests and the latency figure hook here).
    void painted();

protected:
    bool event(QEvent *e) override;
    void paintEvent(QPaintEvent *e) override;
    void resizeEvent(QResizeEvent *e) override;
    void showEvent(QShowEvent *e) override;
    void keyPressEvent(QKeyEvent *e) override;
    void inputMethodEvent(QInputMethodEvent *e) override;
    void mousePressEvent(QMouseEvent *e) override;
    void mouseMoveEvent(QMouseEvent *e) override;
    void mouseReleaseEvent(QMouseEvent *e) override;
    void mouseDoubleClickEvent(QMouseEvent *e) override;
    void wheelEvent(QWheelEvent *e) override;
    void contextMenuEvent(QContextMenuEvent *e) override;
    void dragEnterEvent(QDragEnterEvent *e) override;
    void dragMoveEvent(QDragMoveEvent *e) override;
    void dropEvent(QDropEvent *e) override;
    void focusInEvent(QFocusEvent *e) override;
    void focusOutEvent(QFocusEvent *e) override;
    bool focusNextPrevChild(bool next) override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void onScreenUpdated(const QRect &damage, int linesScrolled);
    void onChannelGone(const QString &message);
    void updateScrollBar();
    int syncedTopLine() const; // the top line updateScrollBar() sets
    void updateGeometryFromViewport();
    void applyFont();
    void scheduleRepaint(const QRegion &region);
    void flushRepaint();
    void repaintAll();
    void repaintLines(qint64 firstStable, qint64 lastStable);
    void applyKeyAction(const KeyAction &a);
    bool sendMouseToProgram(QMouseEvent *e, bool pressed, bool release);
    void setSelectionClipboard();
    void layoutBanner();
    void find(const QString &needle, Qt::CaseSensitivity cs, bool forward, bool *found);

    QPointer<TerminalScreen> m_screen;
    QPointer<PtyChannel> m_channel;
    TerminalPainter m_painter;
    QFont m_baseFont;
    int m_zoom = 0;

    TerminalSelection m_selection;
    TerminalSearch m_search;
    bool m_selecting = false;
    TerminalSelection::Mode m_clickMode = TerminalSelection::Mode::Char;
    QElapsedTimer m_lastDoubleClick;
    QPoint m_pressPos;
    int m_mouseButtonsDown = 0;
    std::optional<std::pair<int, QPair<int, int>>> m_hoverLink; // line, [from, to) columns

    bool m_copyOnSelect = false;
    PasteConfirmer m_pasteConfirmer;
    UrlOpener m_urlOpener;

    bool m_followOutput = true;
    qint64 m_lastDropped = 0;
    bool m_scrollBarDirty = false; // the screen scrolled since the scroll bar was set
    int m_wheelRemainder = 0;

    int m_frameMs = 16;
    QTimer m_frameTimer;
    QElapsedTimer m_lastPaint;
    qint64 m_parsedAtPaint = 0; // the screen's parsedBytes() at the last paint
    QRegion m_pendingRegion;
    bool m_dirtyWhileHidden = false;

    QTimer m_blinkTimer;
    bool m_blinkOn = true;
    QPoint m_lastCursorCell{-1, -1};

    DisconnectBanner *m_banner = nullptr;
};

} // namespace sandbar
