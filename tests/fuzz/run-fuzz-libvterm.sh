#!/bin/sh
# Long exploration: the TerminalScreen fuzz target with libvterm itself compiled in and
# instrumented (ASan + UBSan), so that memory errors inside libvterm are caught too (with
# the system's libvterm only its aborts show). Not part of ./test.sh: it downloads the
# libvterm 0.3.3 source through apt (a deb-src line for Debian 13 in a private list).
# usage: run-fuzz-libvterm.sh [SECONDS=1800] [WORK_DIR=<source>/build-fuzz-vterm]
# Crashes land in WORK_DIR/artifacts; a fixed one goes to tests/fuzz/corpus/terminalscreen as regress-*.
set -eu
SECS=${1:-1800}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${2:-$SRC/build-fuzz-vterm}
mkdir -p "$OUT/apt/lists/partial" "$OUT/obj" "$OUT/corpus" "$OUT/artifacts" "$OUT/gen"
if [ ! -d "$OUT/libvterm-0.3.3" ]; then
  echo "deb-src http://deb.debian.org/debian trixie main" > "$OUT/apt/sources.list"
  APT="-o Dir::Etc::sourcelist=$OUT/apt/sources.list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$OUT/apt/lists"
  # shellcheck disable=SC2086
  apt-get $APT update >/dev/null
  # shellcheck disable=SC2086
  (cd "$OUT" && apt-get $APT source --download-only libvterm=0.3.3-3 >/dev/null && tar xzf libvterm_0.3.3.orig.tar.gz)
fi
V=$OUT/libvterm-0.3.3
for f in "$V"/src/*.c; do
  clang-14 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -I"$V/include" \
    -c "$f" -o "$OUT/obj/$(basename "$f" .c).o"
done
MOC=$(pkg-config --variable=libexecdir Qt6Core)/moc
T=$SRC/core/terminal
"$MOC" "$T/TerminalScreen.h" -o "$OUT/gen/moc_TerminalScreen.cpp"
"$MOC" "$T/PtyChannel.h" -o "$OUT/gen/moc_PtyChannel.cpp"
# shellcheck disable=SC2046
clang++-14 -std=c++20 -g -O1 -fPIC -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all -DQT_NO_KEYWORDS -DQT_NO_CAST_FROM_ASCII -I"$SRC/core" -I"$T" -I"$V/include" \
  $(pkg-config --cflags Qt6Core) "$SRC/tests/fuzz/fuzz_terminalscreen.cpp" \
  "$T/TerminalScreen.cpp" "$T/Scrollback.cpp" "$T/CsiGuard.cpp" "$T/TerminalSelection.cpp" \
  "$T/TerminalSearch.cpp" "$T/LinkDetector.cpp" "$SRC/core/common/Result.cpp" \
  "$OUT/gen/moc_TerminalScreen.cpp" "$OUT/gen/moc_PtyChannel.cpp" "$OUT"/obj/*.o \
  $(pkg-config --libs Qt6Core) -o "$OUT/fuzz_terminalscreen_vterm"
exec "$OUT/fuzz_terminalscreen_vterm" -seed="${FUZZ_SEED:-0}" -max_total_time="$SECS" -max_len=8192 -timeout=60 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$OUT/artifacts/" "$OUT/corpus" "$SRC/tests/fuzz/corpus/terminalscreen"
