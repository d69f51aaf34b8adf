#include "terminal/CsiGuard.h"

#include <cstring>

namespace sandbar {

void CsiGuard::reset()
{
    m_state = State::Ground;
    m_bracketedPaste = false;
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
    if (m_c2AtEnd && len > 0 && m_state == State::Ground && isC1(data[0])) {
        drop(0); // the second half of a C1 control split across chunks
        i = 1;
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
                const qsizetype k = c2 - data;
                if (k + 1 == len) {
                    m_c2AtEnd = true;
                    break;
                }
                if (isC1(data[k + 1])) {
                    drop(k);
                    drop(k + 1);
                    i = k + 2;
                } else {
                    i = k + 1; // the next byte may be an ESC: look at it again
                }
                continue;
            }
            if (!esc)
                break;
            i = esc - data;
        }
        const auto byte = static_cast<unsigned char>(data[i]);
        const Action a = step(byte);
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
                    events->repeats.append({out->size(), m_firstParam});
            }
        }
        ++i;
    }
    if (!copying)
        return false;
    out->append(data + copiedUpTo, len - copiedUpTo);
    return true;
}

} // namespace sandbar
