#!/usr/bin/env bash
# needs-drivers: snmp
# Signals and config under load:
# 1. a storm of SIGHUPs with alternating good and bad configs (each good one
#    a different target set): the daemon stays up and serving, and ends on
#    the last good config, with only its targets on /metrics;
# 2. the target set changes while polls are in flight (an SNMP agent that is
#    SIGSTOPped mid-walk): the removed target's series go and do not come back
#    when its abandoned poll would have ended; a target that keeps its name
#    but changes driver is served by the new driver only;
# 3. SIGTERM while a poll hangs: exit 0 promptly, history flushed (every
#    sample written before exit is in the file, nothing counted dropped).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need sqlite3
need snmpsimd
need snmpget
FIXTURES="$OPTICSD_SOURCE_DIR/tests/fixtures/snmp"

start_snmpsim agent "$FIXTURES/arista-eos.snmprec"
AGENT_PORT=$SNMPSIM_PORT
AGENT_PID=$SNMPSIM_PID
PORT=$(free_port)
DB="$WORK/state/history.db"
CONF="$WORK/opticsd.yaml"
head_yaml() {
  write_config - <<YAML
poll: {interval: 300ms, timeout: 20s}
storage: {path: $DB, sample_interval: 0s, deadband: {heartbeat: 0s}}  # every poll a row: rows = samples written
targets:
YAML
}
good() {  # N: targets keep-a plus gen-N
  head_yaml
  echo "  - {name: keep-a, driver: sim, ports: 2, lanes: 4}"
  echo "  - {name: gen-$1, driver: sim, ports: 1, lanes: 1}"
}
bad() {  # N: a different kind of mistake each time
  case $(($1 % 3)) in
    0) head_yaml; echo "  - {name: gen-$1, driver: nosuch}" ;;
    1) printf 'poll: {interval: 300ms\ntargets: [\n' ;;
    2) head_yaml; echo "  - {name: dup, driver: sim}"; echo "  - {name: dup, driver: sim}" ;;
  esac
}
metric_targets() {  # the sorted set of targets with a poll-duration series
  scrape "$PORT" | sed -nE 's/^opticsd_poll_duration_seconds_count\{.*target="([^"]*)".*/\1/p' | sort -u | tr '\n' ' '
}

good 0 >"$CONF"
start_daemon "$CONF"
wait_polled "$PORT" 1 gen-0 keep-a
metric_has "$PORT" 'target="gen-0"' || { cat "$WORK/daemon.log"; fail "daemon did not come up"; }

note "SIGHUP storm: 40 reloads, good and bad alternating, 50 ms apart"
for ((i = 1; i <= 40; i++)); do
  if ((i % 2)); then bad "$i" >"$CONF.tmp"; else good "$i" >"$CONF.tmp"; fi
  mv "$CONF.tmp" "$CONF"
  kill -HUP "$OPTICSD_PID"
  sleep 0.05
  kill -0 "$OPTICSD_PID" || fail "daemon died during the SIGHUP storm (reload $i)"
done
good 41 >"$CONF"
kill -HUP "$OPTICSD_PID"
wait_polled "$PORT" 1 gen-41
metric_has "$PORT" 'target="gen-41"' || fail "the last good config (gen-41) was not applied"
bad 42 >"$CONF"
kill -HUP "$OPTICSD_PID"
wait_for 50 metric_has "$PORT" '^opticsd_config_reload_success 0' || fail "the final bad config was not refused"
sleep 1
[ "$(metric_targets)" = "gen-41 keep-a " ] || fail "after the storm the targets are '$(metric_targets)', expected 'gen-41 keep-a'"
a=$(polls "$PORT" keep-a); sleep 1
[ "$(polls "$PORT" keep-a)" -gt "$a" ] || fail "polling stopped after the storm"
refused=$(grep -c 'config reload refused' "$WORK/daemon.log" || true)
echo "reloads refused (logged): $refused"
[ "$refused" -ge 2 ] || fail "bad reloads were not logged"

note "the target set changes while a poll is in flight"
with_snmp() {  # the snmp target hangs once its agent is stopped
  head_yaml
  echo "  - {name: keep-a, driver: sim, ports: 2, lanes: 4}"
  echo "  - {name: sw-snmp, driver: snmp, address: 127.0.0.1, port: $AGENT_PORT, community: arista-eos, profile: arista-eos, timeout: 20s, retries: 0}"
  echo "  - {name: morph, driver: snmp, address: 127.0.0.1, port: $AGENT_PORT, community: arista-eos, profile: arista-eos, timeout: 20s, retries: 0}"
}
with_snmp >"$CONF"
kill -HUP "$OPTICSD_PID"
wait_for 100 target_up_is "$PORT" sw-snmp 1 || fail "snmp target did not come up"
wait_for 100 target_up_is "$PORT" morph 1 || fail "morph target did not come up"
kill -STOP "$AGENT_PID"  # walks in flight now hang (20 s timeout)
sleep 1
{
  head_yaml
  echo "  - {name: keep-a, driver: sim, ports: 2, lanes: 4}"
  echo "  - {name: morph, driver: sim, ports: 3, lanes: 2}"
  echo "  - {name: newcomer, driver: sim, ports: 1, lanes: 1}"
} >"$CONF"
kill -HUP "$OPTICSD_PID"
wait_polled "$PORT" 1 newcomer
metric_has "$PORT" 'target="newcomer"' || fail "new target not added while polls were in flight"
wait_for 50 metric_has "$PORT" '^opticsd_target_up\{driver="sim",target="morph"\} 1' \
  || fail "morph (snmp -> sim) not served by the new driver"
kill -CONT "$AGENT_PID"  # the abandoned walks can finish now; their results must be ignored
sleep 2
scrape "$PORT" >"$WORK/after-change.txt"
grep -q 'target="sw-snmp"' "$WORK/after-change.txt" && fail "removed target sw-snmp still (or again) on /metrics"
grep -Eq 'driver="snmp",target="morph"' "$WORK/after-change.txt" && fail "stale snmp series for morph"
[ "$(grep -c '^opticsd_module_present{.*target="morph"' "$WORK/after-change.txt")" -eq 3 ] \
  || fail "morph should have exactly the 3 sim modules"

note "SIGTERM while a poll hangs"
with_snmp >"$CONF"
kill -HUP "$OPTICSD_PID"
wait_for 100 target_up_is "$PORT" sw-snmp 1 || fail "snmp target did not come back"
kill -STOP "$AGENT_PID"
sleep 1  # keep-a keeps writing; the snmp polls hang
written=$(metric_sum "$PORT" '^opticsd_store_samples_written_total')
t0=$(date +%s%N)
kill -TERM "$OPTICSD_PID"
status=0
wait "$OPTICSD_PID" || status=$?
ms=$((($(date +%s%N) - t0) / 1000000))
kill -CONT "$AGENT_PID"
echo "exit status $status after ${ms} ms"
[ "$status" -eq 0 ] || fail "SIGTERM during a poll exited $status"
[ "$ms" -lt 10000 ] || fail "SIGTERM took ${ms} ms: shutdown waited for the hanging poll"
rows=$(sqlite3 "$DB" 'SELECT count(*) FROM module_history')
echo "module rows $rows, written_total at the last scrape $written"
[ "$rows" -ge "$written" ] || fail "history not flushed: $rows rows < $written samples reported written"
grep -Eq 'flush incomplete|counted as dropped' "$WORK/daemon.log" && fail "shutdown dropped history"
grep -q 'level=info stopped' "$WORK/daemon.log" || fail "no clean stop logged"
echo PASS
