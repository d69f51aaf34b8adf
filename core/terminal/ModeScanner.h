#pragma once

#include <QtGlobal>

namespace sandbar {

// libvterm honours DECSET 2004 (bracketed paste) but does not say whether it is on, and the
// paste warning needs to know. This scanner watches the same bytes for CSI ? ... 2004 h/l,
// keeping its state across chunk boundaries, and for RIS (ESC c), which turns it off.
class ModeScanner
{
public:
    void scan(const char *data, qsizetype len);
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
