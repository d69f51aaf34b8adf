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

wait_sock() { # socket, seconds
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    curl -sf --max-time 2 --unix-socket "$1" http://localhost/_ping >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

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
      CONTAINERS_CONF="$P/containers.conf" setsid podman --root "$P/root" --runroot "$P/run" \
        system service --time=0 "unix://$psock" > "$P/podman.log" 2>&1 < /dev/null &
      echo $! > "$P/podman.pid"
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
    out=$(dbus-daemon --session --fork --print-address=1 --print-pid=1 --nopidfile)
    addr=$(echo "$out" | sed -n 1p); pid=$(echo "$out" | sed -n 2p)
    echo "$pid" > "$K/dbus.pid"
    local kr
    kr=$(echo -n "sandbar-test" | env DBUS_SESSION_BUS_ADDRESS="$addr" HOME="$K/home" XDG_DATA_HOME="$K/data" \
      XDG_RUNTIME_DIR="$K/run" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null || true)
    echo "$kr" | sed -n 's/^GNOME_KEYRING_CONTROL=//p' > "$K/control"
    {
      echo "export DBUS_SESSION_BUS_ADDRESS='$addr'"
      echo "export SANDBAR_TEST_KEYRING=1"
    } >> "$ENVF"
  fi
  cat "$ENVF" >&2
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

# Kills what still runs from one of our private folders (containerd and its shims, conmon,
# podman's cleanup processes). The pattern names a subfolder, so this script, whose command
# line holds only $STATE, is never among them.
kill_leftovers() { # pattern
  local i
  pkill -f "$1" 2>/dev/null || true
  for i in $(seq 50); do pgrep -f "$1" >/dev/null || return 0; sleep 0.1; done
  pkill -9 -f "$1" 2>/dev/null || true
}

# Best effort, every step whatever the one before did: with `set -e` a step that found
# nothing (grep without a match) used to end the script before the engines were stopped.
stop() {
  set +e
  local f pid
  if [ -f "$STATE/docker/docker.pid" ]; then
    pid=$(cat "$STATE/docker/docker.pid")
    remove_all_containers "$STATE/docker/docker.sock"
    kill "$pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
    kill_leftovers "$STATE/docker/"
  fi
  if [ -f "$STATE/podman/podman.pid" ]; then
    remove_all_containers "$STATE/podman/podman.sock"
    kill "$(cat "$STATE/podman/podman.pid")" 2>/dev/null
    kill_leftovers "$STATE/podman/"
  fi
  f="$STATE/keyring/dbus.pid"
  [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  # Only the keyring daemon that runs with our private runtime dir.
  for pid in $(pgrep -f gnome-keyring-daemon 2>/dev/null); do
    if tr '\0' '\n' < "/proc/$pid/environ" 2>/dev/null | grep -qx "XDG_RUNTIME_DIR=$STATE/keyring/run"; then
      kill "$pid" 2>/dev/null
    fi
  done
  # The engines' storage mounts (podman keeps its overlay root mounted), deepest first, so
  # that the state folder can be deleted.
  awk -v p="$STATE/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  rm -f "$ENVF"
  return 0
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop STATE_DIR" >&2; exit 2 ;;
esac
