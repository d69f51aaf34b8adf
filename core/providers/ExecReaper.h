#pragma once

#include "common/Result.h"

#include <QString>
#include <QStringList>

// Ending a command on a provider that has no call to kill one (Docker's and Podman's exec,
// Daytona's process/execute): each command carries a random tag in its environment, which its
// children inherit, and a second command in the session finds the tagged processes in /proc,
// sends TERM to each and its process group, then KILL after a 2 s grace.
namespace sandbar::execreaper {

inline constexpr char kTagVariable[] = "SANDBAR_EXEC_TAG";

// 32 hex digits: random, and fixed in length so no tag is the start of another.
QString newTag();
// "SANDBAR_EXEC_TAG=<tag>", for the command's environment.
QString tagEntry(const QString &tag);
// The second command: sh -c SCRIPT sandbar-reaper SANDBAR_EXEC_TAG=<tag>. It needs sh and grep
// in the session (busybox has both), and runs as the command's user (reading another user's
// /proc/PID/environ takes CAP_SYS_PTRACE).
QStringList argv(const QString &tag);
// What its exit code and output say: how many processes it signalled, or why it could not.
Result<int> outcome(int exitCode, const QString &output);

} // namespace sandbar::execreaper
