#include "WorkspaceUsage.h"

#include <QFile>
#include <QThreadPool>
#include <atomic>
#include <set>
#include <utility>

#ifdef Q_OS_UNIX
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#endif

namespace sandbar::local {

struct WorkspaceUsage::State {
    std::atomic<qint64> usedBytes{-1};
    std::atomic<bool> walking{false};
    QElapsedTimer lastStart; // only touched on the provider's thread
};

#ifdef Q_OS_UNIX
namespace {
// Deep enough for any real tree (node_modules nests a few dozen levels); one descriptor is
// open per level.
constexpr int kMaxDepth = 128;

struct Walker {
    dev_t dev = 0;
    std::set<std::pair<dev_t, ino_t>> linked;
    qint64 total = 0;

    void dir(int fd, int depth)
    {
        DIR *d = ::fdopendir(fd);
        if (!d) {
            ::close(fd);
            return;
        }
        while (const dirent *e = ::readdir(d)) {
            const char *name = e->d_name;
            if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))
                continue;
            struct stat st {
            };
            if (::fstatat(::dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != dev)
                continue; // gone meanwhile, or another filesystem mounted here
            if (S_ISDIR(st.st_mode)) {
                total += qint64(st.st_blocks) * 512;
                if (depth < kMaxDepth) {
                    // O_NOFOLLOW: the sandbox may swap a folder for a link while we walk.
                    const int sub = ::openat(::dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                    if (sub >= 0)
                        dir(sub, depth + 1);
                }
                continue;
            }
            if (st.st_nlink > 1 && !linked.insert({st.st_dev, st.st_ino}).second)
                continue;
            total += qint64(st.st_blocks) * 512;
        }
        ::closedir(d);
    }
};
} // namespace
#endif

std::optional<qint64> WorkspaceUsage::walk(const QString &dir)
{
#ifdef Q_OS_UNIX
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    struct stat st {
    };
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return std::nullopt;
    }
    Walker w;
    w.dev = st.st_dev;
    w.total = qint64(st.st_blocks) * 512;
    w.dir(fd, 0);
    return w.total;
#else
    Q_UNUSED(dir);
    return std::nullopt;
#endif
}

WorkspaceUsage::Figures WorkspaceUsage::sample(const QString &dir)
{
    Figures f;
    std::shared_ptr<State> &state = m_states[dir];
    if (!state)
        state = std::make_shared<State>();
    if (!state->walking.load() && (!state->lastStart.isValid() || state->lastStart.elapsed() >= m_interval.count())) {
        state->walking = true;
        state->lastStart.start();
        // The state outlives the provider if need be: the worker only ever touches it.
        QThreadPool::globalInstance()->start([state, dir] {
            if (const auto used = walk(dir))
                state->usedBytes = *used;
            state->walking = false;
        });
    }
    const qint64 used = state->usedBytes.load();
    if (used < 0)
        return f;
    f.usedBytes = used;
#ifdef Q_OS_UNIX
    struct statvfs fs {
    };
    if (::statvfs(QFile::encodeName(dir).constData(), &fs) == 0)
        f.totalBytes = used + qint64(fs.f_bavail) * qint64(fs.f_frsize);
#endif
    return f;
}

} // namespace sandbar::local
