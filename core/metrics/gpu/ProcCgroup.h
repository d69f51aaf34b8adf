#pragma once

// Which host processes belong to a session, by their cgroup. NVML lists the processes on a
// GPU by host PID; /proc/PID/cgroup names the container or sandbox each one runs in. Qt-free.
//
// PIDs are those of the PID namespace whose /proc is read: Sandbar running inside a
// container of its own sees no NVML process at all under its /proc, and matches nothing.

#include <string>
#include <string_view>
#include <vector>

namespace sandbar::gpu {

struct CgroupMatch {
    // A container id (Docker, Podman): matches a path component that is the id or holds it
    // after a separator: /docker/<id>, /system.slice/docker-<id>.scope, libpod-<id>.scope,
    // cri-containerd-<id>.scope. An id of 12 characters or more (a short id) also matches the
    // full id it begins.
    std::string containerId;
    // A cgroup path or a tail of one, compared by whole components: "sandbar-<sessionid>"
    // (the Local provider's leaf) matches .../sandbar-<sessionid> and its sub-cgroups, never
    // .../sandbar-<sessionid>2.
    std::string cgroupPath;

    bool empty() const { return containerId.empty() && cgroupPath.empty(); }
};

// True when one line of the cgroup file ("hierarchy:controllers:path", v1 or v2) or any line
// of a whole file names the session. Pure.
bool cgroupLineMatches(std::string_view line, const CgroupMatch &match);
bool cgroupFileMatches(std::string_view content, const CgroupMatch &match);

// Reads procRoot/PID/cgroup (procRoot: "/proc"; tests pass a fake tree). A process that has
// gone, or whose file cannot be read, does not match.
bool pidInSession(unsigned pid, const CgroupMatch &match, const std::string &procRoot = "/proc");
std::vector<unsigned> pidsInSession(const std::vector<unsigned> &pids, const CgroupMatch &match,
                                    const std::string &procRoot = "/proc");

} // namespace sandbar::gpu
