#!/bin/sh
# Long exploration of one fuzz target: JOBS independent libFuzzer processes with random seeds
# for HOURS, sharing one working corpus (seeded from the committed one); a process that finds
# a crash is restarted so that the others go on. Crashes, leaks, timeouts and UB reports land in
# OUTDIR/explore-TARGET/crashes/. At the end it prints the process-hours run, the crashes and
# the crash-free process-hours (the process-hours when no crash was found, else 0).
# A fixed crash goes to the target's corpus (tests/fuzz/targets.sh) as regress-NAME.
# usage: explore.sh TARGET HOURS [JOBS=1] [OUTDIR=<source>/build-fuzz]
set -eu
T=${1:?usage: explore.sh TARGET HOURS [JOBS] [OUTDIR]}
T=${T#fuzz_}
HOURS=${2:?usage: explore.sh TARGET HOURS [JOBS] [OUTDIR]}
JOBS=${3:-1}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$(mkdir -p "${4:-$SRC/build-fuzz}" && cd "${4:-$SRC/build-fuzz}" && pwd)
"$SRC/tests/fuzz/build-fuzzers.sh" "$OUT" >/dev/null
# shellcheck source=targets.sh
. "$SRC/tests/fuzz/targets.sh"
SEEDS=$(fuzz_corpus "$T")
W=$OUT/explore-$T
mkdir -p "$W/corpus" "$W/crashes" "$W/logs"
SECS=$(awk "BEGIN { printf \"%d\", $HOURS * 3600 }")
START=$(date +%s)
END=$((START + SECS))
case $T in terminalscreen) MAXLEN=8192 ;; tarextract) MAXLEN=16384 ;; *) MAXLEN=65536 ;; esac

worker() {
  i=$1
  n=0
  while :; do
    left=$((END - $(date +%s)))
    [ "$left" -gt 0 ] || break
    n=$((n + 1))
    # -seed=0: a random seed; -reload picks up what the other workers found.
    (cd "$W" && "$OUT/fuzz_$T" -seed=0 -max_total_time="$left" -max_len="$MAXLEN" -timeout=20 \
      -rss_limit_mb=2048 -malloc_limit_mb=2048 -reload=1 -print_final_stats=1 \
      -artifact_prefix="$W/crashes/" "$W/corpus" "$SEEDS" \
      > "$W/logs/worker$i-run$n.log" 2>&1) || echo "explore: worker $i run $n stopped on a finding: $W/logs/worker$i-run$n.log"
  done
}

i=1
while [ "$i" -le "$JOBS" ]; do
  worker "$i" &
  i=$((i + 1))
done
wait
ran=$(($(date +%s) - START))
crashes=$(find "$W/crashes" -type f | wc -l)
execs=$(cat "$W"/logs/*.log 2>/dev/null | awk '/stat::number_of_executed_units/ { s += $2 } END { print s + 0 }')
W=$W awk -v s="$ran" -v j="$JOBS" -v c="$crashes" -v e="$execs" -v t="$T" 'BEGIN {
  h = s * j / 3600
  printf "explore %s: %.2f process-hours, %d inputs, %d findings in %s, crash-free process-hours: %.2f\n",
    t, h, e, c, ENVIRON["W"], (c == 0 ? h : 0) }'
[ "$crashes" -eq 0 ]
