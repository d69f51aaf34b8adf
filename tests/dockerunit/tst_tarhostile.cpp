// Hostile archives against TarExtractor: each row names the code extraction must end with
// and proves that nothing appeared or changed outside the destination (a sentinel folder
// next to it, and the folder holding both), and that the destination's own file survives
// unless the row replaces it on purpose.
#include "TarWrite.h"
#include "TestSupport.h"
#include "files/TarExtractor.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <cstring>
#include <sys/stat.h>
#include <sys/sysmacros.h>

using namespace sandbar;
using namespace sandbar::files;

namespace {
constexpr int kOk = -1; // expected "code" of a row that must succeed

struct Member {
    QByteArray name;
    QByteArray data;
    int type = AE_IFREG;
    QByteArray symlink;  // for AE_IFLNK
    QByteArray hardlink; // a regular entry that is a hard link
    qint64 size = -1;    // header size when it differs from data (data is then cut short)
};

QByteArray makeTar(const QList<Member> &members)
{
    return test::writeTar(test::TarFormat::Pax, [&members](archive *a) {
        for (const auto &m : members) {
            archive_entry *e = archive_entry_new();
            archive_entry_copy_pathname(e, m.name.constData());
            archive_entry_set_filetype(e, unsigned(m.type));
            archive_entry_set_perm(e, 06755);
            if (!m.symlink.isEmpty())
                archive_entry_copy_symlink(e, m.symlink.constData());
            if (!m.hardlink.isEmpty())
                archive_entry_copy_hardlink(e, m.hardlink.constData());
            if (m.type == AE_IFCHR || m.type == AE_IFBLK)
                archive_entry_set_rdev(e, makedev(1, 3));
            if (m.type == AE_IFREG && m.hardlink.isEmpty())
                archive_entry_set_size(e, m.size >= 0 ? m.size : m.data.size());
            archive_write_header(a, e);
            if (!m.data.isEmpty())
                archive_write_data(a, m.data.constData(), size_t(m.data.size()));
            archive_entry_free(e);
        }
    });
}

// A ustar header written by hand, for size fields libarchive would never produce.
QByteArray rawHeader(const QByteArray &name, const QByteArray &sizeField, char type = '0')
{
    QByteArray h(512, '\0');
    std::memcpy(h.data(), name.constData(), size_t(qMin<qsizetype>(name.size(), 100)));
    std::memcpy(h.data() + 100, "0000644", 7);
    std::memcpy(h.data() + 108, "0000000", 7);
    std::memcpy(h.data() + 116, "0000000", 7);
    std::memcpy(h.data() + 124, sizeField.constData(), size_t(qMin<qsizetype>(sizeField.size(), 12)));
    std::memcpy(h.data() + 136, "00000000000", 11);
    h[156] = type;
    std::memcpy(h.data() + 257,
                "ustar\0"
                "00",
                8);
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (char c : h)
        sum += static_cast<unsigned char>(c);
    const QByteArray s = QByteArray::number(sum, 8).rightJustified(6, '0');
    std::memcpy(h.data() + 148, s.constData(), 6);
    h[154] = '\0';
    h[155] = ' ';
    return h;
}

QByteArray base256(quint64 v)
{
    QByteArray f(12, '\0');
    f[0] = char(0x80);
    for (int i = 11; i >= 4; --i) {
        f[i] = char(v & 0xff);
        v >>= 8;
    }
    return f;
}

// Every path under root with a digest of what it is, for a before/after comparison.
QMap<QString, QByteArray> snapshot(const QString &root)
{
    QMap<QString, QByteArray> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        const QFileInfo fi(p);
        QByteArray what = fi.isSymLink() ? "link:" + QFile::encodeName(fi.symLinkTarget())
                          : fi.isDir()   ? QByteArray("dir")
                                         : QByteArray("file:");
        if (fi.isFile() && !fi.isSymLink()) {
            QFile f(p);
            if (f.open(QIODevice::ReadOnly))
                what += f.readAll();
        }
        out.insert(p.mid(root.size()), what);
    }
    return out;
}

bool tagIs(const char *tag)
{
    return std::strcmp(QTest::currentDataTag(), tag) == 0;
}

VoidResult extract(const QByteArray &tar, const QString &dir, int piece)
{
    TarExtractor x(dir);
    for (qsizetype i = 0; i < tar.size(); i += piece) {
        if (auto r = x.feed(tar.mid(i, piece)); !r)
            return r;
    }
    return x.finish();
}
} // namespace

class TestTarHostile : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hostile_data()
    {
        QTest::addColumn<QByteArray>("tar");
        QTest::addColumn<int>("code");       // an ErrorCode, or kOk
        QTest::addColumn<QString>("plant");  // set-up inside dest: "link:NAME->TARGET" (TARGET "@s" = sentinel)
        QTest::addColumn<QString>("absent"); // a name in dest that must not exist afterwards
        QTest::addColumn<bool>("keepsExisting");

        const int bad = int(ErrorCode::InvalidArgument), conflict = int(ErrorCode::Conflict),
                  early = int(ErrorCode::Unavailable);
        // "@S" in a name is replaced by the sentinel's absolute path when the row runs.
        QTest::newRow("absolute path") << makeTar({{"@S/abs", "x"}}) << bad << QString() << QString() << true;
        QTest::newRow("absolute long pax path")
            << makeTar({{"@S/" + QByteArray(150, 'p'), "x"}}) << bad << QString() << QString() << true;
        QTest::newRow("dotdot") << makeTar({{"../sentinel/dd", "x"}}) << bad << QString() << QString() << true;
        QTest::newRow("inner dotdot") << makeTar({{"a/../../sentinel/in", "x"}}) << bad << QString()
                                      << QStringLiteral("a") << true;
        QTest::newRow("symlink abs out, write through") << makeTar({{"l", {}, AE_IFLNK, "@S"}, {"l/through", "x"}})
                                                        << bad << QString() << QStringLiteral("l") << true;
        QTest::newRow("symlink rel out, write through")
            << makeTar({{"d/l", {}, AE_IFLNK, "../../sentinel"}, {"d/l/through", "x"}}) << bad << QString()
            << QStringLiteral("d/l") << true;
        QTest::newRow("symlink inside, write through")
            << makeTar({{"sub", {}, AE_IFDIR}, {"l", {}, AE_IFLNK, "sub"}, {"l/x", "x"}}) << bad << QString()
            << QStringLiteral("sub/x") << true;
        QTest::newRow("symlink to self-dir, deep write")
            << makeTar({{"a", {}, AE_IFLNK, "."}, {"a/a/a/x", "x"}}) << bad << QString() << QStringLiteral("x") << true;
        QTest::newRow("planted symlink, write through")
            << makeTar({{"planted/x", "x"}}) << bad << QStringLiteral("link:planted->@s") << QString() << true;
        QTest::newRow("planted symlink, folder entry")
            << makeTar({{"planted", {}, AE_IFDIR}, {"planted/x", "x"}}) << conflict
            << QStringLiteral("link:planted->@s") << QString() << true;
        QTest::newRow("planted symlink to a file, replaced")
            << makeTar({{"planted", "evil"}}) << kOk << QStringLiteral("link:planted->@s/keep") << QString() << true;
        QTest::newRow("hardlink to /etc/passwd")
            << makeTar({{"h", {}, AE_IFREG, {}, "/etc/passwd"}}) << bad << QString() << QStringLiteral("h") << true;
        QTest::newRow("hardlink out rel") << makeTar({{"h", {}, AE_IFREG, {}, "../sentinel/keep"}}) << bad << QString()
                                          << QStringLiteral("h") << true;
        QTest::newRow("hardlink to a file it did not write")
            << makeTar({{"h", {}, AE_IFREG, {}, "existing.txt"}}) << bad << QString() << QStringLiteral("h") << true;
        QTest::newRow("hardlink through an inner symlink")
            << makeTar({{"sub/f", "f"}, {"l", {}, AE_IFLNK, "sub"}, {"h", {}, AE_IFREG, {}, "l/f"}}) << bad << QString()
            << QStringLiteral("h") << true;
        QTest::newRow("hardlink through a planted symlink")
            << makeTar({{"h", {}, AE_IFREG, {}, "planted/keep"}}) << bad << QStringLiteral("link:planted->@s")
            << QStringLiteral("h") << true;
        QTest::newRow("char device skipped")
            << makeTar({{"cdev", {}, AE_IFCHR}, {"after", "a"}}) << kOk << QString() << QStringLiteral("cdev") << true;
        QTest::newRow("block device skipped")
            << makeTar({{"bdev", {}, AE_IFBLK}}) << kOk << QString() << QStringLiteral("bdev") << true;
        QTest::newRow("fifo skipped") << makeTar({{"fifo", {}, AE_IFIFO}}) << kOk << QString() << QStringLiteral("fifo")
                                      << true;
        QTest::newRow("huge size, base-256") << rawHeader("huge", base256(quint64(1) << 62)) + QByteArray(4096, 'h')
                                             << early << QString() << QStringLiteral("huge") << true;
        QTest::newRow("huge size, octal") << rawHeader("huge", "77777777777") + QByteArray(4096, 'h') << early
                                          << QString() << QStringLiteral("huge") << true;
        QTest::newRow("size field not a number")
            << rawHeader("bad", "12x45") << bad << QString() << QStringLiteral("bad") << true;
        QTest::newRow("truncated header")
            << makeTar({{"t", QByteArray(1000, 't')}}).left(300) << early << QString() << QStringLiteral("t") << true;
        QTest::newRow("truncated data, new file") << makeTar({{"t", QByteArray(5000, 't')}}).left(512 * 4 + 700)
                                                  << early << QString() << QStringLiteral("t") << true;
        QTest::newRow("truncated data over an existing file")
            << makeTar({{"existing.txt", QByteArray(5000, 't')}}).left(512 * 4 + 700) << early << QString()
            << QStringLiteral("existing.txt") << false;
        QTest::newRow("empty input") << QByteArray() << early << QString() << QString() << true;
        QTest::newRow("end blocks only") << QByteArray(1024, '\0') << kOk << QString() << QString() << true;
        QTest::newRow("garbage") << QByteArray(4096, 'z') << bad << QString() << QString() << true;
        QTest::newRow("very long name") << makeTar({{QByteArray(300, 'n'), "x"}}) << bad << QString() << QString()
                                        << true;
        QTest::newRow("path past PATH_MAX")
            << makeTar({{QByteArray(QByteArray(250, 'q') + '/').repeated(20) + "f", "x"}}) << bad << QString()
            << QString(250, QLatin1Char('q')) << true;
        QTest::newRow("control characters")
            << makeTar({{"ctl\n\r\x01\x1b[31m\x7f", "c"}}) << kOk << QString() << QString() << true;
        QTest::newRow("folder onto a file")
            << makeTar({{"existing.txt", {}, AE_IFDIR}}) << conflict << QString() << QString() << true;
        QTest::newRow("file beneath a file")
            << makeTar({{"existing.txt/x", "x"}}) << conflict << QString() << QString() << true;
        QTest::newRow("dotdot symlink target hidden deep") << makeTar({{"a/b/l", {}, AE_IFLNK, "../../../sentinel"}})
                                                           << bad << QString() << QStringLiteral("a/b/l") << true;
    }

    void hostile()
    {
        QFETCH(QByteArray, tar);
        QFETCH(int, code);
        QFETCH(QString, plant);
        QFETCH(QString, absent);
        QFETCH(bool, keepsExisting);
        for (int piece : {1 << 20, 100}) {
            QTemporaryDir base;
            QVERIFY(base.isValid());
            const QString sentinel = base.filePath(QStringLiteral("sentinel"));
            const QString dest = base.filePath(QStringLiteral("dest"));
            QVERIFY(QDir().mkpath(sentinel));
            QVERIFY(QDir().mkpath(dest));
            {
                QFile keep(sentinel + QStringLiteral("/keep"));
                QVERIFY(keep.open(QIODevice::WriteOnly));
                keep.write("keep");
                QFile existing(dest + QStringLiteral("/existing.txt"));
                QVERIFY(existing.open(QIODevice::WriteOnly));
                existing.write("old");
            }
            if (plant.startsWith(QLatin1String("link:"))) {
                const QStringList parts = plant.mid(5).split(QStringLiteral("->"));
                QString target = parts.at(1);
                target.replace(QStringLiteral("@s"), sentinel);
                QVERIFY(QFile::link(target, dest + QLatin1Char('/') + parts.at(0)));
            }
            const QByteArray bytes = tar.contains("@S") ? rebuildWithSentinel(tar, sentinel) : tar;
            const auto before = snapshot(sentinel);

            const auto r = extract(bytes, dest, piece);
            const QString why = r ? QStringLiteral("ok") : r.error().message;
            if (piece > 100) // what a user would read, for whoever reads the log
                qInfo("%s", qPrintable(why));
            if (code == kOk)
                QVERIFY2(r, qPrintable(why));
            else {
                QVERIFY2(!r, "extraction should have failed");
                QVERIFY2(!r.error().message.isEmpty(), "an error needs a message");
                QCOMPARE(int(r.code()), code);
            }
            // Nothing outside the destination moved.
            QCOMPARE(snapshot(sentinel), before);
            QCOMPARE(QDir(base.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                     QStringList({QStringLiteral("dest"), QStringLiteral("sentinel")}));
            if (!absent.isEmpty())
                QVERIFY2(!QFileInfo(dest + QLatin1Char('/') + absent).exists() &&
                             !QFileInfo(dest + QLatin1Char('/') + absent).isSymLink(),
                         qPrintable(absent + QStringLiteral(" exists; ") + why));
            if (keepsExisting) {
                QFile existing(dest + QStringLiteral("/existing.txt"));
                QVERIFY(existing.open(QIODevice::ReadOnly));
                QCOMPARE(existing.readAll(), QByteArray("old"));
            }
            if (tagIs("planted symlink to a file, replaced")) {
                const QFileInfo replaced(dest + QStringLiteral("/planted"));
                QVERIFY(!replaced.isSymLink() && replaced.isFile());
            }
            if (tagIs("char device skipped"))
                QVERIFY(QFileInfo(dest + QStringLiteral("/after")).isFile());
            if (tagIs("control characters"))
                QVERIFY(QFileInfo(dest + QStringLiteral("/ctl\n\r\x01\x1b[31m\x7f")).isFile());
        }
    }

    void destinationBehindSymlink()
    {
        // A destination reached through a link (a home folder on another disk) still works:
        // the library's symlink walk starts from the real path.
        QTemporaryDir base;
        const QString real = base.filePath(QStringLiteral("real"));
        QVERIFY(QDir().mkpath(real));
        QVERIFY(QFile::link(real, base.filePath(QStringLiteral("via"))));
        QVERIFY_RESULT(extract(makeTar({{"d/f", "x"}}), base.filePath(QStringLiteral("via")), 1 << 20));
        QVERIFY(QFileInfo(real + QStringLiteral("/d/f")).isFile());
    }

    void hardlinkToEarlierMember()
    {
        QTemporaryDir base;
        QVERIFY_RESULT(extract(makeTar({{"f", "data"}, {"h", {}, AE_IFREG, {}, "f"}}), base.path(), 1 << 20));
        struct stat a {
        }, b{};
        QCOMPARE(::stat(QFile::encodeName(base.filePath(QStringLiteral("f"))).constData(), &a), 0);
        QCOMPARE(::stat(QFile::encodeName(base.filePath(QStringLiteral("h"))).constData(), &b), 0);
        QCOMPARE(a.st_ino, b.st_ino);
    }

    void modesAndTimes()
    {
        QTemporaryDir base;
        const QByteArray tar = test::writeTar(test::TarFormat::PaxRestricted, [](archive *a) {
            archive_entry *e = archive_entry_new();
            archive_entry_copy_pathname(e, "ro");
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, 04640);
            archive_entry_set_mtime(e, 1000000000, 0);
            archive_entry_set_size(e, 1);
            archive_write_header(a, e);
            archive_write_data(a, "r", 1);
            archive_entry_free(e);
        });
        QVERIFY_RESULT(extract(tar, base.path(), 1 << 20));
        struct stat st {
        };
        QCOMPARE(::lstat(QFile::encodeName(base.filePath(QStringLiteral("ro"))).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, 0640u); // exact, set-id dropped
        QCOMPARE(qint64(st.st_mtime), qint64(1000000000));
    }

private:
    static QByteArray rebuildWithSentinel(const QByteArray &tar, const QString &sentinel)
    {
        // Reads the archive back and writes it again with "@S" in names (and link targets)
        // replaced, so that headers and checksums stay valid.
        QList<Member> members;
        archive *r = archive_read_new();
        archive_read_support_format_tar(r);
        archive_read_open_memory(r, tar.constData(), size_t(tar.size()));
        archive_entry *e = nullptr;
        const QByteArray s = QFile::encodeName(sentinel);
        while (archive_read_next_header(r, &e) == ARCHIVE_OK) {
            Member m;
            m.name = QByteArray(archive_entry_pathname(e)).replace("@S", s);
            m.type = int(archive_entry_filetype(e));
            if (archive_entry_symlink(e))
                m.symlink = QByteArray(archive_entry_symlink(e)).replace("@S", s);
            if (archive_entry_hardlink(e))
                m.hardlink = QByteArray(archive_entry_hardlink(e)).replace("@S", s);
            char buf[8192];
            la_ssize_t n;
            while ((n = archive_read_data(r, buf, sizeof buf)) > 0)
                m.data.append(buf, n);
            members << m;
        }
        archive_read_free(r);
        return makeTar(members);
    }
};

QTEST_GUILESS_MAIN(TestTarHostile)
#include "tst_tarhostile.moc"
