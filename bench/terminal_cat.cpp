// `sandbar-bench terminal-cat FILE`: the wall time of `cat FILE` in a visible Sandbar
// terminal of 120x40 cells, measured the same way as in another terminal emulator: the
// shell inside records the time cat took (cat cannot finish before the terminal has read
// all but a pipe's worth of its output), so both sides are timed by the same clock.
#include "Bench.h"
#include "terminal/LocalPtyChannel.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTimer>
#include <cstdio>

using namespace sandbar;

namespace {

const char kGroup[] = "terminal-cat";

int run(const QStringList &args)
{
    if (args.isEmpty())
        return bench::fail(kGroup, QStringLiteral("no FILE"), QStringLiteral("usage: sandbar-bench terminal-cat FILE"),
                           2);
    const QString file = args.first();
    // cat's own failure would still be timed (the shell goes on): refuse a file it cannot read.
    if (QFile f(file); !f.open(QIODevice::ReadOnly))
        return bench::fail(kGroup, QStringLiteral("read %1").arg(file), f.errorString());
    QTemporaryDir dir;
    if (!dir.isValid())
        return bench::fail(kGroup, QStringLiteral("make a temporary folder"), dir.errorString());
    const QString out = dir.filePath(QStringLiteral("ns"));
    // Start after the window is up; print nothing after cat so the screen is cat's.
    const QString script =
        QStringLiteral("sleep 0.5; s=$(date +%s%N); cat '%1'; e=$(date +%s%N); echo $((e-s)) > '%2'").arg(file, out);
    TerminalScreen screen(120, 40);
    TerminalView view(&screen);
    view.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    const QSize c = view.cellSize();
    view.resize(120 * c.width() + view.verticalScrollBar()->sizeHint().width() + 1, 40 * c.height() + 1);
    view.show();
    auto channel = makeLocalPtyChannel(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), script});
    channel->setInitialSize(120, 40);
    view.setChannel(channel.get());
    int code = 1;
    QObject::connect(channel.get(), &PtyChannel::finished, &view, [&](int exitCode) {
        // Whatever the screen had not parsed yet when cat ended counts too.
        QElapsedTimer rest;
        rest.start();
        screen.flushPending();
        const double restMs = rest.nsecsElapsed() / 1e6;
        QFile f(out);
        if (f.open(QIODevice::ReadOnly)) {
            const double ms = f.readAll().trimmed().toDouble() / 1e6 + restMs;
            bench::printFigure(QStringLiteral("terminal.cat_wall_ms"), ms, QStringLiteral("ms"));
            code = 0;
        } else {
            // The script writes the time last: the shell stopped before (date, cat or the folder).
            code = bench::fail(kGroup, QStringLiteral("read the time the shell recorded"),
                               QStringLiteral("%1: %2 (the shell exited with %3; the screen ends \"%4\")")
                                   .arg(out, f.errorString())
                                   .arg(exitCode)
                                   .arg(screen.screenText().trimmed().right(200)));
        }
        QCoreApplication::quit();
    });
    QObject::connect(channel.get(), &PtyChannel::errorOccurred, &view, [&code](const Error &e) {
        code = bench::fail(kGroup, QStringLiteral("run /bin/sh in a pty"), e.message);
        QCoreApplication::exit(1);
    });
    channel->start();
    QApplication::exec();
    return code;
}

const bench::Registration reg("terminal-cat", &run, true, "FILE: wall time of cat FILE in a 120x40 terminal");

} // namespace
