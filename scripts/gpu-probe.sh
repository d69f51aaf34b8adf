#!/usr/bin/env bash
# The GPU readers on a real NVIDIA machine that has a driver and nvcc but no Qt (no cmake
# needed): compiles core/metrics/gpu/*.cpp with tests/gpu/nvml_probe.cpp using g++ alone,
# prints every NVML reading, times 1,000 samples (gpu.sample_ms, target <= 2 ms), compares
# with nvidia-smi through the product's parser, then starts a small CUDA workload
# (tests/gpu/gpu_busy.cu) and samples while it runs: utilisation must rise above 0 and the
# workload's PID must show with its memory.
#   scripts/gpu-probe.sh [OUT_DIR]     (default: $OUT, else /tmp/sandbar-gpu-probe)
# Environment: CXX (g++), NVCC (nvcc on PATH, else /usr/local/cuda/bin/nvcc), NVCC_FLAGS,
# SANDBAR_NVML_LIBRARY (another libnvidia-ml), PROBE_SECONDS (workload length, 15).
# Exit: 0 every check held; 1 a check failed; 2 no usable NVML; 3 the workload ran but NVML
# listed other PIDs (this machine is in a PID namespace of its own: NVML lists host PIDs).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT_DIR=${1:-${OUT:-/tmp/sandbar-gpu-probe}}
mkdir -p "$OUT_DIR"
CXX=${CXX:-g++}
SECONDS_BUSY=${PROBE_SECONDS:-15}

echo "== build the probe (no Qt)"
# shellcheck disable=SC2086
"$CXX" -std=c++20 -O2 -Wall -Wextra -Wpedantic -Icore core/metrics/gpu/*.cpp tests/gpu/nvml_probe.cpp -ldl \
  -o "$OUT_DIR/nvml_probe" || { echo "gpu-probe: the probe does not compile" >&2; exit 1; }

echo "== NVML now, 1,000 timed samples, nvidia-smi through the parser"
"$OUT_DIR/nvml_probe" --bench 1000 --smi | tee "$OUT_DIR/readings.txt"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 2 ]; then
  echo "gpu-probe: NVML is not usable here" >&2
  exit 2
fi

NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "gpu-probe: no nvcc (set NVCC): cannot build the workload" >&2
  exit 1
fi
echo "== build and start the workload ($NVCC)"
# shellcheck disable=SC2086
"$NVCC" -O2 ${NVCC_FLAGS:-} -o "$OUT_DIR/gpu_busy" tests/gpu/gpu_busy.cu || { echo "gpu-probe: nvcc failed" >&2; exit 1; }
"$OUT_DIR/gpu_busy" "$SECONDS_BUSY" 512 > "$OUT_DIR/busy.log" 2>&1 &
busy=$!
# Only the workload this script started is ended, by its PID.
trap 'kill "$busy" 2>/dev/null || true' EXIT
ready=0
for _ in $(seq 1 600); do
  if grep -q '^ready' "$OUT_DIR/busy.log"; then ready=1; break; fi
  kill -0 "$busy" 2>/dev/null || break
  sleep 0.1
done
cat "$OUT_DIR/busy.log"
if [ "$ready" != 1 ]; then
  echo "gpu-probe: the workload did not start" >&2
  exit 1
fi

echo "== sampling while the workload (pid $busy) runs"
samples=$(( SECONDS_BUSY * 4 / 2 ))
[ "$samples" -lt 8 ] && samples=8
"$OUT_DIR/nvml_probe" --watch "$busy" --samples "$samples" --interval-ms 250 | tee "$OUT_DIR/watch.txt"
wrc=${PIPESTATUS[0]}
wait "$busy" 2>/dev/null
tail -1 "$OUT_DIR/busy.log"
trap - EXIT
if [ "$rc" -ne 0 ]; then
  echo "gpu-probe: the first checks failed (exit $rc)" >&2
  exit "$rc"
fi
echo "gpu-probe: finished (exit $wrc)"
exit "$wrc"
