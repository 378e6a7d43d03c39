#!/usr/bin/env bash
# End to end: the real binary on a temporary config polls simulated switches,
# /metrics passes `promtool check metrics`, SIGTERM exits 0 with the history
# flushed, `opticsd history` reads it back, and a second run adds to it.
source "$(dirname "$0")/lib.sh"
need curl
need promtool

write_config "$WORK/opticsd.yaml" <<YAML
storage: {path: $WORK/state/history.db, sample_interval: 1s, deadband: {heartbeat: 0s}}  # a row per kept sample, so a short run has several
targets:
  - {name: leaf-a, driver: sim, ports: 8, lanes: 8}
  - name: leaf-b
    driver: sim
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 2, onset: 0s, ramp: 10s}
YAML

"$OPTICSD" check-config "$WORK/opticsd.yaml" || fail "check-config rejected a valid config"

note "first run"
start_daemon "$WORK/opticsd.yaml" "$WORK/run1.log"
wait_polled "$PORT" 1
metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{target="leaf-a".*lane="8"' \
  || { cat "$WORK/run1.log"; fail "no lane-level Rx power for leaf-a on /metrics"; }
grep -q "metrics: http://127.0.0.1:$PORT/metrics" "$WORK/run1.log" || fail "start-up line does not say where to scrape"
grep -q "history: $WORK/state/history.db" "$WORK/run1.log" || fail "start-up line does not say where history is"

# Both targets have been polled (wait_polled): every lane of both is there.
metric_count_is "$PORT" '^opticsd_lane_tx_bias_amperes\{' $(((8 + 4) * 8)) \
  || fail "expected 96 lane bias series, got $(scrape "$PORT" | grep -c '^opticsd_lane_tx_bias_amperes{')"
scrape "$PORT" >"$WORK/scrape.txt"
promtool check metrics <"$WORK/scrape.txt" || fail "promtool check metrics failed"
grep -Eq '^opticsd_module_info\{.*target="leaf-b"' "$WORK/scrape.txt" || fail "no module info metric"
grep -Eq '^opticsd_target_up\{.*target="leaf-a".*\} 1' "$WORK/scrape.txt" || fail "leaf-a not up"
grep -Eq '^opticsd_poll_duration_seconds_count\{' "$WORK/scrape.txt" || fail "no poll duration histogram"
sleep 1.5
# Polled every 500 ms, history keeps one sample per module per second: the rest is counted.
wait_for 50 metric_has "$PORT" '^opticsd_store_samples_decimated_total [1-9]' || fail "history decimation is not counted"
stop_opticsd

count_rows() {
  "$OPTICSD" history --db "$WORK/state/history.db" --target leaf-a --port Ethernet1 --lane 1 --format csv \
    | tail -n +2 | grep -c . || true
}
rows1=$(count_rows)
note "history rows after run 1: $rows1"
[ "$rows1" -ge 2 ] || fail "expected at least 2 history rows for leaf-a Ethernet1 lane 1, got $rows1"
"$OPTICSD" history --db "$WORK/state/history.db" --target leaf-a --port Ethernet1 --lane 1 --format json \
  | python3 -c 'import json,sys; rows=json.load(sys.stdin); rows=rows.get("rows", rows) if isinstance(rows, dict) else rows; assert len(rows) >= 2, rows' \
  || fail "history --format json is not a JSON list of rows"

note "second run: history persists and grows"
start_daemon "$WORK/opticsd.yaml" "$WORK/run2.log"
wait_polled "$PORT" 1
metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{' || fail "second run does not serve metrics"
sleep 1.5
stop_opticsd
rows2=$(count_rows)
note "history rows after run 2: $rows2"
[ "$rows2" -gt "$rows1" ] || fail "history did not grow across restarts ($rows1 -> $rows2)"
echo PASS
