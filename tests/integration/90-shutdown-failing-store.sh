#!/usr/bin/env bash
# SIGTERM while the history store keeps failing (the database locked by
# another process for longer than any shutdown) stops within a few seconds
# with the unwritten cycles reported, instead of waiting the whole 20 s
# flush timeout; and a healthy store is still flushed in full at shutdown.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need python3
need sqlite3

DB="$WORK/state/history.db"
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 300ms}
storage: {path: $DB, sample_interval: 0s}
targets:
  - {name: s1, driver: sim, ports: 2, lanes: 2}
YAML
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1
wait_for 100 metric_has "$PORT" '^opticsd_store_samples_written_total [1-9]' || { cat "$WORK/daemon.log"; fail "history never written"; }

note "the database locked by another process until after the daemon is gone"
python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=10)
c.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(60)
' "$DB" >"$WORK/lock.out" &
LOCKER=$!
PIDS+=("$LOCKER")
wait_for 50 grep -q locked "$WORK/lock.out" || fail "could not take the lock"
wait_for 50 grep -q 'history writes failing' "$WORK/daemon.log" || { tail "$WORK/daemon.log"; fail "the store never failed"; }
start=$SECONDS
stop_opticsd
took=$((SECONDS - start))
echo "stopped in ${took}s with the store failing"
[ "$took" -lt 15 ] || fail "shutdown waited ${took}s for a store that kept failing (the flush timeout is 20 s)"
grep -q 'history flush incomplete' "$WORK/daemon.log" || fail "the unwritten history was not reported"
kill "$LOCKER" 2>/dev/null || true

note "a healthy store is flushed in full"
start_daemon "$WORK/opticsd.yaml" "$WORK/daemon2.log"
wait_polled "$PORT" 1
wait_for 100 metric_has "$PORT" '^opticsd_store_samples_written_total [1-9]' || { cat "$WORK/daemon2.log"; fail "history not written after restart"; }
stop_opticsd
grep -q 'history flush incomplete' "$WORK/daemon2.log" && fail "a healthy store's flush was cut short"
echo PASS
