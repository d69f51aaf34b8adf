#!/bin/sh
# Compiles Sandbar's libraries (sandbar-core's modules, sandbar-ui's, sandbar-app, sandbar-gpu
# and sandbar-agent) a second time with Clang 14 and warnings as errors: a second compiler
# finds what GCC lets pass. The check is about diagnostics, not code: each source is only
# parsed and checked (-fsyntax-only; the object, archive and program files are empty
# stand-ins that keep Ninja's bookkeeping), with no tests. It is also the build that keeps
# every source's own includes honest: no precompiled header and no unity batches here, since
# the main build uses both (SANDBAR_PCH, SANDBAR_UNITY) and either would hide a missing
# #include.
# usage: check-clang.sh [BUILD_DIR=<source>/build-clang]
# Exit 0: clean. Exit 1: a warning or an error (printed). Exit 2: clang-14 is missing.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$SRC/build-clang}
CXX=${CLANG_CXX:-clang++-14}
CC=${CLANG_CC:-clang-14}

for tool in "$CXX" "$CC" ninja; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "check-clang: $tool not found (Debian: apt-get install clang-14 ninja-build)" >&2
    exit 2
  fi
done

# Configured once; CMake itself reconfigures when a CMakeLists.txt changes.
if [ ! -f "$OUT/build.ninja" ] || ! grep -q "^CMAKE_CXX_COMPILER:[A-Z]*=.*$CXX\$" "$OUT/CMakeCache.txt" ||
  ! grep -q "^CMAKE_CXX_COMPILE_OBJECT:.*fsyntax-only" "$OUT/CMakeCache.txt" ||
  ! grep -q "^SANDBAR_UNITY:BOOL=OFF" "$OUT/CMakeCache.txt"; then
  rm -f "$OUT/CMakeCache.txt"
  # CMake's rule variables are only defaulted when unset, so the cache may give them.
  cmake -S "$SRC" -B "$OUT" -G Ninja \
    -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS="-O0 -g0" -DCMAKE_C_FLAGS="-O0 -g0" \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" \
    "-DCMAKE_CXX_COMPILE_OBJECT=<CMAKE_CXX_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -fsyntax-only <SOURCE> && : > <OBJECT>" \
    "-DCMAKE_C_COMPILE_OBJECT=<CMAKE_C_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -fsyntax-only <SOURCE> && : > <OBJECT>" \
    "-DCMAKE_CXX_LINK_EXECUTABLE=: > <TARGET>" "-DCMAKE_C_LINK_EXECUTABLE=: > <TARGET>" \
    -DSANDBAR_WERROR=ON -DSANDBAR_PCH=OFF -DSANDBAR_UNITY=OFF -DSANDBAR_BUILD_TESTS=OFF -DSANDBAR_BUILD_FUZZ=OFF >/dev/null
fi

# Every library of the product; sandbar-agent is Linux-only, sandbar-app pulls in the rest.
targets="sandbar-app sandbar-gpu"
if grep -q '^build app/agent/sandbar-agent:' "$OUT/build.ninja"; then targets="$targets sandbar-agent"; fi
# Quiet when clean; otherwise every diagnostic (-k 0: all of them at once), without the
# progress lines. The whole log stays in $OUT/check-clang.log.
t0=$(date +%s)
# shellcheck disable=SC2086
if ! cmake --build "$OUT" --target $targets -- -k 0 > "$OUT/check-clang.log" 2>&1; then
  grep -v -e '^\[[0-9]*/[0-9]*\] ' -e '^-- GLOB mismatch!$' "$OUT/check-clang.log" >&2 || true
  echo "check-clang: the libraries do not build cleanly with $CXX (above; log: $OUT/check-clang.log)" >&2
  exit 1
fi
echo "check-clang: the libraries build with $CXX and no warning ($(($(date +%s) - t0))s)"
