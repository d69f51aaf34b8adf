#pragma once

#include "SandboxLayout.h"
#include "common/Result.h"

#include <QObject>
#include <functional>

namespace sandbar::local {

// Asks nvidia-smi (smiPath) which /dev/nvidiaN each GPU UUID is, without blocking: done is
// called once, on context's thread, and never once context is gone. A wedged driver can hang
// nvidia-smi: it is killed after 15 s.
void listNvidiaGpus(QObject *context, const QString &smiPath, std::function<void(Result<QList<NvidiaSmiGpu>>)> done);

} // namespace sandbar::local
