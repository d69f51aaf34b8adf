// libFuzzer target: random bytes and random resizes into TerminalScreen, then every query
// the view makes (cells, text, selection, search, links) over scrollback and screen.
//
// Input: byte 0 and 1 pick the first size; then a NUL byte followed by two bytes resizes,
// and every other run of bytes is fed as one chunk. NUL does nothing on a terminal, so
// seeds are plain terminal streams.
#include "terminal/LinkDetector.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalSearch.h"
#include "terminal/TerminalSelection.h"

#include <cstddef>
#include <cstdint>

using namespace sandbar;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    TerminalScreen screen(1 + data[0] % 160, 1 + data[1] % 60);
    screen.setScrollbackLimit(64);
    size_t i = 2;
    while (i < size) {
        if (data[i] == 0) {
            if (i + 2 >= size)
                break;
            screen.resize(1 + data[i + 1] % 160, 1 + data[i + 2] % 60);
            i += 3;
            continue;
        }
        size_t end = i;
        while (end < size && data[end] != 0)
            ++end;
        screen.feedNow(QByteArray(reinterpret_cast<const char *>(data + i), qsizetype(end - i)));
        i = end;
    }

    const int total = screen.totalLines();
    for (int line = 0; line < total; ++line) {
        QList<int> cols;
        const QString text = screen.lineText(line, &cols);
        if (cols.size() != text.size())
            __builtin_trap();
        detectLinks(text);
        (void)screen.isWrapped(line);
    }
    TerminalSelection sel;
    const int a = int(data[0]) % total;
    sel.start(screen, stablePos(screen, a, data[1] % screen.cols()), TerminalSelection::Mode(data[0] % 3),
              (data[1] & 1) != 0);
    sel.extend(screen, stablePos(screen, total - 1 - a, screen.cols() - 1));
    (void)sel.text(screen);
    sel.selectAll(screen);
    (void)sel.text(screen);

    TerminalSearch search;
    search.setNeedle(screen.lineText(total - 1).left(3));
    search.next(screen);
    search.previous(screen);
    screen.paste(QString::fromUtf8(reinterpret_cast<const char *>(data), int(qMin<size_t>(size, 64))));
    return 0;
}
