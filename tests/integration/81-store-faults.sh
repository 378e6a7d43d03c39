#!/usr/bin/env bash
# History store faults under a running daemon: the database locked by another
# process, the disk full (as root: a 16 MiB tmpfs filled up), the file
# corrupted in place and the file deleted. For each: /metrics stays fresh, the
# failure shows in opticsd_store_write_errors_total / _queue_length and the
# log, and writes resume when the cause clears. At the end, with polling
# quiesced by a reload, every sample produced is either written or counted in
# opticsd_store_samples_dropped_total: nothing silently lost.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need sqlite3
need python3

DIR="$WORK/state"
mkdir -p "$DIR"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=16m opticsd-it "$DIR" 2>/dev/null; then
  DISK_FULL=1
  unmount_state() {
    local p
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    umount "$DIR" 2>/dev/null || umount -l "$DIR" 2>/dev/null || true
    cleanup
  }
  trap unmount_state EXIT
else
  DISK_FULL=0
  note "not root (or no tmpfs): the disk-full phase is skipped"
fi
DB="$DIR/history.db"
PORT=$(free_port)
config() {  # INTERVAL MAX_BACKOFF
  write_config - <<YAML
poll: {interval: $1, timeout: 2s, max_backoff: $2}
storage: {path: $DB, queue_cycles: 40, sample_interval: 0s, deadband: {heartbeat: 0s}}  # every poll a row: faults need writes
targets:
  - {name: s1, driver: sim, ports: 4, lanes: 4}
  - {name: s2, driver: sim, ports: 4, lanes: 4}
YAML
}
config 200ms 1s >"$WORK/opticsd.yaml"
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1
wait_for 100 metric_has "$PORT" '^opticsd_store_samples_written_total [1-9]' || { cat "$WORK/daemon.log"; fail "no history written"; }

store() { metric_sum "$PORT" "^opticsd_store_$1"; }
rows() { sqlite3 "file:$DB?mode=ro" 'SELECT count(*) FROM module_history' 2>/dev/null || echo -1; }

# fresh: /metrics keeps serving new polls while the store is failing.
fresh() {
  local a b
  a=$(polls "$PORT" s1)
  sleep 1
  b=$(polls "$PORT" s1)
  [ "$b" -gt "$a" ] || fail "/metrics went stale during $1 ($a -> $b polls)"
  metric_has "$PORT" '^opticsd_lane_rx_power_dbm\{.*target="s1"' || fail "optics values gone during $1"
}
errors_rise() {  # PHASE ERRORS_BEFORE
  wait_for 50 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_write_errors_total/ {print int(\$2)}') -gt $2 ]" \
    || fail "$1: opticsd_store_write_errors_total did not rise"
}
drained() { [ "$(store queue_length)" -eq 0 ] && [ "$(store lag_seconds)" -eq 0 ]; }
resumes() {  # PHASE
  wait_for 150 drained || { tail -20 "$WORK/daemon.log"; fail "$1: the queue did not drain after the cause cleared"; }
  local w
  w=$(store samples_written_total)
  # Store stats reach /metrics with the 2 s housekeeping tick.
  wait_for 50 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_samples_written_total/ {print int(\$2)}') -gt $w ]" \
    || fail "$1: writes did not resume"
}

note "locked by another process"
e0=$(store write_errors_total)
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(5)
c.execute("ROLLBACK")
' "$DB" >"$WORK/lock.out" &
LOCKER=$!
wait_for 50 grep -q locked "$WORK/lock.out" || fail "could not take the lock"
errors_rise locked "$e0"
wait_for 25 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_queue_length/ {print int(\$2)}') -gt 0 ]" \
  || fail "locked: queue length never rose"
fresh locked
grep -q 'history writes failing' "$WORK/daemon.log" || fail "locked: no log line"
wait "$LOCKER"
resumes locked
grep -q 'history writes resumed' "$WORK/daemon.log" || fail "locked: no resume log line"

if [ "$DISK_FULL" = 1 ]; then
  note "disk full"
  e0=$(store write_errors_total)
  dd if=/dev/zero of="$DIR/filler" bs=64k 2>/dev/null || true
  errors_rise "disk full" "$e0"
  fresh "disk full"
  grep -Eiq 'full|disk' <(grep 'store' "$WORK/daemon.log") || fail "disk full: the log does not say the disk is full"
  sleep 2  # past the 40-cycle queue: new cycles are dropped and counted
  [ "$(store samples_dropped_total)" -gt 0 ] || fail "disk full: a full queue dropped nothing visibly"
  rm -f "$DIR/filler"
  resumes "disk full"
fi

note "corrupted in place"
e0=$(store write_errors_total)
r0=$(rows)
size=$(stat -c %s "$DB")
python3 -c '
import os, sys
path, size = sys.argv[1], int(sys.argv[2])
with open(path, "r+b") as f:  # same inode, every page garbage
    f.write(os.urandom(size))
' "$DB" "$size"
errors_rise corrupted "$e0"
fresh corrupted
kill -0 "$OPTICSD_PID" || fail "daemon died on a corrupted database"
mv "$DB" "$WORK/corrupt.db"  # the operator moves the broken file away
resumes corrupted
[ "$(rows)" -ge 1 ] || fail "corrupted: no rows in the recreated database"
echo "rows before corruption: $r0, in the new file: $(rows)"

note "deleted"
rm -f "$DB" "$DB-wal" "$DB-shm"
wait_for 50 test -f "$DB" || fail "deleted: the database was not recreated"
resumes deleted
[ "$(rows)" -ge 1 ] || fail "deleted: no rows written to the recreated file"
grep -q 'was removed or replaced' "$WORK/daemon.log" || fail "deleted: no log line"

note "accounting: quiesce polling, then written + dropped = produced"
config 1h 1h >"$WORK/opticsd.yaml"
kill -HUP "$OPTICSD_PID"
wait_for 50 grep -q 'config reloaded' "$WORK/daemon.log" || fail "reload refused"
sleep 2.5  # polls in flight finish; the next housekeeping publishes the store stats
wait_for 100 drained || fail "queue not drained after quiescing"
sleep 2.5
scrape "$PORT" >"$WORK/final.txt"
produced=0
for t in s1 s2; do
  n=$(metric_sum_in "$WORK/final.txt" "^opticsd_poll_duration_seconds_count\\{.*target=\"$t\"")
  e=$(metric_sum_in "$WORK/final.txt" "^opticsd_poll_errors_total\\{.*target=\"$t\"")
  m=$(metric_sum_in "$WORK/final.txt" "^opticsd_poll_samples\\{.*target=\"$t\"")
  produced=$((produced + (n - e) * m))
done
written=$(metric_sum_in "$WORK/final.txt" '^opticsd_store_samples_written_total')
dropped=$(metric_sum_in "$WORK/final.txt" '^opticsd_store_samples_dropped_total')
errors=$(metric_sum_in "$WORK/final.txt" '^opticsd_store_write_errors_total')
echo "produced=$produced written=$written dropped=$dropped write_errors=$errors"
[ $((written + dropped)) -eq "$produced" ] || fail "samples unaccounted for: produced $produced, written $written + dropped $dropped"
before_stop=$(rows)
stop_opticsd
[ "$(rows)" -ge "$before_stop" ] || fail "rows lost at shutdown"
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check failed on the final database"
echo PASS
