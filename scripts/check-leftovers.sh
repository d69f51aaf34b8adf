#!/usr/bin/env bash
# Lists what a test run left behind and exits 1 when anything is:
#   - processes whose command line, working folder, root, home or XDG folders name STATE_DIR,
#     the ones scripts/test-services.sh recorded in STATE_DIR/services.pids, their process
#     groups, and, with --reaper PID, every process left below PID (test.sh makes itself a
#     child subreaper, so whatever a test started and forgot is reparented to it, wherever
#     its files lived);
#   - mounts at or under STATE_DIR;
#   - STATE_DIR itself, with --remove once the rest is gone.
# --kill ends the processes it lists (SIGKILL, by pid) and detaches the mounts, so that the
# next run starts clean; the exit status still says that something was left.
#   scripts/check-leftovers.sh [--reaper PID] [--kill] [--remove] STATE_DIR
set -uo pipefail
reaper="" kill=0 remove=0
while [ $# -gt 1 ]; do
  case "$1" in
    --reaper) reaper=$2; shift 2 ;;
    --kill) kill=1; shift ;;
    --remove) remove=1; shift ;;
    *) break ;;
  esac
done
STATE=${1:?usage: check-leftovers.sh [--reaper PID] [--kill] [--remove] STATE_DIR}
STATE=${STATE%/}
self=$$
found=0

# Every process with its parent, process group and start time (the start time tells a
# recorded pid from a later process that reused it).
declare -A ppid_of pgid_of start_of
while read -r pid ppid pgid; do
  ppid_of[$pid]=$ppid
  pgid_of[$pid]=$pgid
done < <(ps -e -o pid=,ppid=,pgid=)
for pid in "${!ppid_of[@]}"; do
  s=$({ cut -d' ' -f22 < "/proc/$pid/stat"; } 2>/dev/null) && start_of[$pid]=$s
done

# This script and its own children are not leftovers.
mine() {
  local p=$1
  while [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != 1 ]; do
    [ "$p" = "$self" ] && return 0
    p=${ppid_of[$p]:-}
  done
  return 1
}

names_state() { # text
  case "$1" in *"$STATE"/* | *"$STATE" | *"$STATE "* | *"$STATE'"* | *"$STATE,"*) return 0 ;; esac
  return 1
}

declare -A leftover
recorded_pgids=" "
if [ -f "$STATE/services.pids" ]; then
  while read -r pid start _; do
    [ -n "$pid" ] || continue
    if [ -n "${start_of[$pid]:-}" ] && [ "${start_of[$pid]}" = "$start" ]; then
      leftover[$pid]="started by test-services"
      # Its group only where it leads one (the keyring daemon stays in its caller's group).
      [ "${pgid_of[$pid]}" = "$pid" ] && recorded_pgids+="$pid "
    fi
  done < "$STATE/services.pids"
fi

for pid in "${!ppid_of[@]}"; do
  [ -d "/proc/$pid" ] || continue
  [ "$pid" = "$reaper" ] && continue
  mine "$pid" && continue
  [ -n "${leftover[$pid]:-}" ] && continue
  cmd=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null)
  cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null)
  root=$(readlink "/proc/$pid/root" 2>/dev/null)
  if names_state "$cmd"; then leftover[$pid]="command line names $STATE"
  elif names_state "$cwd/"; then leftover[$pid]="works in $cwd"
  elif [ "$root" != / ] && names_state "$root/"; then leftover[$pid]="root is $root"
  elif { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qE "^(HOME|TMPDIR|XDG_[A-Z_]+)=$STATE/"; then
    leftover[$pid]="environment names $STATE"
  elif [[ "$recorded_pgids" == *" ${pgid_of[$pid]} "* ]]; then
    leftover[$pid]="in process group ${pgid_of[$pid]} of a service"
  fi
done

# Below the reaper: everything but this script's own line of descent.
if [ -n "$reaper" ]; then
  for pid in "${!ppid_of[@]}"; do
    [ "$pid" = "$reaper" ] && continue
    mine "$pid" && continue
    p=${ppid_of[$pid]}
    while [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != 1 ]; do
      if [ "$p" = "$reaper" ]; then
        [ -n "${leftover[$pid]:-}" ] || leftover[$pid]="left below the test run (pid $reaper)"
        break
      fi
      p=${ppid_of[$p]:-}
    done
  done
fi

# What runs below a leftover is left too (the containers below a shim or conmon).
for pid in "${!ppid_of[@]}"; do
  [ -n "${leftover[$pid]:-}" ] && continue
  mine "$pid" && continue
  p=${ppid_of[$pid]}
  while [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != 1 ]; do
    if [ -n "${leftover[$p]:-}" ]; then leftover[$pid]="below leftover $p"; break; fi
    p=${ppid_of[$p]:-}
  done
done

for pid in $(printf '%s\n' "${!leftover[@]}" | sort -n); do
  [ -d "/proc/$pid" ] || continue
  found=1
  cmd=$({ tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | cut -c1-160)
  echo "leftover process $pid (group ${pgid_of[$pid]:-?}, ${leftover[$pid]}): ${cmd:-[$(cat "/proc/$pid/comm" 2>/dev/null)]}"
  [ "$kill" = 1 ] && kill -9 "$pid" 2>/dev/null
done

# Mount points come octal-escaped (a space is \040); printf %b decodes them.
mounts_under() {
  local m
  while read -r _ _ _ _ m _; do
    m=$(printf '%b' "$m")
    case "$m/" in "$STATE"/*) echo "$m" ;; esac
  done < /proc/self/mountinfo | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-
}
while read -r m; do
  [ -n "$m" ] || continue
  found=1
  echo "leftover mount: $m"
  [ "$kill" = 1 ] && { umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; }
done < <(mounts_under)

if [ "$remove" = 1 ] && [ -e "$STATE" ]; then
  if [ "$kill" = 1 ] || [ "$found" = 0 ]; then rm -rf "$STATE" 2>/dev/null; fi
fi
if [ -e "$STATE" ] && { [ "$remove" = 1 ] || [ "$found" = 1 ]; }; then
  found=1
  echo "leftover folder: $STATE ($(du -sh "$STATE" 2>/dev/null | cut -f1))"
fi

if [ "$found" = 1 ]; then
  echo "check-leftovers: the test run left the above behind" >&2
  exit 1
fi
echo "check-leftovers: nothing left of $STATE"
