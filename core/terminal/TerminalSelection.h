#pragma once

#include <QString>
#include <QtGlobal>
#include <compare>

namespace sandbar {

class TerminalScreen;

// A position that survives old scrollback lines being dropped: the line is counted from
// the first line the terminal ever had (TerminalScreen::droppedLines() + line index).
struct TermPos {
    qint64 line = 0;
    int col = 0;
    friend auto operator<=>(const TermPos &, const TermPos &) = default;
};

// Converts between line indices and stable positions.
TermPos stablePos(const TerminalScreen &screen, int line, int col);
int lineIndex(const TerminalScreen &screen, qint64 stableLine);

// Character, word and line selection across scrollback and screen; rectangular when asked
// (Alt+drag). Word and line modes snap to whole words and lines as the pointer moves.
class TerminalSelection
{
public:
    enum class Mode { Char, Word, Line };

    void start(const TerminalScreen &screen, TermPos at, Mode mode, bool rectangular = false);
    void extend(const TerminalScreen &screen, TermPos to);
    void selectAll(const TerminalScreen &screen);
    void clear() { m_active = false; }

    bool isEmpty() const { return !m_active; }
    bool isRectangular() const { return m_rect; }
    Mode mode() const { return m_mode; }
    TermPos begin() const { return m_begin; } // first selected cell
    TermPos end() const { return m_end; }     // last selected cell (inclusive)

    bool contains(TermPos p) const;
    // The selected text; wrapped lines join without a newline, trailing blanks trimmed.
    QString text(const TerminalScreen &screen) const;

    // Word characters beyond letters and digits, for double-click selection.
    static bool isWordChar(QChar c);

private:
    void recompute(const TerminalScreen &screen);

    bool m_active = false;
    bool m_rect = false;
    Mode m_mode = Mode::Char;
    TermPos m_anchor;
    TermPos m_head;
    TermPos m_begin;
    TermPos m_end;
};

} // namespace sandbar
