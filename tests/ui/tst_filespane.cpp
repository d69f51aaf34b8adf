// The Files tab against a real Docker engine (SANDBAR_TEST_DOCKER_HOST, SANDBAR_TEST_IMAGE;
// the container has no network): drops of files and folders from the desktop (synthesized
// drag events), the listing, Save As's download, name conflicts through the dialog, delete
// through its confirmation, new folder, hostile names, and how the tab degrades by
// capability. With SANDBAR_SCREENSHOT_DIR set it saves files-pane.png (a listing and an
// upload half way, over a provider double).
#include "../docker/EngineKit.h"
#include "MemoryProvider.h"
#include "files/ConflictDialog.h"
#include "files/FilesModel.h"
#include "files/FilesPane.h"
#include "files/TransferPanel.h"
#include "terminal/PtyChannel.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFile>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>

using namespace sandbar;
using namespace sandbar::test;
using sandbar::ui::FilesModel;
using sandbar::ui::FilesPane;
using sandbar::ui::TransferQueue;

namespace {
const QString kTestLabel = QStringLiteral("dev.sandbar.test");

QByteArray randomBytes(int size)
{
    QByteArray b(size, Qt::Uninitialized);
    QRandomGenerator gen{quint32(size)};
    for (char &c : b)
        c = char(gen.generate() & 0xff);
    return b;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A file dragged in from the desktop: enter, move, drop, as a window system delivers them.
bool dropOn(QWidget *target, const QStringList &localPaths, QPoint pos = QPoint(4, 4))
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString &p : localPaths)
        urls << QUrl::fromLocalFile(p);
    mime.setUrls(urls);
    // The default is over the toolbar: the current folder, not a row.
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted())
        return false;
    QDragMoveEvent move(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &move);
    QDropEvent drop(QPointF(pos), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &drop);
    return drop.isAccepted();
}

template <typename T>
T *findTopLevel(const QString &objectName = {})
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        auto *t = qobject_cast<T *>(w);
        if (t && t->isVisible() && (objectName.isEmpty() || t->objectName() == objectName))
            return t;
    }
    return nullptr;
}

// For the screenshot: a listing and an upload that stays half way.
class HalfwayJob final : public TransferJob
{
public:
    void start() override { Q_EMIT progress(47 * 1024 * 1024, 120 * 1024 * 1024); }
    void cancel() override {}
};

QList<FileEntry> pictureListing(const QString &dir)
{
    const QDateTime when = QDateTime::fromString(QStringLiteral("2026-11-30T14:05:00"), Qt::ISODate);
    const auto entry = [&](const QString &name, bool isDir, qint64 size, quint32 mode, int age) {
        FileEntry e;
        e.name = name;
        e.path = dir + QLatin1Char('/') + name;
        e.isDir = isDir;
        e.size = size;
        e.mode = mode;
        e.modified = when.addSecs(-age * 3600);
        return e;
    };
    return {entry(QStringLiteral("src"), true, 4096, 0755, 2),
            entry(QStringLiteral("tests"), true, 4096, 0755, 30),
            entry(QStringLiteral("node_modules"), true, 4096, 0755, 50),
            entry(QStringLiteral("README.md"), false, 5321, 0644, 1),
            entry(QStringLiteral("package.json"), false, 1187, 0644, 3),
            entry(QStringLiteral("build.sh"), false, 412, 0755, 70),
            entry(QStringLiteral("dataset.parquet"), false, 734003200, 0600, 5)};
}

// A Docker-like account with a listing and an upload that stays half way.
std::unique_ptr<test::MemoryProvider> pictureProvider()
{
    ProviderDescriptor d;
    d.id = QStringLiteral("docker");
    d.displayName = QStringLiteral("Docker");
    d.capabilities = Capability::Files | Capability::FileList | Capability::Exec;
    auto p = std::make_unique<test::MemoryProvider>(d, QStringLiteral("local"));
    p->statHook = [](const QString &, const QString &, Callback<PathStat> done) { done.post(PathStat{}); };
    p->uploadHook = [](const QString &, const QString &, const QString &) -> std::unique_ptr<TransferJob> {
        return std::make_unique<HalfwayJob>();
    };
    p->listFilesHook = [](const QString &, const QString &dir, Callback<QList<FileEntry>> done) {
        done.post(pictureListing(dir));
    };
    return p;
}

} // namespace

class TestFilesPane : public QObject
{
    Q_OBJECT
    std::unique_ptr<Provider> m_p;
    SessionInfo m_session;
    QString m_base; // the remote folder the tests work in
    QTemporaryDir m_local;

    bool waitIdle(FilesPane &pane, int timeoutMs = 60000)
    {
        return waitUntil([&] { return pane.queue()->isIdle(); }, timeoutMs);
    }
    bool relist(FilesPane &pane)
    {
        bool done = false;
        QObject ctx;
        connect(&pane, &FilesPane::listed, &ctx, [&] { done = true; });
        connect(&pane, &FilesPane::listingFailed, &ctx, [&] { done = true; });
        pane.refresh();
        return waitUntil([&] { return done; }, 30000) && pane.noticeText().isEmpty();
    }
    static std::optional<FileEntry> entryNamed(const FilesPane &pane, const QString &name)
    {
        const int row = pane.model()->rowOf(name);
        if (row < 0)
            return std::nullopt;
        return pane.model()->entry(row);
    }
    QByteArray remoteBytes(const QString &path)
    {
        const auto r = runIn(m_p.get(), m_session.id, {QStringLiteral("cat"), QStringLiteral("--"), path});
        return r.code && r.code->ok() && r.code->value() == 0 ? r.out : QByteArray("<missing>");
    }
    void select(FilesPane &pane, const QStringList &names)
    {
        QTreeView *view = pane.view();
        view->clearSelection();
        for (const QString &n : names) {
            const QModelIndexList hits =
                view->model()->match(view->model()->index(0, 0), FilesModel::EntryNameRole, n, 1, Qt::MatchExactly);
            QVERIFY2(!hits.isEmpty(), qPrintable(n));
            view->selectionModel()->select(hits.first(), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
    }
    // Clicks Delete and answers Yes in its confirmation.
    void deleteSelected(FilesPane &pane)
    {
        auto *del = pane.findChild<QToolButton *>(QStringLiteral("filesDelete"));
        QVERIFY(del && del->isEnabled());
        del->click();
        QMessageBox *box = nullptr;
        QVERIFY(
            waitUntil([&] { return (box = findTopLevel<QMessageBox>(QStringLiteral("filesDeleteConfirm"))); }, 5000));
        QVERIFY(!box->isModal() || box->windowModality() == Qt::WindowModal); // open(), not exec()
        box->button(QMessageBox::Yes)->click();
    }
    void answerConflict(const char *button, bool forAll = false)
    {
        ui::ConflictDialog *dialog = nullptr;
        QVERIFY(waitUntil([&] { return (dialog = findTopLevel<ui::ConflictDialog>()); }, 30000));
        dialog->findChild<QCheckBox *>(QStringLiteral("conflictApplyAll"))->setChecked(forAll);
        dialog->findChild<QPushButton *>(QLatin1String(button))->click();
        QVERIFY(waitUntil([&] { return !findTopLevel<ui::ConflictDialog>(); }, 5000));
    }
    std::unique_ptr<FilesPane> openPane()
    {
        auto pane = std::make_unique<FilesPane>(m_p.get(), m_session);
        pane->resize(900, 600);
        pane->show();
        pane->setCurrentDir(m_base);
        return pane;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_local.isValid());
        const QString host = dockerHost();
        SANDBAR_REQUIRE(!host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (scripts/test-services.sh start)"));
        const QString image = testImage();
        SANDBAR_REQUIRE(!image.isEmpty(), QStringLiteral("SANDBAR_TEST_IMAGE is not set"));
        m_p = makeEngineProvider(docker::Flavour::Docker, host);
        QVERIFY(m_p);
        auto h = await<HealthInfo>([&](auto cb) { m_p->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Docker engine at %1 is not reachable: %2").arg(host, h ? QString() : h.message()));
        QVERIFY(m_p->capabilities().testFlag(Capability::Files));
        QVERIFY(m_p->capabilities().testFlag(Capability::FileList));
        CreateSpec spec;
        spec.image = image;
        spec.name = QStringLiteral("files pane");
        spec.labels.insert(kTestLabel, QStringLiteral("tst_filespane"));
        QVERIFY(!spec.network); // NetworkMode none
        auto s = await<SessionInfo>([&](auto cb) { m_p->create(spec, cb); }, 60000);
        QVERIFY_RESULT(s);
        auto info = await<SessionInfo>([&](auto cb) { m_p->info(s->id, cb); });
        QVERIFY_RESULT(info);
        m_session = *info;
        QCOMPARE(m_session.state, SessionState::Running);
        // /workspace where the image has it, else a folder of our own.
        auto ws =
            await<PathStat>([&](auto cb) { m_p->files()->statPath(m_session.id, QStringLiteral("/workspace"), cb); });
        QVERIFY_RESULT(ws);
        const QString root = ws->exists && ws->isDir ? QStringLiteral("/workspace") : QStringLiteral("/tmp");
        m_base = root + QStringLiteral("/files-test");
        QVERIFY_RESULT(await<void>([&](auto cb) { m_p->files()->makeDir(m_session.id, m_base, cb); }));
    }

    void cleanupTestCase()
    {
        if (m_p && !m_session.id.isEmpty())
            (void)await<void>([&](auto cb) { m_p->remove(m_session.id, cb); });
    }

    void dropUploadAndSaveAs()
    {
        auto pane = openPane();
        QVERIFY(relist(*pane));
        QCOMPARE(pane->currentDir(), m_base);
        const QByteArray bytes = randomBytes(300 * 1024 + 7);
        const QString local = m_local.filePath(QStringLiteral("up/hello.bin"));
        QVERIFY(writeFile(local, bytes));
        QVERIFY(dropOn(pane.get(), {local}));
        QCOMPARE(pane->queue()->items().size(), 1);
        QVERIFY(waitIdle(*pane));
        const auto item = pane->queue()->items().first();
        QVERIFY2(item.state == TransferQueue::State::Done, qPrintable(item.error));
        QCOMPARE(item.doneBytes, qint64(bytes.size()));
        // The pane lists its folder again after an upload into it.
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("hello.bin")).has_value(); }, 10000));
        const FileEntry e = *entryNamed(*pane, QStringLiteral("hello.bin"));
        QCOMPARE(e.size, qint64(bytes.size()));
        QVERIFY(!e.isDir);
        // Save As's destination: a new name in a local folder.
        const QString back = m_local.filePath(QStringLiteral("down/hello-back.bin"));
        QDir().mkpath(QFileInfo(back).path());
        pane->downloadTo({m_base + QStringLiteral("/hello.bin")}, back);
        QVERIFY(waitIdle(*pane));
        QCOMPARE(pane->queue()->items().last().state, TransferQueue::State::Done);
        QCOMPARE(readFile(back), bytes);
        // Drag out: the copy is made in the pane's temporary folder, then offered as a file URL.
        QList<QUrl> urls;
        QObject ctx;
        connect(pane.get(), &FilesPane::dragReady, &ctx, [&](const QList<QUrl> &u) { urls = u; });
        pane->prepareDrag({m_base + QStringLiteral("/hello.bin")});
        QVERIFY(waitUntil([&] { return !urls.isEmpty(); }, 30000));
        QCOMPARE(urls.size(), 1);
        QVERIFY(urls.first().isLocalFile());
        QCOMPARE(QFileInfo(urls.first().toLocalFile()).fileName(), QStringLiteral("hello.bin"));
        QCOMPARE(readFile(urls.first().toLocalFile()), bytes);
        // A second drag of the same item is immediate: the copy is kept.
        urls.clear();
        pane->prepareDrag({m_base + QStringLiteral("/hello.bin")});
        QCOMPARE(urls.size(), 1);
    }

    void folderTree()
    {
        auto pane = openPane();
        QVERIFY(relist(*pane));
        const QString tree = m_local.filePath(QStringLiteral("tree"));
        QVERIFY(writeFile(tree + QStringLiteral("/a.txt"), "alpha\n"));
        QVERIFY(writeFile(tree + QStringLiteral("/sub/b.bin"), randomBytes(70000)));
        QVERIFY(writeFile(tree + QStringLiteral("/sub/deeper/c"), "gamma"));
        QVERIFY(dropOn(pane.get(), {tree}));
        QVERIFY(waitIdle(*pane));
        QCOMPARE(pane->queue()->items().first().state, TransferQueue::State::Done);
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("tree")).has_value(); }, 10000));
        QVERIFY(entryNamed(*pane, QStringLiteral("tree"))->isDir);
        // Into it through the path field (Go to…, type, Return).
        pane->findChild<QToolButton *>(QStringLiteral("filesPathEditButton"))->click();
        auto *edit = pane->findChild<QLineEdit *>(QStringLiteral("filesPathEdit"));
        QVERIFY(edit && edit->isVisible());
        edit->setText(m_base + QStringLiteral("/tree/sub"));
        QTest::keyClick(edit, Qt::Key_Return);
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("deeper")).has_value(); }, 10000));
        QCOMPARE(pane->currentDir(), m_base + QStringLiteral("/tree/sub"));
        QCOMPARE(entryNamed(*pane, QStringLiteral("b.bin"))->size, 70000);
        // Folders first whatever the order.
        QCOMPARE(pane->view()->model()->index(0, 0).data(FilesModel::EntryNameRole).toString(),
                 QStringLiteral("deeper"));
        pane->view()->sortByColumn(FilesModel::Name, Qt::DescendingOrder);
        QCOMPARE(pane->view()->model()->index(0, 0).data(FilesModel::EntryNameRole).toString(),
                 QStringLiteral("deeper"));
        pane->view()->sortByColumn(FilesModel::Size, Qt::DescendingOrder);
        QCOMPARE(pane->view()->model()->index(0, 0).data(FilesModel::EntryNameRole).toString(),
                 QStringLiteral("deeper"));
        pane->view()->sortByColumn(FilesModel::Name, Qt::AscendingOrder);
        // A breadcrumb goes to its folder; Back returns.
        QToolButton *crumb = nullptr;
        for (auto *b : pane->findChildren<QToolButton *>()) {
            if (b->property("crumbPath").toString() == m_base)
                crumb = b;
        }
        QVERIFY(crumb);
        crumb->click();
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("tree")).has_value(); }, 10000));
        QCOMPARE(pane->currentDir(), m_base);
        pane->findChild<QToolButton *>(QStringLiteral("filesBack"))->click();
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("deeper")).has_value(); }, 10000));
        pane->findChild<QToolButton *>(QStringLiteral("filesUp"))->click();
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("sub")).has_value(); }, 10000));
        QCOMPARE(pane->currentDir(), m_base + QStringLiteral("/tree"));
        // A drop on a folder's row goes into that folder.
        const QString extra = m_local.filePath(QStringLiteral("extra/onto-row.txt"));
        QVERIFY(writeFile(extra, "row"));
        const QModelIndex subRow =
            pane->view()
                ->model()
                ->match(pane->view()->model()->index(0, 0), FilesModel::EntryNameRole, QStringLiteral("sub"))
                .value(0);
        QVERIFY(subRow.isValid());
        const QPoint onRow = pane->view()->viewport()->mapTo(pane.get(), pane->view()->visualRect(subRow).center());
        QVERIFY(dropOn(pane.get(), {extra}, onRow));
        QVERIFY(waitIdle(*pane));
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/tree/sub/onto-row.txt")), QByteArray("row"));
        (void)await<void>([&](auto cb) {
            m_p->files()->removePath(m_session.id, m_base + QStringLiteral("/tree/sub/onto-row.txt"), cb);
        });
        // A folder that is not there: the reason, not an empty list.
        pane->setCurrentDir(m_base + QStringLiteral("/no such folder"));
        QVERIFY(waitUntil([&] { return !pane->noticeText().isEmpty(); }, 10000));
        QVERIFY2(pane->noticeText().contains(QLatin1String("Cannot list")), qPrintable(pane->noticeText()));
        QCOMPARE(pane->model()->rowCount(), 0);
        pane->setCurrentDir(m_base + QStringLiteral("/tree"));
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("sub")).has_value(); }, 10000));
        QVERIFY(pane->noticeText().isEmpty());
        // The whole folder back (Save As into a folder).
        const QString dest = m_local.filePath(QStringLiteral("tree-back"));
        QVERIFY(QDir().mkpath(dest));
        pane->downloadTo({m_base + QStringLiteral("/tree")}, dest);
        QVERIFY(waitIdle(*pane));
        QCOMPARE(readFile(dest + QStringLiteral("/tree/a.txt")), QByteArray("alpha\n"));
        QCOMPARE(readFile(dest + QStringLiteral("/tree/sub/b.bin")), randomBytes(70000));
        QCOMPARE(readFile(dest + QStringLiteral("/tree/sub/deeper/c")), QByteArray("gamma"));
    }

    void conflicts()
    {
        auto pane = openPane();
        QVERIFY(relist(*pane));
        const QString local = m_local.filePath(QStringLiteral("conf/c.txt"));
        const QString remote = m_base + QStringLiteral("/c.txt");
        QVERIFY(writeFile(local, "one"));
        QVERIFY(dropOn(pane.get(), {local}));
        QVERIFY(waitIdle(*pane));
        QCOMPARE(remoteBytes(remote), QByteArray("one"));
        QVERIFY(writeFile(local, "two"));
        // Skip leaves it.
        QVERIFY(dropOn(pane.get(), {local}));
        answerConflict("conflictSkip");
        QVERIFY(waitIdle(*pane));
        QCOMPARE(pane->queue()->items().last().state, TransferQueue::State::Skipped);
        QCOMPARE(remoteBytes(remote), QByteArray("one"));
        // Overwrite replaces it.
        QVERIFY(dropOn(pane.get(), {local}));
        answerConflict("conflictOverwrite");
        QVERIFY(waitIdle(*pane));
        QCOMPARE(pane->queue()->items().last().state, TransferQueue::State::Done);
        QCOMPARE(remoteBytes(remote), QByteArray("two"));
        // Rename puts it next to it.
        QVERIFY(writeFile(local, "three"));
        QVERIFY(dropOn(pane.get(), {local}));
        answerConflict("conflictRename");
        QVERIFY(waitIdle(*pane));
        QCOMPARE(pane->queue()->items().last().target, m_base + QStringLiteral("/c (1).txt"));
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/c (1).txt")), QByteArray("three"));
        QCOMPARE(remoteBytes(remote), QByteArray("two"));
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("c (1).txt")).has_value(); }, 10000));
        // A folder over a folder merges; one answer for all.
        const QString tree = m_local.filePath(QStringLiteral("tree"));
        QVERIFY(writeFile(tree + QStringLiteral("/new.txt"), "new"));
        QVERIFY(dropOn(pane.get(), {tree, local}));
        answerConflict("conflictOverwrite", true);
        QVERIFY(waitIdle(*pane));
        QVERIFY(!findTopLevel<ui::ConflictDialog>()); // the second was not asked
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/tree/new.txt")), QByteArray("new"));
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/tree/a.txt")), QByteArray("alpha\n"));
        QCOMPARE(remoteBytes(remote), QByteArray("three"));
    }

    void deleteAndNewFolder()
    {
        auto pane = openPane();
        QVERIFY(relist(*pane));
        // New folder: the inline name field.
        pane->findChild<QToolButton *>(QStringLiteral("filesNewFolder"))->click();
        auto *name = pane->findChild<QLineEdit *>(QStringLiteral("filesNewFolderName"));
        QVERIFY(name && name->isVisible());
        name->setText(QStringLiteral("made here"));
        QTest::keyClick(name, Qt::Key_Return);
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("made here")).has_value(); }, 10000));
        QVERIFY(entryNamed(*pane, QStringLiteral("made here"))->isDir);
        // Delete two at once (a file and a folder with things in it).
        QVERIFY(entryNamed(*pane, QStringLiteral("hello.bin")).has_value());
        select(*pane, {QStringLiteral("hello.bin"), QStringLiteral("tree")});
        deleteSelected(*pane);
        QVERIFY(waitUntil([&] { return !entryNamed(*pane, QStringLiteral("tree")).has_value(); }, 10000));
        QVERIFY(!entryNamed(*pane, QStringLiteral("hello.bin")).has_value());
        QVERIFY(entryNamed(*pane, QStringLiteral("made here")).has_value());
        // No deletes "No".
        select(*pane, {QStringLiteral("made here")});
        pane->findChild<QToolButton *>(QStringLiteral("filesDelete"))->click();
        QMessageBox *box = nullptr;
        QVERIFY(
            waitUntil([&] { return (box = findTopLevel<QMessageBox>(QStringLiteral("filesDeleteConfirm"))); }, 5000));
        box->button(QMessageBox::No)->click();
        QVERIFY(relist(*pane));
        QVERIFY(entryNamed(*pane, QStringLiteral("made here")).has_value());
    }

    // Rename and Permissions… on the selected row: each asks in a dialog that is opened, not
    // exec'd; a taken name is refused in the notice with both files as they were.
    void renameAndPermissions()
    {
        const auto write = [&](const QString &name, const QByteArray &text) {
            const auto r =
                runIn(m_p.get(), m_session.id,
                      {QStringLiteral("sh"), QStringLiteral("-c"), QStringLiteral("printf %s \"$1\" > \"$2\""),
                       QStringLiteral("sh"), QString::fromUtf8(text), m_base + QLatin1Char('/') + name});
            return r.code && r.code->ok() && r.code->value() == 0;
        };
        QVERIFY(write(QStringLiteral("to rename.txt"), "first"));
        QVERIFY(write(QStringLiteral("taken.txt"), "second"));
        auto pane = openPane();
        QVERIFY(relist(*pane));
        const auto answer = [&](const char *action, const char *dialogName, const QString &text) {
            auto *a = pane->findChild<QAction *>(QLatin1String(action));
            QVERIFY(a && a->isEnabled());
            a->trigger();
            QInputDialog *ask = nullptr;
            QVERIFY(waitUntil([&] { return (ask = findTopLevel<QInputDialog>(QLatin1String(dialogName))); }, 5000));
            QVERIFY(!ask->isModal() || ask->windowModality() == Qt::WindowModal); // open(), not exec()
            ask->setTextValue(text);
            ask->accept();
        };
        select(*pane, {QStringLiteral("to rename.txt")});
        answer("filesRename", "filesRenameDialog", QStringLiteral("renamed ü.txt"));
        QVERIFY(waitUntil([&] { return entryNamed(*pane, QStringLiteral("renamed ü.txt")).has_value(); }, 10000));
        QVERIFY(!entryNamed(*pane, QStringLiteral("to rename.txt")).has_value());
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/renamed ü.txt")), QByteArray("first"));
        select(*pane, {QStringLiteral("renamed ü.txt")});
        answer("filesRename", "filesRenameDialog", QStringLiteral("taken.txt"));
        QVERIFY2(waitUntil([&] { return pane->noticeText().contains(QLatin1String("Not renamed")); }, 10000),
                 qPrintable(pane->noticeText()));
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/renamed ü.txt")), QByteArray("first"));
        QCOMPARE(remoteBytes(m_base + QStringLiteral("/taken.txt")), QByteArray("second"));
        QVERIFY(relist(*pane));
        select(*pane, {QStringLiteral("renamed ü.txt")});
        answer("filesPermissions", "filesModeDialog", QStringLiteral("600"));
        QVERIFY(waitUntil(
            [&] {
                const auto e = entryNamed(*pane, QStringLiteral("renamed ü.txt"));
                return e && (e->mode & 07777) == 0600;
            },
            10000));
        select(*pane, {QStringLiteral("renamed ü.txt")});
        answer("filesPermissions", "filesModeDialog", QStringLiteral("9"));
        QVERIFY2(waitUntil([&] { return pane->noticeText().contains(QLatin1String("not a mode")); }, 5000),
                 qPrintable(pane->noticeText()));
    }

    void hostileNames()
    {
        auto pane = openPane();
        QVERIFY(relist(*pane));
        const QStringList names{QStringLiteral("with space.txt"), QStringLiteral("it's \"quoted\".txt"),
                                QStringLiteral("$(touch pwned)"), QStringLiteral("-leading-dash"),
                                QStringLiteral("`touch pwned2`;x")};
        QStringList locals;
        for (const QString &n : names) {
            locals << m_local.filePath(QStringLiteral("hostile/") + n);
            QVERIFY(writeFile(locals.last(), n.toUtf8()));
        }
        QVERIFY(dropOn(pane.get(), locals));
        QVERIFY(waitIdle(*pane));
        for (const auto &item : pane->queue()->items())
            QVERIFY2(item.state == TransferQueue::State::Done,
                     qPrintable(item.name + QLatin1String(": ") + item.error));
        QVERIFY(relist(*pane));
        for (const QString &n : names) {
            QVERIFY2(entryNamed(*pane, n).has_value(), qPrintable(n));
            QCOMPARE(remoteBytes(m_base + QLatin1Char('/') + n), n.toUtf8());
        }
        select(*pane, names);
        deleteSelected(*pane);
        QVERIFY(waitUntil(
            [&] {
                return std::none_of(names.begin(), names.end(),
                                    [&](const QString &n) { return entryNamed(*pane, n).has_value(); });
            },
            10000));
        // Nothing was run as a command anywhere.
        const auto found = runIn(m_p.get(), m_session.id,
                                 {QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("find / -xdev -name 'pwned*' 2>/dev/null | wc -l")});
        QCOMPARE(found.out.trimmed(), QByteArray("0"));
    }

    void removeRefusesRoot()
    {
        for (const QString &p : {QStringLiteral("/"), QString()}) {
            auto r = await<void>([&](auto cb) { m_p->files()->removePath(m_session.id, p, cb); });
            QVERIFY(!r.ok());
            QCOMPARE(r.code(), ErrorCode::InvalidArgument);
        }
        QCOMPARE(remoteBytes(QStringLiteral("/bin/busybox")).isEmpty(), false);
        // makeDir makes parents and accepts an existing folder.
        QVERIFY_RESULT(
            await<void>([&](auto cb) { m_p->files()->makeDir(m_session.id, m_base + QStringLiteral("/p/q"), cb); }));
        QVERIFY_RESULT(
            await<void>([&](auto cb) { m_p->files()->makeDir(m_session.id, m_base + QStringLiteral("/p/q"), cb); }));
        auto st = await<PathStat>(
            [&](auto cb) { m_p->files()->statPath(m_session.id, m_base + QStringLiteral("/p/q"), cb); });
        QVERIFY_RESULT(st);
        QVERIFY(st->isDir);
    }

    void degradesByCapability()
    {
        ProviderDescriptor d;
        d.id = QStringLiteral("memory");
        d.displayName = QStringLiteral("Memory");
        SessionInfo s;
        s.id = QStringLiteral("m1");
        s.state = SessionState::Running;
        // Neither listing nor copying: says why and takes no drops.
        d.capabilities = Capability::Exec;
        test::MemoryProvider none(d, QStringLiteral("acct"));
        FilesPane blind(&none, s);
        QVERIFY(blind.noticeText().contains(QLatin1String("no file access")));
        QVERIFY(!blind.view()->isVisibleTo(&blind));
        QVERIFY(!dropOn(&blind, {m_local.filePath(QStringLiteral("conf/c.txt"))}));
        QVERIFY(!blind.findChild<QToolButton *>(QStringLiteral("filesUpload"))->isEnabled());
        // Copying without listing: drops go to /workspace.
        d.capabilities = Capability::Files;
        test::MemoryProvider copyOnly(d, QStringLiteral("acct"));
        FilesPane drop(&copyOnly, s);
        QVERIFY(drop.noticeText().contains(QLatin1String("/workspace")));
        QVERIFY(dropOn(&drop, {m_local.filePath(QStringLiteral("conf/c.txt"))}));
        QCOMPARE(drop.queue()->items().size(), 1);
        QCOMPARE(drop.queue()->items().first().destination, QStringLiteral("/workspace"));
        // A stopped session says so.
        s.state = SessionState::Stopped;
        drop.setSession(s);
        QVERIFY(drop.noticeText().contains(QLatin1String("not running")));
        QVERIFY(!dropOn(&drop, {m_local.filePath(QStringLiteral("conf/c.txt"))}));
    }

    void screenshot()
    {
        const auto p = pictureProvider();
        SessionInfo s;
        s.id = QStringLiteral("picture");
        s.state = SessionState::Running;
        FilesPane pane(p.get(), s);
        pane.resize(900, 560);
        pane.show();
        QVERIFY(waitUntil([&] { return pane.model()->rowCount() == 7; }, 5000));
        const QString local = m_local.filePath(QStringLiteral("pic/model-weights.bin"));
        QVERIFY(writeFile(local, "x"));
        QVERIFY(dropOn(&pane, {local}));
        QVERIFY(waitUntil([&] { return pane.queue()->items().value(0).doneBytes > 0; }, 5000));
        pane.view()->selectionModel()->select(pane.view()->model()->index(3, 0),
                                              QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(pane.grab().save(dir + QStringLiteral("/files-pane.png")));
        auto *panel = pane.findChild<ui::TransferPanel *>(QStringLiteral("transferPanel"));
        QVERIFY(panel);
        QVERIFY2(panel->summaryText().contains(QLatin1String("MiB/s")), qPrintable(panel->summaryText()));
        QCOMPARE(ui::TransferPanel::timeLeftText(75), QStringLiteral("1:15 left"));
        QCOMPARE(ui::TransferPanel::timeLeftText(3725), QStringLiteral("1:02:05 left"));
        // Every control a screen reader reaches has a name.
        for (QWidget *w : pane.findChildren<QWidget *>()) {
            const bool interactive = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w) ||
                                     qobject_cast<QAbstractItemView *>(w) || qobject_cast<QProgressBar *>(w);
            if (interactive)
                QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(QString::fromLatin1(w->metaObject()->className()) +
                                                                    QLatin1Char(' ') + w->objectName()));
        }
        // The row's Cancel, then Clear finished.
        auto *clear = pane.findChild<QPushButton *>(QStringLiteral("transferClearFinished"));
        QVERIFY(!clear->isEnabled());
        pane.findChild<QPushButton *>(QStringLiteral("transferCancel"))->click();
        QCOMPARE(pane.queue()->items().first().state, TransferQueue::State::Cancelled);
        QVERIFY(pane.queue()->isIdle());
        QVERIFY(clear->isEnabled());
        clear->click();
        QVERIFY(pane.queue()->items().isEmpty());
        QVERIFY(waitUntil([&] { return !pane.findChild<QPushButton *>(QStringLiteral("transferCancel")); }, 5000));
    }
};

QTEST_MAIN(TestFilesPane)
#include "tst_filespane.moc"
