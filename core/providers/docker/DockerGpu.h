#pragma once

// GPU requests through the Engine API (research/engine-protocols.md §3.3): what create puts
// in HostConfig.DeviceRequests and what a daemon without a GPU driver answers. Pure
// functions, golden-tested in tests/dockerunit/tst_dockergpu.cpp.

#include "common/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbar::docker {

// HostConfig.DeviceRequests as compact JSON (an array with one request), or empty for no GPU.
// gpus: -1 all, N > 0 the first N; deviceIds (UUIDs or indices) win over gpus and go out
// with Count 0, since the daemon refuses both at once. The request asks for the "gpu",
// "compute" and "utility" capabilities as one AND-list: the daemon's NVIDIA driver offers
// all three, and sets NVIDIA_DRIVER_CAPABILITIES=compute,utility from it, so nvidia-smi
// works inside (with "gpu" alone the toolkit falls back to the image's own setting).
QByteArray gpuDeviceRequests(int gpus, const QStringList &deviceIds);

// The daemon's answer when no device driver matches a request (no NVIDIA Container Toolkit
// on its host): "could not select device driver "" with capabilities: [[gpu ...]]". An
// Unsupported error that says what to install; nullopt for any other engine message.
std::optional<Error> gpuDriverError(const QString &engineMessage);

} // namespace sandbar::docker
