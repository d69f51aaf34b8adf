// Terminal figures: parsing+painting throughput against bare libvterm, key-to-paint latency
// through a real pty, and the memory of full scrollbacks.
#include "Bench.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QKeyEvent>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QTimer>
#include <cstdio>
#include <memory>
#include <vector>

using namespace sandbar;

namespace {

constexpr int Cols = 120;
constexpr int Rows = 40;

// A deterministic mix of what terminals see: plain lines, SGR-heavy lines, full-screen
// cursor-addressed redraws (top/htop style), CJK and emoji lines.
QByteArray mixedStream(qint64 bytes)
{
    QRandomGenerator rng(42);
    QByteArray out;
    out.reserve(bytes + 16384);
    static const char *cjk[] = {"\xe4\xb8\xad",     "\xe6\x96\x87",     "\xe5\xad\x97", "\xe7\xac\xa6",
                                "\xf0\x9f\x98\x80", "\xf0\x9f\x9a\x80", "\xe3\x81\x82", "\xed\x95\x9c"};
    auto word = [&](int len) {
        QByteArray w;
        for (int i = 0; i < len; ++i)
            w += char('a' + rng.bounded(26));
        return w;
    };
    while (out.size() < bytes) {
        const int kind = rng.bounded(100);
        if (kind < 45) { // plain ASCII line
            QByteArray l;
            const int len = 20 + rng.bounded(100);
            while (l.size() < len)
                l += word(1 + rng.bounded(9)) + ' ';
            out += l.left(len) + "\r\n";
        } else if (kind < 75) { // SGR-heavy line
            int width = 0;
            while (width < 100) {
                const int w = 2 + rng.bounded(8);
                switch (rng.bounded(4)) {
                case 0:
                    out += "\x1b[" + QByteArray::number(30 + rng.bounded(8)) + ";" +
                           QByteArray::number(1 + rng.bounded(4)) + "m";
                    break;
                case 1: out += "\x1b[38;5;" + QByteArray::number(rng.bounded(256)) + "m"; break;
                case 2:
                    out += "\x1b[38;2;" + QByteArray::number(rng.bounded(256)) + ";" +
                           QByteArray::number(rng.bounded(256)) + ";" + QByteArray::number(rng.bounded(256)) + "m";
                    break;
                default: out += "\x1b[0;4;48;5;" + QByteArray::number(rng.bounded(256)) + "m"; break;
                }
                out += word(w) + ' ';
                width += w + 1;
            }
            out += "\x1b[0m\r\n";
        } else if (kind < 80) { // full-screen redraw
            out += "\x1b[H";
            for (int r = 1; r <= Rows; ++r) {
                out += "\x1b[" + QByteArray::number(r) + ";1H\x1b[" + QByteArray::number(r % 2 ? 7 : 27) + "m";
                out += word(Cols - 10) + "\x1b[K";
            }
            out += "\x1b[0m\x1b[" + QByteArray::number(Rows) + ";1H\r\n";
        } else { // CJK and emoji
            QByteArray l;
            const int n = 10 + rng.bounded(45);
            for (int i = 0; i < n; ++i)
                l += cjk[rng.bounded(8)];
            out += l + "\r\n";
        }
    }
    return out;
}

int nopDamage(VTermRect, void *)
{
    return 1;
}
int nopMoveRect(VTermRect, VTermRect, void *)
{
    return 0;
}
int nopMoveCursor(VTermPos, VTermPos, int, void *)
{
    return 1;
}
int nopProp(VTermProp, VTermValue *, void *)
{
    return 1;
}
int nopBell(void *)
{
    return 1;
}
int nopResize(int, int, void *)
{
    return 1;
}
int nopPush(int, const VTermScreenCell *, void *)
{
    return 1;
}
int nopPop(int, VTermScreenCell *, void *)
{
    return 0;
}

double libvtermAloneSeconds(const QByteArray &data)
{
    VTerm *vt = vterm_new(Rows, Cols);
    vterm_set_utf8(vt, 1);
    VTermScreen *scr = vterm_obtain_screen(vt);
    VTermScreenCallbacks cb{};
    cb.damage = &nopDamage;
    cb.moverect = &nopMoveRect;
    cb.movecursor = &nopMoveCursor;
    cb.settermprop = &nopProp;
    cb.bell = &nopBell;
    cb.resize = &nopResize;
    cb.sb_pushline = &nopPush;
    cb.sb_popline = &nopPop;
    vterm_screen_set_callbacks(scr, &cb, nullptr);
    vterm_screen_enable_altscreen(scr, 1);
    vterm_screen_enable_reflow(scr, true);
    // Its cheapest setting: damage merged per write, as Sandbar does per slice.
    vterm_screen_set_damage_merge(scr, VTERM_DAMAGE_SCREEN);
    vterm_screen_reset(scr, 1);
    QElapsedTimer t;
    t.start();
    constexpr qsizetype chunk = 64 * 1024;
    for (qsizetype off = 0; off < data.size(); off += chunk) {
        vterm_input_write(vt, data.constData() + off, size_t(qMin(chunk, data.size() - off)));
        vterm_screen_flush_damage(scr);
    }
    const double s = t.nsecsElapsed() / 1e9;
    vterm_free(vt);
    return s;
}

void fitViewTo(TerminalView &view, int cols, int rows)
{
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    const QSize c = view.cellSize();
    const int bar = view.verticalScrollBar()->sizeHint().width();
    view.resize(cols * c.width() + bar + 1, rows * c.height() + 1);
}

void throughput(double mib)
{
    const QByteArray data = mixedStream(qint64(mib * 1024 * 1024));
    const double base = libvtermAloneSeconds(data);

    TerminalScreen screen(Cols, Rows);
    TerminalView view(&screen);
    fitViewTo(view, Cols, Rows);
    view.show();
    QCoreApplication::processEvents();
    int paints = 0;
    QObject ctx;
    QObject::connect(&view, &TerminalView::painted, &ctx, [&paints] { ++paints; });
    QElapsedTimer t;
    t.start();
    screen.feed(data);
    while (screen.pendingBytes() > 0)
        QCoreApplication::processEvents(QEventLoop::AllEvents);
    const double ours = t.nsecsElapsed() / 1e9;
    const double mibs = double(data.size()) / (1024.0 * 1024.0);
    std::fprintf(stderr, "throughput: %.1f MiB, grid %dx%d, libvterm alone %.2f s, Sandbar %.2f s, %d paints\n", mibs,
                 screen.cols(), screen.rows(), base, ours, paints);
    bench::printFigure(QStringLiteral("terminal.throughput_MiBps"), mibs / ours, QStringLiteral("MiB/s"), mibs / base);
}

// 0 with the figure printed, else 1 with the figure missing and why.
int keystrokeLatency(int keys)
{
    const QString figure = QStringLiteral("terminal.keystroke_to_paint_ms");
    TerminalScreen screen(Cols, Rows);
    TerminalView view(&screen);
    fitViewTo(view, Cols, Rows);
    view.show();
    // A terminal whose cat is gone echoes nothing: no point in waiting 5 s for each key.
    // (Declared before the channel, which may still say so while it is destroyed.)
    QString channelGone;
    QObject ctx;
    auto ch = makeLocalPtyChannel(QStringLiteral("/bin/cat"));
    QObject::connect(ch.get(), &PtyChannel::errorOccurred, &ctx, [&](const Error &e) {
        channelGone = QStringLiteral("the pty with /bin/cat failed: %1").arg(e.message);
    });
    QObject::connect(ch.get(), &PtyChannel::finished, &ctx,
                     [&](int code) { channelGone = QStringLiteral("/bin/cat in the pty exited (%1)").arg(code); });
    view.setChannel(ch.get());
    ch->start();
    QCoreApplication::processEvents();

    QList<double> samples;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < keys && channelGone.isEmpty(); ++i) {
        if (i % 100 == 99) {
            // A new line now and then keeps cat's line buffer short; not measured.
            QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
            QApplication::sendEvent(&view, &enter);
            QEventLoop settle;
            QTimer::singleShot(60, &settle, &QEventLoop::quit);
            settle.exec();
        }
        const QPoint before = screen.cursorPos();
        const int beforeLines = screen.totalLines() + int(screen.droppedLines());
        bool done = false;
        qint64 paintedAt = 0;
        QEventLoop loop;
        auto conn = QObject::connect(&view, &TerminalView::painted, &ctx, [&] {
            if (!done &&
                (screen.cursorPos() != before || screen.totalLines() + int(screen.droppedLines()) != beforeLines)) {
                done = true;
                paintedAt = clock.nsecsElapsed();
                loop.quit();
            }
        });
        QTimer::singleShot(5000, &loop, &QEventLoop::quit);
        const QChar c(char16_t(u'a' + i % 26));
        const qint64 sentAt = clock.nsecsElapsed();
        QKeyEvent press(QEvent::KeyPress, Qt::Key_A + i % 26, Qt::NoModifier, QString(c));
        QApplication::sendEvent(&view, &press);
        if (!done)
            loop.exec();
        QObject::disconnect(conn);
        if (done)
            samples << (paintedAt - sentAt) / 1e6;
        if (qEnvironmentVariableIsSet("SANDBAR_BENCH_VERBOSE") && done && (paintedAt - sentAt) / 1e6 > 4)
            std::fprintf(stderr, "slow key %d: %.2f ms\n", i, (paintedAt - sentAt) / 1e6);
        // Typing pace: the next key comes after a frame, as a fast typist's would.
        QEventLoop gap;
        QTimer::singleShot(20, &gap, &QEventLoop::quit);
        gap.exec();
    }
    const QString gone = channelGone;
    ch->close();
    std::fprintf(stderr, "keystrokes: %d measured of %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", int(samples.size()),
                 keys, bench::percentile(samples, 50), bench::percentile(samples, 99), bench::percentile(samples, 100));
    if (samples.size() != keys) {
        bench::printMissing("terminal", figure, QStringLiteral("ms"),
                            !gone.isEmpty() ? gone
                                            : QStringLiteral("%1 of %2 keystrokes were not painted within 5 s")
                                                  .arg(keys - samples.size())
                                                  .arg(keys));
        return 1;
    }
    bench::printFigure(figure, bench::percentile(samples, 99), QStringLiteral("ms"));
    return 0;
}

void scrollbackMemory(int terminals, int lines)
{
    const qint64 before = bench::currentRssBytes();
    std::vector<std::unique_ptr<TerminalScreen>> screens;
    size_t stored = 0;
    QRandomGenerator rng(7);
    for (int t = 0; t < terminals; ++t) {
        auto s = std::make_unique<TerminalScreen>(Cols, Rows);
        QByteArray chunk;
        for (int i = 0; i < lines + Rows; ++i) {
            QByteArray l(Cols, ' ');
            for (int k = 0; k < Cols; ++k)
                l[k] = char(33 + rng.bounded(94));
            chunk += l; // exactly one row: the next line follows the deferred wrap
            if (chunk.size() >= 256 * 1024) {
                s->feedNow(chunk);
                chunk.clear();
            }
        }
        s->feedNow(chunk);
        stored += s->scrollback().memoryBytes();
        screens.push_back(std::move(s));
    }
    const qint64 after = bench::currentRssBytes();
    std::fprintf(stderr, "scrollback: %d terminals x %d lines of %d columns, %zu bytes stored (%.1f MiB)\n", terminals,
                 screens.front()->scrollbackSize(), Cols, stored, stored / 1048576.0);
    bench::printFigure(QStringLiteral("terminal.scrollback_rss_MiB"), (after - before) / 1048576.0,
                       QStringLiteral("MiB"));
}

int run(const QStringList &args)
{
    double mib = 64;
    int keys = 1000;
    QString only;
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--mib"))
            mib = args.at(i + 1).toDouble();
        else if (args.at(i) == QLatin1String("--keys"))
            keys = args.at(i + 1).toInt();
        else if (args.at(i) == QLatin1String("--only"))
            only = args.at(i + 1);
    }
    if (!only.isEmpty() && only != QLatin1String("rss") && only != QLatin1String("throughput") &&
        only != QLatin1String("keystroke"))
        return bench::fail("terminal", QStringLiteral("--only %1").arg(only),
                           QStringLiteral("not a figure: use rss, throughput or keystroke"), 2);
    // Memory first, before the other figures grow the heap.
    if (only.isEmpty() || only == QLatin1String("rss"))
        scrollbackMemory(10, 10000);
    if (only.isEmpty() || only == QLatin1String("throughput"))
        throughput(mib > 0 ? mib : 64);
    int rc = 0;
    if (only.isEmpty() || only == QLatin1String("keystroke"))
        rc = keystrokeLatency(keys > 0 ? keys : 1000);
    return rc;
}

const bench::Registration reg("terminal", &run, true,
                              "[--only rss|throughput|keystroke] [--mib N] [--keys N]: terminal figures");

} // namespace
