#!/bin/sh
# Runs one fuzz target (built by build-fuzzers.sh) for SECONDS with a fixed seed over its
# committed corpus (tests/fuzz/corpus/TARGET, or a provider folder's fuzz/corpus), which stays
# read-only: new inputs go to OUTDIR/corpus-TARGET and crashes, leaks or UB reports to
# OUTDIR/artifacts-TARGET/.
# usage: run-fuzz.sh TARGET [SECONDS=15] [OUTDIR=<source>/build-fuzz]
#   TARGET: one of tests/fuzz/targets.sh's (with or without the fuzz_ prefix)
# FUZZ_SEED=0 picks a random seed; FUZZ_RUNS=N stops after N inputs (the same on any machine).
# FUZZ_BUILD=1 builds first (a CTest fixture does it once for all targets).
# Exits non-zero when the fuzzer finds a crash, leak, timeout or UB, or the target is missing.
set -eu
T=${1:?usage: run-fuzz.sh TARGET [SECONDS] [OUTDIR]}
T=${T#fuzz_}
SECS=${2:-15}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "${3:-$SRC/build-fuzz}" && cd "${3:-$SRC/build-fuzz}" && pwd)
[ "${FUZZ_BUILD:-0}" = 1 ] && "$SRC/tests/fuzz/build-fuzzers.sh" "$OUT" >/dev/null
BIN=$OUT/fuzz_$T
# shellcheck source=targets.sh
. "$SRC/tests/fuzz/targets.sh"
SEEDS=$(fuzz_corpus "$T")
if [ ! -x "$BIN" ]; then
  echo "run-fuzz: $BIN is missing; build it with tests/fuzz/build-fuzzers.sh $OUT" >&2
  exit 1
fi
[ -d "$SEEDS" ] || { echo "run-fuzz: no seed corpus at $SEEDS" >&2; exit 1; }
mkdir -p "$OUT/corpus-$T" "$OUT/artifacts-$T"
case $T in
  terminalscreen) MAXLEN=8192 ;;
  tarextract) MAXLEN=16384 ;;
  *) MAXLEN=65536 ;;
esac
# Runs in OUTDIR: libFuzzer may leave files in its working folder.
cd "$OUT"
exec "$BIN" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:--1}" -max_total_time="$SECS" -max_len="$MAXLEN" \
  -timeout=20 -rss_limit_mb=2048 -malloc_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$OUT/artifacts-$T/" "$OUT/corpus-$T" "$SEEDS"
