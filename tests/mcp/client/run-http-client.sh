#!/usr/bin/env bash
# Runs mcp-http-flow.mjs (the official MCP SDK's Streamable HTTP client) against mcp_http_host,
# which serves McpHttpServer on 127.0.0.1 with test tools and prints "PORT TOKEN".
#   run-http-client.sh <path to mcp_http_host> <cache dir>
# node_modules comes from npm-ci-cached.sh, as for run-client.sh. Without node/npm the test is
# skipped (exit 77) with the reason, unless CI=true, where it fails: CI must run it.
set -euo pipefail

host=${1:?mcp_http_host}
cache=${2:?cache dir}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

source "$here/require-node.sh"
[[ -x "$host" ]] || { echo "FAIL: no mcp_http_host at $host" >&2; exit 1; }

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
modules=$("$here/../../support/npm-ci-cached.sh" "$here" "$cache")

# Node resolves imports from the script's folder upwards: run a copy next to node_modules, under
# a name of this run's own so that runs side by side do not overwrite each other's.
script="$modules/.mcp-http-flow.$$.mjs"
cp "$here/mcp-http-flow.mjs" "$script"

# The host quits when its stdin (the coprocess pipe) closes, so it ends with this script
# whatever happens to it.
coproc HOST { exec "$host"; }
# shellcheck disable=SC2153 # HOST_PID is set by coproc
host_pid=$HOST_PID
trap 'rm -f "$script"' EXIT
if ! read -r -t 30 port token <&"${HOST[0]}"; then
  echo "FAIL: mcp_http_host did not report its port" >&2
  exit 1
fi

started=$(date +%s%N)
set +e
(cd "$modules" && SANDBAR_MCP_HTTP_PORT="$port" SANDBAR_MCP_HTTP_TOKEN="$token" node "$(basename "$script")")
rc=$?
set -e
echo "mcp http flow: rc=$rc in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2

# A clean exit of the host after the client's traffic: nothing it received broke it.
eval "exec ${HOST[1]}>&-"
host_rc=0
wait "$host_pid" || host_rc=$?
if [[ $host_rc -ne 0 ]]; then
  echo "FAIL: mcp_http_host exited with $host_rc" >&2
  exit 1
fi
exit $rc
