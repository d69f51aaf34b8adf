#pragma once
// What tst_escapes needs around its attempts: the outcome table, commands run on the host
// (the positive controls) and in a session, and the terminal a sandbox must not reach.

#include "EngineKit.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

namespace sandbar::test {

// One attempt against one provider. `control`: the same probe succeeded on the host (or in a
// session granted the thing), so a failure inside proves the sandbox. A row with nothing to
// prove on this host (the service it targets is absent, the provider offers no such limit,
// the kernel refuses everyone alike) says why in `notApplicable` and is n/a. Any other row
// whose control failed proves nothing either, but that is a fault of the test or the host, not
// a fact about it: it shows as CONTROL FAILED, and fails the suite in CI.
struct EscapeRow {
    QString attempt;
    QString provider;
    bool control = false;
    bool blocked = false;
    QString note;
    // Hardening seen but not an escape by itself: printed, not counted, never a failure.
    bool counted = true;
    QString notApplicable;

    bool controlFailed() const { return counted && notApplicable.isEmpty() && !control; }
    bool escaped() const { return counted && notApplicable.isEmpty() && control && !blocked; }

    QString outcome() const
    {
        if (!counted)
            return blocked ? QStringLiteral("refused") : QStringLiteral("allowed");
        if (!notApplicable.isEmpty())
            return QStringLiteral("n/a");
        if (!control)
            return QStringLiteral("CONTROL FAILED");
        return blocked ? QStringLiteral("blocked") : QStringLiteral("ESCAPED");
    }
};

struct ProbeRun {
    bool ran = false; // the command started and ended (any exit status)
    int code = -1;
    QByteArray out; // stdout and stderr together

    bool has(const QByteArray &text) const { return out.contains(text); }
};

// `sh -c SCRIPT` on the host, waiting on the event loop (the test's listeners keep serving).
inline ProbeRun runOnHost(const QStringList &argv, int timeoutMs = 60000)
{
    ProbeRun r;
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(argv.first(), argv.mid(1));
    if (!p.waitForStarted(5000))
        return r;
    waitUntil([&] { return p.state() == QProcess::NotRunning; }, timeoutMs);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.out = p.readAll();
    r.ran = p.exitStatus() == QProcess::NormalExit;
    r.code = p.exitCode();
    return r;
}

inline ProbeRun hostSh(const QString &script, int timeoutMs = 60000)
{
    return runOnHost({QStringLiteral("/bin/sh"), QStringLiteral("-c"), script}, timeoutMs);
}

inline ProbeRun sessionSh(Provider *p, const QString &id, const QString &script, int timeoutMs = 60000)
{
    ExecRequest req;
    req.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script};
    auto job = p->commands()->exec(id, req);
    ExecResult e = runJob(job.get(), timeoutMs);
    ProbeRun r;
    r.out = e.out + e.err;
    if (e.code && e.code->ok()) {
        r.ran = true;
        r.code = e.code->value();
    } else if (e.code) {
        r.out += "\nexec error: " + e.code->message().toUtf8();
    }
    return r;
}

// The effective capability set of this process has CAP (a number from capability.h).
inline bool hasCapability(int cap)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("CapEff:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> cap) & 1;
    }
    return false;
}

// A pseudo-terminal standing in for the terminal that started Sandbar: it is this process's
// standard input while sessions are created, so a sandbox inheriting it would hold it.
class HostTerminal
{
public:
    bool open()
    {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0)
            return false;
        m_path = QString::fromLocal8Bit(::ptsname(m_master));
        m_slave = ::open(::ptsname(m_master), O_RDWR | O_NOCTTY | O_NONBLOCK);
        if (m_slave < 0)
            return false;
        m_savedStdin = ::dup(0);
        return ::dup2(m_slave, 0) == 0;
    }
    void close()
    {
        if (m_savedStdin >= 0) {
            ::dup2(m_savedStdin, 0);
            ::close(m_savedStdin);
            m_savedStdin = -1;
        }
        for (int *fd : {&m_slave, &m_master}) {
            if (*fd >= 0)
                ::close(*fd);
            *fd = -1;
        }
    }
    ~HostTerminal() { close(); }
    QString path() const { return m_path; }
    // What was pushed into the terminal's input since the last call.
    QByteArray drainInput()
    {
        QByteArray all;
        char buf[4096];
        ssize_t n = 0;
        while (m_slave >= 0 && (n = ::read(m_slave, buf, sizeof buf)) > 0)
            all.append(buf, n);
        return all;
    }

private:
    int m_master = -1, m_slave = -1, m_savedStdin = -1;
    QString m_path;
};

inline void printAndWriteReport(const QList<EscapeRow> &rows)
{
    qInfo("%-28s | %-8s | %-7s | %-14s | %s", "attempt", "provider", "control", "outcome", "note");
    qInfo("%s", QByteArray(110, '-').constData());
    QMap<QString, int> tally; // outcome -> rows
    for (const auto &r : rows) {
        const char *control = !r.notApplicable.isEmpty() ? "none" : r.control ? "passed" : "failed";
        const QString note = r.notApplicable.isEmpty() ? r.note : r.notApplicable;
        qInfo("%-28s | %-8s | %-7s | %-14s | %s", qPrintable(r.attempt), qPrintable(r.provider), control,
              qPrintable(r.outcome()), qPrintable(note));
        ++tally[r.outcome()];
    }
    QStringList summary;
    for (auto it = tally.cbegin(); it != tally.cend(); ++it)
        summary << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    qInfo("%lld rows: %s", static_cast<long long>(rows.size()), qPrintable(summary.join(QStringLiteral(", "))));
    const QString path = qEnvironmentVariable("SANDBAR_SECURITY_REPORT");
    if (path.isEmpty())
        return;
    QFile f(path);
    // Appended: one report file may gather several runs of the suite.
    if (!f.open(QIODevice::Append)) {
        qWarning("cannot write %s", qPrintable(path));
        return;
    }
    for (const auto &r : rows) {
        if (!r.counted)
            continue;
        QJsonObject o{{QStringLiteral("attempt"), r.attempt},
                      {QStringLiteral("provider"), r.provider},
                      {QStringLiteral("control"), r.control},
                      {QStringLiteral("blocked"), r.blocked},
                      {QStringLiteral("outcome"), r.outcome()},
                      {QStringLiteral("note"), r.note},
                      {QStringLiteral("notApplicable"), r.notApplicable}};
        f.write(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    }
}

} // namespace sandbar::test
