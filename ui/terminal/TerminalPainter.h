#pragma once

#include "terminal/TerminalCell.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPainter>
#include <array>
#include <functional>

namespace sandbar {

struct TerminalColors {
    QColor foreground{0xd4, 0xd4, 0xd4};
    QColor background{0x1e, 0x1e, 0x1e};
    QColor cursor{0xe0, 0xe0, 0xe0};
    QColor selection{0x26, 0x4f, 0x78, 170};
    QColor link{0x6c, 0xb6, 0xff};
    // The 16 ANSI colours (normal, then bright).
    std::array<QColor, 16> ansi{{
        {0x00, 0x00, 0x00},
        {0xcd, 0x31, 0x31},
        {0x0d, 0xbc, 0x79},
        {0xe5, 0xe5, 0x10},
        {0x24, 0x72, 0xc8},
        {0xbc, 0x3f, 0xbc},
        {0x11, 0xa8, 0xcd},
        {0xe5, 0xe5, 0xe5},
        {0x66, 0x66, 0x66},
        {0xf1, 0x4c, 0x4c},
        {0x23, 0xd1, 0x8b},
        {0xf5, 0xf5, 0x43},
        {0x3b, 0x8e, 0xea},
        {0xd6, 0x70, 0xd6},
        {0x29, 0xb8, 0xdb},
        {0xff, 0xff, 0xff},
    }};
};

// Paints rows of cells with one monospace font: background runs, text runs (one drawText
// per run of equal attributes), underline kinds, strike-through, the cursor. Stateless
// apart from the font and colours, so the view decides what to paint and when.
class TerminalPainter
{
public:
    TerminalPainter();

    void setFont(const QFont &font);
    const QFont &font() const { return m_fonts[0]; }
    QSize cellSize() const { return {m_cellWidth, m_cellHeight}; }

    void setColors(const TerminalColors &colors);
    const TerminalColors &colors() const { return m_colors; }
    QColor color(TermColor c, bool foreground) const;

    // Cells [colFrom, colTo) of a row whose top edge is y. `selected` says which cells to
    // highlight; `linkCols` marks cells of a detected URL under the pointer.
    void paintRow(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo,
                  const std::function<bool(int)> &selected, const std::function<bool(int)> &linkCols = {}) const;
    void paintCursor(QPainter &p, int x, int y, const Cell &cell, CursorShape shape, bool focused) const;

private:
    void resolveColors(const CellAttrs &a, QColor *fg, QColor *bg) const;
    const QFont &fontFor(const CellAttrs &a) const;
    // The parts of paintRow, in the order it paints them.
    void paintBackgrounds(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo) const;
    void paintText(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo,
                   const std::function<bool(int)> &linkCols) const;
    // Underline (a CellAttrs::Underline) and strike-through of a run of text runWidth wide at x.
    void paintLines(QPainter &p, int x, int y, int runWidth, const QColor &fg, int ul, bool strike) const;
    void paintSelection(QPainter &p, int y, int colFrom, int colTo, const std::function<bool(int)> &selected) const;

    std::array<QFont, 4> m_fonts; // regular, bold, italic, bold italic
    int m_cellWidth = 8;
    int m_cellHeight = 16;
    int m_ascent = 12;
    TerminalColors m_colors;
    std::array<QColor, 256> m_palette;
};

} // namespace sandbar
