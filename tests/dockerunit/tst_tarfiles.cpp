// The streaming tar writer and the safe extractor of core/files, and the path helpers.
#include "TarWrite.h"
#include "TestSupport.h"
#include "files/PathSafety.h"
#include "files/TarExtractor.h"
#include "files/TarFolder.h"
#include "files/TarSource.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>

using namespace sandbar;
using namespace sandbar::files;

namespace {
void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

QByteArray readAll(TarSource &src, qint64 *maxAhead = nullptr)
{
    QByteArray out;
    char buf[70000];
    qint64 consumed = 0;
    for (;;) {
        const qint64 n = src.read(buf, sizeof buf);
        if (n <= 0)
            break;
        out.append(buf, n);
        consumed += n;
        if (maxAhead)
            *maxAhead = qMax(*maxAhead, src.archiveBytesProduced() - consumed);
    }
    return out;
}

struct Member {
    QByteArray name;
    QByteArray data;
    char type = '0'; // '0' file, '5' dir, '2' symlink, '1' hardlink
    QByteArray link;
};

// A hostile or unusual archive written straight with libarchive (no sanitising).
QByteArray makeTar(const QList<Member> &members, bool gnu = false)
{
    return test::writeTar(gnu ? test::TarFormat::Gnu : test::TarFormat::Pax, [&members](archive *a) {
        for (const auto &m : members) {
            archive_entry *e = archive_entry_new();
            archive_entry_set_pathname_utf8(e, m.name.constData());
            archive_entry_set_perm(e, m.type == '5' ? 0755 : 06755);
            if (m.type == '5') {
                archive_entry_set_filetype(e, AE_IFDIR);
            } else if (m.type == '2') {
                archive_entry_set_filetype(e, AE_IFLNK);
                archive_entry_set_symlink_utf8(e, m.link.constData());
            } else if (m.type == '1') {
                archive_entry_set_filetype(e, AE_IFREG);
                archive_entry_set_hardlink_utf8(e, m.link.constData());
            } else {
                archive_entry_set_filetype(e, AE_IFREG);
                archive_entry_set_size(e, m.data.size());
            }
            archive_write_header(a, e);
            if (m.type == '0')
                archive_write_data(a, m.data.constData(), size_t(m.data.size()));
            archive_entry_free(e);
        }
    });
}

VoidResult extract(const QByteArray &tar, const QString &dir, int piece = 0)
{
    TarExtractor x(dir);
    if (piece <= 0) {
        if (auto r = x.feed(tar); !r)
            return r;
    } else {
        for (qsizetype i = 0; i < tar.size(); i += piece) {
            if (auto r = x.feed(tar.mid(i, piece)); !r)
                return r;
        }
    }
    return x.finish();
}

const QStringList kAwkward{QStringLiteral("with space.txt"),
                           QStringLiteral("-leading-dash"),
                           QStringLiteral("--"),
                           QString::fromUtf8("ünïcødé 😀.txt"),
                           QStringLiteral("new\nline"),
                           QStringLiteral(".hidden"),
                           QStringLiteral("a'quote\"and\\back"),
                           QString(120, QLatin1Char('L')) + QStringLiteral(".long")};
} // namespace

class TestTarFiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripAwkwardNames()
    {
        QTemporaryDir src, dst;
        const QString root = src.filePath(QStringLiteral("tree"));
        QByteArray big(3 * 1024 * 1024 + 17, Qt::Uninitialized);
        for (qsizetype i = 0; i < big.size(); ++i)
            big[i] = char(QRandomGenerator::global()->generate());
        for (const QString &n : kAwkward)
            writeFile(root + QLatin1Char('/') + n, n.toUtf8());
        const QString deep = root + QStringLiteral("/") + QString(90, QLatin1Char('d')) + QStringLiteral("/") +
                             QString(90, QLatin1Char('e')) + QStringLiteral("/") + QString(90, QLatin1Char('f'));
        writeFile(deep + QStringLiteral("/deep file"), "deep");
        writeFile(root + QStringLiteral("/big.bin"), big);
        writeFile(root + QStringLiteral("/empty"), {});
        QDir().mkpath(root + QStringLiteral("/empty dir"));
        QVERIFY(QFile::link(QStringLiteral("with space.txt"), root + QStringLiteral("/rel link")));

        TarSource tar(root, {.uid = 1000, .gid = 1000, .chunkBytes = 64 * 1024});
        QVERIFY_RESULT(tar.prepare());
        QCOMPARE(
            tar.totalFileBytes(), big.size() + 4 + [] {
                qint64 n = 0;
                for (const auto &s : kAwkward)
                    n += s.toUtf8().size();
                return n;
            }());
        qint64 ahead = 0;
        const QByteArray bytes = readAll(tar, &ahead);
        QVERIFY(!tar.failure());
        QVERIFY(tar.atEnd());
        QCOMPARE(tar.fileBytesDone(), tar.totalFileBytes());
        QVERIFY2(ahead <= 256 * 1024, qPrintable(QString::number(ahead))); // never the whole file

        for (int piece : {0, 1, 511, 4097}) {
            if (piece == 1) // byte by byte is slow over 3 MiB; the small entries prove the point
                continue;
            QTemporaryDir out;
            QVERIFY_RESULT(extract(bytes, out.path(), piece));
            const QString t = out.filePath(QStringLiteral("tree"));
            for (const QString &n : kAwkward) {
                QFile f(t + QLatin1Char('/') + n);
                QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(n));
                QCOMPARE(f.readAll(), n.toUtf8());
            }
            QFile b(t + QStringLiteral("/big.bin"));
            QVERIFY(b.open(QIODevice::ReadOnly));
            QCOMPARE(b.readAll(), big);
            QVERIFY(QFileInfo(t + QStringLiteral("/empty dir")).isDir());
            QCOMPARE(QFileInfo(t + QStringLiteral("/empty")).size(), 0);
            QCOMPARE(QFileInfo(t + QStringLiteral("/rel link")).symLinkTarget(), t + QStringLiteral("/with space.txt"));
            QVERIFY(QFile::exists(
                out.filePath(QStringLiteral("tree/") + deep.mid(root.size() + 1) + QStringLiteral("/deep file"))));
        }
    }

    void singleFileAndRename()
    {
        QTemporaryDir src, out;
        writeFile(src.filePath(QStringLiteral("x")), "hello");
        TarSource tar(src.filePath(QStringLiteral("x")), {.rootName = QStringLiteral("-renamed ü")});
        QVERIFY_RESULT(tar.prepare());
        QVERIFY_RESULT(extract(readAll(tar), out.path()));
        QFile f(out.filePath(QStringLiteral("-renamed ü")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("hello"));
        TarSource missing(src.filePath(QStringLiteral("nope")));
        QCOMPARE(missing.prepare().code(), ErrorCode::NotFound);
    }

    void fileRemovedWhileStreaming()
    {
        QTemporaryDir src;
        writeFile(src.filePath(QStringLiteral("d/a")), "a");
        writeFile(src.filePath(QStringLiteral("d/b")), "b");
        TarSource tar(src.filePath(QStringLiteral("d")));
        QVERIFY_RESULT(tar.prepare());
        QFile::remove(src.filePath(QStringLiteral("d/b")));
        QFile::remove(src.filePath(QStringLiteral("d/a")));
        readAll(tar);
        QVERIFY(tar.failure());
        QCOMPARE(tar.failure()->code, ErrorCode::NotFound);
    }

    void gnuLongNames()
    {
        QTemporaryDir out;
        const QByteArray longName = QByteArray(150, 'g') + "/" + QByteArray(150, 'h');
        QVERIFY_RESULT(extract(makeTar({{longName, "gnu"}}, true), out.path()));
        QFile f(out.filePath(QString::fromLatin1(longName)));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("gnu"));
        QCOMPARE(QFileInfo(f).permissions() & QFileDevice::ExeOwner, QFileDevice::ExeOwner);
        QVERIFY(!(QFileInfo(f).size() < 0));
    }

    void hostileArchives_data()
    {
        QTest::addColumn<QByteArray>("tar");
        QTest::addColumn<QString>("escapee"); // relative to the temp dir's parent; must not appear
        QTest::newRow("absolute") << makeTar({{"/tmp/sandbar-escape-abs", "x"}})
                                  << QStringLiteral("/tmp/sandbar-escape-abs");
        QTest::newRow("dotdot") << makeTar({{"../escape-dotdot", "x"}}) << QStringLiteral("../escape-dotdot");
        QTest::newRow("inner dotdot") << makeTar({{"a/../../escape-inner", "x"}}) << QStringLiteral("../escape-inner");
        QTest::newRow("link out abs") << makeTar({{"l", {}, '2', "/tmp"}, {"l/sandbar-escape-link", "x"}})
                                      << QStringLiteral("/tmp/sandbar-escape-link");
        QTest::newRow("link out rel") << makeTar({{"d/l", {}, '2', "../../"}, {"d/l/escape-rel", "x"}})
                                      << QStringLiteral("../escape-rel");
        QTest::newRow("hardlink out") << makeTar({{"h", {}, '1', "../../etc/passwd"}}) << QString();
        QTest::newRow("dotdot gnu") << makeTar({{"../escape-gnu", "x"}}, true) << QStringLiteral("../escape-gnu");
    }
    void hostileArchives()
    {
        QFETCH(QByteArray, tar);
        QFETCH(QString, escapee);
        QTemporaryDir base;
        const QString target = base.filePath(QStringLiteral("t"));
        const auto r = extract(tar, target);
        QVERIFY(!r);
        QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        if (!escapee.isEmpty()) {
            const QString p = escapee.startsWith(QLatin1Char('/')) ? escapee : QDir(target).filePath(escapee);
            QVERIFY2(!QFile::exists(p), qPrintable(p));
        }
    }

    void linkThroughExistingSymlink()
    {
        // A link inside the target that stays inside is fine; writing through it is not.
        QTemporaryDir base;
        const auto r = extract(makeTar({{"sub", {}, '5'}, {"l", {}, '2', "sub"}, {"l/x", "x"}}), base.path());
        QVERIFY(!r);
        QVERIFY(!QFile::exists(base.filePath(QStringLiteral("sub/x"))));
    }

    void brokenStreams_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray good = makeTar({{"a", QByteArray(1000, 'a')}, {"b", "b"}});
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated header") << good.left(300);
        QTest::newRow("truncated data") << good.left(512 + 700);
        QTest::newRow("no end marker") << good.left(512 * 5);
        QTest::newRow("garbage") << QByteArray(2048, 'z');
        QByteArray badSum = good;
        badSum[0] = 'X';
        QTest::newRow("bad checksum") << badSum;
    }
    void brokenStreams()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir base;
        QVERIFY(!extract(bytes, base.path()));
        QVERIFY(!extract(bytes, base.path(), 7));
    }

    void setIdBitsDropped()
    {
        QTemporaryDir base;
        QVERIFY_RESULT(extract(makeTar({{"suid", "x"}}), base.path()));
        QFileInfo fi(base.filePath(QStringLiteral("suid")));
        QVERIFY(fi.exists());
        QCOMPARE(QFile::permissions(fi.filePath()) & QFileDevice::ExeOwner, QFileDevice::ExeOwner);
        struct stat st {
        };
        QCOMPARE(::stat(QFile::encodeName(fi.filePath()).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07000, 0u);
    }

    void remotePaths_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out"); // "!" = error
        QTest::newRow("plain") << QStringLiteral("/workspace") << QStringLiteral("/workspace");
        QTest::newRow("dots") << QStringLiteral("/a/./b/../c//") << QStringLiteral("/a/c");
        QTest::newRow("above root") << QStringLiteral("/../../etc") << QStringLiteral("/etc");
        QTest::newRow("root") << QStringLiteral("/") << QStringLiteral("/");
        QTest::newRow("relative") << QStringLiteral("workspace") << QStringLiteral("!");
        QTest::newRow("empty") << QString() << QStringLiteral("!");
        QTest::newRow("nul") << QStringLiteral("/a") + QChar(0) << QStringLiteral("!");
        QTest::newRow("unicode space") << QStringLiteral("/wö rk/-x") << QStringLiteral("/wö rk/-x");
    }
    void remotePaths()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        const auto r = normalizeRemotePath(in);
        if (out == QLatin1String("!")) {
            QVERIFY(!r);
            return;
        }
        QVERIFY_RESULT(r);
        QCOMPARE(*r, out);
    }
    void pathHelpers()
    {
        QCOMPARE(*remoteJoin(QStringLiteral("/"), QStringLiteral("-a b")), QStringLiteral("/-a b"));
        QCOMPARE(*remoteJoin(QStringLiteral("/w/"), QStringLiteral("x")), QStringLiteral("/w/x"));
        QVERIFY(!remoteJoin(QStringLiteral("/w"), QStringLiteral("a/b")));
        QVERIFY(!remoteJoin(QStringLiteral("/w"), QStringLiteral("..")));
        QCOMPARE(remoteBaseName(QStringLiteral("/a/b/")), QStringLiteral("b"));
        QCOMPARE(remoteParent(QStringLiteral("/a/b")), QStringLiteral("/a"));
        QCOMPARE(remoteParent(QStringLiteral("/a")), QStringLiteral("/"));
        QVERIFY(remoteIsWithin(QStringLiteral("/scratch/x"), QStringLiteral("/scratch")));
        QVERIFY(remoteIsWithin(QStringLiteral("/scratch"), QStringLiteral("/scratch")));
        QVERIFY(!remoteIsWithin(QStringLiteral("/scratchy"), QStringLiteral("/scratch")));
        QCOMPARE(*safeEntryName(QStringLiteral("./a//b/")), QStringLiteral("a/b"));
        QVERIFY(!safeEntryName(QStringLiteral("./")));
        QCOMPARE(*resolveLinkWithinRoot(QStringLiteral("a/b/l"), QStringLiteral("../c")), QStringLiteral("a/c"));
        QVERIFY(!resolveLinkWithinRoot(QStringLiteral("a/l"), QStringLiteral("../../c")));
        QVERIFY(!resolveLinkWithinRoot(QStringLiteral("l"), QStringLiteral("/etc")));
    }

    // One folder entry with its owner and mode, read back by libarchive; names that are not
    // one segment are refused.
    void folderEntry()
    {
        auto tar = files::folderEntryTar(QStringLiteral("work space"), 1000, 1001, 01775);
        QVERIFY_RESULT(tar);
        QCOMPARE(files::tarEntryCount(*tar), std::optional<int>(1));
        archive *a = archive_read_new();
        archive_read_support_format_tar(a);
        QCOMPARE(archive_read_open_memory(a, tar->constData(), size_t(tar->size())), ARCHIVE_OK);
        archive_entry *e = nullptr;
        QCOMPARE(archive_read_next_header(a, &e), ARCHIVE_OK);
        QCOMPARE(QByteArray(archive_entry_pathname(e)), QByteArray("work space/"));
        QCOMPARE(archive_entry_filetype(e), mode_t(AE_IFDIR));
        QCOMPARE(archive_entry_perm(e), mode_t(01775));
        QCOMPARE(archive_entry_uid(e), la_int64_t(1000));
        QCOMPARE(archive_entry_gid(e), la_int64_t(1001));
        QCOMPARE(archive_read_next_header(a, &e), ARCHIVE_EOF);
        archive_read_free(a);
        for (const char *bad : {"", ".", "..", "a/b", "/abs"})
            QCOMPARE(files::folderEntryTar(QString::fromLatin1(bad), 1, 1, 0755).code(), ErrorCode::InvalidArgument);
    }

    void entryCounts()
    {
        auto one = files::folderEntryTar(QStringLiteral("w"), 0, 0, 0755);
        QVERIFY_RESULT(one);
        QCOMPARE(files::tarEntryCount(*one), std::optional<int>(1));
        // Two entries: the folder and a file in it.
        QByteArray two(64 * 1024, '\0');
        size_t used = 0;
        archive *w = archive_write_new();
        archive_write_set_format_ustar(w);
        archive_write_open_memory(w, two.data(), size_t(two.size()), &used);
        for (const char *name : {"w/", "w/f"}) {
            archive_entry *e = archive_entry_new();
            archive_entry_set_pathname(e, name);
            archive_entry_set_filetype(e, name[2] ? AE_IFREG : AE_IFDIR);
            archive_entry_set_perm(e, 0644);
            archive_entry_set_size(e, 0);
            archive_write_header(w, e);
            archive_entry_free(e);
        }
        archive_write_close(w);
        archive_write_free(w);
        two.truncate(qsizetype(used));
        QCOMPARE(files::tarEntryCount(two), std::optional<int>(2));
        QCOMPARE(files::tarEntryCount(QByteArray()), std::nullopt);
        QCOMPARE(files::tarEntryCount(QByteArray(700, 'x')), std::nullopt);
        QCOMPARE(files::tarEntryCount(two.left(700)), std::nullopt); // cut inside the second header
    }
};

QTEST_GUILESS_MAIN(TestTarFiles)
#include "tst_tarfiles.moc"
