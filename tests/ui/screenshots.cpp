// sandbar-screenshots OUTDIR: the real main window over in-memory providers (three accounts,
// three sessions with ten minutes of statistics), photographed in the states the README and
// reviews want: the sessions list with sparklines, a Stats tab, the Files tab mid-upload, the
// New session dialog's cost estimate, the audit log and the dark preferences. Run it under
// Xvfb through tests/ui/screenshots.sh; CTest runs it offscreen as tst_screenshots. Each
// state must be reached and each picture be neither blank nor tiny, or it exits 1.
#include "FakeProvider.h"
#include "ScreenshotProvider.h"
#include "TestSupport.h"
#include "audit/AuditLog.h"
#include "audit/AuditModel.h"
#include "audit/AuditView.h"
#include "audit/AuditedProvider.h"
#include "audit/Sanitizer.h"
#include "charts/StatsView.h"
#include "detail/DetailStack.h"
#include "dialogs/NewSessionDialog.h"
#include "files/FilesModel.h"
#include "files/FilesPane.h"
#include "main/MainWindow.h"
#include "prefs/Preferences.h"
#include "prefs/PreferencesDialog.h"
#include "providers/docker/DockerFactory.h"
#include "providers/e2b/E2bFactory.h"
#include "providers/local/LocalProvider.h"
#include "sessions/SessionsModel.h"
#include "wiring/AppServices.h"
#include "wiring/GuiMain.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QPixmap>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <cstdio>

using namespace sandbar;

namespace {

constexpr qint64 kGiB = qint64(1) << 30;

struct Showcase {
    QString account;
    QString name;
    QString image;
    double cpus;
    qint64 memory;
    int ageMinutes;
    qint64 ttl;
    test::LoadProfile load;
};

QList<Showcase> showcases()
{
    return {
        {QStringLiteral("local"), QStringLiteral("claude-refactor"), QStringLiteral("python:3.12-slim"), 2, 4 * kGiB,
         47, 2 * 3600, test::LoadProfile{38, 30, 1450, 220, 55, 320, 45, 4 * kGiB}},
        {QStringLiteral("docker"), QStringLiteral("eval-swebench-12"), QStringLiteral("python:3.12-slim"), 4, 8 * kGiB,
         23, 3600, test::LoadProfile{240, 110, 3900, 700, 12, 2600, 30, 8 * kGiB}},
        {QStringLiteral("e2b-team"), QStringLiteral("browser-agent"), QStringLiteral("node:22"), 2, 4 * kGiB, 72,
         3 * 3600, test::LoadProfile{64, 40, 1850, 380, 420, 140, 60, 4 * kGiB}},
    };
}

bool fail(const char *what)
{
    std::fprintf(stderr, "sandbar-screenshots: %s\n", what);
    return false;
}

enum class Theme { Any, Dark };

// A shot is kept only if it shows something: a sensible size, more than a handful of colours
// (a window that never painted is one flat colour), and, for the dark shots, a dark average.
// What the last changes posted (layout requests, queued model updates, deferred updates) is
// handled: a marker posted after them runs after them, and a few rounds cover what handling
// them posts in turn. grab() then renders the widget as it now is.
bool settle(QWidget *w)
{
    if (w->isVisible() && !QTest::qWaitForWindowExposed(w->window()))
        return false;
    for (int round = 0; round < 3; ++round) {
        bool reached = false;
        QMetaObject::invokeMethod(
            w, [&reached] { reached = true; }, Qt::QueuedConnection);
        if (!test::waitUntil([&] { return reached; }, 10000))
            return false;
    }
    return true;
}

bool save(QWidget *w, const QString &dir, const QString &name, Theme theme = Theme::Any)
{
    if (!settle(w))
        return fail(qPrintable(name + QStringLiteral(" never settled")));
    const QImage image = w->grab().toImage();
    if (image.width() < 300 || image.height() < 200)
        return fail(qPrintable(QStringLiteral("%1 is only %2x%3").arg(name).arg(image.width()).arg(image.height())));
    QSet<QRgb> colours;
    qint64 lightness = 0;
    qint64 samples = 0;
    for (int y = 0; y < image.height(); y += 4) {
        for (int x = 0; x < image.width(); x += 4) {
            const QRgb c = image.pixel(x, y);
            colours.insert(c);
            lightness += qGray(c);
            ++samples;
        }
    }
    if (colours.size() < 16)
        return fail(qPrintable(QStringLiteral("%1 is blank (%2 colours)").arg(name).arg(colours.size())));
    if (theme == Theme::Dark && lightness / samples > 110)
        return fail(qPrintable(QStringLiteral("%1 is not dark (mean grey %2)").arg(name).arg(lightness / samples)));
    const QString path = QDir(dir).filePath(name);
    if (!image.save(path))
        return fail(qPrintable(QStringLiteral("cannot write ") + path));
    std::printf("%s\n", qPrintable(path));
    return true;
}

template <typename T>
T *visibleTopLevel()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *t = qobject_cast<T *>(w); t && t->isVisible())
            return t;
        if (w->isVisible()) {
            if (auto *t = w->findChild<T *>(); t && t->isVisible())
                return t;
        }
    }
    return nullptr;
}

// A few weeks of what the audit log would hold for these accounts, oldest first.
void seedAudit(audit::AuditLog &log)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const auto add = [&](int minutesAgo, audit::Action a, const QString &account, const QString &provider,
                         const QString &id, const QJsonObject &detail = {}, const QString &error = {}) {
        audit::AuditEntry e = audit::makeEntry(a, account, provider, id, detail);
        e.time = now.addSecs(-60 * minutesAgo);
        if (!error.isEmpty())
            e.setError(makeError(ErrorCode::Unavailable, error));
        [[maybe_unused]] auto r = log.append(e);
    };
    CreateSpec spec;
    spec.image = QStringLiteral("python:3.12-slim");
    spec.cpus = 4;
    spec.memoryBytes = 8 * kGiB;
    spec.ttlSeconds = 3600;
    const QString dockerP = QStringLiteral("docker");
    add(60 * 24 * 9, audit::Action::AccountAdded, QStringLiteral("local"), QStringLiteral("local"), {});
    add(60 * 24 * 9, audit::Action::AccountAdded, dockerP, dockerP, {});
    add(60 * 24 * 2, audit::Action::AccountAdded, QStringLiteral("e2b-team"), QStringLiteral("e2b"), {});
    add(190, audit::Action::SessionCreated, dockerP, dockerP, QStringLiteral("4f1c09be2d7a"),
        audit::createDetail(spec));
    add(131, audit::Action::ExecRun, dockerP, dockerP, QStringLiteral("4f1c09be2d7a"),
        audit::execDetail(ExecRequest{{QStringLiteral("pytest"), QStringLiteral("-x"), QStringLiteral("tests/")}}));
    add(128, audit::Action::SessionRemoved, dockerP, dockerP, QStringLiteral("4f1c09be2d7a"));
    add(96, audit::Action::SessionCreated, QStringLiteral("e2b-team"), QStringLiteral("e2b"), {}, {},
        QStringLiteral("E2B API: rate limit reached, retry in 30 s"));
    spec.image = QStringLiteral("node:22");
    spec.cpus = 2;
    spec.memoryBytes = 4 * kGiB;
    add(72, audit::Action::SessionCreated, QStringLiteral("e2b-team"), QStringLiteral("e2b"), QStringLiteral("m0001"),
        audit::createDetail(spec));
    spec.image = QStringLiteral("python:3.12-slim");
    add(47, audit::Action::SessionCreated, QStringLiteral("local"), QStringLiteral("local"), QStringLiteral("m0001"),
        audit::createDetail(spec));
    add(46, audit::Action::PtyOpened, QStringLiteral("local"), QStringLiteral("local"), QStringLiteral("m0001"),
        audit::ptyDetail(PtyOptions{}));
    add(44, audit::Action::FileUploaded, QStringLiteral("local"), QStringLiteral("local"), QStringLiteral("m0001"),
        audit::fileDetail(QStringLiteral("/workspace/repo.tar.gz"), 48 << 20));
    add(31, audit::Action::SessionPaused, QStringLiteral("e2b-team"), QStringLiteral("e2b"), QStringLiteral("m0001"));
    add(29, audit::Action::SessionResumed, QStringLiteral("e2b-team"), QStringLiteral("e2b"), QStringLiteral("m0001"));
    add(23, audit::Action::SessionCreated, dockerP, dockerP, QStringLiteral("m0001"), audit::createDetail(spec));
    add(12, audit::Action::SessionTtlChanged, QStringLiteral("local"), QStringLiteral("local"), QStringLiteral("m0001"),
        audit::ttlDetail(2 * 3600));
    add(3, audit::Action::FileDownloaded, QStringLiteral("local"), QStringLiteral("local"), QStringLiteral("m0001"),
        audit::fileDetail(QStringLiteral("/workspace/patch.diff"), 18432));
    [[maybe_unused]] auto r = log.flush();
}

int rowOf(QTableView *table, const QString &name)
{
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        if (table->model()->index(r, ui::SessionsModel::Name).data().toString() == name)
            return r;
    }
    return -1;
}

// What each default shot is there to show: the columns fit (no sideways scroll bar, the
// empty list included), the list has most of the height with nothing selected, and a selected
// session's detail has the room.
bool fitsWidth(QTableView *table)
{
    return test::waitUntil([&] { return table->horizontalScrollBar()->maximum() == 0; }, 5000);
}

bool detailHasRoom(const QSplitter *split, bool selected)
{
    return test::waitUntil(
        [&] {
            const QList<int> sizes = split->sizes();
            return selected ? sizes.value(1) > 2 * sizes.value(0) : sizes.value(0) > sizes.value(1);
        },
        5000);
}

bool photographDefaults(ui::MainWindow *window, const QString &outDir)
{
    if (window->size() != QSize(1280, 800))
        return fail("the window does not open at 1280x800");
    auto *table = window->findChild<QTableView *>(QStringLiteral("sessionTable"));
    auto *search = window->findChild<QLineEdit *>(QStringLiteral("sessionSearch"));
    auto *split = window->findChild<QSplitter *>(QStringLiteral("sessionSplitter"));
    if (!table || !search || !split || !test::waitUntil([&] { return table->model()->rowCount() == 3; }, 10000))
        return fail("the table has no rows");
    search->setText(QStringLiteral("no-such-session"));
    if (!test::waitUntil([&] { return table->model()->rowCount() == 0; }, 5000))
        return fail("the filter did not empty the list");
    if (!fitsWidth(table))
        return fail("the empty list scrolls sideways at 1280x800");
    if (!detailHasRoom(split, false))
        return fail("with nothing selected the list does not have most of the height");
    if (!save(window, outDir, QStringLiteral("00-empty-1280x800.png")))
        return false;
    search->clear();
    if (!test::waitUntil([&] { return table->model()->rowCount() == 3; }, 5000))
        return fail("the filter did not clear");
    table->selectRow(rowOf(table, QStringLiteral("claude-refactor")));
    if (!fitsWidth(table) || !detailHasRoom(split, true))
        return fail("at 1280x800 the columns do not fit or the selected session's detail has no room");
    if (!save(window, outDir, QStringLiteral("00-selected-1280x800.png")))
        return false;
    window->resize(1920, 1080);
    if (!fitsWidth(table) || !detailHasRoom(split, true))
        return fail("at 1920x1080 the columns do not fit or the selected session's detail has no room");
    if (!save(window, outDir, QStringLiteral("00-selected-1920x1080.png")))
        return false;
    table->clearSelection();
    return true;
}

bool run(const QString &outDir)
{
    QTemporaryDir config;
    AppServices s;
    s.configDir = config.path();
    {
        // The collector's periods are read from here: quick enough to fill sparklines fast.
        QSettings ini(QDir(s.configDir).filePath(QStringLiteral("sandbar.ini")), QSettings::IniFormat);
        ini.setValue(QStringLiteral("stats/listPeriodMs"), 500);
        ini.setValue(QStringLiteral("stats/detailPeriodMs"), 250);
    }
    const Capabilities caps = Capability::StatsCpu | Capability::StatsMemory | Capability::StatsNetwork |
                              Capability::StatsDisk | Capability::Files | Capability::FileList |
                              Capability::PauseResume | Capability::SetTimeout | Capability::Kill;
    QHash<QString, test::ScreenshotFactory *> factories;
    const auto addFactory = [&](const QString &account, const ProviderDescriptor &d) {
        auto f = std::make_unique<test::ScreenshotFactory>(d, caps);
        factories.insert(account, f.get());
        s.factories.add(std::move(f));
    };
    addFactory(QStringLiteral("local"), local::LocalProvider::staticDescriptor());
    addFactory(QStringLiteral("docker"), docker::makeDescriptor(docker::Flavour::Docker));
    addFactory(QStringLiteral("e2b-team"), e2b::makeE2bDescriptor());
    s.secrets = std::make_unique<test::MemorySecretStore>();
    s.audit = std::make_unique<audit::AuditLog>(s.configDir);
    s.audit->setFlushDelay(0);
    s.accounts = std::make_unique<AccountStore>(s.configDir, s.factories, *s.secrets);
    s.registry = std::make_unique<SessionRegistry>(*s.accounts, s.factories);
    audit::AuditLog *log = s.audit.get();
    s.registry->setProviderDecorator([log](std::unique_ptr<Provider> inner) -> std::unique_ptr<Provider> {
        return std::make_unique<audit::AuditedProvider>(std::move(inner), *log);
    });
    buildCostServices(s);
    buildStatsServices(s);

    for (auto it = factories.cbegin(); it != factories.cend(); ++it) {
        Account a;
        a.name = it.key();
        a.provider = it.value()->descriptor().id;
        QMap<QString, QString> secrets; // a stand-in for each key the account needs (never shown)
        for (const FieldDescriptor &f : it.value()->descriptor().accountFields) {
            if (f.secret && f.required)
                secrets.insert(f.key, QStringLiteral("screenshot-key"));
        }
        if (!test::await<void>([&](Callback<void> cb) { s.accounts->add(a, secrets, cb); }).ok())
            return fail("cannot add an account");
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QHash<QString, test::LoadProfile> loads; // by ref
    for (const Showcase &c : showcases()) {
        if (!test::await<Provider *>([&](Callback<Provider *> cb) { s.registry->provider(c.account, cb); }).ok())
            return fail("no provider");
        test::ScreenshotProvider *p = factories.value(c.account)->made.value(c.account);
        SessionInfo info;
        info.id = QStringLiteral("m0001");
        info.account = c.account;
        info.provider = p->descriptor().id;
        info.name = c.name;
        info.image = c.image;
        info.state = SessionState::Running;
        info.created = now.addSecs(-60 * c.ageMinutes);
        info.ttlSeconds = c.ttl;
        info.expiresAt = info.created.addSecs(c.ttl);
        info.cpus = c.cpus;
        info.memoryBytes = c.memory;
        info.network = true;
        info.owned = true;
        info.labels.insert(QLatin1String(labels::App), QLatin1String(labels::AppValue));
        info.labels.insert(QLatin1String(labels::Account), c.account);
        // One made by an agent through MCP: the list marks it.
        if (c.name == QLatin1String("browser-agent"))
            info.labels.insert(QLatin1String(labels::Agent), QStringLiteral("claude-code 1.0.71"));
        p->inject(info);
        p->profiles.insert(info.id, c.load);
        loads.insert(info.ref(), c.load);
    }
    seedAudit(*s.audit);

    auto window = makeMainWindow(s);
    auto *prefs = window->findChild<ui::PreferencesStore *>();
    if (!prefs)
        return fail("no preferences store");
    ui::Preferences light = prefs->preferences();
    light.theme = ui::ThemeMode::Light;
    prefs->set(light);

    window->refreshAll();
    if (!test::waitUntil([&] { return s.registry->sessions().size() == 3; }, 10000))
        return fail("the sessions were not listed");
    // Ten minutes of history, as if the window had been open that long.
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    for (auto it = loads.cbegin(); it != loads.cend(); ++it) {
        metrics::SessionStats *stats = s.stats->stats(it.key());
        if (!stats)
            return fail("no statistics object");
        for (qint64 t = nowMs - 600 * 1000; t < nowMs - 500; t += 1000)
            stats->append(test::sampleAt(it.value(), t));
    }
    s.costs->start();
    s.costs->tick();

    // 0. The first window as a person sees it, nothing dragged: at the default size with the
    // list empty (a filter that matches nothing) and with a session selected, and at full HD.
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        return fail("the window was not exposed");
    if (!photographDefaults(window.get(), outDir))
        return false;

    window->resize(1600, 960);
    // A narrow accounts column; the list and detail share the height as the window does
    // itself once a row is selected (a short list, the detail the rest).
    if (auto *split = window->findChild<QSplitter *>(QStringLiteral("mainSplitter")))
        split->setSizes({210, window->width() - 210});
    auto *table = window->findChild<QTableView *>(QStringLiteral("sessionTable"));
    if (!test::waitUntil([&] { return table->model()->rowCount() == 3; }, 10000))
        return fail("the table has no rows");
    // The session an agent made carries the list's "AI" tag, and only that one.
    for (const Showcase &c : showcases()) {
        const int row = rowOf(table, c.name);
        const bool tagged =
            row >= 0 &&
            !table->model()->index(row, ui::SessionsModel::Name).data(Qt::DecorationRole).value<QPixmap>().isNull();
        if (row < 0 || tagged != (c.name == QLatin1String("browser-agent")))
            return fail(qPrintable(c.name + QStringLiteral(": the agent tag is wrong")));
    }
    // Live samples on top of the history: the sparklines' right ends move.
    if (!test::waitUntil(
            [&] {
                for (auto it = loads.cbegin(); it != loads.cend(); ++it) {
                    auto *st = s.stats->find(it.key());
                    if (!st || st->history().sampleCount() < 600 + 2)
                        return false;
                }
                return true;
            },
            15000))
        return fail("no live samples");

    // 1. The sessions with their sparklines, one selected with its Info page.
    table->selectRow(rowOf(table, QStringLiteral("claude-refactor")));
    window->details()->currentDetail()->showPage(ui::SessionDetail::Page::Info);
    if (!save(window.get(), outDir, QStringLiteral("01-main-window.png")))
        return false;

    // 2. The Stats tab of the busiest session.
    table->selectRow(rowOf(table, QStringLiteral("eval-swebench-12")));
    window->findChild<QAction *>(QStringLiteral("statsAction"))->trigger();
    ui::StatsView *view = window->details()->currentDetail()->statsView();
    if (!view || !test::waitUntil([&] { return view->isVisible() && view->seriesUpdateCount() > 2; }, 10000))
        return fail("the Stats tab did not chart");
    if (!save(window.get(), outDir, QStringLiteral("02-session-stats.png")))
        return false;

    // 3. The Files tab with uploads under way.
    table->selectRow(rowOf(table, QStringLiteral("browser-agent")));
    window->findChild<QAction *>(QStringLiteral("filesAction"))->trigger();
    ui::FilesPane *files = window->details()->currentDetail()->filesPane();
    if (!files || !test::waitUntil([&] { return files->model()->rowCount() == 8; }, 10000))
        return fail("the Files tab did not list");
    QTemporaryDir local;
    QStringList uploads;
    for (const QString &name : {QStringLiteral("dataset.parquet"), QStringLiteral("model-weights.bin"),
                                QStringLiteral("fixtures.tar"), QStringLiteral("screens.tar")}) {
        QFile f(local.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write("sandbar") != 7)
            return fail("cannot write a local file");
        uploads << f.fileName();
    }
    // Room for all four transfers under the listing.
    if (auto *split = files->findChild<QSplitter *>())
        split->setSizes({qMax(400, split->height() - 200), 200});
    files->uploadLocalPaths(uploads, files->currentDir());
    if (!test::waitUntil(
            [&] {
                const auto items = files->queue()->items();
                return items.size() == 4 && items[0].totalBytes > 0 &&
                       items[0].doneBytes >= qint64(double(items[0].totalBytes) * 0.6) && items[1].totalBytes > 0 &&
                       items[1].doneBytes >= qint64(double(items[1].totalBytes) * 0.37);
            },
            20000)) {
        QString state;
        for (const auto &i : files->queue()->items())
            state += QStringLiteral(" [%1 %2 %3/%4 %5]")
                         .arg(i.name, ui::transferStateName(i.state))
                         .arg(i.doneBytes)
                         .arg(i.totalBytes)
                         .arg(i.error);
        return fail(qPrintable(QStringLiteral("the uploads did not get part way:") + state));
    }
    if (!save(window.get(), outDir, QStringLiteral("03-files-upload.png")))
        return false;

    // 4. New session like browser-agent, on E2B: the estimate comes from the catalog.
    window->findChild<QAction *>(QStringLiteral("likeThisAction"))->trigger();
    ui::NewSessionDialog *dialog = nullptr;
    if (!test::waitUntil([&] { return (dialog = visibleTopLevel<ui::NewSessionDialog>()) != nullptr; }, 5000))
        return fail("no New session dialog");
    for (auto *edit : dialog->findChildren<QLineEdit *>()) {
        if (edit->accessibleName() == QLatin1String("Session name"))
            edit->setText(QStringLiteral("browser-agent-2"));
    }
    if (!test::waitUntil([&] { return dialog->costText().contains(QLatin1Char('$')); }, 5000))
        return fail(qPrintable(QStringLiteral("no estimate: ") + dialog->costText()));
    if (!save(dialog, outDir, QStringLiteral("04-new-session.png")))
        return false;
    dialog->reject();

    // 5. The audit log.
    window->findChild<QAction *>(QStringLiteral("auditAction"))->trigger();
    ui::AuditView *audit = nullptr;
    if (!test::waitUntil([&] { return (audit = visibleTopLevel<ui::AuditView>()) && audit->model()->rowCount() >= 10; },
                         5000))
        return fail("the audit view has no rows");
    // The newest session.created shows its full JSON below the table.
    if (auto *rows = audit->findChild<QTableView *>()) {
        for (int r = 0; r < rows->model()->rowCount(); ++r) {
            if (rows->model()->index(r, ui::AuditModel::ActionColumn).data().toString() ==
                QLatin1String("session.created")) {
                rows->selectRow(r);
                break;
            }
        }
    }
    if (!save(audit->window(), outDir, QStringLiteral("05-audit-log.png")))
        return false;
    audit->window()->close();

    // 6. Preferences in the dark theme (and the window under it, dark too).
    ui::Preferences dark = prefs->preferences();
    dark.theme = ui::ThemeMode::Dark;
    prefs->set(dark);
    window->findChild<QAction *>(QStringLiteral("preferencesAction"))->trigger();
    ui::PreferencesDialog *pd = nullptr;
    if (!test::waitUntil([&] { return (pd = visibleTopLevel<ui::PreferencesDialog>()) != nullptr; }, 5000))
        return fail("no Preferences dialog");
    if (!save(pd, outDir, QStringLiteral("06-preferences-dark.png"), Theme::Dark))
        return false;
    pd->reject();
    table->selectRow(rowOf(table, QStringLiteral("eval-swebench-12")));
    return save(window.get(), outDir, QStringLiteral("07-main-window-dark.png"), Theme::Dark);
}

} // namespace

int main(int argc, char **argv)
{
    // Nothing of the user's: recent images and other QSettings go to a scratch folder.
    QTemporaryDir home;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(home.path()));
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Sandbar"));
    QApplication::setApplicationName(QStringLiteral("sandbar-screenshots"));
    QApplication::setApplicationDisplayName(QStringLiteral("Sandbar"));
    const QString out =
        QDir(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("build/screenshots")).absolutePath();
    if (!QDir().mkpath(out))
        return fail("cannot make the output folder") ? 0 : 1;
    return run(out) ? 0 : 1;
}
