#pragma once

#include <QByteArray>
#include <QVarLengthArray>
#include <utility>

namespace sandbar {

// A filter in front of vterm_input_write for three libvterm 0.3.3 bugs found by fuzzing:
// a CSI sequence with 16 or more parameters writes past its argument array (ESC [ 1;1;...;1 m
// crashes it), and numbers are multiplied by ten per digit without a bound, overflowing a
// CSI parameter (a long) and an OSC command number (an int): undefined behaviour. The guard
// drops the parameters after the 15th separator (xterm ignores extra ones too), the digits
// of a CSI parameter after the 9th and of an OSC command after the 8th (no parameter means
// anything that large). Everything else passes unchanged and uncopied.
//
// REP (CSI n b) is taken away from libvterm, which repeats a wide character past the end
// of the row and crashes (six bytes did it): its final byte becomes one libvterm ignores,
// and the caller is told where and how many columns to repeat (TerminalScreen does it
// safely).
//
// To drop the right bytes it follows libvterm's own parser states across chunk boundaries:
// where an escape is still open after stray bytes, where a byte ends a CSI as invalid, and
// that ESC [ inside a string (OSC, DCS, APC, PM, SOS) is not a CSI.
class CsiGuard
{
public:
    static constexpr int MaxSeparators = 15;
    static constexpr int MaxDigits = 9;
    static constexpr int MaxOscDigits = 8;
    // A CSI final byte libvterm 0.3.3 does not handle (and so ignores, cursor untouched).
    static constexpr char NeutralFinal = 'z';

    // (offset just past the neutralised REP in the output, its column count)
    using Repeats = QVarLengthArray<std::pair<qsizetype, long>, 4>;

    // Returns true and fills `out` when bytes had to be dropped or changed; false means use
    // the input. repeats, when given, receives every REP found.
    bool filter(const char *data, qsizetype len, QByteArray *out, Repeats *repeats = nullptr);
    void reset() { m_state = State::Ground; }

private:
    enum class State { Ground, Escape, CsiLeader, CsiArgs, CsiIntermed, OscCommand, String };
    enum class Action { Keep, Drop, Repeat };
    Action step(unsigned char c);

    State m_state = State::Ground;
    bool m_inString = false;       // the escape was opened inside a string
    bool m_escIntermediate = false; // an intermediate byte followed the ESC
    int m_separators = 0;
    int m_digits = 0;
    bool m_csiLeader = false;
    bool m_csiIntermediate = false;
    long m_firstParam = -1; // -1: missing
};

} // namespace sandbar
