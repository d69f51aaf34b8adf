#pragma once

// Confines a fuzz target that writes files from hostile input (tar extraction). A broken
// extractor driven as root by a fuzzer could overwrite anything, so before the first input
// the process moves into a private mount namespace where every mount is read-only except
// the folders libFuzzer writes to (its first corpus folder and its artifacts), and /tmp is a
// fresh, small tmpfs (nodev, nosuid) seen by this process and its children alone.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QPair>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace fuzz {

inline void writeFile(const char *path, const QByteArray &text)
{
    const int fd = ::open(path, O_WRONLY);
    if (fd >= 0) {
        (void)!::write(fd, text.constData(), size_t(text.size()));
        ::close(fd);
    }
}

[[noreturn]] inline void confineFailed(const char *what)
{
    std::fprintf(stderr,
                 "fuzz: cannot confine the target (%s: %s); refusing to extract hostile archives "
                 "with the host's file system writable\n",
                 what, std::strerror(errno));
    std::exit(1);
}

// The folders libFuzzer will write to, from its command line.
inline QList<QByteArray> libFuzzerOutputs(int argc, char **argv)
{
    QList<QByteArray> dirs;
    bool firstCorpus = true;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (!a.startsWith('-')) {
            // New inputs go to the first corpus folder only; the seed folders stay read-only.
            if (firstCorpus && QFileInfo(QString::fromLocal8Bit(a)).isDir())
                dirs << QFileInfo(QString::fromLocal8Bit(a)).absoluteFilePath().toLocal8Bit();
            firstCorpus = false;
            continue;
        }
        for (const char *opt : {"-artifact_prefix=", "-exact_artifact_path="}) {
            if (a.startsWith(opt)) {
                const QString path = QString::fromLocal8Bit(a.mid(qsizetype(std::strlen(opt))));
                dirs << QFileInfo(path.endsWith(QLatin1Char('/')) ? path + QLatin1Char('x') : path)
                            .absolutePath()
                            .toLocal8Bit();
            }
        }
    }
    // Without a prefix, findings are written to the working folder.
    bool prefixed = false;
    for (int i = 1; i < argc; ++i)
        prefixed |= QByteArray(argv[i]).startsWith("-artifact_prefix=");
    char cwd[4096];
    if (!prefixed && ::getcwd(cwd, sizeof cwd))
        dirs << QByteArray(cwd);
    return dirs;
}

// What libFuzzer only reads: the seed folders after the first, or inputs to re-run.
inline QList<QByteArray> libFuzzerInputs(int argc, char **argv)
{
    QList<QByteArray> paths;
    bool firstCorpus = true;
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a.startsWith('-'))
            continue;
        const QFileInfo info(QString::fromLocal8Bit(a));
        if (!(firstCorpus && info.isDir()) && info.exists())
            paths << info.absoluteFilePath().toLocal8Bit();
        firstCorpus = false;
    }
    return paths;
}

// The names directly under the private /tmp that hold libFuzzer's bound-back folders.
inline QList<QByteArray> &tmpKept()
{
    static QList<QByteArray> names;
    return names;
}

// Children that libFuzzer's -fork or -jobs modes start inherit the namespace (and share its
// /tmp: run parallel explorations as separate processes, as explore.sh does).
inline void confine(int argc, char **argv)
{
    if (std::getenv("SANDBAR_FUZZ_CONFINED"))
        return;
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (::unshare(CLONE_NEWNS) != 0) {
        // Not root: a user namespace grants the mount rights inside it.
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            confineFailed("unshare");
        writeFile("/proc/self/setgroups", "deny");
        writeFile("/proc/self/uid_map", QByteArray::number(uid) + ' ' + QByteArray::number(uid) + " 1");
        writeFile("/proc/self/gid_map", QByteArray::number(gid) + ' ' + QByteArray::number(gid) + " 1");
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        confineFailed("private mounts");
    const QList<QByteArray> outputs = libFuzzerOutputs(argc, argv);
    struct mount_attr ro {
    };
    ro.attr_set = MOUNT_ATTR_RDONLY;
    if (::syscall(SYS_mount_setattr, -1, "/", AT_RECURSIVE, &ro, sizeof ro) != 0)
        confineFailed("read-only root");
    for (const QByteArray &d : outputs) {
        struct mount_attr rw {
        };
        rw.attr_clr = MOUNT_ATTR_RDONLY;
        if (::mount(d.constData(), d.constData(), nullptr, MS_BIND, nullptr) != 0 ||
            ::syscall(SYS_mount_setattr, -1, d.constData(), 0, &rw, sizeof rw) != 0)
            confineFailed(d.constData());
    }
    // What libFuzzer uses under /tmp (its folders, and the seeds when the checkout itself is
    // under /tmp) is bound back into the private /tmp, found through descriptors opened before
    // it hides them; the seeds stay read-only, as the whole host is by now.
    QList<QPair<QByteArray, int>> underTmp;
    // The binary too, so that the symbolizer can still read it for a crash's stack.
    const QByteArray self = QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath().toLocal8Bit();
    for (const QByteArray &d : outputs + libFuzzerInputs(argc, argv) + QList<QByteArray>{self}) {
        if (d == "/tmp")
            confineFailed("libFuzzer's folder is /tmp itself");
        if (d.startsWith("/tmp/")) {
            underTmp.append({d, ::open(d.constData(), O_PATH)});
            tmpKept().append(d.mid(5).split('/').first());
        }
    }
    if (::mount("fuzz-tmp", "/tmp", "tmpfs", MS_NODEV | MS_NOSUID, "size=64m,mode=1777") != 0)
        confineFailed("private /tmp");
    for (const auto &[d, fd] : underTmp) {
        const QByteArray from = "/proc/self/fd/" + QByteArray::number(fd);
        const QString path = QString::fromLocal8Bit(d);
        struct stat st {
        };
        const bool isDir = fd >= 0 && ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
        // A file is bound onto an empty file of its name, a folder onto a folder.
        const bool target =
            isDir ? QDir().mkpath(path)
                  : QDir().mkpath(QFileInfo(path).absolutePath()) && QFile(path).open(QIODevice::WriteOnly);
        if (fd < 0 || !target || ::mount(from.constData(), d.constData(), nullptr, MS_BIND, nullptr) != 0)
            confineFailed(d.constData());
        ::close(fd);
    }
    ::setenv("SANDBAR_FUZZ_CONFINED", "1", 1);
}

} // namespace fuzz
