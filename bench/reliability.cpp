// sandbar-bench reliability [--sessions N] [--terminals N] [--flooding N] [--cycles N]
//                           [--execs N] [--only load|security|faults]
// The full-size runs of the reliability issue's load scenarios (tests/load, LoadScenarios.h)
// and the summaries of its security and faults suites:
//   load.event_loop_p99_ms          p99 lateness of a 10 ms timer while 200 Docker sessions are
//                                   listed, refreshed and sampled (target <= 50)
//   load.requests_in_flight_max     engine connections open at once meanwhile (one request
//                                   each); baseline: the design's bound, 2 x the collector's
//                                   per-account limit (a sample and its first usage look) + 2
//                                   background usage looks + the listing + the events watch
//   load.terminals_rss_growth_mib   RSS growth with 50 terminals, 10 flooding past their
//                                   scrollback; baseline: what the scrollback settings allow
//   load.idle_keystroke_ms          p99 key-to-screen echo in an idle terminal meanwhile
//   load.leaks                      descriptors, threads, cgroup and session folders, temp files
//                                   and containers more after 1,000 Local create/remove cycles
//                                   and 1,000 Docker execs than after ten warm-up ones (target 0)
//   security.escapes_blocked[.PROVIDER]  build/tests/security/tst_escapes's report: blocked
//                                   attempts over those whose positive control passed
//   faults.survived                 scenarios (Qt Test functions) passed of all, in tests/faults,
//                                   tst_appkill and tst_docker_enginekill
// Docker figures need SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) and SANDBAR_TEST_IMAGE; Local
// ones SANDBAR_AGENT_PATH where the agent is not installed.

#include "Bench.h"
#include "LoadScenarios.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QProcess>
#include <QTemporaryDir>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace sandbar::bench {

namespace {

const char kGroup[] = "reliability";

// A figure that could not be measured: value null, why (also on stderr), and the run fails.
int missing(const QString &name, const QString &unit, const QString &why)
{
    printMissing(kGroup, name, unit, why);
    return 1;
}

void logLine(const QString &line)
{
    std::fprintf(stderr, "reliability: %s\n", qPrintable(line));
}

QString dockerHost()
{
    const QString h = qEnvironmentVariable("SANDBAR_TEST_DOCKER_HOST");
    return h.isEmpty() ? qEnvironmentVariable("DOCKER_HOST") : h;
}

int loadFigures(int sessions, int terminals, int flooding, int cycles, int execs)
{
    int rc = 0;
    const QString host = dockerHost();
    const QString image = qEnvironmentVariable("SANDBAR_TEST_IMAGE");
    if (host.isEmpty() || image.isEmpty()) {
        const QString why = QStringLiteral("set SANDBAR_TEST_DOCKER_HOST (or DOCKER_HOST) and SANDBAR_TEST_IMAGE");
        rc = missing(QStringLiteral("load.event_loop_p99_ms"), QStringLiteral("ms"), why);
        rc = missing(QStringLiteral("load.requests_in_flight_max"), QStringLiteral("requests"), why);
    } else {
        load::DockerLoadOptions o;
        o.endpoint = host;
        o.image = image;
        o.sessions = sessions;
        o.minRefreshes = 5;
        o.timeoutMs = 600000;
        const auto r = load::runDockerLoad(o, logLine);
        logLine(QStringLiteral("%1 sessions, %2 sampled twice, %3 refreshes in %4 s; lateness p50 %5 ms, max %6 ms; "
                               "collector in flight max %7 (limit %8)")
                    .arg(r.sessions)
                    .arg(r.sampledSessions)
                    .arg(r.refreshes)
                    .arg(r.seconds, 0, 'f', 1)
                    .arg(load::percentile(r.latenessMs, 50), 0, 'f', 2)
                    .arg(load::percentile(r.latenessMs, 100), 0, 'f', 1)
                    .arg(r.collectorInFlightMax)
                    .arg(r.collectorLimit));
        if (!r.error.isEmpty())
            rc = fail(kGroup, QStringLiteral("load: Docker sessions"), r.error);
        printFigure(QStringLiteral("load.event_loop_p99_ms"), load::percentile(r.latenessMs, 99), QStringLiteral("ms"));
        printFigure(QStringLiteral("load.requests_in_flight_max"), double(r.connectionsMax), QStringLiteral("requests"),
                    double(2 * r.collectorLimit + 4));
    }

    load::TerminalLoadOptions t;
    t.terminals = terminals;
    t.flooding = flooding;
    t.keystrokes = 200;
    t.timeoutMs = 300000;
    const auto tr = load::runTerminalLoad(t, logLine);
    if (!tr.error.isEmpty())
        rc = fail(kGroup, QStringLiteral("load: terminals"), tr.error);
    logLine(QStringLiteral("keystrokes echoed %1 of %2, p50 %3 ms")
                .arg(tr.keystrokeMs.size())
                .arg(tr.keystrokesTried)
                .arg(load::percentile(tr.keystrokeMs, 50), 0, 'f', 2));
    printFigure(QStringLiteral("load.terminals_rss_growth_mib"), tr.rssGrowthMiB, QStringLiteral("MiB"),
                tr.rssBoundMiB);
    if (tr.keystrokeMs.size() == tr.keystrokesTried && tr.keystrokesTried > 0)
        printFigure(QStringLiteral("load.idle_keystroke_ms"), load::percentile(tr.keystrokeMs, 99),
                    QStringLiteral("ms"));
    else
        rc = missing(
            QStringLiteral("load.idle_keystroke_ms"), QStringLiteral("ms"),
            QStringLiteral("%1 of %2 keystrokes were echoed").arg(tr.keystrokeMs.size()).arg(tr.keystrokesTried));

    load::LeakOptions l;
    l.localCycles = cycles;
    l.dockerExecs = execs;
    l.dockerEndpoint = image.isEmpty() ? QString() : host;
    l.image = image;
    const auto lr = load::runLeakCycles(l, logLine);
    if (!lr.localSkipped.isEmpty())
        logLine(QStringLiteral("Local cycles skipped: ") + lr.localSkipped);
    if (!lr.error.isEmpty())
        logLine(QStringLiteral("leaks: ") + lr.error); // the figure's note below says it too
    logLine(QStringLiteral("median Local create+remove %1 ms, Docker exec %2 ms")
                .arg(lr.localCycleMs, 0, 'f', 0)
                .arg(lr.execMs, 0, 'f', 0));
    if (lr.error.isEmpty() && lr.localSkipped.isEmpty() && !l.dockerEndpoint.isEmpty())
        printFigure(QStringLiteral("load.leaks"), double(lr.leaks), QStringLiteral("count"));
    else
        rc = missing(QStringLiteral("load.leaks"), QStringLiteral("count"),
                     !lr.error.isEmpty()          ? lr.error
                     : !lr.localSkipped.isEmpty() ? QStringLiteral("Local: ") + lr.localSkipped
                                                  : QStringLiteral("no Docker engine (SANDBAR_TEST_DOCKER_HOST)"));
    return rc;
}

// A suite's report: JSON lines (or one JSON array) of objects.
QList<nlohmann::json> readReport(const QString &path)
{
    QList<nlohmann::json> rows;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    const QByteArray all = f.readAll();
    auto whole = nlohmann::json::parse(all.constData(), all.constData() + all.size(), nullptr, false);
    if (whole.is_array()) {
        for (auto &row : whole)
            rows << row;
        return rows;
    }
    for (const QByteArray &line : all.split('\n')) {
        auto j = nlohmann::json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
        if (j.is_object())
            rows << j;
    }
    return rows;
}

// true/"pass"/"passed"/"ok"/"blocked" read as yes.
bool yes(const nlohmann::json &row, const char *key)
{
    if (!row.contains(key))
        return false;
    const auto &v = row.at(key);
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        return s == "pass" || s == "passed" || s == "ok" || s == "blocked" || s == "yes";
    }
    return false;
}

// Runs a suite binary with its report variable set; its rows, or an error in *why.
QList<nlohmann::json> runSuite(const QString &binary, const char *reportVar, QString *why)
{
    QTemporaryDir dir;
    const QString report = dir.filePath(QStringLiteral("report.jsonl"));
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QString::fromLatin1(reportVar), report);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(binary, {});
    if (!p.waitForFinished(900000)) {
        *why = QStringLiteral("%1 did not finish").arg(binary);
        p.kill();
        p.waitForFinished();
        return {};
    }
    auto rows = readReport(report);
    if (rows.isEmpty())
        *why = QStringLiteral("%1 wrote no rows to %2 (exit %3)")
                   .arg(binary, QString::fromLatin1(reportVar))
                   .arg(p.exitCode());
    return rows;
}

QString buildDir()
{
    // sandbar-bench lives in BUILD/bench.
    return QFileInfo(QCoreApplication::applicationDirPath() + QStringLiteral("/..")).canonicalFilePath();
}

int securityFigures()
{
    const QString bin = buildDir() + QStringLiteral("/tests/security/tst_escapes");
    if (!QFileInfo(bin).isExecutable())
        return missing(QStringLiteral("security.escapes_blocked"), QStringLiteral("attempts"),
                       QStringLiteral("%1 is not built (the security suite, tests/security)").arg(bin));
    QString why;
    const auto rows = runSuite(bin, "SANDBAR_SECURITY_REPORT", &why);
    if (rows.isEmpty())
        return missing(QStringLiteral("security.escapes_blocked"), QStringLiteral("attempts"), why);
    // Rows: {"provider", "attempt", "control": pass, "blocked": bool}. An attempt whose control
    // failed is not applicable, neither blocked nor counted.
    QMap<QString, QPair<int, int>> per; // provider -> blocked, applicable
    for (const auto &row : rows) {
        if (!yes(row, "control"))
            continue;
        const QString provider = QString::fromStdString(row.value("provider", std::string("unknown")));
        auto &c = per[provider];
        ++c.second;
        if (row.contains("blocked") ? yes(row, "blocked") : yes(row, "outcome"))
            ++c.first;
    }
    int blocked = 0, applicable = 0;
    for (const auto &c : std::as_const(per)) {
        blocked += c.first;
        applicable += c.second;
    }
    printFigure(QStringLiteral("security.escapes_blocked"), blocked, QStringLiteral("attempts"), double(applicable));
    for (auto it = per.cbegin(); it != per.cend(); ++it)
        printFigure(QStringLiteral("security.escapes_blocked.") + it.key(), it->first, QStringLiteral("attempts"),
                    double(it->second));
    return 0;
}

// Runs a Qt Test binary; each test function (or data row) is one scenario, passed or not.
// initTestCase and cleanupTestCase are set-up, not scenarios.
QMap<QString, bool> runScenarios(const QString &binary, QString *why)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(binary, {QStringLiteral("-o"), QStringLiteral("-,txt")});
    if (!p.waitForFinished(900000)) {
        *why = QStringLiteral("%1 did not finish").arg(binary);
        p.kill();
        p.waitForFinished();
        return {};
    }
    QMap<QString, bool> out;
    for (const QByteArray &line : p.readAllStandardOutput().split('\n')) {
        const bool pass = line.startsWith("PASS   : ");
        if (!pass && !line.startsWith("FAIL!  : "))
            continue;
        // "Class::function(data row) and what failed": up to the parenthesis that closes.
        QString name = QString::fromUtf8(line.mid(9));
        name.truncate(name.indexOf(QLatin1Char(')'), qMax(0, name.indexOf(QLatin1Char('(')))) + 1);
        if (name.contains(QLatin1String("::initTestCase()")) || name.contains(QLatin1String("::cleanupTestCase()"))) {
            if (!pass)
                out.insert(name, false); // a failed set-up fails the suite's scenarios
            continue;
        }
        // A function that failed once has failed, whatever it printed after.
        out.insert(name, out.value(name, true) && pass);
    }
    if (out.isEmpty())
        *why = QStringLiteral("%1 ran no scenarios (exit %2)").arg(binary).arg(p.exitCode());
    return out;
}

int faultsFigures()
{
    // Section 3's scenarios: storage, settings, SQLite and keychain faults (tests/faults), the
    // app killed mid-operation (tst_appkill) and the engine killed mid-stream.
    QStringList bins;
    const QDir dir(buildDir() + QStringLiteral("/tests/faults"));
    for (const QString &b : dir.entryList({QStringLiteral("tst_*")}, QDir::Files | QDir::Executable))
        bins << dir.filePath(b);
    for (const char *other :
         {"/tests/cli/tst_appkill", "/tests/docker/tst_docker_enginekill", "/tests/podman/tst_podman_servicerestart",
          "/tests/local/tst_local_agentkill", "/tests/ui/tst_reconnect_enginekill"}) {
        const QString path = buildDir() + QLatin1String(other);
        if (QFileInfo(path).isExecutable())
            bins << path;
    }
    if (bins.isEmpty())
        return missing(QStringLiteral("faults.survived"), QStringLiteral("scenarios"),
                       QStringLiteral("no faults suites are built in %1").arg(buildDir()));
    int passed = 0, all = 0;
    for (const QString &b : std::as_const(bins)) {
        QString why;
        const auto scenarios = runScenarios(b, &why);
        if (!why.isEmpty()) {
            logLine(why);
            ++all; // a suite that could not run counts as one scenario not survived
        }
        for (auto it = scenarios.cbegin(); it != scenarios.cend(); ++it) {
            ++all;
            passed += it.value() ? 1 : 0;
            if (!it.value())
                logLine(QStringLiteral("not survived: %1").arg(it.key()));
        }
    }
    printFigure(QStringLiteral("faults.survived"), passed, QStringLiteral("scenarios"), double(all));
    return 0;
}

int run(const QStringList &args)
{
    int sessions = 200, terminals = 50, flooding = 10, cycles = 1000, execs = 1000;
    QString only;
    for (int i = 0; i + 1 < args.size(); ++i) {
        const QString &a = args.at(i);
        const int v = args.at(i + 1).toInt();
        if (a == QLatin1String("--sessions"))
            sessions = v;
        else if (a == QLatin1String("--terminals"))
            terminals = v;
        else if (a == QLatin1String("--flooding"))
            flooding = v;
        else if (a == QLatin1String("--cycles"))
            cycles = v;
        else if (a == QLatin1String("--execs"))
            execs = v;
        else if (a == QLatin1String("--only"))
            only = args.at(i + 1);
    }
    int rc = 0;
    if (only.isEmpty() || only == QLatin1String("load"))
        rc = std::max(rc, loadFigures(sessions, terminals, flooding, cycles, execs));
    if (only.isEmpty() || only == QLatin1String("security"))
        rc = std::max(rc, securityFigures());
    if (only.isEmpty() || only == QLatin1String("faults"))
        rc = std::max(rc, faultsFigures());
    return rc;
}

} // namespace

static Registration reg("reliability", &run, false,
                        "load (200 sessions, 50 terminals, 1000 cycles), security and faults summaries");

} // namespace sandbar::bench
