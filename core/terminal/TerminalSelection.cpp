#include "terminal/TerminalSelection.h"

#include "terminal/TerminalScreen.h"

#include <algorithm>

namespace sandbar {

TermPos stablePos(const TerminalScreen &screen, int line, int col)
{
    return TermPos{screen.droppedLines() + line, col};
}

int lineIndex(const TerminalScreen &screen, qint64 stableLine)
{
    return int(stableLine - screen.droppedLines());
}

bool TerminalSelection::isWordChar(QChar c)
{
    if (c.isLetterOrNumber())
        return true;
    static const QString extra = QStringLiteral("-_.~/:@%+#?&=$*!");
    return extra.contains(c);
}

namespace {
// Cell classes for word expansion: 0 blank, 1 word, 2 other punctuation.
int cellClass(const TerminalScreen &screen, int line, int col)
{
    Cell c = screen.cell(line, col);
    if (c.width == 0 && col > 0)
        c = screen.cell(line, col - 1);
    if (c.isBlank())
        return 0;
    const QString t = c.text();
    if (t.isEmpty())
        return 0;
    // Wide (CJK) characters count as word characters.
    if (c.width == 2 || TerminalSelection::isWordChar(t.at(0)))
        return 1;
    return 2;
}
} // namespace

void TerminalSelection::start(const TerminalScreen &screen, TermPos at, Mode mode, bool rectangular)
{
    m_active = true;
    m_mode = mode;
    m_rect = rectangular && mode == Mode::Char;
    m_anchor = at;
    m_head = at;
    recompute(screen);
}

void TerminalSelection::extend(const TerminalScreen &screen, TermPos to)
{
    if (!m_active)
        return;
    m_head = to;
    recompute(screen);
}

void TerminalSelection::selectAll(const TerminalScreen &screen)
{
    m_active = true;
    m_rect = false;
    m_mode = Mode::Line;
    m_anchor = stablePos(screen, 0, 0);
    m_head = stablePos(screen, screen.totalLines() - 1, screen.cols() - 1);
    recompute(screen);
}

void TerminalSelection::recompute(const TerminalScreen &screen)
{
    const int lastCol = screen.cols() - 1;
    auto clampPos = [&](TermPos p) {
        const qint64 first = screen.droppedLines();
        const qint64 last = first + screen.totalLines() - 1;
        p.line = std::clamp(p.line, first, last);
        p.col = std::clamp(p.col, 0, lastCol);
        return p;
    };
    TermPos a = clampPos(m_anchor);
    TermPos b = clampPos(m_head);
    if (m_rect) {
        m_begin = TermPos{std::min(a.line, b.line), std::min(a.col, b.col)};
        m_end = TermPos{std::max(a.line, b.line), std::max(a.col, b.col)};
        return;
    }
    if (b < a)
        std::swap(a, b);
    switch (m_mode) {
    case Mode::Char: break;
    case Mode::Word: {
        const int la = lineIndex(screen, a.line);
        const int cls = cellClass(screen, la, a.col);
        while (a.col > 0 && cellClass(screen, la, a.col - 1) == cls)
            --a.col;
        const int lb = lineIndex(screen, b.line);
        const int clsB = cellClass(screen, lb, b.col);
        while (b.col < lastCol && cellClass(screen, lb, b.col + 1) == clsB)
            ++b.col;
        break;
    }
    case Mode::Line:
        // Whole logical lines: follow wraps in both directions.
        a.col = 0;
        while (lineIndex(screen, a.line) > 0 && screen.isWrapped(lineIndex(screen, a.line) - 1))
            --a.line;
        b.col = lastCol;
        while (screen.isWrapped(lineIndex(screen, b.line)))
            ++b.line;
        break;
    }
    // A wide character is selected whole.
    if (a.col > 0 && screen.cell(lineIndex(screen, a.line), a.col).width == 0)
        --a.col;
    if (b.col < lastCol && screen.cell(lineIndex(screen, b.line), b.col).width == 2)
        ++b.col;
    m_begin = a;
    m_end = b;
}

bool TerminalSelection::contains(TermPos p) const
{
    if (!m_active || p.line < m_begin.line || p.line > m_end.line)
        return false;
    if (m_rect)
        return p.col >= m_begin.col && p.col <= m_end.col;
    if (p.line == m_begin.line && p.col < m_begin.col)
        return false;
    if (p.line == m_end.line && p.col > m_end.col)
        return false;
    return true;
}

QString TerminalSelection::text(const TerminalScreen &screen) const
{
    if (!m_active)
        return {};
    QString out;
    for (qint64 sl = m_begin.line; sl <= m_end.line; ++sl) {
        const int line = lineIndex(screen, sl);
        if (line < 0 || line >= screen.totalLines())
            continue;
        int from = 0;
        int to = screen.cols() - 1;
        if (m_rect) {
            from = m_begin.col;
            to = m_end.col;
        } else {
            if (sl == m_begin.line)
                from = m_begin.col;
            if (sl == m_end.line)
                to = m_end.col;
        }
        const QList<Cell> cells = screen.lineCells(line);
        QString piece;
        for (int col = from; col <= to && col < cells.size(); ++col) {
            const Cell &c = cells.at(col);
            if (c.width == 0)
                continue;
            piece += c.chars[0] == 0 ? QStringLiteral(" ") : c.text();
        }
        const bool joinsNext = !m_rect && sl != m_end.line && screen.isWrapped(line) && to == screen.cols() - 1;
        if (!joinsNext) {
            qsizetype end = piece.size();
            while (end > 0 && piece.at(end - 1) == QLatin1Char(' '))
                --end;
            piece.truncate(end);
        }
        out += piece;
        if (sl != m_end.line && !joinsNext)
            out += QLatin1Char('\n');
    }
    return out;
}

} // namespace sandbar
