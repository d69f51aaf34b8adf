#pragma once

#include <QByteArray>
#include <QVarLengthArray>

namespace sandbar {

// Sits in front of vterm_input_write and follows libvterm 0.3.3's own parser states, byte for
// byte and across chunk boundaries (an escape stays open over stray bytes and C0 controls,
// an ESC inside a string keeps the string, a BEL after it leaves the string but not the escape;
// a byte outside a CSI's grammar ends it as invalid; ESC [ inside OSC, DCS, APC, PM or SOS
// strings is no CSI), for what libvterm gets wrong or does not say:
//  - a CSI with 16 or more parameters writes past libvterm's argument array: parameters
//    after the 15th separator are dropped (xterm ignores extra ones too);
//  - a CSI parameter (a long) and an OSC command number (an int) overflow, one digit at a
//    time: digits after the 9th, and the 8th for OSC, are dropped (no parameter means
//    anything that large);
//  - libvterm's REP (CSI n b) crashes on a wide character at the end of a row and loops for
//    ever on a glyph of no width: its final byte becomes one libvterm ignores, and the
//    caller writes the glyph again itself (the guard keeps the last glyph's bytes);
//  - DECRC (ESC 8) restores a cursor saved on a larger screen without clamping it, and
//    libvterm then writes out of bounds: the caller is told where each DECRC ends;
//  - C1 controls written in UTF-8 (C2 80..9F) are printed by libvterm as glyphs of width -1
//    that walk the cursor off the row (a crash in insert mode); its decoder even completes
//    one from a C2 left pending across 0xFF bytes, controls and escape sequences: a C2 passes
//    only right before A0..BF, the C1 pairs are dropped;
//  - libvterm's DECRQSS (DCS $ q) shifts the request's bytes as signed chars, undefined for
//    one past 0x7f: such bytes in a DCS string become '?', which keeps the request unknown;
//  - libvterm honours bracketed paste (DECSET 2004) but does not say whether it is on: the
//    guard tracks it, and RIS and DECSTR, which turn it off.
// Everything else passes unchanged and uncopied. All of it was found by fuzzing.
class CsiGuard
{
public:
    static constexpr int MaxSeparators = 15;
    static constexpr int MaxDigits = 9;
    static constexpr int MaxOscDigits = 8;
    // A CSI final byte libvterm 0.3.3 does not handle (and so ignores, cursor untouched).
    static constexpr char NeutralFinal = 'z';

    struct Events {
        struct Repeat {
            qsizetype at;     // just past the neutralised REP in the output
            long count;       // its parameter; -1 missing
            QByteArray glyph; // the glyph to repeat, as the program wrote it; empty: none
        };
        QVarLengthArray<Repeat, 4> repeats;
        // offsets just past each DECRC in the output
        QVarLengthArray<qsizetype, 4> restores;
    };

    // Returns true and fills `out` when bytes had to be dropped or changed; false means use
    // the input. events, when given, receives what the caller must act on.
    bool filter(const char *data, qsizetype len, QByteArray *out, Events *events = nullptr);
    bool bracketedPaste() const { return m_bracketedPaste; }
    // No escape sequence or string is open: bytes written to libvterm now start afresh.
    bool inGround() const { return m_state == State::Ground; }
    // The open sequence's bytes so far, without the C0 controls libvterm already ran: written
    // again after a CAN, they put libvterm's parser back where it was. Empty when nothing is
    // open or when the sequence (a long string) is past what is kept; the guard then treats
    // it as cancelled (call abandonOpen()).
    QByteArray openSequence() const { return m_openTooLong ? QByteArray() : m_open; }
    void abandonOpen();

private:
    // As libvterm's: a DCS's command bytes are not yet a string (ESC there starts an escape).
    enum class State { Ground, Escape, CsiLeader, CsiArgs, CsiIntermed, DcsCommand, OscCommand, String };
    enum class Action { Keep, Drop, Substitute, Repeat, Restore, Reopen };
    static constexpr char DcsSubstitute = '?';
    Action step(unsigned char c);
    // Looks at the text run data[from, to) that libvterm prints: the glyph a REP repeats.
    void noteTextRun(const char *data, qsizetype from, qsizetype to);
    Action finishCsi(unsigned char final);
    void keepTail(const char *run, qsizetype n, bool continues);
    void keepOpen(const char *data, qsizetype len);
    void endParam();

    State m_state = State::Ground;
    bool m_inString = false;        // the escape was opened inside a string
    bool m_escIntermediate = false; // an intermediate byte followed the ESC
    int m_separators = 0;
    int m_digits = 0;
    int m_leaders = 0;
    bool m_privateLeader = false; // the one leader byte is '?'
    int m_intermediates = 0;
    bool m_bangIntermediate = false; // the one intermediate byte is '!'
    long m_firstParam = -1;          // -1: missing
    long m_param = -1;
    bool m_mentions2004 = false;
    bool m_bracketedPaste = false;
    QByteArray m_lastGlyph; // the last glyph printed (a codepoint of width and its marks)
    bool m_c2AtEnd = false;
    bool m_groundAtChunkStart = true;
    bool m_runHasWidth = false; // the current run of text has printed a glyph of width
    QByteArray m_prevTail;      // up to 3 bytes ending the last chunk's text: a codepoint begun
    bool m_dcsString = false;   // the string is a DCS's (not an OSC's, APC's, PM's or SOS's)
    // The open sequence's bytes before this chunk; this chunk's are data[m_openFrom, end)
    // less the controls, with the guard's edits (a byte dropped, with 0, or replaced).
    struct Edit {
        qsizetype at;
        char with;
    };
    QByteArray m_open;
    qsizetype m_openFrom = 0;
    QVarLengthArray<Edit, 4> m_openEdits;
    bool m_openTooLong = false;
    static constexpr qsizetype MaxOpenBytes = 4096;
};

} // namespace sandbar
