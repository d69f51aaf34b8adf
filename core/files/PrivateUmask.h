#pragma once

#include <functional>

namespace sandbar::files {

// Runs work on one long-lived thread that has its own umask and working folder
// (unshare(CLONE_FS)), after setting that umask to the process's, and waits for it.
// libarchive's disk writer calls umask(0) and then puts the old value back, in
// archive_write_disk_new() and in every archive_write_header(): on a thread sharing them with
// the rest of the process, any other thread creating a file or starting a process in between
// would get a umask of 0, and a concurrent umask() change could be undone. Returns false,
// running nothing, when the kernel refuses a private umask (a seccomp filter may).
bool runWithPrivateUmask(const std::function<void()> &work);

// The process's umask, read without changing it (/proc/self/status, Linux 4.7 and later);
// -1 when it cannot be read.
int processUmask();

} // namespace sandbar::files
