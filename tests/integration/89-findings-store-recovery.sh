#!/usr/bin/env bash
# Issue 15, item 3: the history database cannot be opened at start (a
# late-mounted or read-only /var/lib: here a tmpfs mounted read-only), so
# samples AND findings queue in the one history writer, with the failure on
# /metrics (opticsd_store_write_errors_total, opticsd_store_queue_length).
# Remounted read-write, the writer opens the file and `opticsd findings` lists
# the findings raised before and after the recovery. (Before the single
# writer, findings history stayed off for the life of the process.)
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need python3
need sqlite3

[ "$(id -u)" -eq 0 ] || skip "needs root to mount a read-only tmpfs"
DIR="$WORK/state"
mkdir -p "$DIR"
mount -t tmpfs -o size=16m,ro opticsd-it "$DIR" 2>/dev/null || skip "cannot mount a tmpfs here"
unmount_state() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  umount "$DIR" 2>/dev/null || umount -l "$DIR" 2>/dev/null || true
  cleanup
}
trap unmount_state EXIT
DB="$DIR/history.db"

write_config "$WORK/opticsd.yaml" <<YAML
storage: {path: $DB}
targets:
  - name: leaf-7
    driver: sim
    module: osfp-800g-2fr4
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: post_fec_errors, port: 3, onset: 0s, ramp: 2s}
YAML
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 1

note "read-only storage: the failure shows on /metrics, the finding on /metrics only"
wait_for 150 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_write_errors_total/ {print int(\$2)}') -gt 0 ]" \
  || { cat "$WORK/run.log"; fail "opticsd_store_write_errors_total stayed 0 on a read-only mount"; }
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*port="Ethernet3"' || fail "no finding for the port losing frames"
wait_for 50 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_queue_length/ {print int(\$2)}') -gt 0 ]" \
  || fail "opticsd_store_queue_length stayed 0 while the store cannot write"
[ ! -e "$DB" ] || fail "a database appeared on a read-only mount"
grep -q 'history writes failing' "$WORK/run.log" || fail "no log line for the failing store"

note "remounted read-write: samples and findings arrive"
mount -o remount,rw "$DIR" || fail "cannot remount read-write"
remounted_ms=$(date +%s%3N)
wait_for 150 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_samples_written_total/ {print int(\$2)}') -gt 0 ]" \
  || { tail -20 "$WORK/run.log"; fail "samples were not written after the remount"; }
grep -q 'history writes resumed' "$WORK/run.log" || fail "no log line for the recovery"

# A finding raised after the recovery: the sim's port 2 starts losing frames now.
write_config "$WORK/opticsd.yaml" <<YAML
storage: {path: $DB}
targets:
  - name: leaf-7
    driver: sim
    module: osfp-800g-2fr4
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: post_fec_errors, port: 3, onset: 0s, ramp: 2s}
      - {scenario: post_fec_errors, port: 2, onset: 0s, ramp: 2s}
YAML
kill -HUP "$OPTICSD_PID"
wait_for 50 grep -q 'config reloaded' "$WORK/run.log" || fail "reload refused"

has_both() {
  "$OPTICSD" findings --config "$WORK/opticsd.yaml" --format json >"$WORK/findings.json" 2>"$WORK/findings.err" &&
    python3 - "$WORK/findings.json" "$remounted_ms" <<'PY'
import datetime, json, sys
rows = json.load(open(sys.argv[1]))
after = int(sys.argv[2])
ports = {r["port"] for r in rows}
def ms(text):
    return int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
later = [r for r in rows if r["port"] == "Ethernet2" and ms(r["start"]) >= after - 1000]
sys.exit(0 if "Ethernet3" in ports and later else 1)
PY
}
wait_for 300 has_both || { cat "$WORK/findings.json" "$WORK/findings.err"; tail -20 "$WORK/run.log"; fail "opticsd findings lacks the findings raised before and after the recovery"; }
python3 - "$WORK/findings.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
print(len(rows), "findings in the database:", sorted({(r["port"], r["rule"]) for r in rows}))
PY
stop_opticsd
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check failed"
echo PASS
