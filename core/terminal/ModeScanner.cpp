#include "terminal/ModeScanner.h"

#include <cstring>

namespace sandbar {

void ModeScanner::reset()
{
    m_state = State::Ground;
    m_param = 0;
    m_sawDigit = false;
    m_mentions2004 = false;
    m_bracketedPaste = false;
}

void ModeScanner::endParam()
{
    if (m_sawDigit && m_param == 2004)
        m_mentions2004 = true;
    m_param = 0;
    m_sawDigit = false;
}

void ModeScanner::scan(const char *data, qsizetype len, Offsets *restores)
{
    const char *p = data;
    const char *end = data + len;
    while (p < end) {
        if (m_state == State::Ground) {
            const void *esc = std::memchr(p, 0x1b, size_t(end - p));
            if (!esc)
                return;
            p = static_cast<const char *>(esc) + 1;
            m_state = State::Escape;
            continue;
        }
        const auto c = static_cast<unsigned char>(*p++);
        if (c == 0x1b) {
            m_state = State::Escape;
            continue;
        }
        if (c == 0x18 || c == 0x1a) { // CAN and SUB abort a sequence
            m_state = State::Ground;
            continue;
        }
        switch (m_state) {
        case State::Ground: break;
        case State::Escape:
            if (c == '[') {
                m_state = State::CsiStart;
            } else if (c == 'c') {
                m_bracketedPaste = false;
                m_state = State::Ground;
            } else if (c == '8') {
                if (restores)
                    restores->append(p - data);
                m_state = State::Ground;
            } else {
                m_state = State::Ground;
            }
            break;
        case State::CsiStart:
            if (c == '?') {
                m_state = State::CsiPrivate;
                m_param = 0;
                m_sawDigit = false;
                m_mentions2004 = false;
            } else if (c >= 0x40 && c <= 0x7e) {
                m_state = State::Ground;
            } else if (c >= 0x20) {
                m_state = State::CsiIgnore;
            }
            break;
        case State::CsiPrivate:
            if (c >= '0' && c <= '9') {
                if (m_param < 100000)
                    m_param = m_param * 10 + (c - '0');
                m_sawDigit = true;
            } else if (c == ';' || c == ':') {
                endParam();
            } else if (c == 'h' || c == 'l') {
                endParam();
                if (m_mentions2004)
                    m_bracketedPaste = c == 'h';
                m_state = State::Ground;
            } else if (c >= 0x40 && c <= 0x7e) {
                m_state = State::Ground;
            } else if (c >= 0x20) {
                m_state = State::CsiIgnore;
            }
            break;
        case State::CsiIgnore:
            if (c >= 0x40 && c <= 0x7e)
                m_state = State::Ground;
            break;
        }
    }
}

} // namespace sandbar
