// The audit view over a real AuditLog in a temporary folder: every filter narrows the
// rows as the log's own query would, entries written later appear by themselves, and the
// CSV export writes exactly the rows shown, quoted per RFC 4180 and defused against
// spreadsheet formulas. With SANDBAR_SCREENSHOT_DIR it saves auditview.png; with
// SANDBAR_AUDIT_BENCH it times a text search over 100,000 rows.
#include "TestSupport.h"
#include "audit/AuditCsv.h"
#include "audit/AuditModel.h"
#include "audit/AuditView.h"

#include <QApplication>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileSystemWatcher>
#include <QJsonDocument>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>
#include <functional>

using namespace sandbar;
using namespace sandbar::ui;
using audit::Action;
using audit::AuditEntry;
using audit::AuditLog;

namespace {

constexpr int Entries = 50;
constexpr int WaitMs = 10000;

const QStringList Accounts{QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma")};
const QList<Action> Actions{Action::ExecRun, Action::SessionCreated, Action::FileUploaded};

// Row i: account i%3, action (i/3)%3, failed when i%4 == 3; the first 40 half an hour
// apart from five minutes ago, the last ten a day apart from 25 hours ago.
AuditEntry sample(int i, const QDateTime &now)
{
    const Action action = Actions.at((i / 3) % 3);
    QJsonObject detail;
    if (action == Action::FileUploaded)
        detail[QStringLiteral("path")] = QStringLiteral("/workspace/file-%1.txt").arg(i);
    else
        detail[QStringLiteral("command")] = QStringLiteral("echo needle-%1").arg(i);
    auto e =
        audit::makeEntry(action, Accounts.at(i % 3), QStringLiteral("docker"), QStringLiteral("s%1").arg(i), detail);
    const qint64 minutesAgo = i < 40 ? i * 30 + 5 : (i - 39) * 1440 + 100;
    e.time = now.addSecs(-60 * minutesAgo);
    e.osUser = QStringLiteral("tester");
    e.host = QStringLiteral("box");
    if (i % 4 == 3)
        e.setError(makeError(ErrorCode::Unavailable, QStringLiteral("engine gone")));
    return e;
}

QList<qint64> ids(const QList<AuditEntry> &rows)
{
    QList<qint64> out;
    for (const auto &e : rows)
        out << e.id;
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestAuditView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void filtersNarrow_data();
    void filtersNarrow();
    void combinedFiltersAndRange();
    void accountsOfferedFromTheLog();
    void staleAnswerDropped();
    void newEntryAppearsLive();
    void anotherWritersEntryAppears();
    void hiddenViewCatchesUpWhenShown();
    void selectionShowsFullJson();
    void exportWritesTheRowsShown();
    void exportDialogOpensWithoutBlocking();
    void csvQuoting_data();
    void csvQuoting();
    void screenshot();
    void query100k();

private:
    bool settle();
    bool fileEventsHandled();
    bool zeroTimersRun();
    QList<AuditEntry> expected(const std::function<bool(const AuditEntry &)> &keep) const;

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AuditLog> m_log;
    std::unique_ptr<AuditView> m_view;
    QList<AuditEntry> m_all; // as stored, ids set
    QDateTime m_now;
};

void TestAuditView::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_log = std::make_unique<AuditLog>(m_dir->path());
    m_log->setFlushDelay(0);
    m_now = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < Entries; ++i)
        QVERIFY(m_log->append(sample(i, m_now)).ok());
    auto all = m_log->query({});
    QVERIFY(all.ok());
    m_all = all.value();
    QCOMPARE(m_all.size(), Entries);
    m_view = std::make_unique<AuditView>(m_log.get());
    m_view->model()->setLiveInterval(50);
    m_view->resize(1200, 640);
    QVERIFY(settle());
}

void TestAuditView::cleanup()
{
    m_view.reset();
    m_log.reset();
    m_dir.reset();
}

// Waits out the search debounce and the query it starts.
bool TestAuditView::settle()
{
    return test::waitUntil([&] { return !m_view->isFilterPending() && !m_view->model()->isLoading(); }, WaitMs);
}

// Every file event the models' watchers queued so far has been handled. A chmod that keeps
// the mode is a marker the models ignore by design (no size or time changed); once a watcher
// of our own has seen it, every watcher of the file had it queued behind the earlier events,
// and the same turn of the event loop that delivered ours has read theirs.
bool TestAuditView::fileEventsHandled()
{
    const QString path = m_log->path();
    QFileSystemWatcher twin(QStringList{path});
    QSignalSpy seen(&twin, &QFileSystemWatcher::fileChanged);
    if (!QFile::setPermissions(path, QFile::permissions(path)))
        return false;
    return test::waitUntil([&] { return !seen.isEmpty(); }, WaitMs);
}

// Timers of 0 ms started before this call have fired: the live refresh, at interval 0,
// runs at once if anything scheduled it.
bool TestAuditView::zeroTimersRun()
{
    bool fired = false;
    QTimer::singleShot(0, this, [&fired] { fired = true; });
    return test::waitUntil([&] { return fired; }, WaitMs);
}

QList<AuditEntry> TestAuditView::expected(const std::function<bool(const AuditEntry &)> &keep) const
{
    QList<AuditEntry> out;
    for (const auto &e : m_all) {
        if (keep(e))
            out << e;
    }
    return out;
}

void TestAuditView::filtersNarrow_data()
{
    QTest::addColumn<QString>("widget");
    QTest::addColumn<QString>("value"); // text typed, or the combo item's text
    QTest::addColumn<int>("count");
    // Counts follow from sample(); filtersNarrow() also checks the very rows.
    QTest::newRow("text in a command") << "auditSearch"
                                       << "NEEDLE-1" << 8; // 1, 10-14, 16, 19: not the uploads
    QTest::newRow("text in an error") << "auditSearch"
                                      << "engine gone" << 12; // i%4 == 3
    QTest::newRow("text in a path") << "auditSearch"
                                    << "file-4" << 3; // 42-44
    QTest::newRow("text matching nothing") << "auditSearch"
                                           << "no such thing" << 0;
    QTest::newRow("session") << "auditSession"
                             << "s17" << 1;
    QTest::newRow("account") << "auditAccount"
                             << "beta" << 17;
    QTest::newRow("action") << "auditAction"
                            << "file.uploaded" << 15;
    QTest::newRow("failed") << "auditOutcome"
                            << "Failed" << 12;
    QTest::newRow("ok") << "auditOutcome"
                        << "OK" << 38;
    QTest::newRow("last hour") << "auditRange"
                               << "Last hour" << 2;
    QTest::newRow("last 24 hours") << "auditRange"
                                   << "Last 24 hours" << 40;
    QTest::newRow("last 7 days") << "auditRange"
                                 << "Last 7 days" << 46;
    QTest::newRow("all time") << "auditRange"
                              << "All time" << 50;
}

void TestAuditView::filtersNarrow()
{
    QFETCH(QString, widget);
    QFETCH(QString, value);
    QFETCH(int, count);
    std::function<bool(const AuditEntry &)> keep;
    if (auto *edit = m_view->findChild<QLineEdit *>(widget)) {
        QTest::keyClicks(edit, value);
        if (widget == QLatin1String("auditSearch")) {
            // What AuditLog matches: detail, account, session, action and error, any case.
            keep = [value](const AuditEntry &e) {
                const QString hay = QString::fromUtf8(QJsonDocument(e.detail).toJson(QJsonDocument::Compact)) +
                                    QLatin1Char(' ') + e.account + QLatin1Char(' ') + e.sessionId + QLatin1Char(' ') +
                                    e.action + QLatin1Char(' ') + e.errorMessage;
                return hay.contains(value, Qt::CaseInsensitive);
            };
        } else {
            keep = [value](const AuditEntry &e) { return e.sessionId == value; };
        }
    } else {
        auto *combo = m_view->findChild<QComboBox *>(widget);
        QVERIFY2(combo, qPrintable(widget));
        const int index = combo->findText(value);
        QVERIFY2(index >= 0, qPrintable(value));
        combo->setCurrentIndex(index);
        const QDateTime now = QDateTime::currentDateTimeUtc();
        if (widget == QLatin1String("auditAccount"))
            keep = [value](const AuditEntry &e) { return e.account == value; };
        else if (widget == QLatin1String("auditAction"))
            keep = [value](const AuditEntry &e) { return e.action == value; };
        else if (widget == QLatin1String("auditOutcome"))
            keep = [value](const AuditEntry &e) { return e.ok == (value == QLatin1String("OK")); };
        else if (value == QLatin1String("Last hour"))
            keep = [now](const AuditEntry &e) { return e.time >= now.addSecs(-3600); };
        else if (value == QLatin1String("Last 24 hours"))
            keep = [now](const AuditEntry &e) { return e.time >= now.addDays(-1); };
        else if (value == QLatin1String("Last 7 days"))
            keep = [now](const AuditEntry &e) { return e.time >= now.addDays(-7); };
        else
            keep = [](const AuditEntry &) { return true; };
    }
    QVERIFY(settle());
    const auto want = expected(keep);
    QCOMPARE(want.size(), count);
    QCOMPARE(ids(m_view->model()->entries()), ids(want));
    QCOMPARE(m_view->model()->totalMatching(), qint64(count));
    auto *table = m_view->findChild<QTableView *>(QStringLiteral("auditTable"));
    QCOMPARE(table->model()->rowCount(), count);
}

void TestAuditView::combinedFiltersAndRange()
{
    auto *account = m_view->findChild<QComboBox *>(QStringLiteral("auditAccount"));
    auto *outcome = m_view->findChild<QComboBox *>(QStringLiteral("auditOutcome"));
    auto *range = m_view->findChild<QComboBox *>(QStringLiteral("auditRange"));
    auto *from = m_view->findChild<QDateTimeEdit *>(QStringLiteral("auditFrom"));
    auto *to = m_view->findChild<QDateTimeEdit *>(QStringLiteral("auditTo"));
    QVERIFY(from->isHidden());
    account->setCurrentIndex(account->findText(QStringLiteral("gamma")));
    outcome->setCurrentIndex(outcome->findText(QStringLiteral("OK")));
    range->setCurrentIndex(range->findText(QStringLiteral("Custom…")));
    QVERIFY(!from->isHidden() && !to->isHidden());
    // Between 3 and 10 hours ago: rows 6-19 by time.
    from->setDateTime(m_now.addSecs(-10 * 3600).toLocalTime());
    to->setDateTime(m_now.addSecs(-3 * 3600).toLocalTime());
    QVERIFY(settle());
    const QDateTime lo = from->dateTime().toUTC(), hi = to->dateTime().toUTC();
    const auto want = expected([&](const AuditEntry &e) {
        return e.account == QLatin1String("gamma") && e.ok && e.time >= lo && e.time < hi;
    });
    QVERIFY(!want.isEmpty());
    QCOMPARE(ids(m_view->model()->entries()), ids(want));
}

void TestAuditView::accountsOfferedFromTheLog()
{
    auto *account = m_view->findChild<QComboBox *>(QStringLiteral("auditAccount"));
    QStringList items;
    for (int i = 0; i < account->count(); ++i)
        items << account->itemText(i);
    QCOMPARE(items, (QStringList{QStringLiteral("All accounts"), QStringLiteral("alpha"), QStringLiteral("beta"),
                                 QStringLiteral("gamma")}));
    auto *action = m_view->findChild<QComboBox *>(QStringLiteral("auditAction"));
    QCOMPARE(action->count(), int(audit::allActions().size()) + 1);
    // Every interactive widget of the view (not the parts Qt builds inside a combo or
    // a line edit, which have no objectName) can be named by a screen reader.
    int checked = 0;
    for (QWidget *w : m_view->findChildren<QWidget *>()) {
        if (!w->objectName().startsWith(QLatin1String("audit")) || w->focusPolicy() == Qt::NoFocus)
            continue;
        QVERIFY2(!w->accessibleName().isEmpty(), qPrintable(w->objectName()));
        ++checked;
    }
    QCOMPARE(checked, 11); // search, account, session, action, outcome, range, from, to, table, detail, export
}

void TestAuditView::staleAnswerDropped()
{
    auto *model = m_view->model();
    QSignalSpy loaded(model, &AuditModel::loaded);
    audit::AuditQuery first;
    first.account = QStringLiteral("alpha");
    audit::AuditQuery second;
    second.account = QStringLiteral("beta");
    // Both workers start before either answer is delivered: the first answer arrives
    // for a generation that is no longer current and must not reach the table.
    model->setQuery(first);
    model->setQuery(second);
    const quint64 current = model->generation();
    QVERIFY(test::waitUntil([&] { return !model->isLoading(); }, WaitMs));
    // Both workers done and their answers (queued to this thread) delivered: the first
    // answer has arrived, late, and must have been dropped.
    QVERIFY(QThreadPool::globalInstance()->waitForDone(WaitMs));
    QCoreApplication::sendPostedEvents();
    QCOMPARE(loaded.size(), 1);
    QCOMPARE(loaded.first().first().toULongLong(), current);
    QCOMPARE(model->rowCount(), 17);
    for (const auto &e : model->entries())
        QCOMPARE(e.account, QStringLiteral("beta"));
}

void TestAuditView::newEntryAppearsLive()
{
    auto *model = m_view->model();
    const quint64 before = model->generation();
    // A burst reloads once, not once per write.
    for (int i = 0; i < 5; ++i) {
        auto e = audit::makeEntry(Action::SessionKilled, QStringLiteral("delta"), QStringLiteral("docker"),
                                  QStringLiteral("live-%1").arg(i));
        QVERIFY(m_log->append(e).ok());
    }
    QVERIFY(test::waitUntil([&] { return model->rowCount() == Entries + 5 && !model->isLoading(); }, WaitMs));
    QCOMPARE(model->generation(), before + 1);
    QCOMPARE(model->entries().first().sessionId, QStringLiteral("live-4")); // newest first
    auto *account = m_view->findChild<QComboBox *>(QStringLiteral("auditAccount"));
    QVERIFY(account->findText(QStringLiteral("delta")) >= 0);
}

void TestAuditView::anotherWritersEntryAppears()
{
    // A second AuditLog on the same file stands in for sandbarctl: the view hears of
    // its rows through the file, not through a signal.
    AuditLog cli(m_dir->path());
    cli.setFlushDelay(0);
    auto *model = m_view->model();
    model->setLiveInterval(0); // a refresh, once scheduled, runs at once
    QVERIFY(cli.append(audit::makeEntry(Action::SessionKilled, QStringLiteral("cli"), QStringLiteral("docker"),
                                        QStringLiteral("from-cli")))
                .ok());
    QVERIFY(test::waitUntil([&] { return model->rowCount() == Entries + 1 && !model->isLoading(); }, WaitMs));
    QCOMPARE(model->entries().first().sessionId, QStringLiteral("from-cli"));
    // The model's own reads touch the WAL file too (inotify reports the close); they must
    // not count as news, or every answer would start the next query: once the events of
    // that last read are handled, no refresh has run.
    const quint64 settled = model->generation();
    QVERIFY(fileEventsHandled());
    QVERIFY(zeroTimersRun());
    QCOMPARE(model->generation(), settled);
}

void TestAuditView::hiddenViewCatchesUpWhenShown()
{
    auto *model = m_view->model();
    model->setLiveInterval(0); // a refresh, once scheduled, runs at once
    m_view->show();
    m_view->hide();
    const quint64 before = model->generation();
    QSignalSpy written(m_log.get(), &AuditLog::entriesWritten);
    QVERIFY(
        m_log->append(audit::makeEntry(Action::SessionKilled, QStringLiteral("delta"), QStringLiteral("docker"))).ok());
    // Both kinds of news handled (the signal, and the file's events) without a query.
    QVERIFY(test::waitUntil([&] { return !written.isEmpty(); }, WaitMs));
    QVERIFY(fileEventsHandled());
    QVERIFY(zeroTimersRun());
    QCOMPARE(model->generation(), before);
    QCOMPARE(model->rowCount(), Entries);
    m_view->show();
    QVERIFY(test::waitUntil([&] { return model->rowCount() == Entries + 1; }, WaitMs));
}

void TestAuditView::selectionShowsFullJson()
{
    auto *table = m_view->findChild<QTableView *>(QStringLiteral("auditTable"));
    auto *detail = m_view->findChild<QPlainTextEdit *>(QStringLiteral("auditDetail"));
    QVERIFY(detail->toPlainText().isEmpty());
    table->selectRow(0);
    const AuditEntry &e = m_view->model()->entry(0);
    QCOMPARE(detail->toPlainText(), QString::fromUtf8(QJsonDocument(audit::entryToJson(e)).toJson()));
    QVERIFY(detail->toPlainText().contains(QStringLiteral("\"os_user\": \"tester\"")));
    // A live reload keeps the same entry selected.
    const qint64 id = e.id;
    QVERIFY(
        m_log->append(audit::makeEntry(Action::SessionKilled, QStringLiteral("delta"), QStringLiteral("docker"))).ok());
    QVERIFY(test::waitUntil([&] { return m_view->model()->rowCount() == Entries + 1; }, WaitMs));
    const auto rows = table->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(m_view->model()->entry(rows.first().row()).id, id);
    QVERIFY(detail->toPlainText().contains(QStringLiteral("\"id\": %1").arg(id)));
}

void TestAuditView::exportWritesTheRowsShown()
{
    // One row: byte for byte.
    auto *search = m_view->findChild<QLineEdit *>(QStringLiteral("auditSearch"));
    search->setText(QStringLiteral("needle-11"));
    QVERIFY(settle());
    QCOMPARE(m_view->model()->rowCount(), 1);
    const AuditEntry &e = m_view->model()->entry(0);
    QSignalSpy done(m_view.get(), &AuditView::exportFinished);
    const QString one = m_dir->filePath(QStringLiteral("one.csv"));
    m_view->exportCsv(one);
    QVERIFY(done.wait(WaitMs));
    QCOMPARE(done.first().at(1).toString(), QString());
    QFile f(one);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray want =
        "time,os_user,host,account,provider,session,action,outcome,error_code,error_message,detail\r\n" +
        e.time.toUTC().toString(Qt::ISODateWithMs).toUtf8() +
        ",tester,box,gamma,docker,s11,exec,error,unavailable,engine gone,\"{\"\"command\"\":\"\"echo "
        "needle-11\"\"}\"\r\n";
    QCOMPARE(f.readAll(), want);
    QVERIFY(e.time.toUTC().toString(Qt::ISODateWithMs).endsWith(QLatin1Char('Z')));

    // Many rows, sorted by account: the file follows the table's order.
    search->clear();
    auto *outcome = m_view->findChild<QComboBox *>(QStringLiteral("auditOutcome"));
    outcome->setCurrentIndex(outcome->findText(QStringLiteral("Failed")));
    QVERIFY(settle());
    auto *table = m_view->findChild<QTableView *>(QStringLiteral("auditTable"));
    table->sortByColumn(AuditModel::AccountColumn, Qt::AscendingOrder);
    QCOMPARE(m_view->model()->entry(0).account, QStringLiteral("alpha"));
    const QString many = m_dir->filePath(QStringLiteral("many.csv"));
    m_view->exportCsv(many);
    QVERIFY(done.wait(WaitMs));
    QFile g(many);
    QVERIFY(g.open(QIODevice::ReadOnly));
    const QByteArray bytes = g.readAll();
    QCOMPARE(bytes, auditCsv(m_view->model()->entries()));
    QCOMPARE(bytes.count("\r\n"), 13); // header + 12 failed rows
    QVERIFY(m_view->statusText().contains(QStringLiteral("exported 12 rows")));

    // A folder that does not exist: an error, no crash, nothing written.
    m_view->exportCsv(m_dir->filePath(QStringLiteral("no/such/dir/x.csv")));
    QVERIFY(done.wait(WaitMs));
    QVERIFY(!done.last().at(1).toString().isEmpty());
}

void TestAuditView::exportDialogOpensWithoutBlocking()
{
    auto *button = m_view->findChild<QPushButton *>(QStringLiteral("auditExport"));
    m_view->show();
    QTest::mouseClick(button, Qt::LeftButton); // returns: the dialog is open(), not exec()
    auto *dialog = m_view->findChild<QFileDialog *>(QStringLiteral("auditExportDialog"));
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->acceptMode(), QFileDialog::AcceptSave);
    QSignalSpy done(m_view.get(), &AuditView::exportFinished);
    const QString path = m_dir->filePath(QStringLiteral("chosen.csv"));
    dialog->selectFile(path);
    static_cast<QDialog *>(dialog)->accept(); // QFileDialog hides it; QDialog's is public
    QVERIFY(done.wait(WaitMs));
    QCOMPARE(done.first().at(0).toString(), path);
    QVERIFY(QFile::exists(path));
}

void TestAuditView::csvQuoting_data()
{
    QTest::addColumn<QString>("account");
    QTest::addColumn<QByteArray>("cell");
    QTest::newRow("empty") << QString() << QByteArray();
    QTest::newRow("plain") << QStringLiteral("alpha") << QByteArray("alpha");
    QTest::newRow("comma") << QStringLiteral("a,b") << QByteArray("\"a,b\"");
    QTest::newRow("quote") << QStringLiteral("say \"hi\"") << QByteArray("\"say \"\"hi\"\"\"");
    QTest::newRow("newline") << QStringLiteral("one\ntwo") << QByteArray("\"one\ntwo\"");
    QTest::newRow("carriage return") << QStringLiteral("one\r\ntwo") << QByteArray("\"one\r\ntwo\"");
    QTest::newRow("non-ASCII") << QStringLiteral("Zoë ☃ 東京")
                               << QByteArray("Zo\xc3\xab \xe2\x98\x83 \xe6\x9d\xb1\xe4\xba\xac");
    QTest::newRow("formula") << QStringLiteral("=HYPERLINK(\"http://x\")")
                             << QByteArray("\"'=HYPERLINK(\"\"http://x\"\")\"");
    QTest::newRow("formula without quotes") << QStringLiteral("=1+1") << QByteArray("'=1+1");
    QTest::newRow("plus") << QStringLiteral("+1") << QByteArray("'+1");
    QTest::newRow("minus") << QStringLiteral("-2") << QByteArray("'-2");
    QTest::newRow("at") << QStringLiteral("@SUM(A1)") << QByteArray("'@SUM(A1)");
    QTest::newRow("tab") << QStringLiteral("\tx") << QByteArray("'\tx");
    QTest::newRow("equals later is fine") << QStringLiteral("a=b") << QByteArray("a=b");
}

void TestAuditView::csvQuoting()
{
    QFETCH(QString, account);
    QFETCH(QByteArray, cell);
    const QByteArray header =
        "time,os_user,host,account,provider,session,action,outcome,error_code,error_message,detail\r\n";
    QCOMPARE(auditCsv({}), header);
    AuditEntry e;
    e.time = QDateTime(QDate(2026, 11, 1), QTime(8, 30, 0, 250), Qt::UTC);
    e.osUser = QStringLiteral("u");
    e.host = QStringLiteral("h");
    e.account = account;
    e.provider = QStringLiteral("docker");
    e.action = QStringLiteral("exec");
    const QByteArray row = "2026-11-01T08:30:00.250Z,u,h," + cell + ",docker,,exec,ok,,,\r\n";
    QCOMPARE(auditCsv({e}), header + row);
    QCOMPARE(csvField(account), cell);
}

void TestAuditView::screenshot()
{
    const QString dir = qEnvironmentVariable("SANDBAR_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set SANDBAR_SCREENSHOT_DIR to save auditview.png");
    auto *outcome = m_view->findChild<QComboBox *>(QStringLiteral("auditOutcome"));
    outcome->setCurrentIndex(outcome->findText(QStringLiteral("Failed")));
    auto *range = m_view->findChild<QComboBox *>(QStringLiteral("auditRange"));
    range->setCurrentIndex(range->findText(QStringLiteral("Last 24 hours")));
    QVERIFY(settle());
    m_view->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    m_view->findChild<QTableView *>(QStringLiteral("auditTable"))->selectRow(1);
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_view->findChild<QPlainTextEdit *>(QStringLiteral("auditDetail"))->toPlainText().isEmpty(), WaitMs);
    QVERIFY(m_view->grab().save(QDir(dir).filePath(QStringLiteral("auditview.png"))));
}

void TestAuditView::query100k()
{
    if (!qEnvironmentVariableIsSet("SANDBAR_AUDIT_BENCH"))
        QSKIP("set SANDBAR_AUDIT_BENCH to time a search over 100,000 rows");
    m_log->setFlushDelay(60000);
    QElapsedTimer t;
    t.start();
    for (int i = 0; i < 100000; ++i)
        QVERIFY(m_log->append(sample(i % Entries, m_now)).ok());
    QVERIFY(m_log->flush().ok());
    qInfo("filled 100,000 rows in %lld ms", t.elapsed());
    m_view.reset(); // measure one model alone
    AuditModel model(m_log.get());
    model.setLiveInterval(0); // a refresh, once scheduled, runs at once
    QVERIFY(test::waitUntil([&] { return !model.isLoading(); }, 60000));
    for (const QString &text : {QStringLiteral("needle-1"), QStringLiteral("no such thing"), QString()}) {
        audit::AuditQuery q;
        q.text = text;
        t.restart();
        auto direct = audit::readAuditFile(m_log->path(), q);
        const qint64 unlimitedMs = t.elapsed();
        t.restart();
        model.setQuery(q);
        QVERIFY(test::waitUntil([&] { return !model.isLoading(); }, 60000));
        const qint64 modelMs = t.elapsed();
        const quint64 settled = model.generation();
        // No query of its own may start another (see anotherWritersEntryAppears).
        QVERIFY(fileEventsHandled());
        QVERIFY(zeroTimersRun());
        QCOMPARE(model.generation(), settled);
        qInfo("search '%s': %lld ms in the model (newest 5,000, count, accounts, sort); "
              "%lld ms for every matching row (%lld); status '%s'",
              qPrintable(text), modelMs, unlimitedMs, qint64(direct->entries.size()), qPrintable(model.statusText()));
    }
}

QTEST_MAIN(TestAuditView)
#include "tst_auditview.moc"
