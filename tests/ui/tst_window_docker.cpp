// The main window end to end against a real Docker engine (SANDBAR_TEST_DOCKER_HOST,
// SANDBAR_TEST_IMAGE), driven as a user drives it: File → Add account…, New session…, the
// Terminal action and keys typed into the terminal, drops on the Files tab with a name
// conflict, then bulk Stop and Remove of two sessions through the one confirmation. The
// window is the app's own (makeMainWindow), over an in-memory secret store and a temporary
// config folder. Every container the test's account made is removed at the end, also when
// a step failed. With SANDBAR_SCREENSHOT_DIR set it saves window-docker.png (the Files tab
// after the conflict).
#include "../docker/EngineKit.h"
#include "FakeProvider.h"
#include "accounts/AccountDialog.h"
#include "detail/DetailStack.h"
#include "detail/SessionTerminal.h"
#include "dialogs/NewSessionDialog.h"
#include "files/ConflictDialog.h"
#include "files/FilesModel.h"
#include "files/FilesPane.h"
#include "main/MainWindow.h"
#include "sessions/SessionsFilter.h"
#include "sessions/SessionsModel.h"
#include "sessions/SessionsPane.h"
#include "terminal/TerminalScreen.h"
#include "terminal/TerminalView.h"
#include "wiring/AppServices.h"
#include "wiring/GuiMain.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolBar>

using namespace sandbar;
using namespace sandbar::test;

namespace {

const QString kRemoteDir = QStringLiteral("/workspace");

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

// A file dragged in from the desktop: enter, move, drop, as a window system delivers them.
bool dropOn(QWidget *target, const QString &localPath)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(localPath)});
    const QPoint pos(4, 4); // over the toolbar: the current folder, not a row
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

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString plain(const QString &menuText)
{
    return QString(menuText).remove(QLatin1Char('&'));
}

} // namespace

class TestWindowDocker final : public QObject
{
    Q_OBJECT
    QTemporaryDir m_config;
    QTemporaryDir m_local;
    QString m_host;
    QString m_image;
    QString m_account; // unique per run: its label marks every container the test makes
    QString m_prefix;  // of the session names, also unique per run
    std::unique_ptr<AppServices> m_services;
    std::unique_ptr<ui::MainWindow> m_window;
    std::unique_ptr<Provider> m_cleaner; // a provider of its own, for cleanup and checks
    QElapsedTimer m_clock;

    // The window's action by its menu text, found the way a user finds it: in a menu.
    QAction *menuAction(const QString &menu, const QString &text)
    {
        for (QAction *top : m_window->menuBar()->actions()) {
            if (plain(top->text()) != menu || !top->menu())
                continue;
            for (QAction *a : top->menu()->actions()) {
                if (plain(a->text()) == text)
                    return a;
            }
        }
        return nullptr;
    }
    QAction *toolbarAction(const QString &text)
    {
        auto *tb = m_window->findChild<QToolBar *>(QStringLiteral("sessionsToolbar"));
        for (QAction *a : tb ? tb->actions() : QList<QAction *>{}) {
            if (plain(a->text()) == text)
                return a;
        }
        return nullptr;
    }
    std::optional<SessionInfo> listed(const QString &name) const
    {
        const ui::SessionsModel *model = m_window->sessionsPane()->model();
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->session(row).name == name && model->session(row).account == m_account)
                return model->session(row);
        }
        return std::nullopt;
    }
    SessionState stateOf(const QString &name) const
    {
        const auto s = listed(name);
        return s ? s->state : SessionState::Unknown;
    }
    Provider *provider() const { return m_services->registry->existingProvider(m_account); }
    QList<SessionInfo> engineSessions()
    {
        auto r = await<QList<SessionInfo>>([&](auto cb) { m_cleaner->listSessions({}, cb); });
        QList<SessionInfo> mine;
        for (const SessionInfo &s : r.ok() ? r.value() : QList<SessionInfo>{}) {
            if (s.labels.value(QString::fromLatin1(labels::Account)) == m_account)
                mine << s;
        }
        return mine;
    }
    // Every container this run's account made, whatever state the test left them in.
    void removeOurContainers()
    {
        if (!m_cleaner)
            return;
        for (const SessionInfo &s : engineSessions())
            (void)await<void>([&](auto cb) { m_cleaner->remove(s.id, cb); });
    }
    QByteArray remoteBytes(const QString &id, const QString &path)
    {
        const auto r = runIn(provider(), id, {QStringLiteral("cat"), QStringLiteral("--"), path});
        return r.code && r.code->ok() && r.code->value() == 0 ? r.out : QByteArray("<missing>");
    }
    // New session… with the account and image chosen and the name typed; waits for its row.
    void createThroughDialog(const QString &name)
    {
        QAction *action = menuAction(QStringLiteral("File"), QStringLiteral("New session…"));
        QVERIFY(action);
        QVERIFY(waitUntil([&] { return action->isEnabled(); }, 10000));
        action->trigger();
        ui::NewSessionDialog *dlg = nullptr;
        QVERIFY(waitUntil([&] { return (dlg = findTopLevel<ui::NewSessionDialog>()); }, 5000));
        QComboBox *account = nullptr;
        for (auto *c : dlg->findChildren<QComboBox *>()) {
            if (c->accessibleName() == QStringLiteral("Account"))
                account = c;
        }
        QVERIFY(account);
        const int i = account->findData(m_account);
        QVERIFY(i >= 0);
        account->setCurrentIndex(i);
        QLineEdit *nameEdit = nullptr;
        for (auto *e : dlg->findChildren<QLineEdit *>()) {
            if (e->accessibleName() == QStringLiteral("Session name"))
                nameEdit = e;
        }
        QVERIFY(nameEdit);
        nameEdit->setText(name);
        auto *image = dlg->findChild<QComboBox *>(QStringLiteral("image"));
        QVERIFY(image);
        image->setEditText(m_image);
        QAbstractButton *create = nullptr;
        for (auto *b : dlg->findChild<QDialogButtonBox *>()->buttons()) {
            if (b->text() == QStringLiteral("Create"))
                create = b;
        }
        QVERIFY(create);
        QPointer<ui::NewSessionDialog> guard(dlg);
        QTest::mouseClick(create, Qt::LeftButton);
        // The dialog stays open through the create and closes once the session exists.
        QVERIFY2(waitUntil([&] { return !guard || !guard->isVisible(); }, 60000),
                 qPrintable(guard ? guard->findChild<QLabel *>(QStringLiteral("dialogError"))->text() : QString()));
        QVERIFY(waitUntil([&] { return listed(name).has_value(); }, 20000));
    }
    void clickRow(const QString &name, Qt::KeyboardModifiers mods)
    {
        ui::SessionsPane *pane = m_window->sessionsPane();
        QTableView *view = pane->view();
        const auto s = listed(name);
        QVERIFY(s);
        const int source = pane->model()->rowOf(s->ref());
        const QModelIndex index = pane->filter()->mapFromSource(pane->model()->index(source, ui::SessionsModel::Name));
        QVERIFY(index.isValid());
        view->scrollTo(index);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, mods, view->visualRect(index).center());
    }
    void answerBulk()
    {
        QMessageBox *box = nullptr;
        QVERIFY(waitUntil([&] { return (box = findTopLevel<QMessageBox>(QStringLiteral("bulkConfirm"))); }, 5000));
        QVERIFY(box->text().contains(QStringLiteral("2 sessions")));
        QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
        QVERIFY(waitUntil([&] { return !findTopLevel<QMessageBox>(QStringLiteral("bulkConfirm")); }, 5000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_clock.start();
        QStandardPaths::setTestModeEnabled(true); // recent images and the like stay out of the user's settings
        QVERIFY(m_config.isValid() && m_local.isValid());
        m_host = dockerHost();
        SANDBAR_REQUIRE(!m_host.isEmpty(),
                        QStringLiteral("SANDBAR_TEST_DOCKER_HOST is not set (scripts/test-services.sh start)"));
        m_image = testImage();
        SANDBAR_REQUIRE(!m_image.isEmpty(), QStringLiteral("SANDBAR_TEST_IMAGE is not set"));
        const QString run = QString::number(QCoreApplication::applicationPid());
        m_account = QStringLiteral("e2e-window-") + run;
        m_prefix = QStringLiteral("e2ewin") + run;
        m_cleaner = makeEngineProvider(docker::Flavour::Docker, m_host, m_account);
        QVERIFY(m_cleaner);
        auto h = await<HealthInfo>([&](auto cb) { m_cleaner->health(cb); });
        SANDBAR_REQUIRE(
            h.ok(),
            QStringLiteral("the Docker engine at %1 is not reachable: %2").arg(m_host, h ? QString() : h.message()));

        m_services = buildServices(m_config.path(), std::make_unique<MemorySecretStore>());
        buildCostServices(*m_services);
        buildStatsServices(*m_services);
        m_window = makeMainWindow(*m_services);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        removeOurContainers();
        if (m_cleaner)
            QVERIFY(engineSessions().isEmpty());
        m_services.reset();
        qInfo("tst_window_docker: %lld ms", qint64(m_clock.elapsed()));
    }

    void addDockerAccount()
    {
        QAction *add = menuAction(QStringLiteral("File"), QStringLiteral("Add account…"));
        QVERIFY(add);
        add->trigger();
        ui::AccountDialog *dlg = nullptr;
        QVERIFY(waitUntil([&] { return (dlg = findTopLevel<ui::AccountDialog>()); }, 5000));
        QComboBox *providerBox = nullptr;
        QLineEdit *name = nullptr;
        for (auto *c : dlg->findChildren<QComboBox *>()) {
            if (c->accessibleName() == QStringLiteral("Provider"))
                providerBox = c;
        }
        for (auto *e : dlg->findChildren<QLineEdit *>()) {
            if (e->accessibleName() == QStringLiteral("Account name"))
                name = e;
        }
        QVERIFY(providerBox && name);
        const int docker = providerBox->findText(QStringLiteral("Docker"));
        QVERIFY(docker >= 0);
        providerBox->setCurrentIndex(docker);
        name->setText(m_account);
        auto *endpoint = dlg->findChild<QLineEdit *>(QStringLiteral("field_endpoint"));
        QVERIFY(endpoint);
        endpoint->setText(m_host);
        QPointer<ui::AccountDialog> guard(dlg);
        QTest::mouseClick(dlg->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(waitUntil([&] { return !guard || !guard->isVisible(); }, 5000));

        // Listed, then healthy once its first listing answered.
        auto *list = m_window->findChild<QListWidget *>(QStringLiteral("accountList"));
        QVERIFY(list);
        const auto row = [&]() -> QListWidgetItem * {
            for (int i = 0; i < list->count(); ++i) {
                if (list->item(i)->data(Qt::UserRole).toString() == m_account)
                    return list->item(i);
            }
            return nullptr;
        };
        QVERIFY(waitUntil([&] { return row() != nullptr; }, 5000));
        QVERIFY(row()->text().startsWith(m_account));
        const auto state = [&] { return m_services->registry->status(m_account).state; };
        QVERIFY2(waitUntil([&] { return state() == AccountStatus::State::Ok; }, 20000), qPrintable(row()->toolTip()));
    }

    void createSession()
    {
        createThroughDialog(m_prefix + QStringLiteral("-one"));
        QVERIFY(waitUntil([&] { return stateOf(m_prefix + QStringLiteral("-one")) == SessionState::Running; }, 20000));
        const auto mine = engineSessions();
        QCOMPARE(mine.size(), 1);
        QVERIFY(!mine.first().network);
    }

    void terminal()
    {
        const auto s = listed(m_prefix + QStringLiteral("-one"));
        QVERIFY(s);
        // The window selects what its dialog created.
        QVERIFY(waitUntil(
            [&] {
                const auto current = m_window->sessionsPane()->currentSession();
                return current && current->ref() == s->ref();
            },
            10000));
        auto *action = m_window->findChild<QAction *>(QStringLiteral("terminalAction"));
        QVERIFY(action);
        QVERIFY(waitUntil([&] { return action->isEnabled(); }, 10000));
        action->trigger();
        ui::SessionDetail *detail = m_window->details()->currentDetail();
        QVERIFY(detail);
        QCOMPARE(detail->ref(), s->ref());
        QCOMPARE(detail->terminalCount(), 1);
        auto *term = qobject_cast<ui::SessionTerminal *>(detail->terminalTabs()->currentWidget());
        QVERIFY(term);
        // The shell's prompt first: keys typed before the channel is up would be lost.
        static const QRegularExpression prompt(QStringLiteral("[$#]$"), QRegularExpression::MultilineOption);
        QVERIFY2(waitUntil([&] { return term->screen()->screenText().contains(prompt); }, 20000),
                 qPrintable(term->screen()->screenText()));
        QTest::keyClicks(term->view(), QStringLiteral("echo $((6*7))"));
        QTest::keyClick(term->view(), Qt::Key_Return);
        const auto answered = [&] {
            return term->screen()->screenText().split(QLatin1Char('\n')).contains(QStringLiteral("42"));
        };
        QVERIFY2(waitUntil(answered, 20000), qPrintable(term->screen()->screenText()));
    }

    void filesDropSaveAsAndConflict()
    {
        const auto s = listed(m_prefix + QStringLiteral("-one"));
        QVERIFY(s);
        auto *action = m_window->findChild<QAction *>(QStringLiteral("filesAction"));
        QVERIFY(action && action->isEnabled());
        action->trigger();
        ui::SessionDetail *detail = m_window->details()->currentDetail();
        QVERIFY(detail);
        QCOMPARE(detail->currentPage(), ui::SessionDetail::Page::Files);
        ui::FilesPane *pane = detail->filesPane();
        QVERIFY(pane);
        QVERIFY(waitUntil([&] { return pane->isVisible(); }, 5000)); // shown once the layout takes it
        QCOMPARE(pane->currentDir(), kRemoteDir);
        QVERIFY2(waitUntil([&] { return pane->canUpload(); }, 10000), qPrintable(pane->noticeText()));

        QByteArray bytes;
        for (int i = 0; i < 4096; ++i)
            bytes += char(i * 7 + 3);
        const QString local = m_local.filePath(QStringLiteral("notes.txt"));
        QVERIFY(writeFile(local, bytes));
        QVERIFY(dropOn(pane, local));
        QVERIFY(waitUntil([&] { return pane->queue()->isIdle(); }, 30000));
        QCOMPARE(pane->queue()->items().size(), 1);
        QVERIFY2(pane->queue()->items().first().state == ui::TransferQueue::State::Done,
                 qPrintable(pane->queue()->items().first().error));
        QCOMPARE(remoteBytes(s->id, kRemoteDir + QStringLiteral("/notes.txt")), bytes);
        QVERIFY(waitUntil([&] { return pane->model()->rowOf(QStringLiteral("notes.txt")) >= 0; }, 10000));

        // Save As's destination: a new name in a local folder.
        const QString back = m_local.filePath(QStringLiteral("notes-back.txt"));
        pane->downloadTo({kRemoteDir + QStringLiteral("/notes.txt")}, back);
        QVERIFY(waitUntil([&] { return pane->queue()->isIdle(); }, 30000));
        QCOMPARE(pane->queue()->items().last().state, ui::TransferQueue::State::Done);
        QCOMPARE(readFile(back), bytes);

        // The same name again: the conflict dialog, answered with Rename.
        QVERIFY(writeFile(local, QByteArray("second")));
        QVERIFY(dropOn(pane, local));
        ui::ConflictDialog *conflict = nullptr;
        QVERIFY(waitUntil([&] { return (conflict = findTopLevel<ui::ConflictDialog>()); }, 30000));
        QVERIFY(!conflict->findChild<QCheckBox *>(QStringLiteral("conflictApplyAll"))->isChecked());
        QTest::mouseClick(conflict->findChild<QPushButton *>(QStringLiteral("conflictRename")), Qt::LeftButton);
        QVERIFY(waitUntil([&] { return !findTopLevel<ui::ConflictDialog>(); }, 5000));
        QVERIFY(waitUntil([&] { return pane->queue()->isIdle(); }, 30000));
        QCOMPARE(pane->queue()->items().last().state, ui::TransferQueue::State::Done);
        QCOMPARE(pane->queue()->items().last().target, kRemoteDir + QStringLiteral("/notes (1).txt"));
        QVERIFY(waitUntil([&] { return pane->model()->rowOf(QStringLiteral("notes (1).txt")) >= 0; }, 10000));
        QCOMPARE(remoteBytes(s->id, kRemoteDir + QStringLiteral("/notes (1).txt")), QByteArray("second"));
        QCOMPARE(remoteBytes(s->id, kRemoteDir + QStringLiteral("/notes.txt")), bytes); // untouched
        if (const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR"); !dir.isEmpty())
            QVERIFY(m_window->grab().save(QDir(dir).filePath(QStringLiteral("window-docker.png"))));
    }

    void bulkStopAndRemove()
    {
        const QString one = m_prefix + QStringLiteral("-one");
        const QString two = m_prefix + QStringLiteral("-two");
        createThroughDialog(two);
        QVERIFY(waitUntil([&] { return stateOf(two) == SessionState::Running; }, 20000));

        // Only this run's rows, then both selected as a user does: click, Ctrl+click.
        ui::SessionsPane *pane = m_window->sessionsPane();
        QTest::keyClicks(pane->searchField(), m_prefix);
        QVERIFY(waitUntil([&] { return pane->filter()->rowCount() == 2; }, 5000));
        clickRow(one, Qt::NoModifier);
        clickRow(two, Qt::ControlModifier);
        QCOMPARE(pane->selectedSessions().size(), 2);

        QAction *stop = toolbarAction(QStringLiteral("Stop"));
        QVERIFY(stop && stop->isEnabled());
        stop->trigger();
        answerBulk();
        const auto both = [&](SessionState state) { return stateOf(one) == state && stateOf(two) == state; };
        QVERIFY(waitUntil([&] { return both(SessionState::Stopped); }, 30000));
        QVERIFY(!findTopLevel<QMessageBox>(QStringLiteral("bulkErrors")));

        QCOMPARE(pane->selectedSessions().size(), 2);
        QAction *remove = toolbarAction(QStringLiteral("Remove"));
        QVERIFY(remove);
        QVERIFY(waitUntil([&] { return remove->isEnabled(); }, 5000));
        remove->trigger();
        answerBulk();
        QVERIFY(waitUntil([&] { return !listed(one) && !listed(two); }, 30000));
        QVERIFY(!findTopLevel<QMessageBox>(QStringLiteral("bulkErrors")));
        QVERIFY(engineSessions().isEmpty());
    }
};

QTEST_MAIN(TestWindowDocker)
#include "tst_window_docker.moc"
