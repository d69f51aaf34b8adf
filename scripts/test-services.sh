#!/usr/bin/env bash
# Starts, for the tests, what is not already reachable: a private Docker engine, a private
# Podman service, a private D-Bus session with an unlocked gnome-keyring, and a busybox test
# image in each engine. Writes the variables the tests read to $STATE/env.
#   scripts/test-services.sh start STATE_DIR
#   scripts/test-services.sh stop STATE_DIR
# Docker runs with --bridge=none --iptables=false: test containers have no network at all.
set -euo pipefail
cmd=${1:?start|stop}
STATE=${2:?state dir}
IMAGE=${SANDBAR_TEST_IMAGE:-sandbar-test/busybox:latest}
mkdir -p "$STATE"
ENVF="$STATE/env"

log() { echo "test-services: $*" >&2; }

# Records a process this script started, with its start time, for stop and check-leftovers.
record() { # pid name
  local start
  start=$({ cut -d' ' -f22 < "/proc/$1/stat"; } 2>/dev/null) || return 0
  echo "$1 $start $2" >> "$STATE/services.pids"
}

wait_sock() { # socket, seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    curl -sf --max-time 2 --unix-socket "$1" http://localhost/_ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

answers() { curl -sf --max-time 3 --unix-socket "$1" http://localhost/_ping >/dev/null 2>&1; }

make_rootfs() { # dir
  local d=$1
  rm -rf "$d"; mkdir -p "$d/bin" "$d/workspace" "$d/tmp" "$d/etc" "$d/proc" "$d/sys" "$d/dev"
  cp /bin/busybox "$d/bin/busybox"
  for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -sf busybox "$d/bin/$a"; done
  mkdir -p "$d/usr"; ln -sf ../bin "$d/usr/bin"; ln -sf bin "$d/sbin"
  printf 'root:x:0:0:root:/root:/bin/sh\nsandbox:x:1000:1000:sandbox:/workspace:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$d/etc/passwd"
  printf 'root:x:0:\nsandbox:x:1000:\nnogroup:x:65534:\n' > "$d/etc/group"
  chmod 1777 "$d/tmp"; chown 1000:1000 "$d/workspace"
}

import_image() { # socket
  local sock=$1
  if curl -sf --unix-socket "$sock" "http://localhost/images/$IMAGE/json" >/dev/null 2>&1; then return 0; fi
  [ -d "$STATE/rootfs" ] || make_rootfs "$STATE/rootfs"
  local repo=${IMAGE%:*} tag=${IMAGE##*:}
  tar -C "$STATE/rootfs" -c . | curl -sf --unix-socket "$sock" -X POST -H 'Content-Type: application/x-tar' \
    --data-binary @- "http://localhost/images/create?fromSrc=-&repo=$repo&tag=$tag&changes=WORKDIR%20%2Fworkspace" >/dev/null
}

start() {
  : > "$ENVF"
  echo "export SANDBAR_TEST_IMAGE=$IMAGE" >> "$ENVF"
  # Docker: reuse one given to us, else start a private engine.
  local dsock=${SANDBAR_TEST_DOCKER_HOST:-}; dsock=${dsock#unix://}
  if [ -n "${SANDBAR_TEST_DOCKER_HOST:-}" ] && wait_sock "$dsock" 1; then
    log "using Docker at $SANDBAR_TEST_DOCKER_HOST"
  elif [ -z "${SANDBAR_TEST_PRIVATE_ENGINES:-}" ] && wait_sock /var/run/docker.sock 0; then
    dsock=/var/run/docker.sock
    log "using the Docker engine at $dsock"
  elif command -v dockerd >/dev/null; then
    local D="$STATE/docker"; mkdir -p "$D"
    dsock="$D/docker.sock"
    if ! wait_sock "$dsock" 0; then
      log "starting a private Docker engine in $D"
      setsid dockerd --data-root "$D/data" --exec-root "$D/exec" -H "unix://$dsock" --pidfile "$D/docker.pid" \
        --bridge=none --iptables=false --ip-masq=false --ip-forward=false --userland-proxy=false \
        > "$D/dockerd.log" 2>&1 < /dev/null &
      record $! dockerd
      wait_sock "$dsock" 60 || { log "Docker engine did not start; see $D/dockerd.log"; tail -5 "$D/dockerd.log" >&2; dsock=""; }
    fi
  else
    dsock=""
  fi
  if [ -n "$dsock" ]; then
    import_image "$dsock" && echo "export SANDBAR_TEST_DOCKER_HOST=unix://$dsock" >> "$ENVF"
  fi

  # Podman: a private service with its own storage and containers.conf.
  local psock=""
  local user_podman="${XDG_RUNTIME_DIR:-/nonexistent}/podman/podman.sock"
  if [ -n "${SANDBAR_TEST_PODMAN_HOST:-}" ] && wait_sock "${SANDBAR_TEST_PODMAN_HOST#unix://}" 1; then
    psock=${SANDBAR_TEST_PODMAN_HOST#unix://}
  elif [ -z "${SANDBAR_TEST_PRIVATE_ENGINES:-}" ] && wait_sock "$user_podman" 0; then
    psock=$user_podman
    log "using the Podman service at $psock"
  elif command -v podman >/dev/null; then
    local P="$STATE/podman"; mkdir -p "$P"
    psock="$P/podman.sock"
    if ! wait_sock "$psock" 0; then
      log "starting a private Podman service in $P"
      printf '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]\nnetns = "none"\n[engine]\nruntime = "runc"\n' > "$P/containers.conf"
      # Started in its own folder: conmon, which inherits the working folder, writes a file
      # named "oom" there when a container is killed for memory.
      (cd "$P" && CONTAINERS_CONF="$PWD/containers.conf" exec setsid podman --root "$PWD/root" --runroot "$PWD/run" \
        system service --time=0 "unix://$PWD/podman.sock") > "$P/podman.log" 2>&1 < /dev/null &
      echo $! > "$P/podman.pid"
      record $! podman
      wait_sock "$psock" 60 || { log "Podman did not start; see $P/podman.log"; tail -5 "$P/podman.log" >&2; psock=""; }
    fi
  fi
  if [ -n "$psock" ]; then
    import_image "$psock" && echo "export SANDBAR_TEST_PODMAN_HOST=unix://$psock" >> "$ENVF"
  fi

  # Secret Service: a private session bus and an unlocked gnome-keyring, with a throwaway home.
  if command -v dbus-daemon >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
    local K="$STATE/keyring"; mkdir -p "$K/home" "$K/data" "$K/run"; chmod 700 "$K/run"
    local out addr pid
    # The bus socket inside the state folder, so that nothing of it stays in /tmp.
    out=$(dbus-daemon --session --fork --print-address=1 --print-pid=1 --nopidfile --address="unix:path=$K/run/bus")
    addr=$(echo "$out" | sed -n 1p); pid=$(echo "$out" | sed -n 2p)
    echo "$pid" > "$K/dbus.pid"
    record "$pid" dbus-daemon
    local kr
    kr=$(echo -n "sandbar-test" | env DBUS_SESSION_BUS_ADDRESS="$addr" HOME="$K/home" XDG_DATA_HOME="$K/data" \
      XDG_RUNTIME_DIR="$K/run" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null || true)
    echo "$kr" | sed -n 's/^GNOME_KEYRING_CONTROL=//p' > "$K/control"
    # It daemonizes: found by the private runtime folder in its environment.
    for pid in $(pgrep -x gnome-keyring-d 2>/dev/null); do
      if { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$K/run"; then
        record "$pid" gnome-keyring-daemon
      fi
    done
    {
      echo "export DBUS_SESSION_BUS_ADDRESS='$addr'"
      echo "export SANDBAR_TEST_KEYRING=1"
    } >> "$ENVF"
  fi
  cat "$ENVF" >&2
}

# Every process that descends from the given ones (pids on stdin or as arguments).
descendants() { # pid...
  ps -e -o pid=,ppid= | awk -v roots="$*" '
    BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) keep[r[i]] = 1 }
    { parent[$1] = $2 }
    END { do { more = 0; for (p in parent) if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; more = 1 } } while (more)
          for (p in keep) print p }'
}

# Processes that name one of our private folders in their command line (containerd, its
# shims, conmon, podman's cleanup processes), found by reading /proc: this script's own
# command line holds only $STATE, never a subfolder, and is skipped anyway.
pids_naming() { # folder
  local f pid cmd
  for f in /proc/[0-9]*; do
    pid=${f#/proc/}
    [ "$pid" = $$ ] && continue
    cmd=$({ tr '\0' ' ' < "$f/cmdline"; } 2>/dev/null) || continue
    case "$cmd" in *"$1"*) echo "$pid" ;; esac
  done
}

alive() { local p; for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }

# SIGTERM to the pids and everything below them, SIGKILL to what still runs after the
# deadline. Collected once, before the first signal, so that children reparented when a
# parent dies are still among them.
end_tree() { # seconds pid...
  local secs=$1 i; shift
  [ $# -gt 0 ] || return 0
  local all; all=$(descendants "$@")
  # shellcheck disable=SC2086
  kill -TERM $all 2>/dev/null
  # A stopped process (SIGSTOP, a debugger) handles SIGTERM only once continued.
  # shellcheck disable=SC2086
  kill -CONT $all 2>/dev/null
  for ((i = 0; i < secs * 10; i++)); do
    # shellcheck disable=SC2086
    alive $all || return 0
    sleep 0.1
  done
  log "still running after ${secs}s, killing: $all"
  # shellcheck disable=SC2086
  kill -KILL $all 2>/dev/null
  for ((i = 0; i < 50; i++)); do
    # shellcheck disable=SC2086
    alive $all || return 0
    sleep 0.1
  done
}

# Removes every container of a private engine (it holds only the tests' containers).
remove_all_containers() { # socket
  local ids id
  ids=$(curl -sf --max-time 5 --unix-socket "$1" "http://localhost/containers/json?all=1" \
    | grep -o '"Id":"[0-9a-f]*"' | cut -d'"' -f4) || true
  for id in $ids; do
    curl -sf --max-time 20 --unix-socket "$1" -X DELETE "http://localhost/containers/$id?force=1" >/dev/null || true
  done
}

# A pid recorded at start, if that process still runs (same start time: not a reused pid).
recorded() { # name
  local pid start name
  [ -f "$STATE/services.pids" ] || return 0
  while read -r pid start name; do
    [ "$name" = "$1" ] || continue
    [ "$({ cut -d' ' -f22 < "/proc/$pid/stat"; } 2>/dev/null)" = "$start" ] && echo "$pid"
  done < "$STATE/services.pids"
}

# Every mount at or under the folder, deepest first; a busy one is detached (lazy).
unmount_under() { # folder
  local m i
  for i in 1 2 3; do
    local left=0
    while read -r m; do
      [ -n "$m" ] || continue
      left=1
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
    done < <(while read -r _ _ _ _ m _; do
      m=$(printf '%b' "$m")
      case "$m/" in "$1"/*) echo "$m" ;; esac
    done < /proc/self/mountinfo | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
    [ "$left" = 0 ] && return 0
  done
}

# Stops everything start() started, whatever state it is in: containers first (through the
# engine while it answers, so that it unmounts their storage), then the engines (SIGTERM,
# SIGKILL after a deadline), then whatever still names the private folders (containerd,
# shims, conmon and the containers below them), then the mounts. Best effort at every step:
# with `set -e` a step that found nothing used to end the script before the rest.
stop() {
  set +e
  local D="$STATE/docker" P="$STATE/podman" K="$STATE/keyring" t0=$SECONDS pids
  if [ -d "$D" ]; then
    log "stopping the private Docker engine"
    # Through the engine only while it answers: a hung one is killed below.
    answers "$D/docker.sock" && remove_all_containers "$D/docker.sock"
    pids="$(recorded dockerd) $(cat "$D/docker.pid" 2>/dev/null)"
    # shellcheck disable=SC2046
    end_tree 20 $(for p in $pids; do grep -qF "$D/" "/proc/$p/cmdline" 2>/dev/null && echo "$p"; done | sort -u)
    # shellcheck disable=SC2046
    end_tree 10 $(pids_naming "$D/")
  fi
  if [ -d "$P" ]; then
    log "stopping the private Podman service ($((SECONDS - t0))s)"
    if answers "$P/podman.sock"; then
      timeout 30 podman --url "unix://$P/podman.sock" rm -af -t 0 >/dev/null 2>&1 \
        || remove_all_containers "$P/podman.sock"
    fi
    # shellcheck disable=SC2046
    end_tree 15 $(recorded podman)
    # The service gone, the storage itself (a hung service left containers behind).
    if [ -n "$(pids_naming "$P/")" ]; then
      CONTAINERS_CONF="$P/containers.conf" timeout 60 podman --root "$P/root" --runroot "$P/run" \
        rm -af -t 0 >/dev/null 2>&1
    fi
    # shellcheck disable=SC2046
    end_tree 10 $(pids_naming "$P/")
  fi
  if [ -d "$K" ]; then
    log "stopping the keyring and its bus ($((SECONDS - t0))s)"
    # shellcheck disable=SC2046
    end_tree 5 $(recorded gnome-keyring-daemon) $(recorded dbus-daemon)
    # Older state folders have no record: the keyring that runs with our runtime dir.
    for pid in $(pgrep -x gnome-keyring-d 2>/dev/null); do
      if { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$K/run"; then
        end_tree 5 "$pid"
      fi
    done
    [ -f "$K/dbus.pid" ] && end_tree 5 "$(cat "$K/dbus.pid")"
  fi
  unmount_under "$STATE"
  rm -f "$ENVF"
  log "stopped in $((SECONDS - t0))s"
  return 0
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop STATE_DIR" >&2; exit 2 ;;
esac
