#!/usr/bin/env bash
# A broken config is refused with file:line and a non-zero exit; SIGHUP with
# a broken config keeps the daemon serving the old one; a good reload applies.
source "$(dirname "$0")/lib.sh"
need curl

cat >"$WORK/broken.yaml" <<'YAML'
poll:
  interval: thirty seconds
targets:
  - {name: a, driver: sim}
YAML
status=0
"$OPTICSD" check-config "$WORK/broken.yaml" 2>"$WORK/check.err" || status=$?
[ "$status" -ne 0 ] || fail "check-config accepted a broken config"
grep -q "broken.yaml:2:13: poll.interval:" "$WORK/check.err" || { cat "$WORK/check.err"; fail "error does not name file:line:col and key"; }
status=0
"$OPTICSD" run --config "$WORK/broken.yaml" >"$WORK/run.out" 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "run with a broken config exited $status, expected 2"
grep -q "poll.interval" "$WORK/run.out" || fail "run did not say what is wrong"

PORT=$(free_port)
good() {
  write_config - <<YAML
poll: {interval: 300ms}
storage: {enabled: false}
targets:
  - {name: one, driver: sim, ports: 2, lanes: 4}
$1
YAML
}
good "" >"$WORK/opticsd.yaml"
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1 one
metric_has "$PORT" 'target="one"' || { cat "$WORK/daemon.log"; fail "daemon did not come up"; }

note "SIGHUP with a broken config"
cp "$WORK/broken.yaml" "$WORK/opticsd.yaml"
kill -HUP "$OPTICSD_PID"
wait_for 50 metric_has "$PORT" '^opticsd_config_reload_success 0' || fail "failed reload not visible in metrics"
kill -0 "$OPTICSD_PID" || fail "daemon died on a bad reload"
grep -q "config reload refused" "$WORK/daemon.log" || fail "no log line for the refused reload"
metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{.*target="one"' || fail "daemon stopped serving the old config"

note "SIGHUP with a good config adds a target"
good "  - {name: two, driver: sim, ports: 1, lanes: 1}" >"$WORK/opticsd.yaml"
kill -HUP "$OPTICSD_PID"
wait_polled "$PORT" 1 two
metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{.*target="two"' || fail "reload did not add target two"
metric_has "$PORT" '^opticsd_config_reload_success 1' || fail "good reload not recorded"
grep -q "restart section=" "$WORK/daemon.log" && fail "a reload that changed no listen/storage key asked for a restart"

note "SIGHUP that edits listen and storage says they wait for a restart"
printf 'secret\n' >"$WORK/pass"
chmod 0644 "$WORK/pass"
good "  - {name: two, driver: sim, ports: 1, lanes: 1}" |
  sed -e "s#^listen: {address: 127.0.0.1:$PORT}#listen: {address: 127.0.0.1:$PORT, basic_auth_user: p, basic_auth_password_file: $WORK/pass}#" \
    -e 's#^storage: {enabled: false}#storage: {enabled: false, retention: 1d}#' >"$WORK/opticsd.yaml"
grep -q basic_auth_user "$WORK/opticsd.yaml" || fail "could not edit the listen section"
kill -HUP "$OPTICSD_PID"
wait_for 50 grep -q "restart section=storage" "$WORK/daemon.log" || { cat "$WORK/daemon.log"; fail "storage edit not reported"; }
grep -q "restart section=listen" "$WORK/daemon.log" || fail "listen edit not reported"
grep -q "secret readable by other users.*pass" "$WORK/daemon.log" || fail "a readable secret added by a reload was not warned about"
stop_opticsd
echo PASS
