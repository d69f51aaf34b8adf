#!/usr/bin/env bash
# Runs mcp-flow.mjs and, on Local, mcp-policy.mjs (the official MCP SDK) against `sandbarctl mcp` with a private config folder.
#   run-client.sh <local|docker|podman> <path to sandbarctl> <cache dir>
# node_modules comes from `npm ci` into <cache dir>/<hash of package-lock.json>, kept between runs
# (never in the source tree). Without node/npm, bubblewrap (local) or a test engine (docker, podman) the
# test is skipped (exit 77) with the reason, unless CI=true, where it fails: CI must run it.
set -euo pipefail

engine=${1:?engine}
sandbarctl=${2:?sandbarctl}
cache=${3:?cache dir}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

source "$here/require-node.sh"
[[ -x "$sandbarctl" ]] || { echo "FAIL: no sandbarctl at $sandbarctl" >&2; exit 1; }
case "$engine" in
  local)
    command -v bwrap >/dev/null || skip "bubblewrap is not installed"
    [[ -x "${SANDBAR_AGENT_PATH:-}" ]] || { echo "FAIL: SANDBAR_AGENT_PATH names no agent" >&2; exit 1; }
    account_args=(--provider local)
    image=
    ;;
  docker)
    [[ -n "${SANDBAR_TEST_DOCKER_HOST:-}" && -n "${SANDBAR_TEST_IMAGE:-}" ]] ||
      skip "no Docker engine: set SANDBAR_TEST_DOCKER_HOST and SANDBAR_TEST_IMAGE (scripts/test-services.sh)"
    account_args=(--provider docker --endpoint "$SANDBAR_TEST_DOCKER_HOST")
    image=$SANDBAR_TEST_IMAGE
    ;;
  podman)
    [[ -n "${SANDBAR_TEST_PODMAN_HOST:-}" && -n "${SANDBAR_TEST_IMAGE:-}" ]] ||
      skip "no Podman service: set SANDBAR_TEST_PODMAN_HOST and SANDBAR_TEST_IMAGE (scripts/test-services.sh)"
    account_args=(--provider podman --endpoint "$SANDBAR_TEST_PODMAN_HOST")
    image=$SANDBAR_TEST_IMAGE
    ;;
  *) echo "FAIL: unknown engine $engine" >&2; exit 1 ;;
esac

modules=$("$here/../../support/npm-ci-cached.sh" "$here" "$cache")

config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
"$sandbarctl" --config-dir "$config" accounts add eng "${account_args[@]}" >&2

# Node resolves imports from the script's folder upwards: run copies in a folder of this run's
# own under node_modules' folder, so runs side by side do not overwrite each other's.
scripts="$modules/run.$$"
mkdir -p "$scripts"
trap 'rm -rf "$config" "$scripts"' EXIT
cp "$here/kit.mjs" "$here/mcp-flow.mjs" "$here/mcp-policy.mjs" "$scripts/"
started=$(date +%s%N)
set +e
flow() {
  (cd "$scripts" && SANDBARCTL="$sandbarctl" SANDBAR_MCP_CONFIG="$config" SANDBAR_MCP_ACCOUNT=eng \
    SANDBAR_MCP_ENGINE="$engine" SANDBAR_MCP_IMAGE="$image" node "$1")
}
flow mcp-flow.mjs
rc=$?
# The policy is the same code for every provider: checked once, on the Local sandbox.
if [[ $rc -eq 0 && "$engine" == local ]]; then
  flow mcp-policy.mjs
  rc=$?
fi
set -e
echo "mcp flow ($engine): rc=$rc in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2
exit $rc
