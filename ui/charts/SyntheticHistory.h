#pragma once

// Deterministic made-up statistics (CPU waves, memory rising to an out-of-memory kill,
// network bursts, disk writes, a filling filesystem, GPUs) for the view's tests, its
// screenshots and the chart bench. Not used by the application itself.

#include "metrics/SessionStats.h"

namespace sandbar::ui {

struct SyntheticOptions {
    qint64 endMs = 0; // the newest sample's time (ms since the epoch)
    qint64 spanMs = 3600 * 1000;
    int periodMs = 1000;
    int gpus = 1;
    bool network = true;
    bool oomKill = true;
};

// The sample at time t of the synthetic session (counters cumulative from startMs).
StatsSample syntheticSample(const SyntheticOptions &options, qint64 startMs, qint64 t);

// Appends spanMs of samples ending at endMs straight into the history (no signals), sets
// the session's facts (2 CPUs, network, GPUs, every statistic provided by "Docker").
void fillSyntheticHistory(metrics::SessionStats &stats, const SyntheticOptions &options);

} // namespace sandbar::ui
