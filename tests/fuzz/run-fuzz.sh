#!/bin/sh
# Builds the TerminalScreen fuzz target with clang-14 + libFuzzer + ASan + UBSan (only the
# terminal model is instrumented; QtCore and libvterm are the system's) and runs it.
# usage: run-fuzz.sh [SECONDS=60] [BUILD_DIR=<source>/build-fuzz]
# Exits non-zero when the build fails or the fuzzer finds a crash, leak or UB.
set -eu
SECS=${1:-60}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${2:-$SRC/build-fuzz}
CXX=${FUZZ_CXX:-clang++-14}
MOC=$(pkg-config --variable=libexecdir Qt6Core)/moc
mkdir -p "$OUT/gen" "$OUT/corpus"

T=$SRC/core/terminal
"$MOC" "$T/TerminalScreen.h" -o "$OUT/gen/moc_TerminalScreen.cpp"
"$MOC" "$T/PtyChannel.h" -o "$OUT/gen/moc_PtyChannel.cpp"

# shellcheck disable=SC2046
"$CXX" -std=c++20 -g -O1 -fPIC -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -DQT_NO_KEYWORDS -DQT_NO_CAST_FROM_ASCII \
    -I"$SRC/core" -I"$T" $(pkg-config --cflags Qt6Core vterm) \
    "$SRC/tests/fuzz/fuzz_terminalscreen.cpp" \
    "$T/TerminalScreen.cpp" "$T/Scrollback.cpp" "$T/CsiGuard.cpp" "$T/TerminalSelection.cpp" \
    "$T/TerminalSearch.cpp" "$T/LinkDetector.cpp" "$SRC/core/common/Result.cpp" \
    "$OUT/gen/moc_TerminalScreen.cpp" "$OUT/gen/moc_PtyChannel.cpp" \
    $(pkg-config --libs Qt6Core vterm) -o "$OUT/fuzz_terminalscreen"

# New inputs go to the build's corpus; the committed seeds (which include every crash found
# so far, as regressions) stay read-only. The suite runs it for SECONDS with a fixed seed;
# exploring for new crashes is a longer run with FUZZ_SEED=0 (a random seed).
# FUZZ_RUNS=N stops after N inputs instead, the same inputs on any machine.
exec "$OUT/fuzz_terminalscreen" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:--1}" -max_total_time="$SECS" -max_len=8192 -timeout=20 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$OUT/" "$OUT/corpus" "$SRC/tests/fuzz/corpus"
