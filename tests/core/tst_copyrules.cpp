#include "TestSupport.h"
#include "files/CopyRules.h"

using namespace sandbar;
using namespace sandbar::files;

// docker cp's rules as a table: what the user wrote, what the probe found, where the item lands.
class TestCopyRules final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("slash");
        QTest::addColumn<bool>("contents");
        const auto row = [](const char *raw, const char *path, bool slash, bool contents) {
            QTest::newRow(raw[0] ? raw : "(empty)")
                << QString::fromUtf8(raw) << QString::fromUtf8(path) << slash << contents;
        };
        row("", "", false, false);
        row("/", "/", true, false);
        row("/workspace", "/workspace", false, false);
        row("/workspace/", "/workspace", true, false);
        row("/workspace//blob", "/workspace/blob", false, false);
        row("/workspace/dir/.", "/workspace/dir", true, true);
        row("/workspace/dir/./", "/workspace/dir", true, false);
        row(".", ".", true, true);
        row("/a/b/../c", "/a/c", false, false);
        row("/a/..", "/", false, false);
        row("rel/x/", "rel/x", true, false);
    }
    void parse()
    {
        QFETCH(QString, raw);
        const CopyPath p = parseCopyPath(raw);
        QTEST(p.path, "path");
        QTEST(p.trailingSlash, "slash");
        QTEST(p.contents, "contents");
    }

    void resolve_data()
    {
        QTest::addColumn<bool>("folder");
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("dest");
        QTest::addColumn<int>("probe"); // 0 nothing (parent missing), 1 nothing (parent is a folder), 2 file, 3 folder
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("name"); // empty: an error
        QTest::addColumn<int>("code");
        const auto ok = [](const char *row, bool folder, const char *src, const char *dest, int probe, const char *dir,
                           const char *name) {
            QTest::newRow(row) << folder << QString::fromUtf8(src) << QString::fromUtf8(dest) << probe
                               << QString::fromUtf8(dir) << QString::fromUtf8(name) << 0;
        };
        const auto bad = [](const char *row, bool folder, const char *src, const char *dest, int probe,
                            ErrorCode code) {
            QTest::newRow(row) << folder << QString::fromUtf8(src) << QString::fromUtf8(dest) << probe << QString()
                               << QString() << int(code);
        };
        // A file.
        ok("file into folder", false, "/h/a.txt", "/workspace", 3, "/workspace", "a.txt");
        ok("file into folder/", false, "/h/a.txt", "/workspace/", 3, "/workspace", "a.txt");
        ok("file into folder/.", false, "/h/a.txt", "/workspace/.", 3, "/workspace", "a.txt");
        ok("file names new path", false, "/h/a.txt", "/workspace/blob", 1, "/workspace", "blob");
        ok("file over file", false, "/h/a.txt", "/workspace/old", 2, "/workspace", "old");
        ok("file into root", false, "/h/a.txt", "/", 3, "/", "a.txt");
        ok("file dest with ..", false, "/h/a.txt", "/workspace/x/../blob", 1, "/workspace", "blob");
        bad("file, parent missing", false, "/h/a.txt", "/nope/blob", 0, ErrorCode::NotFound);
        bad("file, new path/ demands a folder", false, "/h/a.txt", "/workspace/blob/", 1, ErrorCode::NotFound);
        bad("file, file/ is not a folder", false, "/h/a.txt", "/workspace/old/", 2, ErrorCode::InvalidArgument);
        bad("file as contents", false, "/h/a.txt/.", "/workspace", 3, ErrorCode::InvalidArgument);
        bad("empty dest", false, "/h/a.txt", "", 3, ErrorCode::InvalidArgument);
        bad("empty source", false, "", "/workspace", 3, ErrorCode::InvalidArgument);
        // A folder.
        ok("folder into folder", true, "/h/tree", "/workspace", 3, "/workspace", "tree");
        ok("folder into folder/", true, "/h/tree", "/workspace/", 3, "/workspace", "tree");
        ok("folder names new path", true, "/h/tree", "/workspace/copy", 1, "/workspace", "copy");
        ok("folder names new path/", true, "/h/tree", "/workspace/copy/", 1, "/workspace", "copy");
        ok("folder contents into folder", true, "/h/tree/.", "/workspace/dst", 3, "/workspace", "dst");
        ok("folder contents new path", true, "/h/tree/.", "/workspace/copy", 1, "/workspace", "copy");
        ok("folder ./ is the folder", true, "/h/tree/./", "/workspace", 3, "/workspace", "tree");
        bad("folder onto file", true, "/h/tree", "/workspace/old", 2, ErrorCode::Conflict);
        bad("folder, parent missing", true, "/h/tree", "/nope/copy", 0, ErrorCode::NotFound);
        bad("folder contents into /", true, "/h/tree/.", "/", 3, ErrorCode::InvalidArgument);
        bad("root as source", true, "/", "/workspace", 3, ErrorCode::InvalidArgument);
        ok("root's contents", true, "/.", "/workspace/all", 1, "/workspace", "all");
        // Local (download) paths are the same text.
        ok("download into .", false, "/workspace/a.txt", "/home/me/.", 3, "/home/me", "a.txt");
        ok("download names back", true, "/workspace/blob", "/home/me/back", 1, "/home/me", "back");
        ok("download into back/", true, "/workspace/blob", "/home/me/back/", 3, "/home/me/back", "blob");
    }
    void resolve()
    {
        QFETCH(bool, folder);
        QFETCH(QString, source);
        QFETCH(QString, dest);
        QFETCH(int, probe);
        QFETCH(QString, name);
        const CopyProbe p{probe >= 2, probe == 3, probe >= 1};
        const auto r =
            resolveCopy(folder ? CopyKind::Folder : CopyKind::File, parseCopyPath(source), parseCopyPath(dest), p);
        if (name.isEmpty()) {
            QVERIFY(!r);
            QTEST(int(r.error().code), "code");
            QVERIFY(!r.error().message.isEmpty());
            return;
        }
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        QTEST(r->dir, "dir");
        QCOMPARE(r->name, name);
    }
};

QTEST_GUILESS_MAIN(TestCopyRules)
#include "tst_copyrules.moc"
