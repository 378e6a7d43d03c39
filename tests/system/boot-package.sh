#!/usr/bin/env bash
# The .deb under a real systemd: builds the package (and a "previous version"
# of it, the same build with a lower version, for the upgrade), boots a
# Debian 12 minbase tree with systemd-nspawn (systemd as PID 1, no network),
# installs the package inside and drives it with `nsenter ... systemctl`.
#
# Checks (OPTICSD_SYSTEM_CHECKS picks some; install always runs first):
#   install   dpkg -i enables and starts the unit; is-active; the Status= line
#   reload    a good config is applied, a bad one refused (service stays up)
#   sandbox   dynamic user, writes only its state dir, CapEff = CAP_NET_ADMIN
#   security  `systemd-analyze security opticsd` exposure <= 2.0
#   watchdog  a SIGSTOPped daemon is killed at WatchdogSec and restarted
#   crash     a SIGSEGV is restarted after RestartSec
#   precheck  ExecStartPre refusing a broken config: failed, no restart loop
#   purge     dpkg -P removes the conffile and the history
#   upgrade   previous version -> this one keeps the conffile and the history
#
# OPTICSD_SYSTEM_MUTATE="PATH|SED" edits one file of both packages before
# install (PATH inside the .deb, e.g. lib/systemd/system/opticsd.service or
# DEBIAN/postrm), so tests/system/mutations.sh can show each check failing.
#
# The debootstrap tree is cached in OPTICSD_SYSTEM_CACHE (default
# /var/cache/opticsd-system-test) and copied for each run. Needs root,
# debootstrap, systemd-container and Debian's package mirror for the first
# run (and when the package's dependencies change).
set -euo pipefail

fail() { echo "FAIL[$CHECK]: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
note() { echo "--- [$(date -u +%T)] $*"; }
saw() { echo "    saw: $*"; }

CHECK=setup
: "${OPTICSD_BUILD_DIR:?set OPTICSD_BUILD_DIR to a build directory configured with -DCMAKE_INSTALL_PREFIX=/usr}"
[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, systemd-nspawn)"
for tool in debootstrap systemd-nspawn nsenter cpack dpkg-deb timeout flock; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (./setup.sh system installs it)"
done
CHECKS=${OPTICSD_SYSTEM_CHECKS:-install reload sandbox security watchdog crash precheck purge upgrade}
CACHE=${OPTICSD_SYSTEM_CACHE:-/var/cache/opticsd-system-test}
TREE=$CACHE/bookworm-minbase
WORK=$(mktemp -d "$OPTICSD_BUILD_DIR/system-test.XXXXXX")
ROOTFS=$WORK/rootfs
NSPAWN_PID=
CT=  # the container's systemd, as the host sees it

cleanup() {
  if [ -n "$NSPAWN_PID" ] && kill -0 "$NSPAWN_PID" 2>/dev/null; then
    kill -TERM "$NSPAWN_PID" 2>/dev/null || true  # nspawn powers the container off
    for _ in $(seq 1 100); do kill -0 "$NSPAWN_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$NSPAWN_PID" 2>/dev/null || true
    wait "$NSPAWN_PID" 2>/dev/null || true
  fi
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

# --- packages ---------------------------------------------------------------
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$OPTICSD_BUILD_DIR/CMakeCache.txt")
[ "$prefix" = /usr ] || fail "build dir has CMAKE_INSTALL_PREFIX=$prefix; configure with -DCMAKE_INSTALL_PREFIX=/usr"
note "building opticsd and the .deb"
cmake --build "$OPTICSD_BUILD_DIR" --target opticsd opticsd_package_docs >"$WORK/build.log" 2>&1 \
  || { tail -n 30 "$WORK/build.log"; fail "cannot build opticsd"; }
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$OPTICSD_BUILD_DIR/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in the build dir"
previous="$version~previous"  # sorts before $version for dpkg
(cd "$OPTICSD_BUILD_DIR" && cpack -G DEB -B "$WORK/pkg" \
  && cpack -G DEB -B "$WORK/pkg-previous" -D CPACK_PACKAGE_VERSION="$previous") >"$WORK/cpack.log" 2>&1 \
  || { cat "$WORK/cpack.log"; fail "cpack failed"; }
mkdir -p "$WORK/debs"
mv "$WORK"/pkg/opticsd_*.deb "$WORK/debs/current.deb"
mv "$WORK"/pkg-previous/opticsd_*.deb "$WORK/debs/previous.deb"
[ "$(dpkg-deb -f "$WORK/debs/previous.deb" Version)" = "$previous" ] || fail "the previous package is not version $previous"
dpkg --compare-versions "$previous" lt "$version" || fail "$previous does not sort before $version"

if [ -n "${OPTICSD_SYSTEM_MUTATE:-}" ]; then
  mutate_path=${OPTICSD_SYSTEM_MUTATE%%|*}
  mutate_sed=${OPTICSD_SYSTEM_MUTATE#*|}
  for deb in current previous; do
    rm -rf "$WORK/unpacked"
    dpkg-deb -R "$WORK/debs/$deb.deb" "$WORK/unpacked"
    [ -f "$WORK/unpacked/$mutate_path" ] || fail "mutation: no $mutate_path in the package"
    cp "$WORK/unpacked/$mutate_path" "$WORK/mutate.before"
    sed -i -e "$mutate_sed" "$WORK/unpacked/$mutate_path"
    ! cmp -s "$WORK/mutate.before" "$WORK/unpacked/$mutate_path" || fail "mutation '$mutate_sed' changed nothing in $mutate_path"
    dpkg-deb -b "$WORK/unpacked" "$WORK/debs/$deb.deb" >/dev/null
  done
  note "MUTATED $mutate_path with: $mutate_sed"
fi

# --- the Debian tree (cached) -----------------------------------------------
# Everything the package depends on is installed before boot: the container
# has no network.
depends=$(dpkg-deb -f "$WORK/debs/current.deb" Depends)
mkdir -p "$CACHE"
(
  flock -w 1800 9 || fail "cache $CACHE is locked"
  if [ ! -f "$TREE/.opticsd-debootstrap-done" ]; then
    note "debootstrap --variant=minbase bookworm (first run; cached in $TREE)"
    rm -rf "$TREE"
    timeout 1800 debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus bookworm "$TREE" \
      >"$WORK/debootstrap.log" 2>&1 || { tail -n 30 "$WORK/debootstrap.log"; fail "debootstrap failed"; }
    touch "$TREE/.opticsd-debootstrap-done"
  fi
  if [ "$(cat "$TREE/.opticsd-depends" 2>/dev/null)" != "$depends" ]; then
    note "installing the package's dependencies into the cached tree"
    timeout 900 chroot "$TREE" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get satisfy -y -q --no-install-recommends "$1" && apt-get clean' \
      sh "$depends" >"$WORK/deps.log" 2>&1 || { tail -n 30 "$WORK/deps.log"; fail "cannot install $depends into the tree"; }
    printf '%s' "$depends" >"$TREE/.opticsd-depends"
  fi
  cp -a --reflink=auto "$TREE" "$ROOTFS"  # under the lock: never a tree half updated
) 9>"$CACHE/.lock"

# --- the container ----------------------------------------------------------
note "booting a copy of the tree with systemd-nspawn"
mkdir -p "$ROOTFS/opticsd-test"
cp "$WORK"/debs/*.deb "$ROOTFS/opticsd-test/"
systemd-nspawn -D "$ROOTFS" -b --private-network --register=no --keep-unit --console=pipe \
  </dev/null >"$WORK/console.log" 2>&1 &
NSPAWN_PID=$!
for _ in $(seq 1 150); do
  CT=$(pgrep -P "$NSPAWN_PID" -x systemd || true)
  [ -n "$CT" ] && break
  sleep 0.2
done
[ -n "$CT" ] || { cat "$WORK/console.log"; fail "the container's systemd did not start within 30 s"; }

# ct [TIMEOUT_S] CMD...: runs CMD inside the container (all its namespaces).
ct() {
  local limit=30
  if [[ $1 =~ ^[0-9]+$ ]]; then limit=$1; shift; fi
  timeout "$limit" nsenter -t "$CT" -a "$@"
}
# Until PID 1 opens its private socket, systemctl cannot connect: retry.
booted=
for _ in $(seq 1 60); do
  booted=$(ct 90 systemctl is-system-running --wait 2>/dev/null || true)
  [ -n "$booted" ] && break
  sleep 0.5
done
[[ $booted =~ ^(running|degraded)$ ]] || fail "container did not boot (is-system-running: '$booted')"
saw "container booted ($booted), systemd $(ct systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')"

prop() { ct systemctl show -p "$1" --value opticsd.service; }
main_pid() { prop MainPID; }
journal() { ct journalctl -u opticsd.service --no-pager -o cat "$@"; }
cursor() { ct journalctl -n 1 -o export --no-pager | sed -n 's/^__CURSOR=//p'; }
# wait_until SECONDS CMD...: retries CMD every 0.5 s until it succeeds.
wait_until() {
  local limit=$1; shift
  local end=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$end" ]; do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  return 1
}
is_active() { [ "$(prop ActiveState)" = active ] && [ "$(prop SubState)" = running ]; }
status_matches() { [[ $(prop StatusText) =~ $1 ]]; }
journal_since_has() { journal --after-cursor="$1" | grep -q -- "$2"; }
dpkg_in() { ct 120 env DEBIAN_FRONTEND=noninteractive dpkg "$@"; }
write_config() { ct sh -c "cat > /etc/opticsd/opticsd.yaml"; }
# A config the daemon can poll inside a container without network: N
# simulated switches with two ports each.
sim_config() {
  printf 'listen:\n  address: 127.0.0.1:9464\npoll:\n  interval: 2s\n  timeout: 1s\ntargets:\n'
  local i
  for i in $(seq 1 "$1"); do printf '  - {name: sys-%s, driver: sim, ports: 2, lanes: 1}\n' "$i"; done
}
wants() { [[ " $CHECKS " == *" $1 "* ]]; }

# --- install ----------------------------------------------------------------
CHECK=install
note "install: dpkg -i the package"
dpkg_in -i "/opticsd-test/current.deb" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "dpkg -i failed"; }
enabled=$(ct systemctl is-enabled opticsd.service || true)
[ "$enabled" = enabled ] || fail "not enabled after install (is-enabled: $enabled)"
saw "is-enabled: $enabled"
wait_until 30 is_active || { journal | tail -n 20; fail "not active (running) within 30 s of install: $(prop ActiveState)/$(prop SubState)"; }
saw "is-active: $(ct systemctl is-active opticsd.service), Type=$(prop Type), MainPID=$(main_pid)"
wait_until 10 status_matches '^polling [0-9]+ targets' || fail "no 'polling N targets' Status= text: '$(prop StatusText)'"
saw "Status=: $(prop StatusText)"
# Type=notify: active means the daemon said READY=1 (after /metrics listens).
[ "$(prop Type)" = notify ] || fail "the unit is Type=$(prop Type), not notify: active says nothing about READY=1"
journal | grep -q '^config ok:' || fail "ExecStartPre check-config did not log 'config ok'"
saw "ExecStartPre: $(journal | grep -m1 '^config ok:')"

# From here on the daemon polls simulated switches (the shipped config's
# ethtool target has no modules in a container).
sim_config 3 | write_config
ct systemctl restart opticsd.service || fail "restart with the simulated config failed"
wait_until 30 status_matches '^polling 3 targets, [1-9][0-9]* polls done' \
  || fail "no polls after restart: '$(prop StatusText)'"

# --- reload -----------------------------------------------------------------
if wants reload; then
  CHECK=reload
  note "reload: a good config, then a bad one"
  pid=$(main_pid)
  mark=$(cursor)
  sim_config 4 | write_config
  ct systemctl reload opticsd.service || fail "systemctl reload failed"
  wait_until 20 journal_since_has "$mark" 'config reloaded targets=4' || fail "no 'config reloaded targets=4' in the journal"
  wait_until 20 status_matches '^polling 4 targets' || fail "Status= does not show the new config: '$(prop StatusText)'"
  [ "$(main_pid)" = "$pid" ] || fail "reload restarted the daemon"
  saw "good config: $(journal --after-cursor="$mark" | grep -m1 'config reloaded'); Status=: $(prop StatusText)"
  mark=$(cursor)
  printf 'targets:\n  - {name: broken, driver: no-such-driver\n' | write_config
  ct systemctl reload opticsd.service || fail "systemctl reload (bad config) failed"
  wait_until 20 journal_since_has "$mark" 'config reload refused' || fail "no 'config reload refused' in the journal"
  is_active || fail "not active after a refused reload"
  [ "$(main_pid)" = "$pid" ] || fail "a refused reload restarted the daemon"
  wait_until 10 status_matches '^polling 4 targets' || fail "the refused config changed Status=: '$(prop StatusText)'"
  saw "bad config: $(journal --after-cursor="$mark" | grep -m1 'config reload refused' | cut -c1-160)"
  saw "still $(ct systemctl is-active opticsd.service), same MainPID $pid, Status=: $(prop StatusText)"
  sim_config 3 | write_config
  ct systemctl reload opticsd.service
fi

# --- sandbox ----------------------------------------------------------------
if wants sandbox; then
  CHECK=sandbox
  note "sandbox: user, writable paths, capabilities"
  pid=$(main_pid)
  status=$(ct cat "/proc/$pid/status")
  uid=$(awk '/^Uid:/ {print $2}' <<<"$status")
  gid=$(awk '/^Gid:/ {print $2}' <<<"$status")
  # systemd's dynamic users are 61184..65519 (docs: UIDS-GIDS.md).
  [ "$uid" -ge 61184 ] && [ "$uid" -le 65519 ] || fail "runs as uid $uid, not a dynamic user"
  [ "$(prop UID)" = "$uid" ] || fail "uid $uid is not the unit's dynamic UID $(prop UID)"
  ! grep -q "^[^:]*:[^:]*:$uid:" "$ROOTFS/etc/passwd" || fail "uid $uid is in /etc/passwd"
  saw "uid=$uid gid=$gid (unit UID=$(prop UID), not in /etc/passwd)"
  capeff=$(awk '/^CapEff:/ {print $2}' <<<"$status")
  capbnd=$(awk '/^CapBnd:/ {print $2}' <<<"$status")
  # CAP_NET_ADMIN is capability 12.
  [ "$capeff" = 0000000000001000 ] || fail "CapEff is $capeff, not CAP_NET_ADMIN alone (0000000000001000)"
  [ "$capbnd" = 0000000000001000 ] || fail "CapBnd is $capbnd, not CAP_NET_ADMIN alone"
  saw "CapEff=$capeff CapBnd=$capbnd"
  # A probe with the daemon's mount namespace, uid and gid (and no capabilities).
  ct mkdir -p -m 1777 /srv/world-writable
  probe() { ct nsenter -t "$pid" -m -S "$uid" -G "$gid" -- sh -c "$1"; }
  probe 'touch /var/lib/opticsd/.probe && rm /var/lib/opticsd/.probe' || fail "cannot write its state directory"
  writable=()
  for dir in /etc/opticsd /usr/bin /var/lib /var/log /root /home /srv/world-writable /run /; do
    if probe "touch '$dir/.opticsd-probe' 2>/dev/null"; then writable+=("$dir"); fi
  done
  [ ${#writable[@]} -eq 0 ] || fail "can write outside its state directory: ${writable[*]}"
  probe 'touch /tmp/.opticsd-probe' || fail "cannot write its private /tmp"
  [ ! -e "$ROOTFS/tmp/.opticsd-probe" ] || fail "/tmp is the system's /tmp, not private"
  saw "writes /var/lib/opticsd (-> $(ct readlink -f /var/lib/opticsd)) and its private /tmp only; refused: /etc/opticsd /usr/bin /var/lib /var/log /root /home /srv/world-writable (1777) /run /"
fi

# --- security ---------------------------------------------------------------
if wants security; then
  CHECK=security
  note "security: systemd-analyze security opticsd"
  ct systemd-analyze security --no-pager opticsd.service >"$WORK/security.txt" 2>&1 || true
  score=$(sed -n 's/.*Overall exposure level for opticsd.service: \([0-9.]*\).*/\1/p' "$WORK/security.txt")
  [ -n "$score" ] || { cat "$WORK/security.txt"; fail "no exposure level printed"; }
  awk -v s="$score" 'BEGIN { exit !(s <= 2.0) }' || { grep '✗' "$WORK/security.txt" || true; fail "exposure $score > 2.0"; }
  saw "$(grep 'Overall exposure' "$WORK/security.txt")"
fi

# --- watchdog ---------------------------------------------------------------
if wants watchdog; then
  CHECK=watchdog
  note "watchdog: SIGSTOP the daemon"
  pid=$(main_pid)
  restarts=$(prop NRestarts)
  mark=$(cursor)
  stopped_at=$SECONDS
  ct kill -STOP "$pid"
  wait_until 90 journal_since_has "$mark" 'Watchdog timeout' || fail "not killed by the watchdog within 90 s"
  killed_after=$((SECONDS - stopped_at))
  wait_until 60 is_active || fail "not restarted after the watchdog kill"
  [ "$(main_pid)" != "$pid" ] || fail "same MainPID after the watchdog kill"
  [ "$(prop NRestarts)" -gt "$restarts" ] || fail "NRestarts did not grow"
  saw "$(journal --after-cursor="$mark" | grep -m1 'Watchdog timeout') after ~${killed_after}s (WatchdogUSec=$(prop WatchdogUSec))"
  saw "restarted: MainPID $pid -> $(main_pid), NRestarts $restarts -> $(prop NRestarts), $(ct systemctl is-active opticsd.service)"
fi

# --- crash ------------------------------------------------------------------
if wants crash; then
  CHECK=crash
  note "crash: SIGSEGV"
  pid=$(main_pid)
  restarts=$(prop NRestarts)
  restart_s=$(prop RestartUSec)
  mark=$(cursor)
  crashed_at=$SECONDS
  ct kill -SEGV "$pid"
  wait_until 60 eval '[ "$(main_pid)" != "$pid" ] && [ "$(main_pid)" != 0 ]' || fail "no new main process within 60 s of SIGSEGV"
  restarted_after=$((SECONDS - crashed_at))
  wait_until 30 is_active || fail "not active after the crash restart"
  journal --after-cursor="$mark" | grep -q 'status=11/SEGV' || fail "the journal does not show the SIGSEGV"
  journal --after-cursor="$mark" | grep -q 'Scheduled restart job' || fail "no scheduled restart in the journal"
  [ "$restarted_after" -ge 4 ] || fail "restarted after ${restarted_after}s, before RestartSec ($restart_s)"
  saw "$(journal --after-cursor="$mark" | grep -m1 'status=11/SEGV')"
  saw "new MainPID after ~${restarted_after}s (RestartUSec=$restart_s), NRestarts $restarts -> $(prop NRestarts)"
fi

# --- precheck ---------------------------------------------------------------
if wants precheck; then
  CHECK=precheck
  note "precheck: a broken config at start"
  printf 'targets:\n  - {name: broken, driver: no-such-driver}\n' | write_config
  mark=$(cursor)
  # A manual restart sets NRestarts back to 0; any automatic one counts up.
  ! ct systemctl restart opticsd.service 2>/dev/null || fail "restart with a broken config succeeded"
  restart_s=$(prop RestartUSec | sed -n 's/^\([0-9]*\)s$/\1/p')
  sleep $((${restart_s:-5} * 2 + 2))  # a restart loop would have restarted by now
  [ "$(prop ActiveState)" = failed ] || fail "not failed after a refused config but $(prop ActiveState)/$(prop SubState) (NRestarts $(prop NRestarts))"
  [ "$(prop NRestarts)" = 0 ] || fail "restarted after the refused config: NRestarts $(prop NRestarts)"
  journal --after-cursor="$mark" | grep -q 'config invalid' || fail "the check's message is not in the journal"
  saw "$(ct systemctl is-failed opticsd.service), Result=$(prop Result), NRestarts stayed $(prop NRestarts)"
  saw "journal: $(journal --after-cursor="$mark" | grep -m1 -B1 'config invalid' | tr '\n' ' ' | cut -c1-200)"
  sim_config 3 | write_config
  ct systemctl start opticsd.service || fail "does not start again with a good config"
fi

# --- purge ------------------------------------------------------------------
if wants purge; then
  CHECK=purge
  note "purge: dpkg -P"
  wait_until 30 test -s "$ROOTFS/var/lib/private/opticsd/history.db" || fail "no history.db to purge"
  dpkg_in -P opticsd >"$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "dpkg -P failed"; }
  left=()
  for path in /etc/opticsd /var/lib/private/opticsd /var/lib/opticsd /lib/systemd/system/opticsd.service \
    /etc/systemd/system/multi-user.target.wants/opticsd.service /usr/bin/opticsd; do
    if [ -e "$ROOTFS$path" ] || [ -L "$ROOTFS$path" ]; then left+=("$path"); fi
  done
  [ ${#left[@]} -eq 0 ] || fail "left after purge: ${left[*]}"
  ! ct pgrep -x opticsd >/dev/null || fail "opticsd still runs after purge"
  saw "gone: /etc/opticsd, /var/lib/private/opticsd, /var/lib/opticsd, the unit, its enable link, the binary, the process"
fi

# --- upgrade ----------------------------------------------------------------
if wants upgrade; then
  CHECK=upgrade
  note "upgrade: $previous -> $version"
  if ct dpkg-query -W -f='${Status}' opticsd 2>/dev/null | grep -q 'installed\|config-files'; then
    dpkg_in -P opticsd >/dev/null 2>&1 || fail "cannot purge before the upgrade check"
  fi
  dpkg_in -i /opticsd-test/previous.deb >"$WORK/install-previous.log" 2>&1 || { cat "$WORK/install-previous.log"; fail "dpkg -i previous failed"; }
  { sim_config 2; echo "# admin's edit, kept across upgrades"; } | write_config
  ct systemctl restart opticsd.service || fail "previous version does not start"
  history_of() {
    ct /usr/bin/opticsd history --db /var/lib/private/opticsd/history.db --target sys-1 --port Ethernet1 --format csv
  }
  has_history() { [ "$(history_of | wc -l)" -ge 3 ]; }
  wait_until 60 has_history || fail "no history written by the previous version within 60 s"
  first_row=$(history_of | sed -n 2p)
  inode=$(stat -c %i "$ROOTFS/var/lib/private/opticsd/history.db")
  config_sum=$(md5sum <"$ROOTFS/etc/opticsd/opticsd.yaml")
  old_pid=$(main_pid)
  dpkg_in -i /opticsd-test/current.deb >"$WORK/upgrade.log" 2>&1 || { cat "$WORK/upgrade.log"; fail "dpkg -i (upgrade) failed"; }
  installed=$(ct dpkg-query -W -f='${Version}' opticsd)
  [ "$installed" = "$version" ] || fail "installed version is $installed after the upgrade"
  [ "$(md5sum <"$ROOTFS/etc/opticsd/opticsd.yaml")" = "$config_sum" ] || fail "the upgrade replaced the edited conffile"
  [ ! -e "$ROOTFS/etc/opticsd/opticsd.yaml.dpkg-new" ] || fail "the upgrade left opticsd.yaml.dpkg-new"
  wait_until 30 is_active || fail "not active after the upgrade"
  [ "$(main_pid)" != "$old_pid" ] || fail "the upgrade did not restart the daemon"
  [ "$(stat -c %i "$ROOTFS/var/lib/private/opticsd/history.db")" = "$inode" ] || fail "history.db was replaced"
  [ "$(history_of | sed -n 2p)" = "$first_row" ] || fail "the oldest history row changed: '$first_row' -> '$(history_of | sed -n 2p)'"
  saw "$previous -> $installed; edited conffile kept (md5 same, no .dpkg-new); daemon restarted ($old_pid -> $(main_pid))"
  saw "history.db same inode $inode, oldest row kept: $first_row"
fi

CHECK=stop
ct systemctl stop opticsd.service 2>/dev/null || true
echo "PASS: $CHECKS"
