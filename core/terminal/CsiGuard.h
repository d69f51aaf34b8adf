#pragma once

#include <QByteArray>

namespace sandbar {

// libvterm 0.3.3 writes past its argument array when a CSI sequence has 16 or more
// parameters (found by the fuzzer: ESC [ 1;1;...;1 m crashes it). This filter, kept in
// front of vterm_input_write, drops the parameters after the 15th separator, across chunk
// boundaries, so such a sequence runs with its first 15 parameters (xterm also ignores
// extra ones). It also drops the digits of a parameter after the 9th: libvterm multiplies
// its long by ten for every digit and overflows (undefined behaviour, found by fuzzing it
// instrumented); no parameter means anything past 999,999,999. Everything else passes
// unchanged and uncopied.
class CsiGuard
{
public:
    static constexpr int MaxSeparators = 15;
    static constexpr int MaxDigits = 9;

    // Returns true and fills `out` when bytes had to be dropped; false means use the input.
    bool filter(const char *data, qsizetype len, QByteArray *out);
    void reset() { m_state = State::Ground; }

private:
    enum class State { Ground, Escape, Params };
    State m_state = State::Ground;
    int m_separators = 0;
    int m_digits = 0;
};

} // namespace sandbar
