#pragma once

#include <QVarLengthArray>
#include <QtGlobal>

namespace sandbar {

// libvterm honours DECSET 2004 (bracketed paste) but does not say whether it is on, and the
// paste warning needs to know. This scanner watches the same bytes for CSI ? ... 2004 h/l,
// keeping its state across chunk boundaries, and for RIS (ESC c), which turns it off.
//
// It also reports where each DECRC (ESC 8) ends: libvterm 0.3.3 restores a cursor saved on a
// larger screen without clamping it, then writes its line info out of bounds (fuzzer), so
// the screen has to check the cursor right after each restore.
class ModeScanner
{
public:
    using Offsets = QVarLengthArray<qsizetype, 4>;
    // restores, when given, receives the offset just past each ESC 8 in data.
    void scan(const char *data, qsizetype len, Offsets *restores = nullptr);
    bool bracketedPaste() const { return m_bracketedPaste; }
    void reset();

private:
    enum class State { Ground, Escape, CsiStart, CsiPrivate, CsiIgnore };
    void endParam();

    State m_state = State::Ground;
    long m_param = 0;
    bool m_sawDigit = false;
    bool m_mentions2004 = false;
    bool m_bracketedPaste = false;
};

} // namespace sandbar
