// Process-wide state and on-disk races around core/files: extraction never changes the
// umask other threads see, and the tar writer never sends what a file was swapped for
// between the walk and the read.
#include "TarWrite.h"
#include "TestSupport.h"
#include "files/PrivateUmask.h"
#include "files/TarExtractor.h"
#include "files/TarSource.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <atomic>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace sandbar;
using namespace sandbar::files;

namespace {
std::atomic<int> g_zeroCalls{0}; // umask(0) calls, from any thread
std::atomic<int> g_leaks{0};     // of those, the ones the whole process saw
} // namespace

// Stands in for the C library's umask() for this executable and libarchive: after every
// umask(0), reads the umask of the thread group leader, which every thread not holding its own
// shares. Deterministic where polling from another thread could miss a two-syscall window.
extern "C" mode_t umask(mode_t mask) noexcept
{
    const auto old = mode_t(::syscall(SYS_umask, mask));
    if (mask == 0 && old != 0) {
        ++g_zeroCalls;
        if (processUmask() == 0)
            ++g_leaks;
    }
    return old;
}

namespace {
QByteArray makeTar()
{
    return test::writeTar(test::TarFormat::PaxRestricted, [](archive *a) {
        const auto add = [a](const char *name, int type, int perm, const QByteArray &data = {}) {
            archive_entry *e = archive_entry_new();
            archive_entry_set_pathname(e, name);
            archive_entry_set_filetype(e, unsigned(type));
            archive_entry_set_perm(e, mode_t(perm));
            archive_entry_set_size(e, data.size());
            archive_write_header(a, e);
            archive_write_data(a, data.constData(), size_t(data.size()));
            archive_entry_free(e);
        };
        add("top", AE_IFDIR, 0755);
        add("top/open", AE_IFREG, 0777, "x");
        add("top/private", AE_IFREG, 0640, "y");
        add("top/ro-dir", AE_IFDIR, 0555);
        add("top/a/b/deep", AE_IFREG, 0600, "z"); // a and a/b are made by the library
    });
}

int modeOf(const QString &path)
{
    struct stat st {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? int(st.st_mode & 07777) : -1;
}

// Reads the archive 512 bytes at a time; at the first header naming `name`, calls swap().
QByteArray readSwapping(TarSource &src, const QByteArray &name, const std::function<void()> &swap, bool *swapped)
{
    QByteArray out;
    char buf[512];
    for (;;) {
        const qint64 n = src.read(buf, sizeof buf);
        if (n <= 0)
            break;
        out.append(buf, n);
        if (!*swapped && n == 512 && QByteArray(buf, int(qstrnlen(buf, 100))) == name) {
            *swapped = true;
            swap();
        }
    }
    return out;
}
} // namespace

class TestTarRaces : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        m_savedUmask = ::umask(022);
        g_zeroCalls = 0;
        g_leaks = 0;
    }
    void cleanup() { ::umask(m_savedUmask); }

    // The probe itself: libarchive's disk writer, used on this thread, zeroes the umask
    // of the whole process (what this test must see from the extractor: never).
    void probeSeesTheLibraryZeroingTheUmask()
    {
        archive *disk = archive_write_disk_new();
        QVERIFY(disk);
        archive_write_free(disk);
        QVERIFY(g_zeroCalls > 0);
        QVERIFY(g_leaks > 0);
    }

    void extractionKeepsTheProcessUmask()
    {
        const QByteArray tar = makeTar();
        for (const int mask : {027, 077}) {
            ::umask(mode_t(mask));
            g_zeroCalls = 0;
            g_leaks = 0;
            QTemporaryDir dir;
            TarExtractor x(dir.path());
            QVERIFY_RESULT(x.feed(tar));
            QVERIFY_RESULT(x.finish());
            // libarchive did flip a umask for every header, but never the process's.
            QVERIFY2(g_zeroCalls >= 5, qPrintable(QString::number(g_zeroCalls)));
            QCOMPARE(g_leaks.load(), 0);
            QCOMPARE(processUmask(), mask);

            const QString top = dir.filePath(QStringLiteral("top"));
            // The archive's modes exactly (the umask does not apply to them)...
            QCOMPARE(modeOf(top), 0755);
            QCOMPARE(modeOf(top + QStringLiteral("/open")), 0777);
            QCOMPARE(modeOf(top + QStringLiteral("/private")), 0640);
            QCOMPARE(modeOf(top + QStringLiteral("/ro-dir")), 0755); // folders stay writable to us
            QCOMPARE(modeOf(top + QStringLiteral("/a/b/deep")), 0600);
            // ...and folders the archive did not list follow the process's umask of the moment.
            QCOMPARE(modeOf(top + QStringLiteral("/a")), 0777 & ~mask);
            QCOMPARE(modeOf(top + QStringLiteral("/a/b")), 0777 & ~mask);
        }
    }

    void privateUmaskRunsOffThisThread()
    {
        ::umask(023);
        int inside = -1, seen = -1;
        QVERIFY(runWithPrivateUmask([&] {
            inside = int(::umask(0)); // the job starts with the process's umask...
            seen = processUmask();    // ...and zeroing its own leaves the process's alone
            ::umask(mode_t(inside));
        }));
        QCOMPARE(inside, 023);
        QCOMPARE(seen, 023);
        QCOMPARE(processUmask(), 023);
    }

    // Between the walk (lstat) and the read (open), the file becomes a link to a secret: the
    // copy fails and the secret is not in it. The small chunk stops production right after
    // the file's header, so the swap lands exactly in that window.
    void swapsBetweenWalkAndReadAreRefused_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("file to link") << QStringLiteral("link");
        QTest::newRow("folder to link") << QStringLiteral("dirlink");
        QTest::newRow("file to fifo") << QStringLiteral("fifo");
        QTest::newRow("file to another file") << QStringLiteral("other");
    }
    void swapsBetweenWalkAndReadAreRefused()
    {
        QFETCH(QString, how);
        QTemporaryDir tmp;
        const QByteArray secret = "SECRET-CONTENT-" + QByteArray(100, 's');
        const QString outside = tmp.filePath(QStringLiteral("outside"));
        QVERIFY(QDir().mkpath(outside + QStringLiteral("/sub")));
        for (const QString &p : QStringList{outside + QStringLiteral("/secret"), outside + QStringLiteral("/sub/f")}) {
            QFile f(p);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(secret);
        }
        const QString root = tmp.filePath(QStringLiteral("d"));
        QVERIFY(QDir().mkpath(root + QStringLiteral("/sub")));
        {
            QFile f(root + QStringLiteral("/sub/f"));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(secret.size(), 'o'));
        }
        const QString file = root + QStringLiteral("/sub/f");
        const auto swap = [&] {
            if (how == QLatin1String("dirlink")) {
                QVERIFY(QDir().rename(root + QStringLiteral("/sub"), root + QStringLiteral("/sub.old")));
                QVERIFY(QFile::link(outside + QStringLiteral("/sub"), root + QStringLiteral("/sub")));
                return;
            }
            if (how != QLatin1String("other"))
                QVERIFY(QFile::remove(file));
            if (how == QLatin1String("link")) {
                QVERIFY(QFile::link(outside + QStringLiteral("/secret"), file));
            } else if (how == QLatin1String("fifo")) {
                QCOMPARE(::mkfifo(QFile::encodeName(file).constData(), 0600), 0);
            } else {
                // Made before the original goes, so it cannot reuse its inode number.
                QVERIFY(QFile::copy(outside + QStringLiteral("/secret"), file + QStringLiteral(".new")));
                QCOMPARE(::rename(QFile::encodeName(file + QStringLiteral(".new")).constData(),
                                  QFile::encodeName(file).constData()),
                         0);
            }
        };

        TarSource src(root, {.chunkBytes = 512});
        QVERIFY_RESULT(src.prepare());
        bool swapped = false;
        QElapsedTimer timer;
        timer.start();
        const QByteArray out = readSwapping(src, "d/sub/f", swap, &swapped);
        QVERIFY(swapped);
        QVERIFY2(src.failure().has_value(), "the copy went on after the swap");
        QVERIFY2(!out.contains("SECRET"), "the swapped-in content was sent");
        QVERIFY(timer.elapsed() < 10000); // a FIFO is not waited on
        QVERIFY(src.failure()->code == ErrorCode::Conflict || src.failure()->code == ErrorCode::NotFound);
    }

    // No swap: the file's own bytes, padded to the header's size when it shrank.
    void unswappedFileIsRead()
    {
        QTemporaryDir tmp;
        const QString root = tmp.filePath(QStringLiteral("d"));
        QVERIFY(QDir().mkpath(root));
        QFile f(root + QStringLiteral("/f"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(5000, 'k'));
        f.close();
        TarSource src(root, {.chunkBytes = 512});
        QVERIFY_RESULT(src.prepare());
        bool shrunk = false;
        const QByteArray out = readSwapping(
            src, "d/f", [&] { QVERIFY(QFile::resize(root + QStringLiteral("/f"), 1000)); }, &shrunk);
        QVERIFY(shrunk);
        QVERIFY(!src.failure());
        QVERIFY(out.contains(QByteArray(1000, 'k')));
        QVERIFY(!out.contains(QByteArray(1001, 'k')));
        QCOMPARE(out.size() % 512, 0);
    }

private:
    mode_t m_savedUmask = 022;
};

QTEST_GUILESS_MAIN(TestTarRaces)
#include "tst_tarraces.moc"
