#include "terminal/CsiGuard.h"

#include <QList>
#include <QString>
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

} // namespace

void CsiGuard::noteTextRun(const char *data, qsizetype from, qsizetype to)
{
    // From the end back to the last codepoint of width: that and the marks after it are the
    // glyph REP repeats (kept as bytes). Controls are skipped (they do not change it); a
    // codepoint cut at the chunk's end is not printed yet; a run of marks only joins the
    // glyph before it when the run goes on from the previous chunk, else it is a glyph of no
    // width: nothing to repeat.
    const auto glyphBytes = [data](qsizetype a, qsizetype b) {
        QByteArray g;
        for (qsizetype k = a; k < b; ++k) {
            const auto c = static_cast<unsigned char>(data[k]);
            if (c >= 0x20 && c != 0x7f)
                g.append(char(c));
        }
        return g;
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
            m_lastGlyph = glyphBytes(i - 1, glyphEnd < 0 ? i : glyphEnd);
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
        QByteArray bytes(data + start, i - start);
        if (continued)
            bytes.prepend(m_prevTail); // the codepoint began in the previous chunk
        const QList<uint> ucs = QString::fromUtf8(bytes).toUcs4();
        const char32_t cp = ucs.isEmpty() ? 0xfffd : char32_t(ucs.last());
        if (cp >= 0x80 && cp < 0xa0) {
            i = start; // a C1 control: dropped from the output, never a glyph
            continue;
        }
        if (glyphEnd < 0)
            glyphEnd = i;
        if (!zeroWidth(cp)) {
            m_lastGlyph = glyphBytes(start, glyphEnd);
            if (continued)
                m_lastGlyph.prepend(m_prevTail);
            m_runHasWidth = true;
            return;
        }
        i = start;
    }
    if (glyphEnd < 0)
        return; // no text: the glyph before stays
    if (from == 0 && m_groundAtChunkStart && m_runHasWidth && !m_lastGlyph.isEmpty()) {
        // Marks joining the glyph of the last chunk (with the part of the first that chunk held).
        const bool continued = (static_cast<unsigned char>(data[from]) & 0xc0) == 0x80;
        m_lastGlyph += (continued ? m_prevTail : QByteArray()) + glyphBytes(from, glyphEnd);
    } else {
        m_lastGlyph.clear();
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

CsiGuard::Action CsiGuard::step(unsigned char c)
{
    if (c == 0x00 || c == 0x7f)
        return Action::Keep; // ignored by libvterm in every state
    if (c == 0x18 || c == 0x1a) {
        m_state = State::Ground; // CAN, SUB
        return Action::Keep;
    }
    if (c == 0x1b) {
        m_inString = m_state == State::OscCommand || m_state == State::String;
        m_escIntermediate = false;
        m_state = State::Escape;
        return Action::Keep;
    }
    if (c == 0x07 && (m_state == State::OscCommand || m_state == State::String)) {
        m_state = State::Ground; // BEL ends a string
        return Action::Keep;
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
        if (c >= 0x40 && c <= 0x7e)
            m_state = State::String;
        return Action::Keep;
    case State::OscCommand:
        if (c >= '0' && c <= '9')
            return ++m_digits > MaxOscDigits ? Action::Drop : Action::Keep;
        m_state = State::String;
        return Action::Keep;
    case State::String: return Action::Keep;
    }
    return Action::Keep;
}

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
        if (m_state == State::Ground) {
            m_open.clear();
            m_openTooLong = false;
        } else if (byte == 0x1b && m_state == State::Escape && !m_inString) {
            m_open = QByteArray(1, char(byte));
            m_openTooLong = false;
        } else if (a != Action::Drop && (byte >= 0x20 || byte == 0x1b) && byte != 0x7f) {
            if (m_open.size() < MaxOpenBytes)
                m_open.append(char(byte));
            else
                m_openTooLong = true;
        }
        if (a == Action::Restore) {
            if (events)
                events->restores.append(outputOffset(i + 1));
        } else if (a != Action::Keep) {
            drop(i);
            if (a == Action::Repeat) {
                out->append(NeutralFinal);
                if (events)
                    events->repeats.append({out->size(), m_firstParam, m_lastGlyph});
            }
        }
        ++i;
    }
    // The unfinished codepoint ending this chunk's text (with what earlier chunks held of it),
    // for the chunk that completes it.
    if (m_state == State::Ground) {
        QByteArray tail = (runStart == 0 && m_groundAtChunkStart) ? m_prevTail : QByteArray();
        tail.append(data + runStart, len - runStart);
        qsizetype lead = tail.size();
        while (lead > 0 && tail.size() - lead < 4) {
            const auto b = static_cast<unsigned char>(tail[lead - 1]);
            --lead;
            if ((b & 0xc0) != 0x80)
                break;
        }
        const auto b = lead < tail.size() ? static_cast<unsigned char>(tail[lead]) : 0;
        const qsizetype need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
        m_prevTail = (b >= 0xc0 && tail.size() - lead < need) ? tail.mid(lead) : QByteArray();
    } else {
        m_prevTail.clear();
    }
    if (!copying)
        return false;
    out->append(data + copiedUpTo, len - copiedUpTo);
    return true;
}

} // namespace sandbar
