#pragma once

#include "terminal/TerminalCell.h"

#include <QList>
#include <deque>
#include <string>
#include <vector>

namespace sandbar {

// Lines that scrolled off the top of a terminal, oldest first, bounded by a line limit.
// Stored compactly: a line of plain Latin-1 text costs one byte a cell, other lines one
// code point a cell; attributes are run-length spans, and trailing blank cells are dropped.
class Scrollback
{
public:
    static constexpr int DefaultLimit = 10000;

    explicit Scrollback(int limit = DefaultLimit);

    void setLimit(int lines);
    int limit() const { return m_limit; }
    int size() const { return int(m_lines.size()); }
    // Lines ever dropped from the front because of the limit: lets callers keep positions
    // that stay valid while old lines go.
    qint64 droppedTotal() const { return m_dropped; }

    // Appends one line; returns how many old lines the limit pushed out (0 or 1).
    int push(const Cell *cells, int count, bool wrapped);
    // Removes the newest line into out[0..cols); false when empty.
    bool popBack(Cell *out, int cols, bool *wrapped = nullptr);
    void clear();

    // The stored cells of line `index` (trailing blanks omitted).
    QList<Cell> line(int index) const;
    int lineLength(int index) const;
    bool isWrapped(int index) const;

    // Bytes held by the stored lines (heap included), for the compactness test and figure.
    size_t memoryBytes() const;

private:
    struct Span {
        uint16_t start;
        uint16_t flags;
        uint32_t fg;
        uint32_t bg;
    };
    struct Mark {
        uint16_t col;
        std::u32string chars;
    };
    struct Line {
        std::string narrow;      // used when every cell is a single Latin-1 char of width 1
        std::u32string wide;     // otherwise: one code point a cell, WideTail after a wide char
        std::vector<Span> spans; // empty when every cell has default attributes
        std::vector<Mark> marks; // combining characters, rare
        bool wrapped = false;
    };
    static constexpr char32_t WideTail = 0xFFFFFFFFu;

    void enforceLimit(int *dropped);
    void decode(const Line &l, Cell *out, int cols) const;

    std::deque<Line> m_lines;
    int m_limit;
    qint64 m_dropped = 0;
};

} // namespace sandbar
