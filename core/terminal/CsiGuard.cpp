#include "terminal/CsiGuard.h"

#include <cstring>

namespace sandbar {

bool CsiGuard::filter(const char *data, qsizetype len, QByteArray *out)
{
    bool copying = false;
    qsizetype copiedUpTo = 0; // input before this index is already in *out (when copying)
    auto drop = [&](qsizetype i) {
        if (!copying) {
            out->clear();
            out->reserve(len);
            copying = true;
        }
        out->append(data + copiedUpTo, i - copiedUpTo);
        copiedUpTo = i + 1;
    };
    qsizetype i = 0;
    while (i < len) {
        if (m_state == State::Ground) {
            const void *esc = std::memchr(data + i, 0x1b, size_t(len - i));
            if (!esc)
                break;
            i = static_cast<const char *>(esc) - data + 1;
            m_state = State::Escape;
            continue;
        }
        const auto c = static_cast<unsigned char>(data[i]);
        if (c == 0x1b) {
            m_state = State::Escape;
        } else if (c == 0x18 || c == 0x1a) {
            m_state = State::Ground;
        } else if (m_state == State::Escape) {
            m_state = c == '[' ? State::Params : State::Ground;
            m_separators = 0;
            m_digits = 0;
        } else if (c >= 0x40 && c <= 0x7e) {
            m_state = State::Ground; // final byte
        } else if (c >= 0x20 && c <= 0x3f) {
            const bool separator = c == ';' || c == ':';
            const bool digit = c >= '0' && c <= '9';
            if (separator) {
                ++m_separators;
                m_digits = 0;
            } else if (digit) {
                ++m_digits;
            }
            if ((m_separators > MaxSeparators && (separator || digit)) || (digit && m_digits > MaxDigits))
                drop(i);
        }
        // Other C0 controls inside a CSI are executed by libvterm and do not end it.
        ++i;
    }
    if (!copying)
        return false;
    out->append(data + copiedUpTo, len - copiedUpTo);
    return true;
}

} // namespace sandbar
