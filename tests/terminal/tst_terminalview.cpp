// TerminalView offscreen: a real /bin/sh through the local pty channel, clipboard, paste warning,
// links, drops, the disconnect banner, wheel routing and repaint coalescing.
#include "terminal/DisconnectBanner.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalFindBar.h"
#include "terminal/TerminalView.h"

#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>

using namespace sandbar;

namespace {
struct Capture : QObject {
    QByteArray bytes;
    explicit Capture(TerminalScreen *s)
    {
        connect(s, &TerminalScreen::output, this, [this](const QByteArray &b) { bytes += b; });
    }
};

void wheel(QWidget *w, int delta, Qt::KeyboardModifiers mods = Qt::NoModifier)
{
    const QPointF pos(10, 10);
    QWheelEvent ev(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton, mods, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &ev);
}
} // namespace

class TestTerminalView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void typingIntoRealShell()
    {
        TerminalScreen screen(80, 24);
        TerminalView view(&screen);
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto ch = makeLocalPtyChannel(QStringLiteral("/bin/sh"));
        ch->setEnvironment(QProcessEnvironment()); // inherit
        view.setChannel(ch.get());
        ch->start();
        QVERIFY(ch->isOpen());
        QCOMPARE(screen.cols(), view.viewport()->width() / view.cellSize().width());

        QTest::keyClicks(&view, QStringLiteral("echo hel\"\"lo-$((6*7))"));
        QTest::keyClick(&view, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(screen.screenText().contains(QStringLiteral("hello-42")), 30000);

        // Ctrl+C interrupts a running command. A ^C that lands before the shell has started
        // the command only interrupts the shell, so it is repeated until the prompt answers.
        QTest::keyClicks(&view, QStringLiteral("sleep 60 && echo not-interrupted"));
        QTest::keyClick(&view, Qt::Key_Return);
        QElapsedTimer t;
        t.start();
        bool answered = false;
        while (!answered && t.elapsed() < 60000) {
            QTest::qWait(200);
            QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
            QTest::keyClicks(&view, QStringLiteral("echo after-$((1+1))"));
            QTest::keyClick(&view, Qt::Key_Return);
            for (int i = 0; i < 20 && !answered; ++i) {
                QTest::qWait(100);
                answered = screen.screenText().contains(QStringLiteral("after-2"));
            }
        }
        QVERIFY(answered);
        QVERIFY(!screen.screenText().contains(QStringLiteral("\nnot-interrupted")));
        QVERIFY(t.elapsed() < 55000);

        // Resizing the widget reaches the program.
        view.resize(500, 300);
        const int cols = screen.cols();
        QTest::keyClicks(&view, QStringLiteral("stty size"));
        QTest::keyClick(&view, Qt::Key_Return);
        const QString expect = QStringLiteral("%1 %2").arg(screen.rows()).arg(cols);
        QTRY_VERIFY_WITH_TIMEOUT(screen.screenText().contains(expect), 30000);

        // When the program ends, a banner offers to reconnect and the content stays.
        QSignalSpy reconnect(&view, &TerminalView::reconnectRequested);
        QTest::keyClicks(&view, QStringLiteral("exit 5"));
        QTest::keyClick(&view, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(view.isDisconnected(), 30000);
        auto *banner = view.findChild<DisconnectBanner *>();
        QVERIFY(banner);
        QVERIFY(banner->message().contains(QStringLiteral("5")));
        QVERIFY(screen.screenText().contains(QStringLiteral("hello-42")));
        banner->reconnectButton()->click();
        QCOMPARE(reconnect.count(), 1);
        auto again = makeLocalPtyChannel(QStringLiteral("/bin/sh"));
        view.setChannel(again.get());
        QVERIFY(!view.isDisconnected());
    }

    void selectionAndCopy()
    {
        TerminalScreen screen(40, 5);
        TerminalView view(&screen);
        view.resize(600, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screen.feedNow("first line\r\nsecond line\r\n");
        const QSize c = view.cellSize();
        auto at = [&](int col, int row) {
            return QPoint(col * c.width() + c.width() / 2, row * c.height() + c.height() / 2);
        };
        const int top = screen.scrollbackSize() - view.topLine();
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at(6, top));
        QTest::mouseMove(view.viewport(), at(5, top + 1));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at(5, top + 1));
        QCOMPARE(view.selectedText(), QStringLiteral("line\nsecond"));
        QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("line\nsecond"));
        // Double click selects a word.
        QTest::mouseDClick(view.viewport(), Qt::LeftButton, {}, at(2, top + 1));
        QCOMPARE(view.selectedText(), QStringLiteral("second"));
        // Copy-on-select puts a drag selection on the clipboard at once.
        view.setCopyOnSelect(true);
        QTest::mousePress(view.viewport(), Qt::LeftButton, {}, at(0, top));
        QTest::mouseMove(view.viewport(), at(4, top));
        QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, at(4, top));
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("first"));
        // Search selects the match.
        QVERIFY(view.findNext(QStringLiteral("SECOND")));
        QCOMPARE(view.selectedText(), QStringLiteral("second"));
        QVERIFY(!view.findNext(QStringLiteral("absent")));
    }

    void findBar()
    {
        // Ctrl+Shift+F (and the context menu's Find…) opens the bar; typing searches back
        // from the newest line, Enter goes on, Escape gives the keyboard back.
        TerminalScreen screen(40, 5);
        QWidget host;
        auto *layout = new QVBoxLayout(&host);
        auto *view = new TerminalView(&screen, &host);
        auto *bar = new TerminalFindBar(view, &host);
        layout->addWidget(view);
        layout->addWidget(bar);
        host.resize(500, 300);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        screen.feedNow("alpha one\r\nbeta\r\nalpha two\r\n");
        view->setFocus();
        QVERIFY(bar->isHidden());
        QTest::keyClick(view, Qt::Key_F, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(bar->isVisible());
        QTRY_VERIFY(bar->field()->hasFocus());
        QTest::keyClicks(bar->field(), QStringLiteral("ALPHA"));
        QVERIFY(bar->lastFound());
        QCOMPARE(view->selectedText(), QStringLiteral("alpha"));
        QCOMPARE(view->selection().begin().line, screen.scrollbackSize() + 2); // the newest first
        QTest::keyClick(bar->field(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(view->selection().begin().line, screen.scrollbackSize()); // then the older one
        const QString shots = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!shots.isEmpty())
            QVERIFY(host.grab().save(shots + QStringLiteral("/terminal-find.png")));
        QTest::keyClicks(bar->field(), QStringLiteral("zzz"));
        QVERIFY(!bar->lastFound());
        QTest::keyClick(bar->field(), Qt::Key_Escape);
        QVERIFY(bar->isHidden());
        QTRY_VERIFY(view->hasFocus());
    }

    void pasteWarning()
    {
        TerminalScreen screen(40, 5);
        TerminalView view(&screen);
        Capture cap(&screen);
        QString asked;
        bool answer = false;
        view.setPasteConfirmer([&](QWidget *, const QString &text, std::function<void(bool)> done) {
            asked = text;
            done(answer);
        });
        view.pasteText(QStringLiteral("one line"));
        QCOMPARE(cap.bytes, QByteArray("one line"));
        QVERIFY(asked.isEmpty());
        cap.bytes.clear();
        view.pasteText(QStringLiteral("rm -rf x\nls\n"));
        QCOMPARE(asked, QStringLiteral("rm -rf x\nls\n"));
        QVERIFY(cap.bytes.isEmpty()); // declined
        answer = true;
        view.pasteText(QStringLiteral("a\nb"));
        QCOMPARE(cap.bytes, QByteArray("a\rb"));
        // With bracketed paste the program handles it: no question.
        asked.clear();
        cap.bytes.clear();
        screen.feedNow("\x1b[?2004h");
        view.pasteText(QStringLiteral("x\ny"));
        QVERIFY(asked.isEmpty());
        QCOMPARE(cap.bytes, QByteArray("\x1b[200~x\ry\x1b[201~"));
        // Ctrl+Shift+V pastes the clipboard.
        cap.bytes.clear();
        QGuiApplication::clipboard()->setText(QStringLiteral("clip"));
        QTest::keyClick(&view, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(cap.bytes, QByteArray("\x1b[200~clip\x1b[201~"));
    }

    void ctrlClickOpensUrl()
    {
        TerminalScreen screen(60, 5);
        TerminalView view(&screen);
        view.resize(700, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QList<QUrl> opened;
        view.setUrlOpener([&opened](const QUrl &u) { opened << u; });
        screen.feedNow("see https://example.com/docs. ok");
        const QSize c = view.cellSize();
        const int row = screen.scrollbackSize() - view.topLine();
        const QPoint onUrl(10 * c.width() + 2, row * c.height() + 2);
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, onUrl);
        QVERIFY(opened.isEmpty()); // a plain click does not open
        QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::ControlModifier, onUrl);
        QCOMPARE(opened, QList<QUrl>{QUrl(QStringLiteral("https://example.com/docs"))});
        QTest::mouseClick(view.viewport(), Qt::LeftButton, Qt::ControlModifier,
                          QPoint(c.width() + 2, row * c.height() + 2));
        QCOMPARE(opened.size(), 1);
    }

    void dropRaisesLocalPaths()
    {
        TerminalScreen screen(40, 5);
        TerminalView view(&screen);
        view.show();
        QSignalSpy dropped(&view, &TerminalView::filesDropped);
        QMimeData mime;
        mime.setUrls(
            {QUrl::fromLocalFile(QStringLiteral("/tmp/a b.txt")), QUrl::fromLocalFile(QStringLiteral("/etc/hosts"))});
        QDragEnterEvent enter(QPoint(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(5, 5), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &drop);
        QCOMPARE(dropped.count(), 1);
        QCOMPARE(dropped.at(0).at(0).toStringList(),
                 (QStringList{QStringLiteral("/tmp/a b.txt"), QStringLiteral("/etc/hosts")}));
        QMimeData remote;
        remote.setUrls({QUrl(QStringLiteral("https://example.com/x"))});
        QDragEnterEvent enter2(QPoint(5, 5), Qt::CopyAction, &remote, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(view.viewport(), &enter2);
        QVERIFY(!enter2.isAccepted());
    }

    void wheelRouting()
    {
        TerminalScreen screen(40, 5);
        TerminalView view(&screen);
        view.resize(400, 5 * view.cellSize().height());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        Capture cap(&screen);
        QByteArray lines;
        for (int i = 0; i < 50; ++i)
            lines += "l" + QByteArray::number(i) + "\r\n";
        screen.feedNow(lines);
        QVERIFY(view.isAtBottom());
        wheel(view.viewport(), 120);
        QCOMPARE(view.topLine(), view.verticalScrollBar()->maximum() - 3);
        QVERIFY(cap.bytes.isEmpty());
        // Output while scrolled back keeps the same lines in view.
        const QString shown = screen.lineText(view.topLine());
        screen.feedNow("more\r\n");
        QCOMPARE(screen.lineText(view.topLine()), shown);
        view.scrollToBottom();

        screen.feedNow("\x1b[?1049h"); // alternate screen, no mouse mode: arrows
        wheel(view.viewport(), -120);
        QCOMPARE(cap.bytes, QByteArray("\x1b[B\x1b[B\x1b[B"));
        cap.bytes.clear();
        screen.feedNow("\x1b[?1000h\x1b[?1006h"); // mouse reporting (SGR): the program gets the wheel
        wheel(view.viewport(), 120);
        QVERIFY2(cap.bytes.startsWith("\x1b[<64;2;1M"), cap.bytes.toHex(' ').constData());
    }

    void zoomChangesCellSize()
    {
        TerminalScreen screen(40, 5);
        TerminalView view(&screen);
        QFont f(QStringLiteral("Monospace"));
        f.setPointSize(10);
        view.setTerminalFont(f);
        const QSize before = view.cellSize();
        QTest::keyClick(&view, Qt::Key_Plus, Qt::ControlModifier);
        QTest::keyClick(&view, Qt::Key_Plus, Qt::ControlModifier);
        QVERIFY(view.cellSize().height() > before.height());
        QCOMPARE(view.zoomSteps(), 2);
        QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(view.zoomSteps(), 1);
        QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
        QCOMPARE(view.cellSize(), before);
    }

    void newViewKeepsExistingSession()
    {
        // A view opened again on a live screen (tab switch) keeps its content and scrollback.
        TerminalScreen screen(80, 24);
        QByteArray lines;
        for (int i = 0; i < 40; ++i)
            lines += "history " + QByteArray::number(i) + "\r\n";
        screen.feedNow(lines);
        {
            TerminalView first(&screen);
            first.resize(900, 500);
            first.show();
            QVERIFY(QTest::qWaitForWindowExposed(&first));
        }
        auto *second = new TerminalView(&screen);
        QCOMPARE(screen.lineText(0), QStringLiteral("history 0"));
        second->resize(900, 500);
        second->show();
        QVERIFY(QTest::qWaitForWindowExposed(second));
        QCOMPARE(screen.lineText(0), QStringLiteral("history 0"));
        QCOMPARE(second->verticalScrollBar()->maximum(), screen.scrollbackSize());
        delete second;
        QCOMPARE(screen.lineText(0), QStringLiteral("history 0"));
    }

    void repaintsAreCoalescedAndSkippedWhenHidden()
    {
        TerminalScreen screen(80, 24);
        TerminalView view(&screen);
        view.setFrameInterval(16);
        view.resize(800, 480);
        view.show();
        QSignalSpy painted(&view, &TerminalView::painted);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_VERIFY_WITH_TIMEOUT(painted.count() >= 1, 10000); // the first paint, not counted below
        painted.clear();
        QElapsedTimer t;
        t.start();
        // 200 separate updates within a short time.
        for (int i = 0; i < 200; ++i) {
            screen.feedNow("x");
            QCoreApplication::processEvents();
        }
        QTRY_VERIFY_WITH_TIMEOUT(painted.count() >= 1, 10000);
        const qint64 elapsed = t.elapsed();
        QVERIFY2(painted.count() <= elapsed / 16 + 2,
                 qPrintable(QStringLiteral("%1 paints in %2 ms").arg(painted.count()).arg(elapsed)));

        // Hidden: a second, visible view of the same screen is the marker. Once it has painted
        // the new text, the hidden one had the same frames in which to paint, and must not have.
        TerminalView marker(&screen);
        marker.setFrameInterval(16);
        marker.resize(800, 480);
        QSignalSpy markerPainted(&marker, &TerminalView::painted);
        marker.show();
        QVERIFY(QTest::qWaitForWindowExposed(&marker));
        view.hide();
        QTRY_VERIFY_WITH_TIMEOUT(markerPainted.count() >= 1, 10000);
        painted.clear();
        markerPainted.clear();
        // Two batches, each painted by the marker: a whole frame passes after the first.
        for (int batch = 1; batch <= 2; ++batch) {
            for (int i = 0; i < 25; ++i)
                screen.feedNow("y");
            QTRY_VERIFY_WITH_TIMEOUT(markerPainted.count() >= batch, 10000);
        }
        QCOMPARE(painted.count(), 0);
        marker.hide();
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT(painted.count() >= 1, 10000);
    }

    void scrollBarFollowsFramesNotSlices()
    {
        // A flood scrolls the screen on every slice; the scroll bar changes once a frame
        // (each change repaints it outside the frame pacing), and reads in between already
        // give what it will show.
        TerminalScreen screen(40, 5);
        screen.setSliceBytes(256);
        TerminalView view(&screen);
        view.setFrameInterval(16);
        view.resize(400, 5 * view.cellSize().height());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy painted(&view, &TerminalView::painted);
        QByteArray lines;
        for (int i = 0; i < 2000; ++i)
            lines += "line " + QByteArray::number(i) + "\r\n";
        screen.feed(lines); // about 50 slices
        int slices = 0;
        QSet<int> maxima; // what the scroll bar was set to (its signals are blocked)
        while (screen.pendingBytes() > 0) {
            QCoreApplication::processEvents();
            ++slices;
            maxima.insert(view.verticalScrollBar()->maximum());
            QVERIFY(view.isAtBottom());
            QCOMPARE(view.topLine(), screen.scrollbackSize());
        }
        QVERIFY2(maxima.size() <= painted.count() + 2 && maxima.size() < slices / 2,
                 qPrintable(QStringLiteral("%1 scroll bar changes, %2 paints, %3 slices")
                                .arg(maxima.size())
                                .arg(painted.count())
                                .arg(slices)));
        QTRY_COMPARE(view.verticalScrollBar()->maximum(), screen.scrollbackSize());
        QCOMPARE(view.verticalScrollBar()->value(), view.verticalScrollBar()->maximum());
        // Scrolling back mid-flood starts from where the view really is.
        view.scrollLines(-3);
        QCOMPARE(view.topLine(), screen.scrollbackSize() - 3);
        screen.feedNow("more\r\nand more\r\n");
        QCOMPARE(view.topLine(), screen.scrollbackSize() - 5);
        QVERIFY(!view.isAtBottom());
    }
};

QTEST_MAIN(TestTerminalView)
#include "tst_terminalview.moc"
