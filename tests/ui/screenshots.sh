#!/usr/bin/env bash
# Photographs the real main window over in-memory providers (tests/ui/screenshots.cpp):
# builds sandbar-screenshots, runs it under Xvfb and lists the PNGs it wrote.
# Usage: tests/ui/screenshots.sh [OUTDIR]   (default: build/screenshots)
# Needs xvfb-run (package xvfb); BUILD_DIR picks another build tree (default: build).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-build}
out=${1:-$build/screenshots}
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run not found (install xvfb)" >&2; exit 1; }
cmake --build "$build" --target sandbar-screenshots
mkdir -p "$out"
rm -f "$out"/*.png
# Fixed look whatever the desktop says: no portal, no platform theme, one scale.
env -u WAYLAND_DISPLAY -u QT_QPA_PLATFORMTHEME QT_QPA_PLATFORM=xcb QT_SCALE_FACTOR=1 \
  xvfb-run -a -s "-screen 0 2048x1200x24" timeout 180 "$build/tests/ui/sandbar-screenshots" "$out" >/dev/null
ls -l "$out"/*.png
