#include "terminal/CsiGuard.h"

#include <QByteArrayView>
#include <QChar>
#include <algorithm>
#include <cstring>

namespace sandbar {

namespace {

// libvterm's zero-width table (Markus Kuhn's wcwidth): non-spacing and enclosing marks,
// format characters, and the Hangul Jamo vowels and finals. Matching a little more than
// libvterm only makes a REP be skipped; matching less would let it hang.
bool zeroWidth(char32_t cp)
{
    if (cp >= 0x1160 && cp <= 0x11ff)
        return true;
    switch (QChar::category(cp)) {
    case QChar::Mark_NonSpacing:
    case QChar::Mark_Enclosing:
    case QChar::Other_Format: return true;
    default: return false;
    }
}

// The bytes of data[a, b) that libvterm prints (controls are run, not printed).
void appendPrintable(QByteArray *out, const char *data, qsizetype a, qsizetype b)
{
    for (qsizetype k = a; k < b; ++k) {
        const auto c = static_cast<unsigned char>(data[k]);
        if (c >= 0x20 && c != 0x7f)
            out->append(char(c));
    }
}

// The last codepoint of `bytes` (a lead byte and what follows it), U+FFFD where they are
// not one well-formed UTF-8 sequence: only whether it is a C1 control or of no width
// matters, and every malformed case is neither.
char32_t lastCodepoint(QByteArrayView bytes)
{
    const auto at = [&bytes](qsizetype k) { return static_cast<unsigned char>(bytes[k]); };
    const auto cont = [&at](qsizetype k, unsigned char lo = 0x80, unsigned char hi = 0xbf) {
        return at(k) >= lo && at(k) <= hi;
    };
    const qsizetype n = bytes.size();
    if (n == 2 && at(0) >= 0xc2 && at(0) <= 0xdf && cont(1))
        return char32_t(((at(0) & 0x1f) << 6) | (at(1) & 0x3f));
    if (n == 3 && at(0) >= 0xe0 && at(0) <= 0xef && cont(2) &&
        (at(0) == 0xe0   ? cont(1, 0xa0)
         : at(0) == 0xed ? cont(1, 0x80, 0x9f)
                         : cont(1)))
        return char32_t(((at(0) & 0x0f) << 12) | ((at(1) & 0x3f) << 6) | (at(2) & 0x3f));
    if (n == 4 && at(0) >= 0xf0 && at(0) <= 0xf4 && cont(2) && cont(3) &&
        (at(0) == 0xf0   ? cont(1, 0x90)
         : at(0) == 0xf4 ? cont(1, 0x80, 0x8f)
                         : cont(1)))
        return char32_t(((at(0) & 0x07) << 18) | ((at(1) & 0x3f) << 12) | ((at(2) & 0x3f) << 6) | (at(3) & 0x3f));
    return 0xfffd;
}

} // namespace

void CsiGuard::noteTextRun(const char *data, qsizetype from, qsizetype to)
{
    // From the end back to the last codepoint of width: that and the marks after it are the
    // glyph REP repeats (kept as bytes). Controls are skipped (they do not change it); a
    // codepoint cut at the chunk's end is not printed yet; a run of marks only joins the
    // glyph before it when the run goes on from the previous chunk, else it is a glyph of no
    // width: nothing to repeat. Runs once per stretch of text in a flood, so it reuses the
    // glyph's buffer instead of allocating.
    const auto setGlyph = [this, data](const QByteArray &prefix, qsizetype a, qsizetype b) {
        m_lastGlyph.resize(0);
        m_lastGlyph.append(prefix);
        appendPrintable(&m_lastGlyph, data, a, b);
    };
    qsizetype i = to;
    qsizetype glyphEnd = -1;
    while (i > from) {
        const auto b = static_cast<unsigned char>(data[i - 1]);
        if (b < 0x20 || b == 0x7f) {
            --i;
            continue;
        }
        if (b < 0x80) {
            setGlyph({}, i - 1, glyphEnd < 0 ? i : glyphEnd);
            m_runHasWidth = true;
            return;
        }
        qsizetype start = i - 1;
        while (start > from && (static_cast<unsigned char>(data[start]) & 0xc0) == 0x80)
            --start;
        const auto lead = static_cast<unsigned char>(data[start]);
        const qsizetype expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
        if ((lead & 0xc0) != 0x80 && i - start < expected) {
            i = start; // cut at the chunk's end: not printed yet, the next chunk judges it
            continue;
        }
        const bool continued = (lead & 0xc0) == 0x80 && start == 0;
        const char32_t cp = continued ? lastCodepoint(QByteArray(m_prevTail).append(data + start, i - start))
                                      : lastCodepoint(QByteArrayView(data + start, i - start));
        if (cp >= 0x80 && cp < 0xa0) {
            i = start; // a C1 control: dropped from the output, never a glyph
            continue;
        }
        if (glyphEnd < 0)
            glyphEnd = i;
        if (!zeroWidth(cp)) {
            setGlyph(continued ? m_prevTail : QByteArray(), start, glyphEnd);
            m_runHasWidth = true;
            return;
        }
        i = start;
    }
    if (glyphEnd < 0)
        return; // no text: the glyph before stays
    if (from == 0 && m_groundAtChunkStart && m_runHasWidth && !m_lastGlyph.isEmpty()) {
        // Marks joining the glyph of the last chunk (with the part of the first that chunk held).
        if ((static_cast<unsigned char>(data[from]) & 0xc0) == 0x80)
            m_lastGlyph += m_prevTail;
        appendPrintable(&m_lastGlyph, data, from, glyphEnd);
    } else {
        m_lastGlyph.clear();
    }
}

void CsiGuard::keepTail(const char *run, qsizetype n, bool continues)
{
    // The unfinished codepoint ending this chunk's text (with what earlier chunks held of
    // it), for the chunk that completes it. A codepoint is at most 4 bytes: only the run's
    // last 4 matter, and the earlier tail only when the run is shorter.
    char tail[8];
    qsizetype size = 0;
    if (continues && n < 4) {
        size = m_prevTail.size(); // at most 3
        std::memcpy(tail, m_prevTail.constData(), size_t(size));
    }
    const qsizetype take = std::min<qsizetype>(n, 4);
    std::memcpy(tail + size, run + n - take, size_t(take));
    size += take;
    qsizetype lead = size;
    while (lead > 0 && size - lead < 4) {
        const auto b = static_cast<unsigned char>(tail[lead - 1]);
        --lead;
        if ((b & 0xc0) != 0x80)
            break;
    }
    const auto b = lead < size ? static_cast<unsigned char>(tail[lead]) : 0;
    const qsizetype need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    if (b >= 0xc0 && size - lead < need)
        m_prevTail = QByteArray(tail + lead, size - lead);
    else
        m_prevTail.clear();
}

void CsiGuard::keepOpen(const char *data, qsizetype len)
{
    // What the open sequence adds in this chunk: its bytes without the C0 controls libvterm
    // ran, as the guard passed them on (some dropped, some replaced).
    qsizetype edit = 0;
    for (qsizetype k = m_openFrom; k < len; ++k) {
        auto c = static_cast<unsigned char>(data[k]);
        if (edit < m_openEdits.size() && m_openEdits[edit].at == k) {
            c = static_cast<unsigned char>(m_openEdits[edit++].with);
            if (c == 0)
                continue;
        }
        if ((c < 0x20 && c != 0x1b) || c == 0x7f)
            continue;
        if (m_open.size() >= MaxOpenBytes) {
            m_openTooLong = true;
            return;
        }
        m_open.append(char(c));
    }
}

void CsiGuard::abandonOpen()
{
    m_state = State::Ground;
    m_open.clear();
    m_openTooLong = false;
}

void CsiGuard::endParam()
{
    if (m_param == 2004)
        m_mentions2004 = true;
    m_param = -1;
}

CsiGuard::Action CsiGuard::finishCsi(unsigned char final)
{
    endParam();
    m_state = State::Ground;
    const bool plain = m_leaders == 0 && m_intermediates == 0;
    if (final == 'b' && plain)
        return Action::Repeat;
    if ((final == 'h' || final == 'l') && m_leaders == 1 && m_privateLeader && m_intermediates == 0 && m_mentions2004)
        m_bracketedPaste = final == 'h';
    if (final == 'p' && m_leaders == 0 && m_intermediates == 1 && m_bangIntermediate)
        m_bracketedPaste = false; // DECSTR
    return Action::Keep;
}

// long by design: state machine (libvterm 0.3.3's parser, mirrored byte for byte)
CsiGuard::Action CsiGuard::step(unsigned char c)
{
    if (c == 0x00 || c == 0x7f)
        return Action::Keep; // ignored by libvterm in every state
    if (c == 0x18 || c == 0x1a) {
        m_state = State::Ground; // CAN, SUB
        return Action::Keep;
    }
    if (c == 0x1b) {
        // In a string libvterm stays in it: a second ESC there still only ends it with '\\'.
        m_inString =
            m_state == State::OscCommand || m_state == State::String || (m_state == State::Escape && m_inString);
        m_escIntermediate = false;
        m_state = State::Escape;
        return Action::Keep;
    }
    if (c == 0x07 && (m_state == State::OscCommand || m_state == State::String)) {
        m_state = State::Ground; // BEL ends a string
        return Action::Keep;
    }
    if (c == 0x07 && m_state == State::Escape && m_inString) {
        // libvterm leaves the string but not the escape: the same as an ESC on its own.
        m_inString = false;
        return Action::Reopen;
    }
    if (c < 0x20)
        return Action::Keep; // other C0 controls run without ending a sequence
    switch (m_state) {
    case State::Ground: return Action::Keep;
    case State::Escape:
        if (!m_escIntermediate && c >= 0x40 && c < 0x60 && (!m_inString || c == '\\')) {
            // Hoisted to a C1 control.
            m_separators = m_digits = m_leaders = m_intermediates = 0;
            m_privateLeader = m_bangIntermediate = m_mentions2004 = false;
            m_firstParam = m_param = -1;
            m_dcsString = false;
            if (c == '[')
                m_state = State::CsiLeader;
            else if (c == ']')
                m_state = State::OscCommand;
            else if (c == 'P')
                m_state = State::DcsCommand;
            else if (c == 'X' || c == '^' || c == '_')
                m_state = State::String;
            else
                m_state = State::Ground;
            return Action::Keep;
        }
        m_inString = false; // anything else leaves a string
        if (c >= 0x20 && c <= 0x2f) {
            m_escIntermediate = true;
        } else if (c >= 0x30 && c <= 0x7e) {
            m_state = State::Ground;
            if (!m_escIntermediate && c == '8')
                return Action::Restore;
            if (!m_escIntermediate && c == 'c')
                m_bracketedPaste = false; // RIS
        }
        // Other bytes leave the escape open, as libvterm does.
        return Action::Keep;
    case State::CsiLeader:
        if (c >= 0x3c && c <= 0x3f) {
            m_privateLeader = ++m_leaders == 1 && c == '?';
            return Action::Keep;
        }
        m_state = State::CsiArgs;
        [[fallthrough]];
    case State::CsiArgs:
        if (c >= '0' && c <= '9') {
            if (++m_digits > MaxDigits || m_separators > MaxSeparators)
                return Action::Drop;
            m_param = (m_param < 0 ? 0 : m_param * 10) + (c - '0');
            if (m_separators == 0)
                m_firstParam = m_param;
            return Action::Keep;
        }
        if (c == ';' || c == ':') {
            m_digits = 0;
            endParam();
            return ++m_separators > MaxSeparators ? Action::Drop : Action::Keep;
        }
        m_state = State::CsiIntermed;
        [[fallthrough]];
    case State::CsiIntermed:
        if (c >= 0x20 && c <= 0x2f) {
            m_bangIntermediate = ++m_intermediates == 1 && c == '!';
            return Action::Keep;
        }
        if (c >= 0x40 && c <= 0x7e)
            return finishCsi(c);
        m_state = State::Ground; // an invalid CSI
        return Action::Keep;
    case State::DcsCommand:
        if (c >= 0x40 && c <= 0x7e) {
            m_state = State::String;
            m_dcsString = true;
        }
        return Action::Keep;
    case State::OscCommand:
        if (c >= '0' && c <= '9')
            return ++m_digits > MaxOscDigits ? Action::Drop : Action::Keep;
        m_state = State::String;
        return Action::Keep;
    case State::String:
        // libvterm's DECRQSS (DCS $ q) shifts the request's bytes as signed chars: one past
        // 0x7f is undefined behaviour. No request has one; '?' keeps the request unknown.
        return m_dcsString && c >= 0x80 ? Action::Substitute : Action::Keep;
    }
    return Action::Keep;
}

// long by design: state machine (the filter's per-byte decisions over libvterm's states)
bool CsiGuard::filter(const char *data, qsizetype len, QByteArray *out, Events *events)
{
    bool copying = false;
    qsizetype copiedUpTo = 0; // input before this index is already in *out (when copying)
    const auto outputOffset = [&](qsizetype i) { return copying ? out->size() + (i - copiedUpTo) : i; };
    const auto drop = [&](qsizetype k) {
        if (!copying) {
            out->clear();
            out->reserve(len);
            copying = true;
        }
        out->append(data + copiedUpTo, k - copiedUpTo);
        copiedUpTo = k + 1;
    };
    const auto isC1 = [](char b) {
        return static_cast<unsigned char>(b) >= 0x80 && static_cast<unsigned char>(b) < 0xa0;
    };
    qsizetype i = 0;
    qsizetype runStart = 0; // where the current stretch of text (Ground) began
    m_groundAtChunkStart = m_state == State::Ground;
    m_openFrom = 0;
    m_openEdits.clear();
    if (m_c2AtEnd && len > 0 && m_state == State::Ground) {
        // The C2 held back at the end of the last chunk: written now only before the second
        // byte of a character it can start (U+00A0..U+00BF).
        const auto b = static_cast<unsigned char>(data[0]);
        if (b >= 0xa0 && b <= 0xbf) {
            out->clear();
            out->reserve(len + 1);
            out->append(char(0xc2));
            copying = true;
        } else if (isC1(data[0])) {
            drop(0);
            i = 1;
        }
    }
    m_c2AtEnd = false;
    while (i < len) {
        if (m_state == State::Ground) {
            // Text is the bulk of a flood: jump to the next ESC, or to the next C1 control
            // written in UTF-8 (C2 80..9F): libvterm prints those as glyphs of width -1 and
            // walks the cursor off the row (a crash in insert mode). They mean nothing as text.
            const char *from = data + i;
            const auto *esc = static_cast<const char *>(std::memchr(from, 0x1b, size_t(len - i)));
            const auto *c2 =
                static_cast<const char *>(std::memchr(from, 0xc2, size_t((esc ? esc : data + len) - from)));
            if (c2) {
                // libvterm's decoder keeps a pending C2 across 0xFE/0xFF bytes, controls and
                // whole escape sequences, so a C1 can be completed much later: a C2 passes
                // only right before the second byte of a character it starts (A0..BF).
                const qsizetype k = c2 - data;
                if (k + 1 == len) {
                    drop(k);
                    m_c2AtEnd = true; // held back: see the start of the next chunk
                    break;
                }
                const auto next = static_cast<unsigned char>(data[k + 1]);
                if (next >= 0xa0 && next <= 0xbf) {
                    i = k + 2;
                } else if (isC1(data[k + 1])) {
                    drop(k);
                    drop(k + 1);
                    i = k + 2;
                } else {
                    drop(k);
                    i = k + 1; // the next byte may be an ESC: look at it again
                }
                continue;
            }
            if (!esc) {
                noteTextRun(data, runStart, len);
                break;
            }
            i = esc - data;
            noteTextRun(data, runStart, i);
        }
        const auto byte = static_cast<unsigned char>(data[i]);
        const Action a = step(byte);
        if (m_state == State::Ground) {
            runStart = i + 1;
            m_runHasWidth = false; // a new run of text begins
        }
        // The open sequence's bytes are copied once, at the chunk's end (see keepOpen).
        if (m_state == State::Ground) {
            m_open.resize(0);
            m_openTooLong = false;
        } else if (byte == 0x1b && m_state == State::Escape && !m_inString) {
            m_open.resize(0);
            m_openTooLong = false;
            m_openFrom = i;
            m_openEdits.clear();
        } else if (a == Action::Reopen) {
            m_open.resize(0); // what is open now is what an ESC alone opens
            m_openTooLong = false;
            m_openFrom = i;
            m_openEdits.clear();
            m_openEdits.append({i, '\x1b'});
        } else if (a == Action::Drop || a == Action::Substitute) {
            m_openEdits.append({i, a == Action::Drop ? '\0' : DcsSubstitute});
        }
        if (a == Action::Restore) {
            if (events)
                events->restores.append(outputOffset(i + 1));
        } else if (a != Action::Keep && a != Action::Reopen) {
            drop(i);
            if (a == Action::Substitute)
                out->append(DcsSubstitute);
            if (a == Action::Repeat) {
                out->append(NeutralFinal);
                if (events)
                    events->repeats.append({out->size(), m_firstParam, m_lastGlyph});
            }
        }
        ++i;
    }
    if (m_state == State::Ground)
        keepTail(data + runStart, len - runStart, runStart == 0 && m_groundAtChunkStart);
    else {
        m_prevTail.clear();
        keepOpen(data, len);
    }
    if (!copying)
        return false;
    out->append(data + copiedUpTo, len - copiedUpTo);
    return true;
}

} // namespace sandbar
