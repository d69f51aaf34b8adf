#include "metrics/gpu/ProcCgroup.h"

#include <cstdio>

namespace sandbar::gpu {

namespace {

bool isIdChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::vector<std::string_view> components(std::string_view path)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i <= path.size()) {
        const std::size_t slash = path.find('/', i);
        const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
        if (end > i)
            out.push_back(path.substr(i, end - i));
        if (slash == std::string_view::npos)
            break;
        i = slash + 1;
    }
    return out;
}

// The id at the start of the component or after a separator ("docker-", "libpod-", ...).
// The right edge is free for an id of 12 characters or more (a short id is the start of the
// full id the path holds); a shorter needle must end at a separator too.
bool componentHoldsId(std::string_view component, std::string_view id)
{
    for (std::size_t at = component.find(id); at != std::string_view::npos; at = component.find(id, at + 1)) {
        const std::size_t end = at + id.size();
        const bool leftEdge = at == 0 || !isIdChar(component[at - 1]);
        const bool rightEdge = id.size() >= 12 || end == component.size() || !isIdChar(component[end]);
        if (leftEdge && rightEdge)
            return true;
    }
    return false;
}

// The needle's components appear, in order and contiguous, among the path's.
bool pathHolds(const std::vector<std::string_view> &path, const std::vector<std::string_view> &needle)
{
    if (needle.empty() || needle.size() > path.size())
        return false;
    for (std::size_t start = 0; start + needle.size() <= path.size(); ++start) {
        bool all = true;
        for (std::size_t k = 0; k < needle.size() && all; ++k)
            all = path[start + k] == needle[k];
        if (all)
            return true;
    }
    return false;
}

} // namespace

bool cgroupLineMatches(std::string_view line, const CgroupMatch &match)
{
    if (match.empty())
        return false;
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    // "hierarchy-ID:controller-list:cgroup-path"; the path itself may hold ':'.
    const std::size_t c1 = line.find(':');
    if (c1 == std::string_view::npos)
        return false;
    const std::size_t c2 = line.find(':', c1 + 1);
    if (c2 == std::string_view::npos)
        return false;
    const std::string_view path = line.substr(c2 + 1);
    const std::vector<std::string_view> parts = components(path);
    if (!match.containerId.empty()) {
        for (std::string_view part : parts) {
            if (componentHoldsId(part, match.containerId))
                return true;
        }
    }
    if (!match.cgroupPath.empty() && pathHolds(parts, components(match.cgroupPath)))
        return true;
    return false;
}

bool cgroupFileMatches(std::string_view content, const CgroupMatch &match)
{
    std::size_t i = 0;
    while (i < content.size()) {
        std::size_t nl = content.find('\n', i);
        if (nl == std::string_view::npos)
            nl = content.size();
        if (cgroupLineMatches(content.substr(i, nl - i), match))
            return true;
        i = nl + 1;
    }
    return false;
}

bool pidInSession(unsigned pid, const CgroupMatch &match, const std::string &procRoot)
{
    if (match.empty() || pid == 0)
        return false;
    const std::string file = procRoot + "/" + std::to_string(pid) + "/cgroup";
    std::FILE *f = std::fopen(file.c_str(), "rb");
    if (!f)
        return false;
    // A cgroup file is a line per hierarchy: a few KiB at most. Read up to 64 KiB.
    std::string content;
    char buf[4096];
    std::size_t n = 0;
    while (content.size() < 65536 && (n = std::fread(buf, 1, sizeof buf, f)) > 0)
        content.append(buf, n);
    std::fclose(f);
    return cgroupFileMatches(content, match);
}

std::vector<unsigned> pidsInSession(const std::vector<unsigned> &pids, const CgroupMatch &match,
                                    const std::string &procRoot)
{
    std::vector<unsigned> out;
    for (unsigned pid : pids) {
        if (pidInSession(pid, match, procRoot))
            out.push_back(pid);
    }
    return out;
}

} // namespace sandbar::gpu
