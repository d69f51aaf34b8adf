// Storage faults made for real, without loop devices: a private mount namespace (entered
// at the start of main, while the process has one thread) in which a size-limited tmpfs or
// a read-only bind mount exists for this test only and vanishes with it.
#pragma once

#include "TestSupport.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QString>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <unistd.h>

namespace sandbar::test::faults {

// Why the private mount namespace could not be made; empty when it was.
inline QString &namespaceError()
{
    static QString error;
    return error;
}

// Call first in main: unshare(CLONE_NEWNS) needs a process with one thread.
inline void enterPrivateMountNamespace()
{
    if (geteuid() != 0) {
        namespaceError() = QStringLiteral("a private mount namespace needs root");
        return;
    }
    if (::unshare(CLONE_NEWNS) != 0) {
        namespaceError() = QStringLiteral("unshare(CLONE_NEWNS): ") + QString::fromLocal8Bit(std::strerror(errno));
        return;
    }
    // Nothing mounted here may reach the host's namespace.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        namespaceError() = QStringLiteral("making / private: ") + QString::fromLocal8Bit(std::strerror(errno));
}

inline QString mountTmpfs(const QString &dir, const QByteArray &size)
{
    QDir().mkpath(dir);
    const QByteArray options = "size=" + size + ",mode=0755";
    if (::mount("sandbar-faults", QFile::encodeName(dir).constData(), "tmpfs", 0, options.constData()) != 0)
        return QStringLiteral("mount tmpfs: ") + QString::fromLocal8Bit(std::strerror(errno));
    return {};
}

// dir becomes a read-only view of itself.
inline QString bindReadOnly(const QString &dir)
{
    const QByteArray d = QFile::encodeName(dir);
    if (::mount(d.constData(), d.constData(), nullptr, MS_BIND, nullptr) != 0)
        return QStringLiteral("bind mount: ") + QString::fromLocal8Bit(std::strerror(errno));
    if (::mount(nullptr, d.constData(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
        return QStringLiteral("read-only remount: ") + QString::fromLocal8Bit(std::strerror(errno));
    return {};
}

inline void unmount(const QString &dir)
{
    ::umount2(QFile::encodeName(dir).constData(), MNT_DETACH);
}

// Writes path until the file system says ENOSPC, down to single bytes; the bytes written.
inline qint64 fillDisk(const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0)
        return -1;
    const QByteArray block(64 * 1024, 'x');
    qint64 total = 0;
    for (qsizetype chunk = block.size(); chunk >= 1; chunk /= 2) {
        for (;;) {
            const ssize_t n = ::write(fd, block.constData(), size_t(chunk));
            if (n <= 0)
                break;
            total += n;
        }
    }
    ::close(fd);
    return total;
}

struct CtlRun {
    int exitCode = -1; // -1: crashed or did not finish
    QString out;
    QString err;
};

// sandbarctl as a person runs it, with a home of its own and no session bus (no keychain
// is needed for the accounts these tests add).
inline CtlRun runCtl(const QString &configDir, const QStringList &args, const QString &home)
{
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home);
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/sandbar-no-bus"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(SANDBARCTL_PATH), QStringList{QStringLiteral("--config-dir"), configDir} + args);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished(5000);
        return {};
    }
    return CtlRun{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                  QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline bool writeAll(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

} // namespace sandbar::test::faults
