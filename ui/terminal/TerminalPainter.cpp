#include "TerminalPainter.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <QtMath>

namespace sandbar {

TerminalPainter::TerminalPainter()
{
    QFont f(QStringLiteral("Monospace"));
    f.setStyleHint(QFont::TypeWriter);
    f.setPointSize(11);
    setFont(f);
    setColors(TerminalColors{});
}

void TerminalPainter::setFont(const QFont &font)
{
    QFont base = font;
    base.setKerning(false);
    const QFontMetricsF fm(base);
    const qreal advance = fm.horizontalAdvance(QLatin1Char('M'));
    m_cellWidth = qMax(1, qCeil(advance));
    m_cellHeight = qMax(1, qCeil(fm.height()));
    m_ascent = qCeil(fm.ascent());
    // Letter spacing makes every glyph advance exactly one cell, so a run of text drawn with
    // one call lines up with the grid instead of drifting.
    base.setLetterSpacing(QFont::AbsoluteSpacing, m_cellWidth - advance);
    m_fonts[0] = base;
    m_fonts[1] = base;
    m_fonts[1].setBold(true);
    m_fonts[2] = base;
    m_fonts[2].setItalic(true);
    m_fonts[3] = m_fonts[1];
    m_fonts[3].setItalic(true);
}

void TerminalPainter::setColors(const TerminalColors &colors)
{
    m_colors = colors;
    for (int i = 0; i < 16; ++i)
        m_palette[size_t(i)] = colors.ansi[size_t(i)];
    static const int levels[6] = {0, 95, 135, 175, 215, 255};
    for (int i = 16; i < 232; ++i) {
        const int v = i - 16;
        m_palette[size_t(i)] = QColor(levels[v / 36], levels[(v / 6) % 6], levels[v % 6]);
    }
    for (int i = 232; i < 256; ++i) {
        const int g = 8 + 10 * (i - 232);
        m_palette[size_t(i)] = QColor(g, g, g);
    }
}

QColor TerminalPainter::color(TermColor c, bool foreground) const
{
    switch (c.kind()) {
    case TermColor::Indexed: return m_palette[size_t(c.index())];
    case TermColor::Rgb: return QColor(c.red(), c.green(), c.blue());
    default: return foreground ? m_colors.foreground : m_colors.background;
    }
}

void TerminalPainter::resolveColors(const CellAttrs &a, QColor *fg, QColor *bg) const
{
    *fg = color(a.fg, true);
    *bg = color(a.bg, false);
    if (a.has(CellAttrs::Reverse))
        std::swap(*fg, *bg);
    if (a.has(CellAttrs::Conceal))
        *fg = *bg;
}

const QFont &TerminalPainter::fontFor(const CellAttrs &a) const
{
    return m_fonts[size_t((a.has(CellAttrs::Bold) ? 1 : 0) + (a.has(CellAttrs::Italic) ? 2 : 0))];
}

void TerminalPainter::paintRow(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo,
                               const std::function<bool(int)> &selected, const std::function<bool(int)> &linkCols) const
{
    colTo = qMin(colTo, int(cells.size()));
    // A wide character whose first half is outside the range still has to be drawn.
    if (colFrom > 0 && colFrom < cells.size() && cells.at(colFrom).width == 0)
        --colFrom;
    paintBackgrounds(p, y, cells, colFrom, colTo);
    paintText(p, y, cells, colFrom, colTo, linkCols);
    if (selected)
        paintSelection(p, y, colFrom, colTo, selected);
}

void TerminalPainter::paintBackgrounds(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo) const
{
    const int w = m_cellWidth;
    const int h = m_cellHeight;

    // Backgrounds, merged into runs.
    int col = colFrom;
    while (col < colTo) {
        QColor fg, bg;
        resolveColors(cells.at(col).attrs, &fg, &bg);
        int end = col + 1;
        while (end < colTo && cells.at(end).attrs == cells.at(col).attrs)
            ++end;
        if (bg != m_colors.background)
            p.fillRect(QRect(col * w, y, (end - col) * w, h), bg);
        col = end;
    }
}

void TerminalPainter::paintText(QPainter &p, int y, const QList<Cell> &cells, int colFrom, int colTo,
                                const std::function<bool(int)> &linkCols) const
{
    const int w = m_cellWidth;
    const int h = m_cellHeight;

    // Text runs: same attributes, single-width, one code point of a script that keeps the
    // grid (others are drawn cell by cell with their own box).
    auto simple = [](const Cell &c) {
        return c.width == 1 && c.chars[1] == 0 &&
               (c.chars[0] < 0x0370 || (c.chars[0] >= 0x2500 && c.chars[0] < 0x2600));
    };
    int col = colFrom;
    QString run;
    while (col < colTo) {
        const Cell &c = cells.at(col);
        if (c.width == 0) {
            ++col;
            continue;
        }
        QColor fg, bg;
        resolveColors(c.attrs, &fg, &bg);
        const bool isLink = linkCols && linkCols(col);
        int end = col + 1;
        run.clear();
        if (simple(c)) {
            run += c.chars[0] == 0 ? QChar(u' ') : QChar(char16_t(c.chars[0]));
            while (end < colTo && simple(cells.at(end)) && cells.at(end).attrs == c.attrs &&
                   (!linkCols || linkCols(end) == isLink)) {
                const char32_t ch = cells.at(end).chars[0];
                run += ch == 0 ? QChar(u' ') : QChar(char16_t(ch));
                ++end;
            }
        } else {
            run = c.text();
            end = col + c.width;
        }
        const int x = col * w;
        const int runWidth = (end - col) * w;
        if (isLink)
            fg = m_colors.link;
        const bool blank = run.trimmed().isEmpty();
        if (!blank && !c.attrs.has(CellAttrs::Conceal)) {
            p.setFont(fontFor(c.attrs));
            p.setPen(fg);
            if (simple(c))
                p.drawText(QPoint(x, y + m_ascent), run);
            else
                p.drawText(QRect(x, y, runWidth, h), Qt::AlignCenter | Qt::TextDontClip, run);
        }
        const int ul = isLink ? CellAttrs::SingleUnderline : c.attrs.underline();
        paintLines(p, x, y, runWidth, fg, ul, c.attrs.has(CellAttrs::Strike));
        col = end;
    }
}

void TerminalPainter::paintLines(QPainter &p, int x, int y, int runWidth, const QColor &fg, int ul, bool strike) const
{
    const int h = m_cellHeight;
    if (ul != CellAttrs::NoUnderline) {
        p.setPen(QPen(fg, 1));
        const int base = qMin(y + m_ascent + 2, y + h - 1);
        if (ul == CellAttrs::DoubleUnderline) {
            p.drawLine(x, base - 1, x + runWidth - 1, base - 1);
            p.drawLine(x, base + 1, x + runWidth - 1, base + 1);
        } else if (ul == CellAttrs::CurlyUnderline) {
            QPainterPath path;
            path.moveTo(x, base);
            for (int i = 0; i < runWidth; i += 4)
                path.quadTo(x + i + 1, base + ((i / 4) % 2 ? 2 : -2), x + i + 2, base);
            p.drawPath(path);
        } else {
            p.drawLine(x, base, x + runWidth - 1, base);
        }
    }
    if (strike) {
        p.setPen(QPen(fg, 1));
        p.drawLine(x, y + h / 2, x + runWidth - 1, y + h / 2);
    }
}

void TerminalPainter::paintSelection(QPainter &p, int y, int colFrom, int colTo,
                                     const std::function<bool(int)> &selected) const
{
    const int w = m_cellWidth;
    const int h = m_cellHeight;
    int col = colFrom;
    while (col < colTo) {
        if (!selected(col)) {
            ++col;
            continue;
        }
        int end = col + 1;
        while (end < colTo && selected(end))
            ++end;
        p.fillRect(QRect(col * w, y, (end - col) * w, h), m_colors.selection);
        col = end;
    }
}

void TerminalPainter::paintCursor(QPainter &p, int x, int y, const Cell &cell, CursorShape shape, bool focused) const
{
    const int w = m_cellWidth * (cell.width == 2 ? 2 : 1);
    const int h = m_cellHeight;
    if (!focused) {
        p.setPen(QPen(m_colors.cursor, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(x, y, w - 1, h - 1));
        return;
    }
    switch (shape) {
    case CursorShape::Block: {
        p.fillRect(QRect(x, y, w, h), m_colors.cursor);
        const QString t = cell.text();
        if (!t.trimmed().isEmpty()) {
            QColor fg, bg;
            resolveColors(cell.attrs, &fg, &bg);
            p.setFont(fontFor(cell.attrs));
            p.setPen(bg);
            p.drawText(QRect(x, y, w, h), Qt::AlignCenter | Qt::TextDontClip, t);
        }
        break;
    }
    case CursorShape::Underline: p.fillRect(QRect(x, y + h - 2, w, 2), m_colors.cursor); break;
    case CursorShape::Bar: p.fillRect(QRect(x, y, 2, h), m_colors.cursor); break;
    }
}

} // namespace sandbar
