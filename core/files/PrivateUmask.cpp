#include "files/PrivateUmask.h"

#include <QtGlobal>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <sys/stat.h>
#include <thread>

namespace sandbar::files {

namespace {
class PrivateFsThread
{
public:
    static PrivateFsThread &instance()
    {
        static PrivateFsThread thread;
        return thread;
    }

    bool run(const std::function<void()> &work)
    {
        const std::lock_guard caller(m_callerMutex); // one job at a time
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_started; });
        if (!m_private)
            return false;
        m_work = &work;
        m_cv.notify_all();
        m_cv.wait(lock, [this] { return m_work == nullptr; });
        return true;
    }

private:
    PrivateFsThread()
        : m_thread([this] { loop(); })
    {
    }

    ~PrivateFsThread()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_quit = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }

    void loop()
    {
        const bool isPrivate = ::unshare(CLONE_FS) == 0;
        {
            const std::lock_guard lock(m_mutex);
            m_private = isPrivate;
            m_started = true;
        }
        m_cv.notify_all();
        if (!isPrivate) {
            qWarning("sandbar: no private umask for extraction (unshare: %s); libarchive changes the process's",
                     std::strerror(errno));
            return;
        }
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_cv.wait(lock, [this] { return m_work || m_quit; });
            if (m_quit)
                return;
            const auto *work = m_work;
            lock.unlock();
            // The process's umask may have changed since the last job; this thread's copy
            // does not follow it.
            if (const int mask = processUmask(); mask >= 0)
                ::umask(mode_t(mask));
            (*work)();
            lock.lock();
            m_work = nullptr;
            m_cv.notify_all();
        }
    }

    std::mutex m_callerMutex;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    const std::function<void()> *m_work = nullptr;
    bool m_started = false, m_private = false, m_quit = false;
    std::thread m_thread; // last: started once the state above exists
};
} // namespace

bool runWithPrivateUmask(const std::function<void()> &work)
{
    return PrivateFsThread::instance().run(work);
}

int processUmask()
{
    // /proc/self is the thread group leader, whose umask is the one every thread shares
    // (unless it made its own, as the thread above does).
    FILE *f = std::fopen("/proc/self/status", "re");
    if (!f)
        return -1;
    char line[256];
    int mask = -1;
    while (std::fgets(line, sizeof line, f)) {
        unsigned value = 0;
        if (std::sscanf(line, "Umask: %o", &value) == 1) {
            mask = int(value & 0777);
            break;
        }
    }
    std::fclose(f);
    return mask;
}

} // namespace sandbar::files
