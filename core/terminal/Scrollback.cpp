#include "terminal/Scrollback.h"

#include <algorithm>

namespace sandbar {

Scrollback::Scrollback(int limit)
    : m_limit(std::max(0, limit))
{
}

void Scrollback::setLimit(int lines)
{
    m_limit = std::max(0, lines);
    int dropped = 0;
    enforceLimit(&dropped);
}

void Scrollback::enforceLimit(int *dropped)
{
    while (int(m_lines.size()) > m_limit) {
        m_lines.pop_front();
        ++m_dropped;
        ++*dropped;
    }
}

int Scrollback::push(const Cell *cells, int count, bool wrapped)
{
    if (m_limit == 0) {
        ++m_dropped;
        return 1;
    }
    static const CellAttrs plain{};
    int len = count;
    while (len > 0 && cells[len - 1].isBlank() && cells[len - 1].width == 1 && cells[len - 1].attrs == plain)
        --len;

    Line l;
    l.wrapped = wrapped;
    bool narrow = true;
    for (int i = 0; i < len && narrow; ++i) {
        const Cell &c = cells[i];
        narrow = c.width == 1 && c.chars[0] < 0x100 && c.chars[1] == 0;
    }
    if (narrow) {
        l.narrow.resize(size_t(len));
        for (int i = 0; i < len; ++i)
            l.narrow[size_t(i)] = char(cells[i].chars[0]);
    } else {
        l.wide.resize(size_t(len));
        for (int i = 0; i < len; ++i) {
            const Cell &c = cells[i];
            l.wide[size_t(i)] = c.width == 0 ? WideTail : c.chars[0];
            if (c.width != 0 && c.chars[1] != 0) {
                Mark m{uint16_t(i), {}};
                for (int k = 1; k < Cell::MaxChars && c.chars[size_t(k)] != 0; ++k)
                    m.chars.push_back(c.chars[size_t(k)]);
                l.marks.push_back(std::move(m));
            }
        }
    }
    for (int i = 0; i < len; ++i) {
        const CellAttrs &a = cells[i].attrs;
        const bool same = !l.spans.empty() && l.spans.back().flags == a.flags && l.spans.back().fg == a.fg.packed &&
                          l.spans.back().bg == a.bg.packed;
        if (same)
            continue;
        if (l.spans.empty() && a == plain)
            continue; // an implicit default span starts every line
        l.spans.push_back(Span{uint16_t(i), a.flags, a.fg.packed, a.bg.packed});
    }
    l.narrow.shrink_to_fit();
    l.wide.shrink_to_fit();
    l.spans.shrink_to_fit();
    m_lines.push_back(std::move(l));
    int dropped = 0;
    enforceLimit(&dropped);
    return dropped;
}

void Scrollback::decode(const Line &l, Cell *out, int cols) const
{
    const int len = int(l.narrow.empty() ? l.wide.size() : l.narrow.size());
    size_t span = 0;
    CellAttrs attrs;
    size_t mark = 0;
    for (int i = 0; i < cols; ++i) {
        Cell c;
        if (i < len) {
            while (span < l.spans.size() && l.spans[span].start <= i) {
                attrs = CellAttrs{TermColor{l.spans[span].fg}, TermColor{l.spans[span].bg}, l.spans[span].flags};
                ++span;
            }
            c.attrs = attrs;
            if (!l.narrow.empty()) {
                c.chars[0] = char32_t(uint8_t(l.narrow[size_t(i)]));
            } else {
                const char32_t ch = l.wide[size_t(i)];
                if (ch == WideTail) {
                    c.width = 0;
                } else {
                    c.chars[0] = ch;
                    if (size_t(i + 1) < l.wide.size() && l.wide[size_t(i + 1)] == WideTail)
                        c.width = 2;
                    while (mark < l.marks.size() && l.marks[mark].col < i)
                        ++mark;
                    if (mark < l.marks.size() && l.marks[mark].col == i) {
                        const auto &m = l.marks[mark].chars;
                        for (size_t k = 0; k < m.size() && k + 1 < size_t(Cell::MaxChars); ++k)
                            c.chars[k + 1] = m[k];
                    }
                }
            }
        }
        out[i] = c;
    }
}

bool Scrollback::popBack(Cell *out, int cols, bool *wrapped)
{
    if (m_lines.empty())
        return false;
    const Line &l = m_lines.back();
    decode(l, out, cols);
    // A wide character cut by a narrower screen would leave half a glyph.
    if (cols > 0 && out[cols - 1].width == 2) {
        out[cols - 1] = Cell{};
    }
    if (wrapped)
        *wrapped = l.wrapped;
    m_lines.pop_back();
    return true;
}

void Scrollback::clear()
{
    m_lines.clear();
}

QList<Cell> Scrollback::line(int index) const
{
    if (index < 0 || index >= size())
        return {};
    const Line &l = m_lines[size_t(index)];
    QList<Cell> out(lineLength(index));
    decode(l, out.data(), int(out.size()));
    return out;
}

int Scrollback::lineLength(int index) const
{
    if (index < 0 || index >= size())
        return 0;
    const Line &l = m_lines[size_t(index)];
    return int(l.narrow.empty() ? l.wide.size() : l.narrow.size());
}

bool Scrollback::isWrapped(int index) const
{
    return index >= 0 && index < size() && m_lines[size_t(index)].wrapped;
}

size_t Scrollback::memoryBytes() const
{
    // Allocator overhead is estimated as 16 bytes a heap block.
    size_t total = 0;
    for (const Line &l : m_lines) {
        total += sizeof(Line);
        if (l.narrow.capacity() > 15)
            total += l.narrow.capacity() + 1 + 16;
        if (!l.wide.empty())
            total += (l.wide.capacity() + 1) * sizeof(char32_t) + 16;
        if (!l.spans.empty())
            total += l.spans.capacity() * sizeof(Span) + 16;
        for (const Mark &m : l.marks)
            total += sizeof(Mark) + m.chars.capacity() * sizeof(char32_t);
    }
    return total;
}

} // namespace sandbar
