#!/usr/bin/env bash
# The answer, end to end: the real daemon polls a simulated leaf whose port 2
# has a dirty connector and port 3 loses frames, with a topology that puts
# gpu-node-N behind EthernetN. Within the first minute the findings are on
# /metrics, `opticsd findings` lists them from the history database (table,
# JSON, --active, --since, --target), and `opticsd suspects` ranks the two
# bad ports above the healthy ones and names the GPU host and rail behind
# each. After SIGTERM the active findings are still in the database, and
# `opticsd backtest --format json` replays them into a report that parses.
source "$(dirname "$0")/lib.sh"
need curl
need python3

write_config "$WORK/opticsd.yaml" <<YAML
storage: {path: $WORK/state/history.db, sample_interval: 0s, deadband: {heartbeat: 0s}}  # every poll kept: the backtest replays each
targets:
  - name: leaf-7
    driver: sim
    module: osfp-800g-2fr4
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 2, onset: 0s, ramp: 3s}
      - {scenario: post_fec_errors, port: 3, onset: 0s, ramp: 2s}
topology:
  links:
    - {switch: leaf-7, ports: Ethernet1-4, host: "gpu-node-{n}", nic: mlx5_3, gpu: "3", rail: "3"}
YAML
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 1
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*port="Ethernet2"' \
  || { cat "$WORK/run.log"; fail "no finding for the dirty connector on /metrics within a minute"; }
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*port="Ethernet3"' || fail "no finding for the port losing frames"

note "opticsd findings"
# The findings store writes on its own thread: wait until both ports are in the file.
has_findings() {
  "$OPTICSD" findings --config "$WORK/opticsd.yaml" --active --format json >"$WORK/findings.json" 2>"$WORK/findings.err" &&
    python3 - "$WORK/findings.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
sys.exit(0 if {"Ethernet2", "Ethernet3"} <= {r["port"] for r in rows} else 1)
PY
}
wait_for 100 has_findings || { cat "$WORK/findings.json" "$WORK/findings.err"; fail "findings --active lacks Ethernet2/Ethernet3"; }
python3 - "$WORK/findings.json" <<'PY' || fail "findings JSON is wrong"
import json, sys
rows = json.load(open(sys.argv[1]))
for r in rows:
    assert r["target"] == "leaf-7" and r["active"] and r["end"] is None, r
    assert r["severity"] in ("warning", "critical"), r
    assert r["rule"] and r["start"].endswith("Z"), r
bad = [r for r in rows if r["port"] in ("Ethernet1", "Ethernet4")]
assert not bad, ("findings on healthy ports", bad)
print(len(rows), "active findings:", sorted({(r["port"], r["rule"]) for r in rows}))
PY
"$OPTICSD" findings --config "$WORK/opticsd.yaml" --since 10m >"$WORK/findings.txt" || fail "findings --since 10m failed"
grep -q 'Ethernet2' "$WORK/findings.txt" || fail "the findings table lacks Ethernet2"
"$OPTICSD" findings --config "$WORK/opticsd.yaml" --target no-such-switch --format json >"$WORK/none.json"
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/none.json")" = 0 ] \
  || fail "--target did not filter"
status=0
"$OPTICSD" findings --config "$WORK/opticsd.yaml" --since yesterday-ish >"$WORK/bad.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "a malformed --since was accepted"
grep -q 'yesterday-ish' "$WORK/bad.out" || fail "the --since error does not quote the value"

note "opticsd suspects"
ranked() {
  "$OPTICSD" suspects --config "$WORK/opticsd.yaml" --format json >"$WORK/suspects.json" 2>/dev/null &&
    python3 - "$WORK/suspects.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
sys.exit(0 if {"Ethernet2", "Ethernet3"} <= {r["port"] for r in rows[:2]} else 1)
PY
}
wait_for 150 ranked || { cat "$WORK/suspects.json"; fail "the two bad ports are not the top suspects"; }
python3 - "$WORK/suspects.json" <<'PY' || fail "suspects JSON is wrong"
import json, sys
rows = json.load(open(sys.argv[1]))
for r in rows[:2]:
    n = r["port"].removeprefix("Ethernet")
    assert r["host"] == f"gpu-node-{n}" and r["rail"] == "3" and r["gpu"] == "3", r
    assert 0 < r["score"] <= 1 and r["reason"], r
for r in rows[2:]:
    assert r["score"] < rows[1]["score"], ("a healthy port outranks a bad one", r)
print([(r["rank"], r["port"], round(r["score"], 2), r["host"], r["reason"]) for r in rows])
PY
"$OPTICSD" suspects --config "$WORK/opticsd.yaml" --limit 1 >"$WORK/suspects.txt" || fail "suspects table failed"
cat "$WORK/suspects.txt"
grep -q 'gpu-node-[23]' "$WORK/suspects.txt" || fail "the suspects table does not name the host"

stop_opticsd
"$OPTICSD" findings --db "$WORK/state/history.db" --active --format json >"$WORK/after.json" || fail "findings after stop failed"
python3 -c 'import json,sys; rows=json.load(open(sys.argv[1])); sys.exit(0 if any(r["port"]=="Ethernet2" for r in rows) else 1)' \
  "$WORK/after.json" || fail "active findings did not survive the stop"

note "opticsd backtest"
# The replay raises the same findings again: its report on stdout must stay
# the report (the engine's log lines went there once, into the JSON).
"$OPTICSD" backtest --config "$WORK/opticsd.yaml" --format json >"$WORK/backtest.json" 2>"$WORK/backtest.err" \
  || { cat "$WORK/backtest.err"; fail "backtest failed"; }
python3 - "$WORK/backtest.json" <<'PY' || { head -c 2000 "$WORK/backtest.json"; fail "backtest --format json is not the report"; }
import json, sys
r = json.load(open(sys.argv[1]))
raised = sum(x["raised"] for x in r["rules"])
assert raised > 0, ("the replay raised nothing", r["rules"])
assert r["agreement"]["recorded"] > 0 and r["agreement"]["matched"] > 0, r["agreement"]
print("backtest:", raised, "findings replayed, agreement", r["agreement"]["matched"], "/", r["agreement"]["recorded"])
PY
echo PASS
