#pragma once

#include <QFlags>
#include <QString>
#include <QStringList>

namespace sandbar {

// The UI branches on these, never on which provider it talks to.
enum class Capability : quint32 {
    None = 0,
    Pty = 1u << 0,
    PtyResize = 1u << 1,
    Exec = 1u << 2,
    Files = 1u << 3,
    FileList = 1u << 4,
    StatsCpu = 1u << 5,
    StatsMemory = 1u << 6,
    StatsNetwork = 1u << 7,
    StatsDisk = 1u << 8,
    StatsGpu = 1u << 9,
    PauseResume = 1u << 10,
    SetTimeout = 1u << 11,
    Gpu = 1u << 12,
    Snapshots = 1u << 13,
    Reattach = 1u << 14,
    StatsStream = 1u << 15,
    Events = 1u << 16,
    Mounts = 1u << 17,
    Network = 1u << 18,
    Kill = 1u << 19,
    Adopt = 1u << 20,
    Logs = 1u << 21,
    Ports = 1u << 22,
    Archive = 1u << 23,    // moves a stopped sandbox to cheaper storage; resume restores it
    Images = 1u << 24,     // lists the images the engine holds
    Fork = 1u << 25,       // a new session with a copy of one's files and settings
    Settings = 1u << 26,   // create options changed on a session that exists (a sprite's URL)
    Background = 1u << 27, // commands left running on their own, their output, a signal
    Labels = 1u << 28,     // the person's labels changed on a session that exists
};
Q_DECLARE_FLAGS(Capabilities, Capability)
Q_DECLARE_OPERATORS_FOR_FLAGS(Capabilities)

QStringList capabilityNames(Capabilities caps);
QString capabilityName(Capability cap);

} // namespace sandbar
