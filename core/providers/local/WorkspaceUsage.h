#pragma once

// The storage figures of a Local session: its workspace folder is all it can write to
// outside memory (/tmp and /var/tmp are tmpfs, counted as memory by its cgroup).
//
// Used: no filesystem counter tells how much one folder holds (quotas would, but they are
// not set up for a folder Sandbar makes), and statfs only knows the whole filesystem,
// which other programs share. So the folder is walked, like du, on a worker thread and
// never more than once per interval per session (30 s): the figure is up to that old, and
// absent until the first walk has finished. A walk costs one lstat per file, which for a
// workspace with a node_modules tree is a second or more: too slow for the UI thread and
// for every 2-second sample, cheap twice a minute.
// Total: used plus what the workspace's filesystem still has free for unprivileged users
// (statfs f_bavail), taken at each sample: the most the session could hold now. The
// filesystem's own size would overstate it where other data fills the disk.

#include <QElapsedTimer>
#include <QHash>
#include <QString>
#include <chrono>
#include <memory>
#include <optional>

namespace sandbar::local {

class WorkspaceUsage
{
public:
    struct Figures {
        std::optional<qint64> usedBytes;
        std::optional<qint64> totalBytes;
    };

    explicit WorkspaceUsage(std::chrono::milliseconds interval = std::chrono::seconds(30))
        : m_interval(interval)
    {
    }

    // The last walk's result and free space now; starts a walk when none ran within the
    // interval (and none is running).
    Figures sample(const QString &dir);
    void forget(const QString &dir) { m_states.remove(dir); }

    // Allocated bytes under `dir` (st_blocks, as du counts), not following symbolic links
    // nor crossing into other filesystems, hard links counted once. Blocking.
    static std::optional<qint64> walk(const QString &dir);

private:
    struct State;
    std::chrono::milliseconds m_interval;
    QHash<QString, std::shared_ptr<State>> m_states;
};

} // namespace sandbar::local
