#pragma once

// The seccomp profile Sandbar gives Podman sessions: Podman's own default with user
// namespaces refused, as Docker's default profile refuses them to a process without
// CAP_SYS_ADMIN. Podman's default lets unshare(CLONE_NEWUSER) through, and a user namespace
// of its own hands an unprivileged process every capability over new namespaces: far more
// kernel to attack (the kernel bugs reachable only from inside one are many).
//
// Podman 4's Docker-compatible create reads SecurityOpt "seccomp=..." as a path on the
// engine's machine, not as the profile itself (Docker's client sends the JSON inline), so
// the profile goes through a file that exists only until the engine has answered the
// create: Podman copies the rules into the container's configuration then, and a restart
// keeps them. An engine on another machine (a remote socket, a Podman machine's VM that
// does not share the folder) cannot open that file; see DockerProvider::create.

#include <QByteArray>
#include <QString>
#include <QTemporaryFile>
#include <memory>

namespace sandbar::docker {

// The profile as JSON text: engineDefault (Podman's own default profile, as read from this
// machine) with user namespaces refused, or when that is empty or not a profile, a copy of
// Podman 4.3's default with the same change.
QByteArray podmanSeccompProfile(const QByteArray &engineDefault = {});

// engineDefault with the outright allows of clone, clone3 and unshare replaced by the
// refusing rules; empty when it is not a seccomp profile.
QByteArray refuseUserNamespaces(const QByteArray &engineDefault);

// Podman's default profile on this machine, or empty.
QByteArray engineDefaultSeccompProfile();

// The profile written to a new private file under `dir` (the system's temporary folder when
// empty); the file goes when the returned object does. Null when it could not be written.
std::unique_ptr<QTemporaryFile> writePodmanSeccompProfile(const QString &dir);

// Whether a create failed because the engine could not open the profile's file.
bool isSeccompFileError(const QByteArray &engineAnswer);

} // namespace sandbar::docker
