// sandbar-bench replay FILE [--cols N] [--rows N]: the screen a byte stream leaves behind.
#include "Bench.h"
#include "terminal/TerminalScreen.h"

#include <QFile>
#include <cstdio>

namespace {

const QString kUsage = QStringLiteral("usage: sandbar-bench replay FILE [--cols N] [--rows N]");

int replay(const QStringList &args)
{
    QString file;
    int cols = 80;
    int rows = 24;
    for (int i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        bool ok = true;
        if (a == QLatin1String("--cols") && i + 1 < args.size())
            cols = args.at(++i).toInt(&ok);
        else if (a == QLatin1String("--rows") && i + 1 < args.size())
            rows = args.at(++i).toInt(&ok);
        else if (file.isEmpty() && !a.startsWith(QLatin1String("--")))
            file = a;
        else
            ok = false;
        if (!ok || cols < 1 || rows < 1 || cols > 4096 || rows > 4096)
            return sandbar::bench::fail("replay", QStringLiteral("argument %1").arg(a), kUsage, 2);
    }
    if (file.isEmpty())
        return sandbar::bench::fail("replay", QStringLiteral("no FILE"), kUsage, 2);
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return sandbar::bench::fail("replay", QStringLiteral("read %1").arg(file), f.errorString());
    sandbar::TerminalScreen screen(cols, rows);
    // Fed in pieces, as a channel would deliver it; the result does not depend on the split.
    while (!f.atEnd())
        screen.feedNow(f.read(1 << 20));
    const QByteArray out = screen.screenText().toUtf8() + '\n';
    std::fwrite(out.constData(), 1, size_t(out.size()), stdout);
    return 0;
}

const sandbar::bench::Registration reg("replay", &replay, false,
                                       "FILE [--cols N] [--rows N]: print the final screen of a byte stream");

} // namespace
