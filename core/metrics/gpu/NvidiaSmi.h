#pragma once

// nvidia-smi as a fallback reader: the only way to see GPUs of a session whose engine runs
// elsewhere (a cloud sandbox, a remote Docker engine), by running it inside the session.
// NVML is the stable interface; nvidia-smi's output is not guaranteed to stay compatible, so
// the parser takes columns by position from the query below and tolerates anything else.
// Qt-free.

#include "metrics/gpu/GpuTypes.h"

#include <string>
#include <string_view>
#include <vector>

namespace sandbar::gpu {

// The argv to run: nvidia-smi --query-gpu=<fields> --format=csv,noheader,nounits.
std::vector<std::string> nvidiaSmiArgv();
// The fields queried, in column order.
const std::vector<std::string> &nvidiaSmiFields();

struct SmiParse {
    std::vector<DeviceInfo> devices;
    int skippedLines = 0; // not blank and not a GPU row (warnings, MIG listings, garbage)
    // Set when nvidia-smi said it cannot work ("NVIDIA-SMI has failed because it couldn't
    // communicate with the NVIDIA driver...", "Failed to initialize NVML: ..."): its line.
    std::string failure;
};

// Parses `--format=csv,noheader,nounits` output (also tolerates a header and units). A row
// needs an integer index and a UUID; every other column may be missing, "[N/A]", "N/A",
// "[Not Supported]", "[Insufficient Permissions]", ... and is then absent. Memory is in MiB.
// Pure.
SmiParse parseNvidiaSmiQuery(std::string_view text);

} // namespace sandbar::gpu
