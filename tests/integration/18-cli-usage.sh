#!/usr/bin/env bash
# The command line: an unknown subcommand is named as one and usage errors
# exit 2 (--help and --version exit 0), and `history --metric` takes the
# exported metric name a user copies from Grafana as well as the store's.
source "$(dirname "$0")/lib.sh"
need curl

status=0
"$OPTICSD" bogus >"$WORK/bogus.out" 2>&1 || status=$?
[ "$status" -eq 2 ] || { cat "$WORK/bogus.out"; fail "'opticsd bogus' exited $status, expected 2"; }
grep -q "unknown subcommand 'bogus'" "$WORK/bogus.out" || { cat "$WORK/bogus.out"; fail "'opticsd bogus' does not say unknown subcommand"; }
for args in "" "run --no-such-option" "history --target a" "check-config a b c"; do
  status=0
  # shellcheck disable=SC2086 # word splitting wanted
  "$OPTICSD" $args >"$WORK/usage.out" 2>&1 || status=$?
  [ "$status" -eq 2 ] || { cat "$WORK/usage.out"; fail "'opticsd $args' exited $status, expected 2 (usage error)"; }
done
"$OPTICSD" --help >/dev/null || fail "--help did not exit 0"
"$OPTICSD" --version >/dev/null || fail "--version did not exit 0"

note "history --metric with the exported name"
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 300ms}
storage: {path: $WORK/state/history.db, sample_interval: 0s}
targets:
  - {name: leaf, driver: sim, ports: 1, lanes: 2}
YAML
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 2  # two polls handed to history (sample_interval 0s); SIGTERM flushes them
metric_has "$PORT" '^opticsd_lane_tx_bias_amperes\{' || { cat "$WORK/run.log"; fail "no bias metric"; }
stop_opticsd
"$OPTICSD" history --db "$WORK/state/history.db" --target leaf --port Ethernet1 --metric tx_bias_milliamperes \
  --format csv >"$WORK/store-name.csv" || fail "history --metric tx_bias_milliamperes failed"
"$OPTICSD" history --db "$WORK/state/history.db" --target leaf --port Ethernet1 --metric opticsd_lane_tx_bias_amperes \
  --format csv >"$WORK/exported-name.csv" 2>"$WORK/exported.err" || { cat "$WORK/exported.err"; fail "history --metric opticsd_lane_tx_bias_amperes failed"; }
[ "$(wc -l <"$WORK/store-name.csv")" -ge 2 ] || fail "no bias rows in history"
cmp -s "$WORK/store-name.csv" "$WORK/exported-name.csv" || fail "the exported name did not select the same rows"
echo PASS
