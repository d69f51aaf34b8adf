#!/usr/bin/env bash
# The Linux package on a clean Debian 12 (issue 15): builds the `package` target (or takes
# SANDBAR_DEB), checks what the .deb holds and validates it, then installs it with apt in a
# fresh copy of a cached debootstrap root and runs it there: sandbarctl, a Local session,
# and the window under Xvfb. Prints package.install_to_window_s (apt install to window shown,
# packages already downloaded) and package.installed_size_mib.
#
# The root (bookworm minbase from deb.debian.org) and the .deb's dependencies are cached in
# $SANDBAR_PACKAGE_CACHE (default /var/cache/sandbar-test), outside the clone: only the first
# run, or a run whose .deb needs packages not yet fetched, reaches the archive. The install
# itself always runs without a network, which proves the cache complete.
#
# usage: package-test.sh BUILD_DIR [SOURCE_DIR]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
CACHE=${SANDBAR_PACKAGE_CACHE:-/var/cache/sandbar-test}/debian12
MIRROR=${SANDBAR_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SKIP=77
t_start=$(date +%s)

say() { echo "package-test: $*"; }
fail() {
  echo "package-test: FAIL: $*" >&2
  exit 1
}
skip() {
  if [ "${CI:-}" = true ]; then fail "$* (CI=true: this test may not be skipped)"; fi
  echo "package-test: SKIP: $*"
  exit "$SKIP"
}
now() { date +%s.%N; }

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, an overlay mount, bwrap --bind ROOT /)"
for tool in debootstrap dpkg-deb lintian desktop-file-validate appstreamcli bwrap Xvfb xdotool flock; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (scripts/install-deps.sh test installs it)"
done

W="" M="" xvfb_pid="" gui_pid=""
# shellcheck disable=SC2317
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for p in $gui_pid $xvfb_pid; do kill -TERM "$p" 2>/dev/null || true; done
  for p in $gui_pid $xvfb_pid; do wait "$p" 2>/dev/null || true; done
  if [ -n "$M" ] && mountpoint -q "$M"; then umount "$M" || umount -l "$M" || true; fi
  [ -z "$W" ] || rm -rf "$W"
  exit "$rc"
}
trap cleanup EXIT INT TERM
W=$(mktemp -d "${TMPDIR:-/tmp}/sandbar-pkgtest.XXXXXX")

# ---- 1. the package and what it holds ----
if [ -n "${SANDBAR_DEB:-}" ]; then
  deb=$SANDBAR_DEB
else
  say "building the package target"
  if ! cmake --build "$BUILD" --target package >"$W/cpack.log" 2>&1; then
    tail -40 "$W/cpack.log" >&2
    fail "cmake --build $BUILD --target package failed"
  fi
  deb=$(find "$BUILD" -maxdepth 1 -name 'sandbar_*_*.deb' -newer "$W" -print -quit)
  [ -n "$deb" ] || fail "the package target made no sandbar_VERSION_ARCH.deb in $BUILD"
  tgz=$(find "$BUILD" -maxdepth 1 -name 'sandbar-*.tar.gz' -newer "$W" -print -quit)
  [ -n "$tgz" ] || fail "the package target made no sandbar-*.tar.gz in $BUILD"
  tar tzf "$tgz" | grep -q '/bin/sandbarctl$' || fail "$tgz holds no bin/sandbarctl"
fi
[ -f "$deb" ] || fail "no package at $deb"
say "package $deb ($(du -k "$deb" | cut -f1) KiB)"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$W/contents"
missing=()
for f in /usr/bin/sandbar /usr/bin/sandbarctl /usr/libexec/sandbar/sandbar-agent /usr/libexec/sandbar/sandbar-askpass \
  /usr/share/man/man1/sandbar.1.gz /usr/share/man/man1/sandbarctl.1.gz \
  /usr/share/bash-completion/completions/sandbarctl /usr/share/zsh/vendor-completions/_sandbarctl \
  /usr/share/fish/vendor_completions.d/sandbarctl.fish \
  /usr/share/applications/dev.sandbar.Sandbar.desktop /usr/share/metainfo/dev.sandbar.Sandbar.metainfo.xml \
  /usr/share/icons/hicolor/scalable/apps/dev.sandbar.Sandbar.svg \
  /usr/share/doc/sandbar/copyright /usr/share/doc/sandbar/changelog.gz; do
  grep -qxF "$f" "$W/contents" || missing+=("$f")
done
for s in 16 24 32 48 64 128 256 512; do
  f=/usr/share/icons/hicolor/${s}x${s}/apps/dev.sandbar.Sandbar.png
  grep -qxF "$f" "$W/contents" || missing+=("$f")
done
[ ${#missing[@]} -eq 0 ] || fail "the .deb lacks: ${missing[*]}"

depends=$(dpkg-deb -f "$deb" Depends)
say "Depends: $depends"
for d in bubblewrap slirp4netns; do
  grep -qE "(^|, )$d( |,|$)" <<<"$depends" || fail "Depends lacks $d"
done
! grep -q vterm <<<"$depends" || fail "Depends names libvterm, which Debian 12 lacks (link libvterm.a)"

mkdir "$W/x"
dpkg-deb -x "$deb" "$W/x"
desktop-file-validate "$W/x/usr/share/applications/dev.sandbar.Sandbar.desktop" ||
  fail "desktop-file-validate rejects the desktop file"
appstreamcli validate --no-net "$W/x/usr/share/metainfo/dev.sandbar.Sandbar.metainfo.xml" ||
  fail "appstreamcli validate rejects the metainfo"
say "running lintian"
lintian --fail-on error --tag-display-limit 0 "$deb" >"$W/lintian.txt" 2>&1 || lint_rc=$?
sed 's/^/package-test: lintian: /' "$W/lintian.txt"
[ "${lint_rc:-0}" -eq 0 ] || fail "lintian reports errors (above)"

# ---- 2. the cached Debian 12 root and the packages the .deb needs ----
mkdir -p "$CACHE"
exec 9>"$CACHE.lock"
flock -w 1200 9 || fail "another run holds $CACHE.lock"
R=$CACHE/root
if [ ! -f "$CACHE/root.ok" ]; then
  say "first run: debootstrap bookworm (minbase) from $MIRROR into $R"
  rm -rf "$R" "$CACHE/root.tmp"
  if ! debootstrap --variant=minbase bookworm "$CACHE/root.tmp" "$MIRROR" >"$W/debootstrap.log" 2>&1; then
    tail -20 "$W/debootstrap.log" >&2
    rm -rf "$CACHE/root.tmp"
    skip "debootstrap from $MIRROR failed (no network on a first run?)"
  fi
  mv "$CACHE/root.tmp" "$R"
  touch "$CACHE/root.ok"
fi

mkdir -p "$W/pkg"
cp "$deb" "$W/pkg/sandbar.deb"
# bwrap as root needs no user namespace, which a chroot could not make; the nested bwrap of
# the Local provider then works inside. --unshare-pid: whatever is left dies with it.
inroot() {
  local root=$1
  shift
  bwrap --bind "$root" / --proc /proc --dev /dev --bind /sys /sys --tmpfs /tmp --tmpfs /run \
    --ro-bind "$W/pkg" /tmp/pkg --unshare-pid --unshare-ipc --unshare-uts --die-with-parent \
    --clearenv --setenv PATH /usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --setenv HOME /root --setenv LANG C.UTF-8 --setenv DEBIAN_FRONTEND noninteractive "$@"
}
fetch() { inroot "$R" "$@" apt-get install -y -q --download-only --no-install-recommends /tmp/pkg/sandbar.deb; }
if ! fetch --unshare-net >"$W/fetch.log" 2>&1; then
  say "fetching the packages the .deb needs from $MIRROR into the cache"
  if ! fetch >"$W/fetch.log" 2>&1; then
    tail -20 "$W/fetch.log" >&2
    skip "apt could not download the .deb's dependencies (no network?)"
  fi
fi
say "cache ready after $(($(date +%s) - t_start))s"

# ---- 3. a fresh copy of the root: install, window, command line ----
mkdir "$W/upper" "$W/work" "$W/merged"
mount -t overlay overlay -o "lowerdir=$R,upperdir=$W/upper,workdir=$W/work" "$W/merged" ||
  fail "cannot mount an overlay on $R"
M=$W/merged

Xvfb -displayfd 3 -nolisten tcp -screen 0 1280x800x24 3>"$W/display" >"$W/xvfb.log" 2>&1 &
xvfb_pid=$!
deadline=$(($(date +%s) + 30))
until [ -s "$W/display" ] && DISPLAY=:$(tr -dc 0-9 <"$W/display") xdotool getdisplaygeometry >/dev/null 2>&1; do
  kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb exited: $(tail -3 "$W/xvfb.log")"
  [ "$(date +%s)" -lt "$deadline" ] || fail "Xvfb did not answer within 30s: $(tail -3 "$W/xvfb.log")"
  sleep 0.1
done
disp=$(tr -dc 0-9 <"$W/display")
sock=/tmp/.X11-unix/X$disp

t0=$(now)
say "apt-get install ./sandbar.deb in the clean root (no network)"
if ! inroot "$M" --unshare-net apt-get install -y -q --no-install-recommends /tmp/pkg/sandbar.deb \
  >"$W/install.log" 2>&1; then
  tail -30 "$W/install.log" >&2
  fail "apt-get install of the .deb failed in the clean root"
fi
t_inst=$(now)

# The window: Xvfb's socket is bound in; xdotool on this side watches for it.
inroot "$M" --unshare-net --bind "$sock" "$sock" --setenv DISPLAY ":$disp" --setenv QT_QPA_PLATFORM xcb \
  sandbar >"$W/gui.log" 2>&1 &
gui_pid=$!
deadline=$(($(date +%s) + 120))
until DISPLAY=:$disp xdotool search --onlyvisible --name '^Sandbar$' >/dev/null 2>&1; do
  if ! kill -0 "$gui_pid" 2>/dev/null; then
    tail -20 "$W/gui.log" >&2
    fail "sandbar exited before its window was shown (display :$disp, socket $sock)"
  fi
  [ "$(date +%s)" -lt "$deadline" ] || {
    tail -20 "$W/gui.log" >&2
    fail "no visible Sandbar window within 120s"
  }
  sleep 0.2
done
t1=$(now)
kill -TERM "$gui_pid" 2>/dev/null || true
wait "$gui_pid" 2>/dev/null || true
gui_pid=""
say "window shown; install took $(awk -v a="$t0" -v b="$t_inst" 'BEGIN{printf "%.1f", b-a}')s"

cat >"$W/pkg/cli.sh" <<'EOF'
set -euo pipefail
# bwrap's /proc has read-only parts mounted over it; the kernel then refuses the nested
# bwrap a proc of its own ("Can't mount proc"). A plain proc for this pid namespace will do.
umount -R /proc && mount -t proc proc /proc || { echo "in-root: FAIL: cannot remount /proc" >&2; exit 1; }
step() { echo "in-root: $*"; }
die() { echo "in-root: FAIL: $*" >&2; exit 1; }
step "sandbarctl --version"
v=$(sandbarctl --version) || die "sandbarctl --version failed"
echo "$v"
step "sandbarctl catalog"
sandbarctl catalog >/tmp/catalog.txt || die "sandbarctl catalog failed"
[ -s /tmp/catalog.txt ] || die "sandbarctl catalog printed nothing"
acct=$(sandbarctl accounts list | awk '$2 == "local" { print $1; exit }')
[ -n "$acct" ] || die "no Local account in 'sandbarctl accounts list'"
step "sessions create --account $acct"
ref=$(sandbarctl sessions create --account "$acct" --ttl 600) || die "creating a Local session failed"
step "exec $ref -- echo hello"
out=$(sandbarctl exec "$ref" -- echo hello) || { sandbarctl sessions rm "$ref" || true; die "exec failed"; }
[ "$out" = hello ] || { sandbarctl sessions rm "$ref" || true; die "exec printed '$out', not hello"; }
step "sessions rm $ref"
sandbarctl sessions rm "$ref" || die "removing the session failed"
if sandbarctl sessions list --all | grep -qF "${ref#*/}"; then die "the session is still listed after rm"; fi
dpkg-query -W -f='${Installed-Size}\n' sandbar >/tmp/pkg-out/size
EOF
mkdir "$W/out"
if ! inroot "$M" --unshare-net --bind "$W/out" /tmp/pkg-out bash /tmp/pkg/cli.sh >"$W/cli.log" 2>&1; then
  cat "$W/cli.log" >&2
  fail "sandbarctl in the clean root (above)"
fi
sed 's/^/package-test: /' "$W/cli.log"

size_kib=$(cat "$W/out/size")
say "the root grew by $(du -sm "$W/upper" | cut -f1) MiB (sandbar with its dependencies)"
awk -v a="$t0" -v b="$t1" 'BEGIN{printf "{\"name\":\"package.install_to_window_s\",\"value\":%.1f,\"unit\":\"s\",\"baseline\":null,\"ratio\":null}\n", b-a}'
awk -v k="$size_kib" 'BEGIN{printf "{\"name\":\"package.installed_size_mib\",\"value\":%.1f,\"unit\":\"MiB\",\"baseline\":null,\"ratio\":null}\n", k/1024}'
say "passed in $(($(date +%s) - t_start))s"
