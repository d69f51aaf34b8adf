#pragma once

// Shared by the fuzz targets: reads parameters from the front of the input and splits the
// rest into pieces whose sizes also come from the input, so that every incremental parser
// sees its bytes cut at places the fuzzer chooses (and a crash reproduces from the file).
#include <QByteArray>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace fuzz {

class Input
{
public:
    Input(const uint8_t *data, size_t size)
        : m_data(data)
        , m_size(size)
    {
    }
    bool empty() const { return m_pos >= m_size; }
    size_t left() const { return m_size - m_pos; }
    uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
    QByteArray rest()
    {
        const QByteArray r(reinterpret_cast<const char *>(m_data + m_pos), qsizetype(m_size - m_pos));
        m_pos = m_size;
        return r;
    }

private:
    const uint8_t *m_data;
    size_t m_size;
    size_t m_pos = 0;
};

// Piece lengths from a 32-bit state (xorshift): 1..maxPiece bytes each, with whole-input
// feeds when maxPiece is 0.
class Splitter
{
public:
    Splitter(uint32_t seed, size_t maxPiece)
        : m_state(seed | 1u)
        , m_max(maxPiece)
    {
    }
    template <typename Fn>
    void run(const QByteArray &bytes, Fn &&feed) const
    {
        uint32_t state = m_state;
        qsizetype at = 0;
        while (at < bytes.size()) {
            qsizetype n = bytes.size() - at;
            if (m_max > 0) {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                n = qMin<qsizetype>(n, qsizetype(1 + state % m_max));
            }
            feed(bytes.mid(at, n));
            at += n;
        }
    }

private:
    uint32_t m_state;
    size_t m_max;
};

// A broken invariant: abort so libFuzzer keeps the input as a crash.
[[noreturn]] inline void fail(const char *what)
{
    __builtin_printf("fuzz invariant broken: %s\n", what);
    std::abort();
}
#define FUZZ_CHECK(cond)                                                                                               \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            ::fuzz::fail(#cond);                                                                                       \
    } while (0)

} // namespace fuzz
