#!/usr/bin/env bash
# Builds Sandbar (installing missing packages first) and starts the window.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh run
[ -f build/build.ninja ] || cmake --preset default >/dev/null
cmake --build --preset default --target sandbar sandbarctl sandbar-agent 2>/dev/null \
  || cmake --build --preset default --target sandbar sandbarctl
exec build/app/sandbar "$@"
