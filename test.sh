#!/usr/bin/env bash
# Builds Sandbar and runs the whole test suite (every CTest label). Installs missing
# packages, starts a private Docker engine, Podman service and keyring when none is
# reachable, stops what it started, and exits non-zero on any failure.
set -euo pipefail
# A child subreaper (prctl PR_SET_CHILD_SUBREAPER, preserved across exec): whatever a test
# starts and forgets is reparented to this shell instead of init, so that the check at the
# end finds it wherever its files live.
if [ -z "${SANDBAR_TEST_REAPER:-}" ]; then
  case "$(uname -m)" in x86_64) nr=157 ;; aarch64) nr=167 ;; *) nr="" ;; esac
  if [ -n "$nr" ] && command -v perl >/dev/null; then
    export SANDBAR_TEST_REAPER=$$
    exec perl -e 'syscall('"$nr"', 36, 1, 0, 0, 0) == 0 or warn "test.sh: no subreaper: $!\n"; exec @ARGV or die' "$BASH" "$0" "$@"
  fi
fi
cd "$(dirname "$0")"
BUDGET=${SANDBAR_TEST_BUDGET:-4200}
t0=$(date +%s)
elapsed() { echo $(($(date +%s) - t0)); }
echo "test.sh: time budget ${BUDGET}s for install, build and tests"

scripts/install-deps.sh test

preset=default
if [ "${CI:-}" = true ]; then preset=ci; fi
if [ ! -f build/build.ninja ] || ! grep -q "SANDBAR_WERROR:BOOL=$([ $preset = ci ] && echo ON || echo OFF)" build/CMakeCache.txt; then
  cmake --preset "$preset" >/dev/null
fi
cmake --build --preset "$preset"
echo "test.sh: built in $(elapsed)s"

scripts/check-connects.sh
scripts/check-format.sh | tail -3
echo "test.sh: every connect names a context object"

STATE=$(mktemp -d /tmp/sandbar-test.XXXXXX)
# Stops the services, then fails the run if anything is left: processes (of the services,
# naming the state folder, or below this shell), mounts under it, the folder itself.
# shellcheck disable=SC2317
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  scripts/test-services.sh stop "$STATE" || true
  if ! scripts/check-leftovers.sh --reaper $$ --kill --remove "$STATE"; then
    echo "test.sh: the run left the above behind (now killed and removed)" >&2
    [ "$rc" -ne 0 ] || rc=1
  fi
  exit "$rc"
}
trap cleanup EXIT INT TERM
scripts/test-services.sh start "$STATE"
# shellcheck disable=SC1091
source "$STATE/env"

left=$((BUDGET - $(elapsed)))
if [ "$left" -lt 60 ]; then
  echo "test.sh: out of time budget before the tests started" >&2
  exit 1
fi
echo "test.sh: running every label with ${left}s left"
rc=0
timeout --signal=TERM --kill-after=30 "$left" \
  ctest --test-dir build --output-on-failure --no-tests=error -j1 || rc=$?
echo "test.sh: finished in $(elapsed)s of ${BUDGET}s (exit $rc)"
exit $rc
