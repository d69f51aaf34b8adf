# shellcheck shell=bash
# Sourced by the MCP client runners: skip() and the check that node and npm can run the pinned
# SDK. Without them a test is skipped (exit 77) with the reason, unless CI=true, where it fails:
# CI must run it.

skip() {
  if [[ "${CI:-}" == "true" ]]; then
    echo "FAIL (required in CI): $*" >&2
    exit 1
  fi
  echo "SKIP: $*" >&2
  exit 77
}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  skip "node and npm are not installed (scripts/install-deps.sh test installs them)"
fi
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' ||
  skip "node $(node --version) is too old for the pinned MCP SDK (need >= 20)"
