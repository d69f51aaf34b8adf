#!/usr/bin/env bash
# Runs an official SDK flow (sdk/<provider>-flow.mjs) against a freshly started
# sandbar-contract-server.
#   run-sdk.sh <e2b|daytona|vercel|sprites> <path to sandbar-contract-server> <cache dir>
# node_modules comes from `npm ci` into <cache dir>/<hash of package-lock.json>, kept
# between runs. Without node/npm the test is skipped (exit 77) unless CI=true, where it
# fails: CI must run it.
set -euo pipefail

provider=${1:?provider}
server=${2:?server executable}
cache=${3:?cache dir}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
flow="$here/$provider-flow.mjs"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL: node and npm are required for the SDK contract tests (scripts/install-deps.sh installs them)" >&2
    exit 1
  fi
  echo "SKIP: node/npm not installed" >&2
  exit 77
fi
if ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)'; then
  # The pinned SDKs need Node 20 or newer (e2b: ">=20.18.1 <21 || >=22").
  echo "node $(node --version) is too old for the pinned SDKs (need >= 20)" >&2
  [[ "${CI:-}" == "true" ]] && exit 1
  exit 77
fi
[[ -f "$flow" ]] || { echo "FAIL: no flow script $flow" >&2; exit 1; }
[[ -x "$server" ]] || { echo "FAIL: no server executable $server" >&2; exit 1; }

modules=$("$here/../../support/npm-ci-cached.sh" "$here" "$cache")

log=$(mktemp)
SANDBAR_CONTRACT_TRACE=1 "$server" "$provider" --port 0 >"$log.out" 2>"$log" &
server_pid=$!
cleanup() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -f "$log" "$log.out"
}
trap cleanup EXIT

url=
for _ in $(seq 1 200); do
  if read -r word url_read <"$log.out" 2>/dev/null && [[ "$word" == listening ]]; then
    url=$url_read
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.05
done
if [[ -z "$url" ]]; then
  echo "FAIL: the server did not start:" >&2
  cat "$log" >&2
  exit 1
fi
echo "server: $url" >&2

export CONTRACT_BASE_URL="$url"
case "$provider" in
  e2b)
    export CONTRACT_API_KEY=e2b_contract_test_key
    export E2B_API_URL="$url" E2B_SANDBOX_URL="$url" E2B_API_KEY="$CONTRACT_API_KEY"
    unset E2B_DEBUG E2B_DOMAIN E2B_ACCESS_TOKEN
    ;;
  daytona)
    export CONTRACT_API_KEY=dtn_contract_test_key
    export DAYTONA_API_URL="$url/api" DAYTONA_API_KEY="$CONTRACT_API_KEY" DAYTONA_TARGET=us
    ;;
  vercel)
    # The SDK's base URL is fixed (https://vercel.com/api): the flow maps it with its fetch option.
    export CONTRACT_API_KEY=vercel_contract_test_token
    unset VERCEL_OIDC_TOKEN
    ;;
  sprites)
    # The flow hands the URL to the SDK (new SpritesClient(token, {baseURL})).
    export CONTRACT_API_KEY=sprites_contract_test_token
    unset SPRITES_TOKEN SPRITE_TOKEN
    ;;
esac

# Node before 22 has the global WebSocket only behind a flag: a flow that uses
# globalThis.WebSocket gets it there.
node_flags=()
if grep -q 'globalThis\.WebSocket' "$flow" && ! node -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' 2>/dev/null &&
  node --experimental-websocket -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' 2>/dev/null; then
  node_flags+=(--experimental-websocket)
fi

# Node resolves `import 'e2b'` from the script's folder upwards, so run a copy of the
# flow next to node_modules.
cp "$flow" "$modules/$(basename "$flow")"
started=$(date +%s%N)
set +e
(cd "$modules" && node ${node_flags[@]+"${node_flags[@]}"} "$(basename "$flow")")
rc=$?
set -e
echo "$provider flow: rc=$rc in $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2
if [[ $rc -ne 0 ]]; then
  echo "--- server stderr ---" >&2
  tail -n 50 "$log" >&2
fi
exit $rc
