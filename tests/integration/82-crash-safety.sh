#!/usr/bin/env bash
# kill -9 during heavy history writes, 20 times. Before each kill a separate
# reader records what is committed (row counts and newest timestamps: a WAL
# reader sees only committed transactions); after each kill `PRAGMA
# integrity_check` is ok, every recorded row is still there, and the
# restarted daemon writes again. A final run stops with SIGTERM and exit 0.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need sqlite3
KILLS=${KILLS:-20}

DB="$WORK/state/history.db"
PORT=$(free_port)  # set here: write_config runs in the pipeline's subshell
{
  echo "poll: {interval: 200ms, timeout: 2s}"
  echo "storage: {path: $DB, sample_interval: 0s}"
  echo "targets:"
  for i in 1 2 3 4 5 6; do echo "  - {name: leaf-$i, driver: sim, ports: 32, lanes: 8}"; done
} | write_config "$WORK/opticsd.yaml"

# committed: "history_rows identity_rows max_history_ts max_identity_seen" as a reader sees them.
committed() {
  sqlite3 "file:$DB?mode=ro" "PRAGMA busy_timeout=5000; SELECT (SELECT count(*) FROM module_history), (SELECT count(*) FROM module_identities), (SELECT coalesce(max(ts_ms),0) FROM module_history), (SELECT coalesce(max(last_seen_ms),0) FROM module_identities);" \
    | tail -1 | tr '|' ' '
}
written_now() { metric_sum "$PORT" '^opticsd_store_samples_written_total'; }

prev=(0 0 0 0)
for ((k = 1; k <= KILLS; k++)); do
  start_daemon "$WORK/opticsd.yaml" "$WORK/run$k.log"
  wait_for 100 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_samples_written_total/ {print int(\$2)}') -gt 0 ]" \
    || { cat "$WORK/run$k.log"; fail "run $k: nothing written"; }
  # Let it write for a varying while so the kill lands at different points of a batch.
  sleep "0.$((RANDOM % 9 + 1))"
  read -r -a seen <<<"$(committed)"
  kill -9 "$OPTICSD_PID"
  wait "$OPTICSD_PID" 2>/dev/null || true
  [ "${seen[0]}" -gt "${prev[0]}" ] || fail "run $k: no new committed rows before the kill (${prev[0]} -> ${seen[0]})"
  check=$(sqlite3 "$DB" 'PRAGMA integrity_check')
  [ "$check" = ok ] || fail "run $k: integrity_check after kill -9: $check"
  read -r -a after <<<"$(committed)"
  for i in 0 1 2 3; do
    [ "${after[$i]}" -ge "${seen[$i]}" ] || fail "run $k: committed data lost (before kill: ${seen[*]}, after: ${after[*]})"
  done
  echo "kill $k: committed before kill ${seen[*]}; after ${after[*]}"
  prev=("${after[@]}")
done

note "final run after $KILLS kills: starts, writes, stops cleanly"
start_daemon "$WORK/opticsd.yaml" "$WORK/final.log"
wait_for 100 bash -c "[ \$(curl -sf http://127.0.0.1:$PORT/metrics | awk '/^opticsd_store_samples_written_total/ {print int(\$2)}') -gt 0 ]" \
  || { cat "$WORK/final.log"; fail "final run: nothing written"; }
stop_opticsd
read -r -a last <<<"$(committed)"
[ "${last[0]}" -gt "${prev[0]}" ] || fail "final run added nothing"
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity_check after the final run"
grep -q 'history writes failing' "$WORK"/run*.log "$WORK/final.log" && fail "a restart after kill -9 found the store failing"
echo PASS
