#include "providers/Capabilities.h"

#include <array>
#include <utility>

namespace sandbar {

namespace {
constexpr std::array<std::pair<Capability, const char *>, 29> kNames{{
    {Capability::Pty, "pty"},
    {Capability::PtyResize, "ptyResize"},
    {Capability::Exec, "exec"},
    {Capability::Files, "files"},
    {Capability::FileList, "fileList"},
    {Capability::StatsCpu, "stats.cpu"},
    {Capability::StatsMemory, "stats.memory"},
    {Capability::StatsNetwork, "stats.network"},
    {Capability::StatsDisk, "stats.disk"},
    {Capability::StatsGpu, "stats.gpu"},
    {Capability::PauseResume, "pauseResume"},
    {Capability::SetTimeout, "setTimeout"},
    {Capability::Gpu, "gpu"},
    {Capability::Snapshots, "snapshots"},
    {Capability::Reattach, "reattach"},
    {Capability::StatsStream, "stats.stream"},
    {Capability::Events, "events"},
    {Capability::Mounts, "mounts"},
    {Capability::Network, "network"},
    {Capability::Kill, "kill"},
    {Capability::Adopt, "adopt"},
    {Capability::Logs, "logs"},
    {Capability::Ports, "ports"},
    {Capability::Archive, "archive"},
    {Capability::Images, "images"},
    {Capability::Fork, "fork"},
    {Capability::Settings, "settings"},
    {Capability::Background, "background"},
    {Capability::Labels, "labels"},
}};
} // namespace

QString capabilityName(Capability cap)
{
    for (const auto &[c, name] : kNames) {
        if (c == cap)
            return QString::fromLatin1(name);
    }
    return {};
}

QStringList capabilityNames(Capabilities caps)
{
    QStringList out;
    for (const auto &[c, name] : kNames) {
        if (caps.testFlag(c))
            out << QString::fromLatin1(name);
    }
    return out;
}

} // namespace sandbar
