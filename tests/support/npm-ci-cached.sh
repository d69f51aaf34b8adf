#!/usr/bin/env bash
# Installs a pinned npm client once per lock file and prints where its node_modules are.
#   npm-ci-cached.sh <folder with package.json and package-lock.json> <cache dir>
# `npm ci` runs into <cache dir>/<hash of package-lock.json> (never the source tree) and is kept
# between runs; tests running side by side install one at a time.
set -euo pipefail
src=${1:?folder with package.json and package-lock.json}
cache=${2:?cache dir}

hash=$(sha256sum "$src/package-lock.json" | cut -c1-16)
modules="$cache/$hash"
if [[ ! -f "$modules/.complete" ]]; then
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  if [[ ! -f "$modules/.complete" ]]; then
    rm -rf "$modules.tmp"
    mkdir -p "$modules.tmp"
    cp "$src/package.json" "$src/package-lock.json" "$modules.tmp/"
    started=$(date +%s%N)
    (cd "$modules.tmp" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error >&2)
    echo "npm ci took $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2
    rm -rf "$modules"
    mv "$modules.tmp" "$modules"
    touch "$modules/.complete"
  fi
  flock -u 9
fi
echo "$modules"
