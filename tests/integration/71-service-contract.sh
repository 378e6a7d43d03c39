#!/usr/bin/env bash
# needs-drivers: ethtool snmp
# What the systemd unit promises, exercised on the real binary without
# systemd: the sd_notify protocol on a private NOTIFY_SOCKET (READY, STATUS,
# WATCHDOG every few seconds, RELOADING then READY on SIGHUP, STOPPING on
# SIGTERM), history in $STATE_DIRECTORY, SNMP secrets from
# $CREDENTIALS_DIRECTORY (never echoed), and, as root, a run as an
# unprivileged user holding only CAP_NET_ADMIN with no_new_privs.
source "$(dirname "$0")/lib.sh"
need curl
need python3

PORT=$(free_port)
cat >"$WORK/opticsd.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT}
poll: {interval: 500ms, timeout: 2s}
targets:
  - {name: leaf-a, driver: sim, ports: 2, lanes: 8}
YAML

# A notify socket like systemd's: one datagram a line, "|" for newlines.
NOTIFY="$WORK/notify.sock"
python3 -u - "$NOTIFY" "$WORK/notify.log" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as log:
    while True:
        data = s.recv(65536).decode(errors="replace")
        log.write("%.3f %s\n" % (time.monotonic(), data.replace("\n", "|")))
PY
PIDS+=($!)
wait_for 50 test -S "$NOTIFY" || fail "notify listener did not start"

mkdir -p "$WORK/state"
note "notify protocol"
NOTIFY_SOCKET="$NOTIFY" STATE_DIRECTORY="$WORK/state" start_opticsd "$WORK/run.log" run --config "$WORK/opticsd.yaml"
wait_for 100 grep -q 'READY=1' "$WORK/notify.log" || { cat "$WORK/run.log"; fail "no READY=1"; }
wait_for 100 metric_has "$PORT" '^opticsd_target_up\{.*target="leaf-a".*\} 1' || fail "not serving metrics after READY"
grep -q 'STATUS=polling' "$WORK/notify.log" || fail "no STATUS= summary line"
sleep 7
python3 - "$WORK/notify.log" <<'PY' || fail "watchdog not petted often enough for WatchdogSec=30s"
import sys
times = [float(l.split()[0]) for l in open(sys.argv[1]) if "WATCHDOG=1" in l]
gaps = [b - a for a, b in zip(times, times[1:])]
print("watchdog pings:", len(times), "largest gap: %.1f s" % max(gaps, default=0))
sys.exit(0 if len(times) >= 3 and max(gaps) < 15 else 1)
PY
grep -q 'RELOADING=1' "$WORK/notify.log" && fail "RELOADING=1 before any SIGHUP"
kill -HUP "$OPTICSD_PID"
wait_for 50 grep -q 'RELOADING=1' "$WORK/notify.log" || fail "no RELOADING=1 on SIGHUP"
wait_for 50 sh -c "sed -n '/RELOADING=1/,\$p' '$WORK/notify.log' | grep -q 'READY=1'" || fail "no READY=1 after the reload"
stop_opticsd
grep -q 'STOPPING=1' "$WORK/notify.log" || fail "no STOPPING=1 on SIGTERM"
[ -s "$WORK/state/history.db" ] || fail "history not written to \$STATE_DIRECTORY/history.db"

note "SNMP secrets from systemd credentials"
cat >"$WORK/snmp.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT}
targets:
  - name: spine-1
    driver: snmp
    address: 127.0.0.1
    port: 1
    version: "3"
    user: opticsd
    security_level: authNoPriv
    auth_password_credential: snmp_spine-1-auth
YAML
mkdir -p "$WORK/creds"
printf 'sekrit-passw0rd\n' >"$WORK/creds/snmp_spine-1-auth"
CREDENTIALS_DIRECTORY="$WORK/creds" "$OPTICSD" check-config "$WORK/snmp.yaml" >"$WORK/cred-ok.out" 2>&1 \
  || { cat "$WORK/cred-ok.out"; fail "check-config did not accept a credential that exists"; }
status=0
CREDENTIALS_DIRECTORY="$WORK/creds-missing" "$OPTICSD" check-config "$WORK/snmp.yaml" >"$WORK/cred-bad.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "check-config accepted a missing credential"
grep -q 'snmp_spine-1-auth' "$WORK/cred-bad.out" || { cat "$WORK/cred-bad.out"; fail "the error does not name the credential"; }
if grep -rq 'sekrit' "$WORK/cred-ok.out" "$WORK/cred-bad.out"; then fail "a secret was printed"; fi

note "unprivileged, CAP_NET_ADMIN only, no_new_privs"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
  echo "SKIP part: needs root and setpriv"
  echo PASS
  exit 0
fi
# Everything the daemon needs must be readable by "nobody".
chmod 0755 "$WORK"
PORT2=$(free_port)
cat >"$WORK/unpriv.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT2}
poll: {interval: 500ms, timeout: 2s}
targets:
  - {name: leaf-a, driver: sim, ports: 2, lanes: 8}
  - {name: localhost, driver: ethtool, interfaces: [all]}
YAML
chmod 0644 "$WORK/unpriv.yaml"
mkdir -p "$WORK/state2" && chown nobody:nogroup "$WORK/state2" && chmod 0700 "$WORK/state2"
if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$OPTICSD"; then
  echo "SKIP part: $OPTICSD is not reachable by user nobody"
  echo PASS
  exit 0
fi
# setpriv execs the daemon: its pid is the daemon's.
STATE_DIRECTORY="$WORK/state2" setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs \
  --inh-caps=-all,+net_admin --ambient-caps=-all,+net_admin --bounding-set=-all,+net_admin \
  "$OPTICSD" run --config "$WORK/unpriv.yaml" >"$WORK/unpriv.log" 2>&1 &
OPTICSD_PID=$!
PIDS+=("$OPTICSD_PID")
wait_for 100 metric_has "$PORT2" '^opticsd_target_up\{.*target="leaf-a".*\} 1' || { cat "$WORK/unpriv.log"; fail "unprivileged daemon does not serve"; }
wait_for 50 metric_has "$PORT2" '^opticsd_target_up\{.*target="localhost".*\} 1' || {
  cat "$WORK/unpriv.log"
  fail "ethtool target not up with CAP_NET_ADMIN only"
}
caps=$(sed -n 's/^CapEff:\s*//p' "/proc/$OPTICSD_PID/status")
[ "$caps" = "0000000000001000" ] || fail "effective capabilities $caps, expected CAP_NET_ADMIN only (0x1000)"
wait_for 50 test -s "$WORK/state2/history.db" || fail "no history written as an unprivileged user"
stop_opticsd
echo PASS
