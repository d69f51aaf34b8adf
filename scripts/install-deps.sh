#!/usr/bin/env bash
# Installs what Sandbar needs to build, run and test, and nothing when it is already there.
# Usage: scripts/install-deps.sh [run|test]
set -euo pipefail
purpose=${1:-run}

build_pkgs=(cmake ninja-build g++ mold pkg-config qt6-base-dev qt6-base-dev-tools qt6-websockets-dev
  qt6-charts-dev libqt6opengl6-dev qt6-svg-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n libqt6sql6-sqlite qtkeychain-qt6-dev
  nlohmann-json3-dev libarchive-dev libgl1-mesa-dev libxkbcommon-dev libseccomp-dev
  qt6-qpa-plugins bubblewrap slirp4netns)
test_pkgs=(docker.io podman catatonit gnome-keyring dbus dbus-x11 libsecret-tools xvfb xauth xdotool
  busybox-static clang-14 libfuzzer-14-dev libclang-rt-14-dev procps iproute2 curl openssl)
test_pkgs+=(bash-completion zsh fish)  # completion tests (tests/docs)
test_pkgs+=(debootstrap lintian desktop-file-utils appstream)  # package test
test_pkgs+=(universal-ctags)  # scripts/check-function-length.sh

missing() {
  local out=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out+=("$p")
  done
  echo "${out[@]:-}"
}

need_vterm() {
  # libvterm >= 0.3 is required: 0.1.x lacks emoji widths and reflow.
  local v
  v=$(pkg-config --modversion vterm 2>/dev/null || echo 0)
  dpkg --compare-versions "$v" ge 0.3 && return 1
  return 0
}

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

if [ -x /usr/bin/apt-get ]; then
  pkgs=("${build_pkgs[@]}")
  [ "$purpose" = test ] && pkgs+=("${test_pkgs[@]}")
  todo=$(missing "${pkgs[@]}")
  if [ -n "$todo" ]; then
    echo "install-deps: installing $todo"
    "${sudo_cmd[@]}" apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends $todo
  fi
  # The remote tests run their own sshd on a loopback port (tests/remote); installing the
  # server must not start the system's sshd on port 22: no service starts during this install
  # (policy-rc.d 101) and none at boot.
  if [ "$purpose" = test ] && [ -n "$(missing openssh-server)" ]; then
    blocked=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee /usr/sbin/policy-rc.d >/dev/null
      "${sudo_cmd[@]}" chmod 755 /usr/sbin/policy-rc.d
      blocked=1
    fi
    [ -n "$todo" ] || "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends openssh-server
    if [ -n "$blocked" ]; then "${sudo_cmd[@]}" rm -f /usr/sbin/policy-rc.d; fi
    if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
      "${sudo_cmd[@]}" systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
    fi
  fi
  # The contract tests run the providers' official SDKs, which need Node.js 20 or later with
  # npm. A Node.js from elsewhere (NodeSource bundles npm) is used as it is: Debian's npm
  # package would conflict with it.
  if [ "$purpose" = test ] && ! { command -v node >/dev/null && command -v npm >/dev/null; }; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends nodejs npm
  fi
  if need_vterm; then
    if apt-cache policy libvterm-dev 2>/dev/null | grep -qE 'Candidate: 0\.[3-9]'; then
      DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq libvterm-dev
    else
      # Debian 12 ships 0.1.4; Debian 13's 0.3.3 depends on libc6 alone. Use a private
      # source list for this one download so the system's apt sources stay untouched, on
      # the archive the system itself uses (its release's main suite), so no mirror is named.
      codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
      archive=$(apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(REPO_URI)' 2>/dev/null |
        awk -v c="$codename" '$1 == "deb" && $2 == c { print $3; exit }')
      if [ -z "$codename" ] || [ -z "$archive" ]; then
        echo "install-deps: libvterm 0.3 is needed and the system's apt sources name no archive for" \
          "'${codename:-?}' to fetch it from; install libvterm-dev 0.3 or newer by hand" >&2
        exit 1
      fi
      T=$(mktemp -d)
      trap 'rm -rf "$T"' EXIT
      cat > "$T/trixie.sources" <<SRC
Types: deb
URIs: $archive
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
      O=(-o "Dir::Etc::SourceList=$T/trixie.sources" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$T/lists")
      mkdir -p "$T/lists/partial"
      "${sudo_cmd[@]}" apt-get "${O[@]}" update -qq
      (cd "$T" && apt-get "${O[@]}" download libvterm0 libvterm-dev)
      "${sudo_cmd[@]}" dpkg -i "$T"/libvterm0_*.deb "$T"/libvterm-dev_*.deb
    fi
  fi
elif command -v dnf >/dev/null; then
  "${sudo_cmd[@]}" dnf install -y cmake ninja-build gcc-c++ qt6-qtbase-devel qt6-qtwebsockets-devel \
    qt6-qtcharts-devel qt6-qtsvg-devel qt6-qttools-devel qtkeychain-qt6-devel json-devel \
    libarchive-devel libvterm-devel libseccomp-devel bubblewrap
elif command -v pacman >/dev/null; then
  "${sudo_cmd[@]}" pacman -S --needed --noconfirm cmake ninja qt6-base qt6-websockets qt6-charts \
    qt6-svg qt6-tools qtkeychain-qt6 nlohmann-json libarchive libvterm libseccomp bubblewrap
elif command -v brew >/dev/null; then
  brew install cmake ninja qt qtkeychain nlohmann-json libarchive libvterm
else
  echo "install-deps: unknown package manager; see README.md for the package list" >&2
fi
