// Scrollback, resize with reflow, selection and search over TerminalScreen.
#include "terminal/LinkDetector.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalSearch.h"
#include "terminal/TerminalSelection.h"

#include <QTest>

using namespace sandbar;

namespace {
QByteArray numberedLines(int from, int to, const char *prefix = "line ")
{
    QByteArray out;
    for (int i = from; i < to; ++i)
        out += prefix + QByteArray::number(i) + "\r\n";
    return out;
}
} // namespace

class TestTerminalModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scrollbackKeepsLinesAndAttributes()
    {
        TerminalScreen screen(20, 5);
        screen.feedNow("\x1b[1;31mred\x1b[0m \xe4\xb8\xad\xe6\x96\x87 e\xcc\x81\r\n");
        screen.feedNow(numberedLines(0, 30));
        QCOMPARE(screen.scrollbackSize(), 27);
        QCOMPARE(screen.lineText(0), QString::fromUtf8("red \xe4\xb8\xad\xe6\x96\x87 e\xcc\x81"));
        const Cell r = screen.cell(0, 0);
        QVERIFY(r.attrs.has(CellAttrs::Bold));
        QCOMPARE(r.attrs.fg, TermColor::indexed(1));
        QCOMPARE(screen.cell(0, 4).width, uint8_t(2));
        QCOMPARE(screen.cell(0, 5).width, uint8_t(0));
        QCOMPARE(screen.cell(0, 9).text(), QString::fromUtf8("e\xcc\x81"));
        QCOMPARE(screen.lineText(1), QStringLiteral("line 0"));
        QCOMPARE(screen.lineText(screen.totalLines() - 2), QStringLiteral("line 29"));
        QCOMPARE(screen.lineText(screen.totalLines() - 1), QString());
    }

    void scrollbackLimit()
    {
        TerminalScreen screen(20, 5);
        screen.setScrollbackLimit(10);
        screen.feedNow(numberedLines(0, 100));
        QCOMPARE(screen.scrollbackSize(), 10);
        QCOMPARE(screen.droppedLines(), qint64(86));
        QCOMPARE(screen.lineText(0), QStringLiteral("line 86"));
        screen.setScrollbackLimit(0);
        QCOMPARE(screen.scrollbackSize(), 0);
        screen.feedNow(numberedLines(0, 10));
        QCOMPARE(screen.scrollbackSize(), 0);
        screen.setScrollbackLimit(Scrollback::DefaultLimit);
        QCOMPARE(TerminalScreen().scrollbackLimit(), 10000);
    }

    void scrollbackClearedByED3()
    {
        TerminalScreen screen(20, 5);
        screen.feedNow(numberedLines(0, 20));
        QVERIFY(screen.scrollbackSize() > 0);
        screen.feedNow("\x1b[3J");
        QCOMPARE(screen.scrollbackSize(), 0);
    }

    void scrollbackIsCompact()
    {
        // 10,000 full 120-column lines, some with colours and CJK, must stay small.
        TerminalScreen screen(120, 40);
        QByteArray chunk;
        for (int i = 0; i < 10040; ++i) {
            QByteArray l;
            if (i % 10 == 0)
                l = "\x1b[31m" + QByteArray(60, 'r') + "\x1b[0m" + QByteArray(60, 'p');
            else if (i % 10 == 1)
                l = QByteArray("\xe4\xb8\xad").repeated(60);
            else
                l = QByteArray(120, char('a' + i % 26));
            chunk += l; // exactly the width: the next line starts after a deferred wrap
            if (chunk.size() > 1 << 20) {
                screen.feedNow(chunk);
                chunk.clear();
            }
        }
        screen.feedNow(chunk);
        QCOMPARE(screen.scrollbackSize(), 10000);
        const size_t bytes = screen.scrollback().memoryBytes();
        qInfo("scrollback: %zu bytes for 10000 lines (%.1f bytes/line)", bytes, double(bytes) / 10000);
        QVERIFY2(bytes < 10000 * 400, "more than 400 bytes a 120-column line");
        // Wrapped lines are remembered as such.
        QVERIFY(screen.isWrapped(5));
    }

    void resizeReflowKeepsContent()
    {
        TerminalScreen screen(20, 5);
        const QByteArray long30 = "abcdefghijklmnopqrstuvwxyz0123";
        screen.feedNow("first\r\n" + long30 + "\r\nlast");
        QCOMPARE(screen.screenText(), QStringLiteral("first\nabcdefghijklmnopqrst\nuvwxyz0123\nlast\n"));
        screen.resize(40, 5);
        QCOMPARE(screen.screenText(), QStringLiteral("first\nabcdefghijklmnopqrstuvwxyz0123\nlast\n\n"));
        screen.resize(10, 5);
        // Shrinking moves the top into the scrollback; nothing is lost.
        QStringList all;
        for (int i = 0; i < screen.totalLines(); ++i)
            all << screen.lineText(i);
        const QString joined = all.join(QLatin1Char('|'));
        QVERIFY2(joined.contains(QStringLiteral("first|abcdefghij|klmnopqrst|uvwxyz0123|last")), qPrintable(joined));
        screen.resize(40, 8);
        QVERIFY2(screen.screenText().startsWith(QStringLiteral("first\nabcdefghijklmnopqrstuvwxyz0123\nlast")),
                 qPrintable(screen.screenText()));
        QCOMPARE(screen.cols(), 40);
        QCOMPARE(screen.rows(), 8);
    }

    void resizeShorterKeepsBottomLines()
    {
        TerminalScreen screen(20, 6);
        screen.feedNow(numberedLines(0, 5) + "prompt$");
        screen.resize(20, 3);
        QCOMPARE(screen.screenText(), QStringLiteral("line 3\nline 4\nprompt$"));
        QCOMPARE(screen.lineText(0), QStringLiteral("line 0"));
    }

    void resizeWithCursorInWrappedLineDoesNotAbort()
    {
        // libvterm 0.3.3's reflow aborts here (cursor at the end of a wrapped line that no
        // longer fits); the screen falls back to a plain resize for that case.
        TerminalScreen screen(80, 24);
        screen.feedNow(QByteArray(84, 'x'));
        screen.resize(20, 3);
        QCOMPARE(screen.cols(), 20);
        QCOMPARE(screen.rows(), 3);
        screen.resize(80, 24);
        QVERIFY(screen.lineText(0).startsWith(QStringLiteral("xxxx")));
    }

    void scrollMarginsResetOnResize()
    {
        // A top margin left below a shrunken screen made libvterm 0.3.3 move memory with a
        // negative size (fuzzer).
        TerminalScreen screen(81, 53);
        screen.feedNow("\x1b[3r\xff");
        screen.resize(2, 1);
        screen.feedNow("00");
        screen.resize(20, 5);
        screen.feedNow("\x1b[2;4r\x1b[4;3H");
        screen.resize(30, 6);
        QCOMPARE(screen.cursorPos(), QPoint(2, 3));
        screen.feedNow("\r\n\n\n\nend");
        QCOMPARE(screen.lineText(screen.totalLines() - 1), QStringLiteral("end"));
    }

    void oneColumnIsClampedForWideCharacters()
    {
        TerminalScreen screen(1, 1); // libvterm 0.3.3 crashes on a wide char in one column
        QCOMPARE(screen.cols(), TerminalScreen::MinCols);
        screen.feedNow("\xec\xa4\xbd\xe4\xb8\xad");
        screen.resize(1, 2);
        QCOMPARE(screen.cols(), TerminalScreen::MinCols);
        screen.feedNow("\xe4\xb8\xad");
    }

    void characterSelectionAcrossScrollback()
    {
        TerminalScreen screen(20, 3);
        screen.feedNow(numberedLines(0, 6) + "tail");
        // Lines: 0..5 "line N", then "tail"; 3 rows visible.
        TerminalSelection sel;
        sel.start(screen, stablePos(screen, 1, 2), TerminalSelection::Mode::Char);
        sel.extend(screen, stablePos(screen, 3, 3));
        QCOMPARE(sel.text(screen), QStringLiteral("ne 1\nline 2\nline"));
        // Reversed drag gives the same selection.
        sel.start(screen, stablePos(screen, 3, 3), TerminalSelection::Mode::Char);
        sel.extend(screen, stablePos(screen, 1, 2));
        QCOMPARE(sel.text(screen), QStringLiteral("ne 1\nline 2\nline"));
        QVERIFY(sel.contains(stablePos(screen, 2, 15)));
        QVERIFY(!sel.contains(stablePos(screen, 1, 1)));
    }

    void wordLineAndRectangularSelection()
    {
        TerminalScreen screen(30, 4);
        screen.feedNow("cd /usr/local/bin && ls\r\nalpha beta gamma\r\nabcdef\r\nuvwxyz");
        TerminalSelection sel;
        sel.start(screen, stablePos(screen, 0, 8), TerminalSelection::Mode::Word);
        QCOMPARE(sel.text(screen), QStringLiteral("/usr/local/bin"));
        sel.extend(screen, stablePos(screen, 1, 7));
        QCOMPARE(sel.text(screen), QStringLiteral("/usr/local/bin && ls\nalpha beta"));
        sel.start(screen, stablePos(screen, 1, 3), TerminalSelection::Mode::Line);
        QCOMPARE(sel.text(screen), QStringLiteral("alpha beta gamma"));
        sel.start(screen, stablePos(screen, 2, 1), TerminalSelection::Mode::Char, true);
        sel.extend(screen, stablePos(screen, 3, 3));
        QVERIFY(sel.isRectangular());
        QCOMPARE(sel.text(screen), QStringLiteral("bcd\nvwx"));
        sel.clear();
        QVERIFY(sel.isEmpty());
        QCOMPARE(sel.text(screen), QString());
    }

    void selectionJoinsWrappedLinesAndWideChars()
    {
        TerminalScreen screen(10, 4);
        screen.feedNow("0123456789abc\r\n\xe4\xb8\xad\xe6\x96\x87");
        TerminalSelection sel;
        sel.start(screen, stablePos(screen, 0, 0), TerminalSelection::Mode::Line);
        QCOMPARE(sel.text(screen), QStringLiteral("0123456789abc"));
        // Starting on the covered half of a wide character takes the whole character.
        sel.start(screen, stablePos(screen, 2, 1), TerminalSelection::Mode::Char);
        sel.extend(screen, stablePos(screen, 2, 2));
        QCOMPARE(sel.text(screen), QString::fromUtf8("\xe4\xb8\xad\xe6\x96\x87"));
    }

    void selectionSurvivesDroppedLines()
    {
        TerminalScreen screen(20, 3);
        screen.setScrollbackLimit(5);
        screen.feedNow(numberedLines(0, 6));
        TerminalSelection sel;
        const int idx = 3;
        const QString before = screen.lineText(idx);
        sel.start(screen, stablePos(screen, idx, 0), TerminalSelection::Mode::Line);
        screen.feedNow(numberedLines(100, 102)); // drops two old lines
        QCOMPARE(sel.text(screen), before);
    }

    void searchNextAndPrevious()
    {
        TerminalScreen screen(20, 4);
        screen.feedNow("error one\r\nok\r\nERROR two\r\nfine\r\nerror three\r\nend");
        TerminalSearch search;
        search.setNeedle(QStringLiteral("error"));
        auto m = search.next(screen);
        QVERIFY(m);
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("error one"));
        m = search.next(screen);
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("ERROR two"));
        QCOMPARE(m->last.col - m->start.col, 4);
        m = search.next(screen);
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("error three"));
        m = search.next(screen); // wraps around
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("error one"));
        m = search.previous(screen); // wraps backwards
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("error three"));
        m = search.previous(screen);
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("ERROR two"));

        search.setNeedle(QStringLiteral("ERROR"), Qt::CaseSensitive);
        m = search.next(screen);
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("ERROR two"));
        m = search.next(screen); // the only match: found again
        QCOMPARE(screen.lineText(lineIndex(screen, m->start.line)), QStringLiteral("ERROR two"));

        search.setNeedle(QStringLiteral("absent"));
        QVERIFY(!search.next(screen));
        search.setNeedle(QString());
        QVERIFY(!search.next(screen));
    }

    void searchTwoMatchesOnOneLineAndWideChars()
    {
        TerminalScreen screen(30, 2);
        screen.feedNow("\xe4\xb8\xad ab ab");
        TerminalSearch search;
        search.setNeedle(QStringLiteral("ab"));
        auto m = search.next(screen);
        QCOMPARE(m->start.col, 3);
        m = search.next(screen);
        QCOMPARE(m->start.col, 6);
        m = search.previous(screen);
        QCOMPARE(m->start.col, 3);
        search.setNeedle(QString::fromUtf8("\xe4\xb8\xad"));
        m = search.next(screen);
        QCOMPARE(m->start.col, 0);
        QCOMPARE(m->last.col, 1);
    }

    void links_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("urls");
        QTest::newRow("empty") << QString() << QStringList{};
        QTest::newRow("none") << QStringLiteral("just words: http") << QStringList{};
        QTest::newRow("https") << QStringLiteral("see https://example.com/a?b=c.")
                               << QStringList{QStringLiteral("https://example.com/a?b=c")};
        QTest::newRow("parens") << QStringLiteral("(https://en.wikipedia.org/wiki/X_(y))")
                                << QStringList{QStringLiteral("https://en.wikipedia.org/wiki/X_(y)")};
        QTest::newRow("two") << QStringLiteral("http://a.io/1 file:///tmp/x")
                             << QStringList{QStringLiteral("http://a.io/1"), QStringLiteral("file:///tmp/x")};
        QTest::newRow("www") << QStringLiteral("www.example.org")
                             << QStringList{QStringLiteral("http://www.example.org")};
        QTest::newRow("truncated") << QStringLiteral("https://") << QStringList{};
    }

    void links()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, urls);
        QStringList got;
        for (const auto &l : detectLinks(text))
            got << l.url.toString();
        QCOMPARE(got, urls);
    }
};

QTEST_GUILESS_MAIN(TestTerminalModel)
#include "tst_terminalmodel.moc"
