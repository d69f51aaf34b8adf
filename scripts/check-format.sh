#!/usr/bin/env bash
# Lists C++ files that differ from .clang-format. Informational: clang-format versions
# format a few constructs differently, so a mismatch is reported, not fatal.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed; skipped"; exit 0; }
# Batches of files per clang-format, as many at once as there are cores; a file that differs is
# named in its "code should be clang-formatted" diagnostics.
list=$(git ls-files -z '*.cpp' '*.h' | xargs -0 -r -n 64 -P "$(nproc)" clang-format --dry-run -Werror 2>&1 |
  sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
bad=0
for f in $list; do
  echo "check-format: $f is not formatted"
  bad=$((bad + 1))
done
echo "check-format: $bad file(s) need clang-format -i"
exit 0
