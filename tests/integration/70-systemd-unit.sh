#!/usr/bin/env bash
# The shipped systemd unit: `systemd-analyze verify` is clean, the sandbox
# scores an exposure of 2.0 or better with `systemd-analyze security
# --offline=true`, and the settings the daemon relies on are there
# (notify + watchdog, dynamic user, state/config dirs, credentials, only
# CAP_NET_ADMIN, the address families the drivers use).
source "$(dirname "$0")/lib.sh"
need systemd-analyze
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
UNIT="$OPTICSD_SOURCE_DIR/deploy/systemd/opticsd.service"
[ -f "$UNIT" ] || fail "no unit at $UNIT"

note "systemd-analyze verify"
# verify needs the commands to exist: point ExecStart at the binary under
# test (the package test verifies the installed unit unchanged).
mkdir -p "$WORK/units"
sed "s#/usr/bin/opticsd#$OPTICSD#g" "$UNIT" >"$WORK/units/opticsd.service"
grep -q "$OPTICSD run --config" "$WORK/units/opticsd.service" || fail "ExecStart does not run /usr/bin/opticsd run --config"
systemd-analyze verify --man=no "$WORK/units/opticsd.service" >"$WORK/verify.out" 2>&1 || {
  cat "$WORK/verify.out"
  fail "systemd-analyze verify failed"
}
if grep -i 'opticsd.service' "$WORK/verify.out"; then fail "systemd-analyze verify warned about the unit"; fi

note "systemd-analyze security --offline=true"
systemd-analyze security --offline=true --no-pager "$WORK/units/opticsd.service" >"$WORK/security.out" 2>&1 || true
score=$(sed -n 's/.*Overall exposure level for opticsd.service: \([0-9.]*\).*/\1/p' "$WORK/security.out")
[ -n "$score" ] || { cat "$WORK/security.out"; fail "no exposure score in systemd-analyze security output"; }
echo "exposure score: $score"
python3 -c "import sys; sys.exit(0 if float('$score') <= 2.0 else 1)" || {
  grep '✗' "$WORK/security.out" || true
  fail "exposure $score is above 2.0"
}

note "settings the daemon depends on"
# `systemd-analyze cat-config` is not for a loose file; read the unit's
# [Service] section ourselves (last assignment wins, as in systemd).
setting() { sed -n "/^\[Service\]/,/^\[/s/^$1=//p" "$UNIT" | tail -n1; }
expect() {
  local key=$1 want=$2 got
  got=$(setting "$key")
  [ "$got" = "$want" ] || fail "$key=$got, expected $key=$want"
}
expect Type notify
expect NotifyAccess main
expect WatchdogSec 30s
expect Restart on-abnormal
expect ExecReload '/bin/kill -HUP $MAINPID'
expect DynamicUser yes
expect StateDirectory opticsd
expect ConfigurationDirectory opticsd
expect ProtectSystem strict
expect PrivateTmp yes
expect NoNewPrivileges yes
expect RestrictAddressFamilies 'AF_INET AF_INET6 AF_NETLINK AF_UNIX'
expect CapabilityBoundingSet CAP_NET_ADMIN
expect AmbientCapabilities CAP_NET_ADMIN
sed -n '/^\[Service\]/,/^\[/p' "$UNIT" | grep -qx 'SystemCallFilter=@system-service' || fail "no SystemCallFilter=@system-service"
expect LoadCredential 'snmp:/etc/opticsd/credentials'
expect ExecStart '/usr/bin/opticsd run --config %E/opticsd/opticsd.yaml'

# The watchdog is petted from the event loop every kHousekeepingPeriod; it
# must come at least twice per WatchdogSec or a healthy daemon gets killed.
period=$(sed -n 's/.*kHousekeepingPeriod = std::chrono::seconds(\([0-9]*\)).*/\1/p' \
  "$OPTICSD_SOURCE_DIR/daemon/service/daemon_service.cpp")
[ -n "$period" ] || fail "cannot find kHousekeepingPeriod in daemon/service/daemon_service.cpp"
[ $((period * 2)) -lt 30 ] || fail "watchdog petted every ${period}s: too slow for WatchdogSec=30s"
echo PASS
