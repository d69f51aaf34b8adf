#pragma once

#include "terminal/CsiGuard.h"
#include "terminal/PtyChannel.h"
#include "terminal/Scrollback.h"
#include "terminal/TerminalCell.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QRect>
#include <QTimer>
#include <vterm.h>

namespace sandbar {

// The model of one terminal: libvterm's screen plus Sandbar's own scrollback.
//
// Lines are addressed in one space: 0 is the oldest scrollback line, scrollbackSize() is
// the top row of the visible screen, totalLines()-1 its bottom row. A line keeps its index
// while the screen scrolls (it moves from the screen into the scrollback at the same
// index); only dropping old lines shifts indices, which droppedLines() lets callers absorb.
//
// Input arrives through feed() and is parsed in slices of at most sliceBytes() per turn of
// the event loop, so a flood never starves the UI; each slice ends with one updated(). The
// screens of a thread take turns within a time budget a turn, a few queued bytes (a key's
// echo) before any flood's slice (SliceScheduler).
class TerminalScreen : public QObject
{
    Q_OBJECT
public:
    // libvterm 0.3.3 crashes writing a wide character into a one-column screen (fuzzer).
    static constexpr int MinCols = 2;

    explicit TerminalScreen(int cols = 80, int rows = 24, QObject *parent = nullptr);
    ~TerminalScreen() override;

    // --- input -------------------------------------------------------------------------
    // Queued, parsed in slices from the event loop; only a few bytes (at most
    // SliceScheduler::InteractiveBytes) with nothing queued are parsed at once.
    void feed(const QByteArray &bytes);
    void feedNow(const QByteArray &bytes); // parses everything now (tests, replay)
    void flushPending();                   // parses whatever feed() queued, now
    qsizetype pendingBytes() const { return m_pending.size() - m_pendingPos; }
    // Every byte parsed since this screen was made (a view tells a flood from typing by it).
    qint64 parsedBytes() const { return m_parsedBytes; }
    void setSliceBytes(int bytes) { m_sliceBytes = qMax(256, bytes); }
    int sliceBytes() const { return m_sliceBytes; }

    // Connects a channel: its output feeds this screen, keys and replies go back to it,
    // and resizes follow. The screen and scrollback stay when the channel goes away.
    void attach(PtyChannel *channel);
    PtyChannel *channel() const { return m_channel.data(); }

    // --- geometry and lines ------------------------------------------------------------
    void resize(int cols, int rows);
    int cols() const { return m_cols; }
    int rows() const { return m_rows; }
    int scrollbackSize() const { return m_scrollback.size(); }
    int totalLines() const { return m_scrollback.size() + m_rows; }
    qint64 droppedLines() const { return m_scrollback.droppedTotal(); }
    void setScrollbackLimit(int lines);
    int scrollbackLimit() const { return m_scrollback.limit(); }
    const Scrollback &scrollback() const { return m_scrollback; }
    void clearScrollback();

    Cell cell(int line, int col) const;
    // Exactly cols() cells of a line (scrollback lines padded with blanks).
    QList<Cell> lineCells(int line) const;
    // The line's text, trailing blanks removed; wide characters give one QChar run, their
    // covered cell nothing. colOfChar (optional) maps each QChar index to its cell.
    QString lineText(int line, QList<int> *colOfChar = nullptr) const;
    // True when the line continues on the next one because it wrapped at the last column.
    bool isWrapped(int line) const;
    // The visible screen as text, one line a row, trailing spaces trimmed.
    QString screenText() const;

    // --- state -------------------------------------------------------------------------
    QPoint cursorPos() const { return m_cursor; } // x = column, y = screen row
    bool cursorVisible() const { return m_cursorVisible; }
    bool cursorBlink() const { return m_cursorBlink; }
    CursorShape cursorShape() const { return m_cursorShape; }
    QString title() const { return m_title; }
    bool altScreen() const { return m_altScreen; }
    bool reverseVideo() const { return m_reverse; }
    MouseMode mouseMode() const { return m_mouseMode; }
    bool bracketedPaste() const { return m_csiGuard.bracketedPaste(); }
    // The 0xRRGGBB libvterm gives an indexed colour (its palette).
    uint32_t paletteRgb(int index) const;

    // --- output towards the program ---------------------------------------------------
    void sendKey(VTermKey key, VTermModifier mod = VTERM_MOD_NONE);
    void sendChar(uint32_t codepoint, VTermModifier mod = VTERM_MOD_NONE);
    // Sends text as typed; wraps it in the paste brackets when the program asked for them.
    void paste(const QString &text);
    void sendMouseMove(int row, int col, VTermModifier mod = VTERM_MOD_NONE);
    void sendMouseButton(int button, bool pressed, VTermModifier mod = VTERM_MOD_NONE);
    void sendRaw(const QByteArray &bytes);

Q_SIGNALS:
    // Once per parsed slice: the screen rectangle (x col, y row) that changed, and how many
    // lines moved into the scrollback meanwhile (then everything visible changed too).
    void updated(const QRect &damage, int linesScrolled);
    void titleChanged(const QString &title);
    void bell();
    void modesChanged(); // cursor shape/visibility/blink, alt screen, mouse, reverse video
    void sizeChanged(int cols, int rows);
    // Bytes for the program: encoded keys and replies to its queries.
    void output(const QByteArray &bytes);

private:
    static int cbDamage(VTermRect rect, void *user);
    static int cbMoveRect(VTermRect dest, VTermRect src, void *user);
    static int cbMoveCursor(VTermPos pos, VTermPos oldpos, int visible, void *user);
    static int cbSetTermProp(VTermProp prop, VTermValue *val, void *user);
    static int cbBell(void *user);
    static int cbResize(int rows, int cols, void *user);
    static int cbPushLine(int cols, const VTermScreenCell *cells, void *user);
    static int cbPopLine(int cols, VTermScreenCell *cells, void *user);
    static int cbClearScrollback(void *user);
    static void cbOutput(const char *s, size_t len, void *user);

    friend class SliceScheduler;
    void processSlice(qsizetype maxBytes = -1); // -1: sliceBytes()
    void setQueued(bool queued);                // waiting for its turn in the thread's SliceScheduler
    void parse(const char *data, qsizetype len);
    void clampCursor();
    void resetMargins();
    void repeatLastGlyph(long count, const QByteArray &glyph);
    void forgetTopContinuation();
    void emitUpdate();
    Cell fromVTerm(const VTermScreenCell &c) const;
    void toVTerm(const Cell &c, VTermScreenCell *out) const;
    void addDamage(const QRect &r);

    VTerm *m_vt = nullptr;
    VTermScreen *m_screen = nullptr;
    VTermState *m_state = nullptr;
    int m_cols;
    int m_rows;
    Scrollback m_scrollback;
    CsiGuard m_csiGuard;
    qint64 m_parsedBytes = 0;
    QPointer<PtyChannel> m_channel;

    const char *m_inputBegin = nullptr; // the bytes vterm_input_write is parsing now
    const char *m_inputEnd = nullptr;
    QByteArray m_pending;
    qsizetype m_pendingPos = 0;
    int m_sliceBytes = 64 * 1024;
    static constexpr qsizetype kPauseAbove = 1024 * 1024;
    static constexpr qsizetype kResumeBelow = 256 * 1024;
    bool m_readingPaused = false;
    bool m_queued = false;
    quint64 m_parsedAtOnceTick = ~quint64(0); // the scheduler's tick of feed()'s last parse

    QRect m_damage;
    int m_scrolled = 0;
    QPoint m_cursor;
    QPoint m_cursorShown; // where the last update left the cursor
    bool m_cursorVisible = true;
    bool m_cursorBlink = true;
    CursorShape m_cursorShape = CursorShape::Block;
    QByteArray m_titleBytes;
    QString m_title;
    bool m_altScreen = false;
    bool m_reverse = false;
    MouseMode m_mouseMode = MouseMode::None;
    VTermColor m_defaultFg{};
    VTermColor m_defaultBg{};
    std::vector<Cell> m_lineBuffer;
};

} // namespace sandbar
