#include "TestSupport.h"
#include "mcp/FdTransport.h"

#include <QTest>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::mcp;

namespace {

// Both ends of a pipe, closed with the object.
struct Pipe {
    int fds[2] = {-1, -1};
    Pipe() { QVERIFY(::pipe(fds) == 0); }
    ~Pipe()
    {
        closeRead();
        closeWrite();
    }
    int read() const { return fds[0]; }
    int write() const { return fds[1]; }
    void closeRead() { fds[0] >= 0 && ::close(std::exchange(fds[0], -1)); }
    void closeWrite() { fds[1] >= 0 && ::close(std::exchange(fds[1], -1)); }
};

} // namespace

// FdTransport on real pipes: lines in, whole messages out to a reader that is slower than the
// writer, and the end of input.
class TestMcpTransport final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void linesInAndEndOfInput()
    {
        Pipe in;
        Pipe out;
        FdTransport t(in.read(), out.write(), 16);
        QStringList lines;
        QList<qsizetype> oversized;
        bool closed = false;
        connect(&t, &FdTransport::lineReceived, this, [&lines](const QByteArray &l) { lines << QString::fromUtf8(l); });
        connect(&t, &FdTransport::oversizedLine, this, [&oversized](qsizetype size, qsizetype) { oversized << size; });
        connect(&t, &FdTransport::inputClosed, this, [&closed] { closed = true; });
        t.start();
        const QByteArray data = "one\ntw";
        QCOMPARE(::write(in.write(), data.constData(), size_t(data.size())), ssize_t(data.size()));
        QVERIFY(test::waitUntil([&] { return lines.size() == 1; }, 10000));
        const QByteArray rest = "o\n" + QByteArray(40, 'x') + "\nlast";
        QCOMPARE(::write(in.write(), rest.constData(), size_t(rest.size())), ssize_t(rest.size()));
        in.closeWrite();
        QVERIFY(test::waitUntil([&] { return closed; }, 10000));
        QCOMPARE(lines, (QStringList{QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("last")}));
        QCOMPARE(oversized, QList<qsizetype>{40});
    }

    // More than a pipe holds, sent while nobody reads: kept, written as the reader takes it,
    // byte for byte, and the loop keeps running meanwhile.
    void slowReaderGetsEverything()
    {
        Pipe in;
        Pipe out;
        FdTransport t(in.read(), out.write(), 1024);
        t.start();
        QByteArray sent;
        for (int i = 0; i < 64; ++i) {
            const QByteArray msg = QByteArray(64 * 1024, char('a' + i % 26)) + '\n';
            sent += msg;
            t.send(msg);
        }
        QVERIFY(t.pendingOutput() > 0); // a pipe holds 64 KiB by default
        QVERIFY(::fcntl(out.read(), F_SETFL, ::fcntl(out.read(), F_GETFL) | O_NONBLOCK) == 0);
        QByteArray received;
        bool drained = false;
        connect(&t, &FdTransport::drained, this, [&drained] { drained = true; });
        QVERIFY(test::waitUntil(
            [&] {
                char buf[16384];
                for (ssize_t n; (n = ::read(out.read(), buf, sizeof buf)) > 0;)
                    received.append(buf, n);
                return received.size() >= sent.size();
            },
            30000));
        QCOMPARE(received.size(), sent.size());
        QVERIFY(received == sent);
        QVERIFY(test::waitUntil([&] { return drained && t.pendingOutput() == 0; }, 10000));
    }

    void closedReaderDropsOutput()
    {
        Pipe in;
        Pipe out;
        FdTransport t(in.read(), out.write(), 1024);
        t.start();
        out.closeRead();
        bool drained = false;
        connect(&t, &FdTransport::drained, this, [&drained] { drained = true; });
        t.send("{}\n"); // EPIPE, not SIGPIPE: ignored for this test as sandbarctl mcp does
        QVERIFY(drained);
        QVERIFY(t.outputClosed());
        QCOMPARE(t.pendingOutput(), 0);
    }

    void initTestCase() { ::signal(SIGPIPE, SIG_IGN); }
};

QTEST_GUILESS_MAIN(TestMcpTransport)
#include "tst_mcp_transport.moc"
