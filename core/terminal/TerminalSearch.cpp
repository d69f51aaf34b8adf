#include "terminal/TerminalSearch.h"

#include "terminal/TerminalScreen.h"

namespace sandbar {

void TerminalSearch::setNeedle(const QString &needle, Qt::CaseSensitivity cs)
{
    if (needle != m_needle || cs != m_cs)
        m_current.reset();
    m_needle = needle;
    m_cs = cs;
}

std::optional<SearchMatch> TerminalSearch::find(const TerminalScreen &screen, Direction dir,
                                                std::optional<TermPos> from) const
{
    const int total = screen.totalLines();
    if (m_needle.isEmpty() || total == 0)
        return std::nullopt;
    const bool forward = dir == Direction::Next;
    int startLine = forward ? 0 : total - 1;
    if (from) {
        startLine = lineIndex(screen, from->line);
        if (startLine < 0 || startLine >= total) {
            startLine = forward ? 0 : total - 1;
            from.reset();
        }
    }
    // Visit every line once, plus the start line again for matches on the far side of `from`.
    for (int step = 0; step <= total; ++step) {
        const int line = forward ? (startLine + step) % total : ((startLine - step) % total + total) % total;
        QList<int> cols;
        const QString text = screen.lineText(line, &cols);
        if (text.size() < m_needle.size())
            continue;
        auto matchAt = [&](qsizetype idx) {
            const qsizetype lastChar = idx + m_needle.size() - 1;
            const int firstCol = cols.value(idx);
            int lastCol = cols.value(lastChar);
            if (screen.cell(line, lastCol).width == 2)
                ++lastCol;
            return SearchMatch{stablePos(screen, line, firstCol), stablePos(screen, line, lastCol)};
        };
        const bool onStart = from && step == 0;
        const bool onStartAgain = from && step == total;
        if (forward) {
            qsizetype idx = 0;
            for (;;) {
                idx = text.indexOf(m_needle, idx, m_cs);
                if (idx < 0)
                    break;
                const int col = cols.value(idx);
                if ((!onStart || col > from->col) && (!onStartAgain || col <= from->col))
                    return matchAt(idx);
                ++idx;
            }
        } else {
            qsizetype idx = text.size() - 1;
            while (idx >= 0) {
                idx = text.lastIndexOf(m_needle, idx, m_cs);
                if (idx < 0)
                    break;
                const int col = cols.value(idx);
                if ((!onStart || col < from->col) && (!onStartAgain || col >= from->col))
                    return matchAt(idx);
                --idx;
            }
        }
    }
    return std::nullopt;
}

std::optional<SearchMatch> TerminalSearch::next(const TerminalScreen &screen)
{
    const auto from = m_current ? std::optional<TermPos>(m_current->start) : std::nullopt;
    m_current = find(screen, Direction::Next, from);
    return m_current;
}

std::optional<SearchMatch> TerminalSearch::previous(const TerminalScreen &screen)
{
    const auto from = m_current ? std::optional<TermPos>(m_current->start) : std::nullopt;
    m_current = find(screen, Direction::Previous, from);
    return m_current;
}

} // namespace sandbar
