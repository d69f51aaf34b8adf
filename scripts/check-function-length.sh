#!/bin/sh
# Lists the functions of the product (core/, ui/, app/) longer than LIMIT lines as
# universal-ctags measures them (from the start line to the end line; a lambda is its own
# function, counted inside its parent too). A function may be longer only with the comment
# "// long by design: table" or "// long by design: state machine" on the line above it.
# usage: check-function-length.sh [LIMIT=100]. Exit 1 when one is found.
set -eu
LIMIT=${1:-100}
SRC=$(cd "$(dirname "$0")/.." && pwd)
cd "$SRC"
command -v ctags >/dev/null 2>&1 || { echo "check-function-length: universal-ctags is missing" >&2; exit 2; }
found=0
# shellcheck disable=SC2046
ctags -x --_xformat='%N %K %F %n %{end}' --kinds-C++=fp --fields=+ne --extras=-q -R --languages=C++ \
  $(find core ui app -name '*.cpp' -o -name '*.h' | grep -v '/fuzz/' | sort) 2>/dev/null |
  awk -v limit="$LIMIT" '$5 != "" && $5 - $4 + 1 > limit { print $3, $4, $5 - $4 + 1, $1 }' > /tmp/sb-fnlen.$$ || true
while read -r file start len name; do
  above=$(sed -n "$((start - 1))p" "$file")
  case $above in
    *"// long by design: table"* | *"// long by design: state machine"*) continue ;;
  esac
  echo "$file:$start: $name is $len lines (limit $LIMIT)"
  found=1
done < /tmp/sb-fnlen.$$
rm -f /tmp/sb-fnlen.$$
exit $found
