#include "terminal/TerminalScreen.h"

#include "terminal/PtyChannel.h"
#include "terminal/SliceScheduler.h"

#include <algorithm>
#include <cstring>

namespace sandbar {

namespace {
constexpr uint32_t WideTailChar = 0xFFFFFFFFu;

TermColor toTermColor(const VTermColor &c, bool isFg)
{
    if (isFg ? VTERM_COLOR_IS_DEFAULT_FG(&c) : VTERM_COLOR_IS_DEFAULT_BG(&c))
        return TermColor::defaultColor();
    if (VTERM_COLOR_IS_INDEXED(&c))
        return TermColor::indexed(c.indexed.idx);
    return TermColor::rgb(c.rgb.red, c.rgb.green, c.rgb.blue);
}

// A cell that converts to a blank one with default attributes (what Scrollback::push trims).
bool isPlainBlank(const VTermScreenCell &c)
{
    const VTermScreenCellAttrs &a = c.attrs;
    return (c.chars[0] == 0 || c.chars[0] == ' ') && c.width != 2 && !a.bold && !a.italic && !a.blink && !a.reverse &&
           !a.strike && !a.conceal && a.underline == 0 && VTERM_COLOR_IS_DEFAULT_FG(&c.fg) &&
           VTERM_COLOR_IS_DEFAULT_BG(&c.bg);
}
} // namespace

TerminalScreen::TerminalScreen(int cols, int rows, QObject *parent)
    : QObject(parent)
    , m_cols(std::clamp(cols, MinCols, 4096))
    , m_rows(std::clamp(rows, 1, 4096))
{
    m_vt = vterm_new(m_rows, m_cols);
    vterm_set_utf8(m_vt, 1);
    vterm_output_set_callback(m_vt, &TerminalScreen::cbOutput, this);
    m_state = vterm_obtain_state(m_vt);
    m_screen = vterm_obtain_screen(m_vt);

    static const VTermScreenCallbacks callbacks = [] {
        VTermScreenCallbacks cb{};
        cb.damage = &TerminalScreen::cbDamage;
        cb.moverect = &TerminalScreen::cbMoveRect;
        cb.movecursor = &TerminalScreen::cbMoveCursor;
        cb.settermprop = &TerminalScreen::cbSetTermProp;
        cb.bell = &TerminalScreen::cbBell;
        cb.resize = &TerminalScreen::cbResize;
        cb.sb_pushline = &TerminalScreen::cbPushLine;
        cb.sb_popline = &TerminalScreen::cbPopLine;
        cb.sb_clear = &TerminalScreen::cbClearScrollback;
        return cb;
    }();
    vterm_screen_set_callbacks(m_screen, &callbacks, this);
    vterm_screen_enable_altscreen(m_screen, 1);
    vterm_screen_enable_reflow(m_screen, true);
    // Damage is merged into one rectangle until the slice ends and flush_damage is called.
    vterm_screen_set_damage_merge(m_screen, VTERM_DAMAGE_SCROLL);
    vterm_screen_reset(m_screen, 1);
    // libvterm 0.3.3 loops forever on REP (CSI b) before any character was printed (found by
    // the fuzzer): a program could hang the UI with three bytes. Printing one space and
    // erasing it gives REP a character to repeat; the screen stays blank.
    static const char prime[] = " \x1b[H\x1b[2J";
    vterm_input_write(m_vt, prime, sizeof prime - 1);
    vterm_screen_flush_damage(m_screen);
    m_damage = QRect();
    vterm_state_get_default_colors(m_state, &m_defaultFg, &m_defaultBg);
}

TerminalScreen::~TerminalScreen()
{
    setQueued(false);
    SliceScheduler::forCurrentThread()->forgetEcho(this);
    vterm_free(m_vt);
}

// ---- input ------------------------------------------------------------------------------

void TerminalScreen::feed(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    // A few bytes with nothing queued are most likely a key's echo: parsed now, they need
    // not wait for the floods' turns. Once between two ticks, so that a burst of small
    // messages (a WebSocket's frames) still goes through slices; never inside this screen's
    // own parse (a reply to the program can come back synchronously from a loopback channel).
    SliceScheduler *scheduler = SliceScheduler::forCurrentThread();
    if (!m_queued && m_inputBegin == nullptr && bytes.size() <= SliceScheduler::InteractiveBytes &&
        m_parsedAtOnceTick != scheduler->ticks()) {
        m_parsedAtOnceTick = scheduler->ticks();
        parse(bytes.constData(), bytes.size());
        emitUpdate();
        return;
    }
    if (m_pendingPos > 0 && m_pendingPos >= m_pending.size() / 2) {
        m_pending.remove(0, m_pendingPos);
        m_pendingPos = 0;
    }
    m_pending.append(bytes);
    setQueued(true);
    // Back-pressure: never buffer more than a few slices ahead of the parser.
    if (m_channel && !m_readingPaused && pendingBytes() > kPauseAbove) {
        m_readingPaused = true;
        m_channel->setReadingPaused(true);
    }
    // Last: a delivery it makes may end in a slot that deletes this screen.
    scheduler->pullEchoes();
}

void TerminalScreen::feedNow(const QByteArray &bytes)
{
    flushPending();
    parse(bytes.constData(), bytes.size());
    emitUpdate();
}

void TerminalScreen::setQueued(bool queued)
{
    if (m_queued == queued)
        return;
    m_queued = queued;
    if (queued)
        SliceScheduler::forCurrentThread()->add(this);
    else
        SliceScheduler::forCurrentThread()->remove(this);
}

void TerminalScreen::flushPending()
{
    setQueued(false);
    if (pendingBytes() > 0) {
        parse(m_pending.constData() + m_pendingPos, pendingBytes());
        m_pending.clear();
        m_pendingPos = 0;
        emitUpdate();
    }
}

void TerminalScreen::processSlice(qsizetype maxBytes)
{
    const qsizetype n = std::min<qsizetype>(pendingBytes(), maxBytes < 0 ? m_sliceBytes : maxBytes);
    if (n > 0) {
        parse(m_pending.constData() + m_pendingPos, n);
        m_pendingPos += n;
    }
    if (m_pendingPos >= m_pending.size()) {
        m_pending.clear();
        m_pendingPos = 0;
        setQueued(false);
    }
    if (m_readingPaused && pendingBytes() < kResumeBelow) {
        m_readingPaused = false;
        if (m_channel)
            m_channel->setReadingPaused(false);
    }
    emitUpdate();
}

void TerminalScreen::parse(const char *data, qsizetype len)
{
    if (len <= 0)
        return;
    m_parsedBytes += len;
    QByteArray guarded;
    CsiGuard::Events events;
    if (m_csiGuard.filter(data, len, &guarded, &events)) {
        data = guarded.constData();
        len = guarded.size();
    }
    m_inputBegin = data;
    m_inputEnd = data + len;
    // Feed up to each point where Sandbar acts between the program's sequences, in order: a
    // cursor restore to clamp, a REP to do safely.
    struct Point {
        qsizetype at;
        bool restore; // else a repeat
        long count;
        QByteArray glyph;
    };
    QVarLengthArray<Point, 8> points;
    for (const qsizetype at : events.restores)
        points.append({at, true, 0, {}});
    for (const auto &r : events.repeats)
        points.append({r.at, false, r.count, r.glyph});
    std::stable_sort(points.begin(), points.end(), [](const Point &a, const Point &b) { return a.at < b.at; });
    qsizetype from = 0;
    for (const Point &p : points) {
        vterm_input_write(m_vt, data + from, size_t(p.at - from));
        from = p.at;
        if (p.restore)
            clampCursor();
        else
            repeatLastGlyph(p.count, p.glyph);
    }
    vterm_input_write(m_vt, data + from, size_t(len - from));
    m_inputBegin = m_inputEnd = nullptr;
}

void TerminalScreen::repeatLastGlyph(long count, const QByteArray &glyph)
{
    // REP as xterm does it, by writing the glyph again; never libvterm's own (see CsiGuard).
    // Bounded by a screenful: a program cannot make one REP cost more than that.
    if (glyph.isEmpty())
        return;
    const long n = std::min<long>(std::max(count, 1L), long(m_cols) * m_rows);
    const QByteArray bytes = glyph.repeated(qsizetype(n));
    vterm_input_write(m_vt, bytes.constData(), size_t(bytes.size()));
}

void TerminalScreen::forgetTopContinuation()
{
    // A wrapped line whose start scrolled into the scrollback leaves row 0 marked as a
    // continuation, and libvterm 0.3.3's reflow then reads the row before its buffer
    // (row -1; an instrumented libvterm under the fuzzer). The mark is of no use there:
    // the scrollback keeps its own. The line info is libvterm's heap array, not const data.
    if (auto *top = const_cast<VTermLineInfo *>(vterm_state_get_lineinfo(m_state, 0)))
        top->continuation = 0;
}

void TerminalScreen::resetMargins()
{
    VTermPos at;
    vterm_state_get_cursorpos(m_state, &at);
    const QByteArray reset =
        "\x1b[r\x1b[" + QByteArray::number(at.row + 1) + ';' + QByteArray::number(at.col + 1) + 'H';
    vterm_input_write(m_vt, reset.constData(), size_t(reset.size()));
}

void TerminalScreen::clampCursor()
{
    VTermPos pos;
    vterm_state_get_cursorpos(m_state, &pos);
    int rows = 0, cols = 0;
    vterm_get_size(m_vt, &rows, &cols);
    if (pos.row >= 0 && pos.row < rows && pos.col >= 0 && pos.col < cols)
        return;
    // Every CSI libvterm knows ends by clamping the cursor to the screen (or to the margins
    // in origin mode); DECSET 0 is a mode that does not exist, so it changes nothing else.
    static const char clamp[] = "\x1b[?0h";
    vterm_input_write(m_vt, clamp, sizeof clamp - 1);
}

void TerminalScreen::emitUpdate()
{
    vterm_screen_flush_damage(m_screen);
    if (m_cursor != m_cursorShown) {
        addDamage(QRect(m_cursorShown, QSize(1, 1)));
        addDamage(QRect(m_cursor, QSize(1, 1)));
        m_cursorShown = m_cursor;
    }
    if (m_damage.isNull() && m_scrolled == 0)
        return;
    const QRect damage = m_damage;
    const int scrolled = m_scrolled;
    m_damage = QRect();
    m_scrolled = 0;
    Q_EMIT updated(damage, scrolled);
}

void TerminalScreen::addDamage(const QRect &r)
{
    m_damage = m_damage.isNull() ? r : m_damage.united(r);
}

void TerminalScreen::attach(PtyChannel *channel)
{
    if (m_channel) {
        m_channel->disconnect(this);
        if (m_readingPaused)
            m_channel->setReadingPaused(false);
    }
    m_readingPaused = false;
    m_channel = channel;
    if (!channel)
        return;
    connect(channel, &PtyChannel::dataReceived, this, &TerminalScreen::feed);
    if (channel->isOpen())
        channel->resize(m_cols, m_rows);
    connect(channel, &PtyChannel::started, this, [this] {
        if (m_channel)
            m_channel->resize(m_cols, m_rows);
    });
}

// ---- geometry and lines -----------------------------------------------------------------

void TerminalScreen::resize(int cols, int rows)
{
    cols = std::clamp(cols, MinCols, 4096);
    rows = std::clamp(rows, 1, 4096);
    if (cols == m_cols && rows == m_rows)
        return;
    // Bytes already queued belong to the old size.
    flushPending();
    // libvterm 0.3.3 aborts in reflow when the cursor sits in a line that wrapped (found by
    // the fuzzer; cursor on the last row of a wrapped line that no longer fits). With the
    // cursor on a line of its own, reflow was never seen to fail in 6,000 random cases, so
    // only the rare other case is resized without reflow (lines are cut, not rewrapped).
    // Ask libvterm for its own size: the cursor may sit outside what m_rows says (fuzzer: a
    // heap overflow reading the line after the cursor).
    int vtRows = 0, vtCols = 0;
    vterm_get_size(m_vt, &vtRows, &vtCols);
    const auto cursor = [this] {
        VTermPos p;
        vterm_state_get_cursorpos(m_state, &p);
        return p;
    };
    VTermPos cur = cursor();
    // libvterm 0.3.3 can leave its cursor outside the screen after tiny screens (fuzzer: row 4
    // of a 1-row screen, column -1), and its resize aborts when the cursor maps to no cell.
    // Put it back inside first, with margins reset so that the move is absolute.
    if ((cur.row < 0 || cur.row >= vtRows || cur.col < 0 || cur.col >= vtCols) && m_csiGuard.inGround()) {
        const QByteArray home = "\x1b[r\x1b[" + QByteArray::number(std::clamp(cur.row, 0, vtRows - 1) + 1) + ';' +
                                QByteArray::number(std::clamp(cur.col, 0, vtCols - 1) + 1) + 'H';
        vterm_input_write(m_vt, home.constData(), size_t(home.size()));
        cur = cursor();
    }
    const bool inside = cur.row >= 0 && cur.row < vtRows;
    const VTermLineInfo *here = inside ? vterm_state_get_lineinfo(m_state, cur.row) : nullptr;
    const VTermLineInfo *next =
        inside && cur.row + 1 < vtRows ? vterm_state_get_lineinfo(m_state, cur.row + 1) : nullptr;
    forgetTopContinuation();
    // Nor while the alternate screen is up: its reflow aborted on a shrink (instrumented
    // fuzzing), and full-screen programs redraw on SIGWINCH anyway (xterm does not reflow the
    // alternate screen either). The price: the main screen's lines are cut, not rewrapped,
    // by a resize made while such a program runs.
    const bool reflowSafe = inside && !(here && here->continuation) && !(next && next->continuation) && !m_altScreen;
    if (!reflowSafe)
        vterm_screen_enable_reflow(m_screen, false);
    vterm_set_size(m_vt, rows, cols);
    if (!reflowSafe)
        vterm_screen_enable_reflow(m_screen, true);
    // Scroll margins do not survive a resize (as in xterm): libvterm 0.3.3 keeps a top margin
    // below a shrunken screen and then moves memory with a negative size (fuzzer). Resetting
    // them homes the cursor, so it is put back where the resize left it.
    // A chunk can end inside a sequence: then the sequence is cancelled (CAN), the margins
    // reset, and the sequence's bytes so far written again, so the program's sequence goes on
    // as if nothing happened (a string too long to keep, a title say, is lost instead).
    if (!m_csiGuard.inGround()) {
        const QByteArray open = m_csiGuard.openSequence();
        vterm_input_write(m_vt, "\x18", 1);
        resetMargins();
        if (open.isEmpty())
            m_csiGuard.abandonOpen();
        else
            vterm_input_write(m_vt, open.constData(), size_t(open.size()));
    } else {
        resetMargins();
    }
    m_cols = cols;
    m_rows = rows;
    addDamage(QRect(0, 0, m_cols, m_rows));
    emitUpdate();
    if (m_channel && m_channel->isOpen())
        m_channel->resize(cols, rows);
    Q_EMIT sizeChanged(cols, rows);
}

void TerminalScreen::setScrollbackLimit(int lines)
{
    m_scrollback.setLimit(lines);
}

void TerminalScreen::clearScrollback()
{
    m_scrollback.clear();
    addDamage(QRect(0, 0, m_cols, m_rows));
    ++m_scrolled; // tells views the line space changed
    emitUpdate();
}

Cell TerminalScreen::cell(int line, int col) const
{
    if (col < 0 || col >= m_cols || line < 0 || line >= totalLines())
        return Cell{};
    const int sb = m_scrollback.size();
    if (line < sb) {
        const QList<Cell> cells = m_scrollback.line(line);
        return col < cells.size() ? cells.at(col) : Cell{};
    }
    VTermScreenCell vc;
    if (!vterm_screen_get_cell(m_screen, VTermPos{line - sb, col}, &vc))
        return Cell{};
    Cell c = fromVTerm(vc);
    if (vc.chars[0] == WideTailChar)
        c.width = 0;
    return c;
}

QList<Cell> TerminalScreen::lineCells(int line) const
{
    QList<Cell> out;
    if (line < 0 || line >= totalLines())
        return out;
    const int sb = m_scrollback.size();
    if (line < sb) {
        out = m_scrollback.line(line);
        out.resize(m_cols);
        return out;
    }
    out.resize(m_cols);
    const int row = line - sb;
    for (int col = 0; col < m_cols; ++col) {
        VTermScreenCell vc;
        if (!vterm_screen_get_cell(m_screen, VTermPos{row, col}, &vc))
            continue;
        out[col] = fromVTerm(vc);
        if (vc.chars[0] == WideTailChar)
            out[col].width = 0;
    }
    return out;
}

QString TerminalScreen::lineText(int line, QList<int> *colOfChar) const
{
    const QList<Cell> cells = lineCells(line);
    QString out;
    if (colOfChar)
        colOfChar->clear();
    for (int col = 0; col < cells.size(); ++col) {
        const Cell &c = cells.at(col);
        if (c.width == 0)
            continue;
        const QString t = c.chars[0] == 0 ? QStringLiteral(" ") : c.text();
        out += t;
        if (colOfChar)
            for (int i = 0; i < t.size(); ++i)
                colOfChar->append(col);
    }
    qsizetype end = out.size();
    while (end > 0 && out.at(end - 1) == QLatin1Char(' '))
        --end;
    out.truncate(end);
    if (colOfChar)
        colOfChar->resize(end);
    return out;
}

bool TerminalScreen::isWrapped(int line) const
{
    const int sb = m_scrollback.size();
    if (line < 0 || line >= totalLines() - 1)
        return false;
    if (line < sb)
        return m_scrollback.isWrapped(line);
    const VTermLineInfo *next = vterm_state_get_lineinfo(m_state, line - sb + 1);
    return next && next->continuation;
}

QString TerminalScreen::screenText() const
{
    QStringList rows;
    const int sb = m_scrollback.size();
    for (int r = 0; r < m_rows; ++r)
        rows << lineText(sb + r);
    return rows.join(QLatin1Char('\n'));
}

uint32_t TerminalScreen::paletteRgb(int index) const
{
    VTermColor c;
    vterm_state_get_palette_color(m_state, std::clamp(index, 0, 255), &c);
    vterm_state_convert_color_to_rgb(m_state, &c);
    return (uint32_t(c.rgb.red) << 16) | (uint32_t(c.rgb.green) << 8) | c.rgb.blue;
}

// ---- output -----------------------------------------------------------------------------

void TerminalScreen::sendKey(VTermKey key, VTermModifier mod)
{
    vterm_keyboard_key(m_vt, key, mod);
}

void TerminalScreen::sendChar(uint32_t codepoint, VTermModifier mod)
{
    vterm_keyboard_unichar(m_vt, codepoint, mod);
}

void TerminalScreen::paste(const QString &text)
{
    // Terminals expect CR for Enter; pasted LF or CRLF would be taken literally.
    QString normalized = text;
    normalized.replace(QStringLiteral("\r\n"), QStringLiteral("\r"));
    normalized.replace(QLatin1Char('\n'), QLatin1Char('\r'));
    if (bracketedPaste()) {
        // A pasted end bracket would let the clipboard escape the paste and run commands.
        normalized.remove(QStringLiteral("\x1b[201~"));
        vterm_keyboard_start_paste(m_vt);
        sendRaw(normalized.toUtf8());
        vterm_keyboard_end_paste(m_vt);
    } else {
        sendRaw(normalized.toUtf8());
    }
}

void TerminalScreen::sendMouseMove(int row, int col, VTermModifier mod)
{
    vterm_mouse_move(m_vt, row, col, mod);
}

void TerminalScreen::sendMouseButton(int button, bool pressed, VTermModifier mod)
{
    vterm_mouse_button(m_vt, button, pressed, mod);
}

void TerminalScreen::sendRaw(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return;
    Q_EMIT output(bytes);
    if (m_channel && m_channel->isOpen()) {
        m_channel->write(bytes);
        // Input (not a reply the parser makes to the program's query) wants its echo soon.
        if (m_inputBegin == nullptr)
            SliceScheduler::forCurrentThread()->expectEcho(this);
    }
}

// ---- libvterm conversion ----------------------------------------------------------------

Cell TerminalScreen::fromVTerm(const VTermScreenCell &vc) const
{
    Cell c;
    for (int i = 0; i < Cell::MaxChars && i < VTERM_MAX_CHARS_PER_CELL; ++i) {
        const uint32_t ch = vc.chars[i];
        if (ch == 0 || ch == WideTailChar)
            break;
        c.chars[size_t(i)] = ch > 0x10FFFF ? U'\uFFFD' : char32_t(ch);
    }
    c.width = uint8_t(vc.width == 2 ? 2 : 1);
    uint16_t f = 0;
    if (vc.attrs.bold)
        f |= CellAttrs::Bold;
    if (vc.attrs.italic)
        f |= CellAttrs::Italic;
    if (vc.attrs.blink)
        f |= CellAttrs::Blink;
    if (vc.attrs.reverse)
        f |= CellAttrs::Reverse;
    if (vc.attrs.strike)
        f |= CellAttrs::Strike;
    if (vc.attrs.conceal)
        f |= CellAttrs::Conceal;
    f |= uint16_t((vc.attrs.underline & 3) << CellAttrs::UnderlineShift);
    c.attrs.flags = f;
    c.attrs.fg = toTermColor(vc.fg, true);
    c.attrs.bg = toTermColor(vc.bg, false);
    return c;
}

void TerminalScreen::toVTerm(const Cell &c, VTermScreenCell *out) const
{
    std::memset(out, 0, sizeof(*out));
    if (c.width == 0) {
        out->chars[0] = WideTailChar;
    } else {
        for (int i = 0; i < Cell::MaxChars && i < VTERM_MAX_CHARS_PER_CELL; ++i)
            out->chars[i] = c.chars[size_t(i)];
    }
    out->width = char(c.width == 2 ? 2 : 1);
    const CellAttrs &a = c.attrs;
    out->attrs.bold = a.has(CellAttrs::Bold);
    out->attrs.italic = a.has(CellAttrs::Italic);
    out->attrs.blink = a.has(CellAttrs::Blink);
    out->attrs.reverse = a.has(CellAttrs::Reverse);
    out->attrs.strike = a.has(CellAttrs::Strike);
    out->attrs.conceal = a.has(CellAttrs::Conceal);
    out->attrs.underline = unsigned(a.underline());
    auto color = [](TermColor t, const VTermColor &dflt, VTermColor *dst) {
        switch (t.kind()) {
        case TermColor::Indexed: vterm_color_indexed(dst, uint8_t(t.index())); break;
        case TermColor::Rgb: vterm_color_rgb(dst, uint8_t(t.red()), uint8_t(t.green()), uint8_t(t.blue())); break;
        default: *dst = dflt; break;
        }
    };
    color(a.fg, m_defaultFg, &out->fg);
    color(a.bg, m_defaultBg, &out->bg);
}

// ---- libvterm callbacks -----------------------------------------------------------------

int TerminalScreen::cbDamage(VTermRect r, void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    self->addDamage(QRect(r.start_col, r.start_row, r.end_col - r.start_col, r.end_row - r.start_row));
    return 1;
}

int TerminalScreen::cbMoveRect(VTermRect, VTermRect, void *)
{
    return 0; // let libvterm report the destination as damage
}

int TerminalScreen::cbMoveCursor(VTermPos pos, VTermPos /*oldpos*/, int visible, void *user)
{
    // Called after every stretch of text: the cursor's cells are damaged once per update
    // instead (emitUpdate), where it was shown and where it is now.
    auto *self = static_cast<TerminalScreen *>(user);
    self->m_cursor = QPoint(pos.col, pos.row);
    if (bool(visible) != self->m_cursorVisible) {
        self->m_cursorVisible = visible;
        Q_EMIT self->modesChanged();
    }
    return 1;
}

int TerminalScreen::cbSetTermProp(VTermProp prop, VTermValue *val, void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    switch (prop) {
    case VTERM_PROP_CURSORVISIBLE: self->m_cursorVisible = val->boolean; break;
    case VTERM_PROP_CURSORBLINK: self->m_cursorBlink = val->boolean; break;
    case VTERM_PROP_CURSORSHAPE:
        self->m_cursorShape = val->number == VTERM_PROP_CURSORSHAPE_UNDERLINE  ? CursorShape::Underline
                              : val->number == VTERM_PROP_CURSORSHAPE_BAR_LEFT ? CursorShape::Bar
                                                                               : CursorShape::Block;
        break;
    case VTERM_PROP_ALTSCREEN:
        // libvterm still points at the buffer being left: clean it before it goes idle.
        self->forgetTopContinuation();
        self->m_altScreen = val->boolean;
        break;
    case VTERM_PROP_REVERSE:
        self->m_reverse = val->boolean;
        self->addDamage(QRect(0, 0, self->m_cols, self->m_rows));
        break;
    case VTERM_PROP_MOUSE:
        self->m_mouseMode = val->number == VTERM_PROP_MOUSE_CLICK  ? MouseMode::Click
                            : val->number == VTERM_PROP_MOUSE_DRAG ? MouseMode::Drag
                            : val->number == VTERM_PROP_MOUSE_MOVE ? MouseMode::Move
                                                                   : MouseMode::None;
        break;
    case VTERM_PROP_TITLE: {
        // 0.2+ hands the title over in fragments: start afresh on the first, commit on the last.
        if (val->string.initial)
            self->m_titleBytes.clear();
        // libvterm 0.3.3 can hand over a fragment with a wrapped-around length (ESC followed
        // by a C0 byte inside the OSC; found by the fuzzer): only bytes that lie inside the
        // input being parsed are taken.
        const char *p = val->string.str;
        const size_t n = val->string.len;
        const bool inside = p && self->m_inputBegin && p >= self->m_inputBegin && p <= self->m_inputEnd &&
                            n <= size_t(self->m_inputEnd - p);
        if (inside && self->m_titleBytes.size() < 4096)
            self->m_titleBytes.append(p, qsizetype(std::min<size_t>(n, size_t(4096 - self->m_titleBytes.size()))));
        if (val->string.final) {
            const QString t = QString::fromUtf8(self->m_titleBytes.left(4096));
            self->m_titleBytes.clear();
            if (t != self->m_title) {
                self->m_title = t;
                Q_EMIT self->titleChanged(t);
            }
        }
        return 1;
    }
    default: return 1;
    }
    Q_EMIT self->modesChanged();
    return 1;
}

int TerminalScreen::cbBell(void *user)
{
    Q_EMIT static_cast<TerminalScreen *>(user)->bell();
    return 1;
}

int TerminalScreen::cbResize(int rows, int cols, void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    self->m_rows = rows;
    self->m_cols = cols;
    return 1;
}

int TerminalScreen::cbPushLine(int cols, const VTermScreenCell *cells, void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    // Most lines end in blank cells the scrollback does not keep: not converted at all.
    while (cols > 0 && isPlainBlank(cells[cols - 1]))
        --cols;
    auto &buf = self->m_lineBuffer;
    buf.resize(size_t(std::max(cols, 0)));
    for (int i = 0; i < cols; ++i) {
        buf[size_t(i)] = self->fromVTerm(cells[i]);
        if (cells[i].chars[0] == WideTailChar)
            buf[size_t(i)].width = 0;
    }
    // libvterm shifts its line info before pushing, so row 0 now describes the line that
    // followed the pushed one: exact for the usual one-line scroll, a guess for larger ones.
    const VTermLineInfo *next = vterm_state_get_lineinfo(self->m_state, 0);
    self->m_scrollback.push(buf.data(), cols, next && next->continuation);
    ++self->m_scrolled;
    return 1;
}

int TerminalScreen::cbPopLine(int cols, VTermScreenCell *cells, void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    auto &buf = self->m_lineBuffer;
    buf.resize(size_t(std::max(cols, 0)));
    if (!self->m_scrollback.popBack(buf.data(), cols))
        return 0;
    for (int i = 0; i < cols; ++i)
        self->toVTerm(buf[size_t(i)], &cells[i]);
    ++self->m_scrolled;
    return 1;
}

int TerminalScreen::cbClearScrollback(void *user)
{
    auto *self = static_cast<TerminalScreen *>(user);
    self->m_scrollback.clear();
    ++self->m_scrolled;
    return 1;
}

void TerminalScreen::cbOutput(const char *s, size_t len, void *user)
{
    static_cast<TerminalScreen *>(user)->sendRaw(QByteArray(s, qsizetype(len)));
}

} // namespace sandbar
