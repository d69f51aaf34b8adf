#pragma once

#include <QHashFunctions>
#include <QString>
#include <array>
#include <cstdint>

namespace sandbar {

// A colour as libvterm reports it, packed into 32 bits so cells and scrollback spans stay
// small: the top byte says which kind, the low 24 bits carry the index or the RGB value.
struct TermColor {
    enum Kind : uint8_t { Default = 0, Indexed = 1, Rgb = 2 };
    uint32_t packed = 0;

    static constexpr TermColor defaultColor() { return {}; }
    static constexpr TermColor indexed(int idx)
    {
        return TermColor{(uint32_t(Indexed) << 24) | (uint32_t(idx) & 0xff)};
    }
    static constexpr TermColor rgb(int r, int g, int b)
    {
        return TermColor{(uint32_t(Rgb) << 24) | ((uint32_t(r) & 0xff) << 16) | ((uint32_t(g) & 0xff) << 8) |
                         (uint32_t(b) & 0xff)};
    }
    constexpr Kind kind() const { return Kind(packed >> 24); }
    constexpr bool isDefault() const { return kind() == Default; }
    constexpr int index() const { return int(packed & 0xff); }
    constexpr int red() const { return int((packed >> 16) & 0xff); }
    constexpr int green() const { return int((packed >> 8) & 0xff); }
    constexpr int blue() const { return int(packed & 0xff); }
    friend constexpr bool operator==(TermColor a, TermColor b) { return a.packed == b.packed; }
};

struct CellAttrs {
    enum Flag : uint16_t {
        Bold = 1 << 0,
        Italic = 1 << 1,
        Blink = 1 << 2,
        Reverse = 1 << 3,
        Strike = 1 << 4,
        Conceal = 1 << 5,
        UnderlineShift = 6, // two bits: 0 none, 1 single, 2 double, 3 curly
        UnderlineMask = 3 << 6,
    };
    enum Underline { NoUnderline = 0, SingleUnderline = 1, DoubleUnderline = 2, CurlyUnderline = 3 };

    TermColor fg;
    TermColor bg;
    uint16_t flags = 0;

    bool has(Flag f) const { return (flags & f) != 0; }
    int underline() const { return (flags & UnderlineMask) >> UnderlineShift; }
    friend bool operator==(const CellAttrs &a, const CellAttrs &b)
    {
        return a.fg == b.fg && a.bg == b.bg && a.flags == b.flags;
    }
};

inline size_t qHash(const CellAttrs &a, size_t seed = 0)
{
    return qHashMulti(seed, a.fg.packed, a.bg.packed, a.flags);
}

// One screen cell. width is 1, 2 for the first half of a wide character, and 0 for the cell
// a wide character covers (which carries no characters of its own).
struct Cell {
    static constexpr int MaxChars = 6;
    std::array<char32_t, MaxChars> chars{};
    uint8_t width = 1;
    CellAttrs attrs;

    bool isBlank() const { return chars[0] == 0 || chars[0] == U' '; }
    QString text() const
    {
        QString out;
        for (char32_t c : chars) {
            if (c == 0)
                break;
            out += QString::fromUcs4(&c, 1);
        }
        return out;
    }
};

enum class CursorShape { Block, Underline, Bar };
enum class MouseMode { None, Click, Drag, Move };

} // namespace sandbar
