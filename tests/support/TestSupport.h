#pragma once

#include "common/Callback.h"
#include "common/Result.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QString>
#include <QTest>
#include <QTimer>
#include <functional>
#include <optional>

class QProcess;

namespace sandbar::test {

// True when CI=true: a test that needs an engine then fails instead of skipping.
bool inCi();

// Environment the test script exports for the engines it started (or found).
QString dockerHost(); // SANDBAR_TEST_DOCKER_HOST, e.g. unix:///tmp/x/docker.sock
QString podmanHost(); // SANDBAR_TEST_PODMAN_HOST
QString testImage();  // SANDBAR_TEST_IMAGE (a busybox image imported by test.sh)

// A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:"); -1 when it cannot be read.
qint64 statusKb(const char *field);
// Resets VmHWM to the current RSS, so that the next reading is one case's peak alone.
void resetPeakRss();

// Whether a process of this machine has exactly this command line (arguments joined by
// spaces): for providers whose sandboxes run here (the contract servers' hosts, Local).
bool processRunning(const QByteArray &commandLine);

// Kills (SIGKILL) every process whose command line names dir, and everything below them
// (containers under a private engine's shims don't name it), then detaches every mount at
// or under dir: what a private engine a test started and killed leaves behind.
void reapProcessesAndMountsUnder(const QString &dir);

// Makes a process not yet started die with this test (Linux: PR_SET_PDEATHSIG). A test that
// CTest kills at its timeout then leaves no command running on into the tests after it.
void endWithTest(QProcess *process);

// The SHA-256 of a file's contents in hex; empty when it cannot be read.
QByteArray sha256File(const QString &path);

// Runs an asynchronous call and waits (in a local loop, tests only) for its callback.
template <typename T>
Result<T> await(const std::function<void(Callback<T>)> &call, int timeoutMs = 30000)
{
    QObject context;
    std::optional<Result<T>> out;
    QEventLoop loop;
    call(Callback<T>(&context, [&](Result<T> r) {
        out.emplace(std::move(r));
        loop.quit();
    }));
    if (!out) {
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    if (!out)
        return makeError(ErrorCode::Timeout, QStringLiteral("test: no answer within %1 ms").arg(timeoutMs));
    return std::move(*out);
}

// Spins the event loop until pred() holds or the time runs out.
template <typename Pred>
bool waitUntil(Pred pred, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!pred()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QTest::qWait(5);
    }
    return true;
}

} // namespace sandbar::test

// Skips with the reason outside CI; fails in CI, where nothing that matters may skip.
#define SANDBAR_REQUIRE(cond, why)                                                                                     \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            if (::sandbar::test::inCi())                                                                               \
                QFAIL(qPrintable(QStringLiteral("required in CI: ") + (why)));                                         \
            else                                                                                                       \
                QSKIP(qPrintable(why));                                                                                \
        }                                                                                                              \
    } while (false)

// QVERIFY for a Result, printing its error message on failure.
#define QVERIFY_RESULT(r)                                                                                              \
    do {                                                                                                               \
        const auto &r__ = (r);                                                                                         \
        if (!r__.ok())                                                                                                 \
            QFAIL(qPrintable(QStringLiteral("%1: %2").arg(::sandbar::errorCodeName(r__.code()), r__.message())));      \
    } while (false)
