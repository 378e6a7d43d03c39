#!/usr/bin/env bash
# End-to-end SNMP benchmark (issue 5): N real snmpd agents on 127.0.0.1, each
# serving one synthetic Arista EOS switch (64 ports x 8 lanes, 1,664
# ENTITY-SENSOR-MIB DOM sensors, written by snmp_poll_bench write-configs as
# snmpd.conf override lines), polled in one run by
#   (a) opticsd's SNMP driver (snmp_poll_bench poll: one io_context, the
#       profile picked by sysObjectID, a warm-up poll, then timed polls),
#   (b) concurrent snmpbulkwalk -v2c -Cr50 processes,
#   (c) prometheus-snmp-exporter (v0.21 module written here, concurrent curls),
# all reading the same columns (entPhySensorValue and entPhySensorOperStatus).
# Prints wall time, collector CPU time (user+sys) and CPU us per varbind.
#
# Usage: snmp_bench.sh [N] [BUILD_DIR]   (N defaults to 50; BUILD_DIR to $OPTICSD_BUILD_DIR or build; env POLLS=5)
# Exit 77 when snmpd or the bench binary is missing.
set -euo pipefail

N=${1:-50}
BUILD=${2:-${OPTICSD_BUILD_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/build}}
POLLS=${POLLS:-5}
BIN="$BUILD/tests/bench/snmp/snmp_poll_bench"
BASE_PORT=${BASE_PORT:-$((20000 + RANDOM % 20000))}
EXPORTER_PORT=$((BASE_PORT - 1))
SENSOR=1.3.6.1.2.1.99.1.1.1
COLUMNS=("$SENSOR.4" "$SENSOR.5")

command -v snmpd >/dev/null || { echo "snmpd not installed"; exit 77; }
command -v snmpbulkwalk >/dev/null || { echo "snmpbulkwalk not installed"; exit 77; }
[ -x "$BIN" ] || { echo "build snmp_poll_bench first ($BIN)"; exit 77; }

WORK=$(mktemp -d /tmp/opticsd-snmp-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# No MIB parsing anywhere: numeric OIDs only, and no stderr noise.
export MIBS= MIBDIRS=/nonexistent

"$BIN" write-configs "$WORK" "$N" "$BASE_PORT"
echo "starting $N snmpd agents on 127.0.0.1:$BASE_PORT.. (registering overrides takes a while)"
for ((i = 0; i < N; i++)); do
  snmpd -f -Lo -C -c "$WORK/agent-$i.conf" >"$WORK/agent-$i.log" 2>&1 &
  PIDS+=($!)
done
for ((i = 0; i < N; i++)); do
  for ((t = 0; t < 600; t++)); do
    snmpget -v2c -c public -t 0.5 -r 0 -On "127.0.0.1:$((BASE_PORT + i))" "$SENSOR.4.100364283" >/dev/null 2>&1 && break
    sleep 0.2
  done
  [ "$t" -lt 600 ] || { echo "agent $i did not come up"; cat "$WORK/agent-$i.log"; exit 1; }
done
echo "agents ready"
AGENT_PIDS=("${PIDS[@]}")
TICKS=$(getconf CLK_TCK)
# CPU seconds the snmpd agents have used so far: what bounds the wall times.
agents_cpu() {
  local pid sum=0
  for pid in "${AGENT_PIDS[@]}"; do
    sum=$((sum + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat")))
  done
  awk -v s="$sum" -v hz="$TICKS" 'BEGIN { print s / hz }'
}

secs() { awk -v t="$1" 'BEGIN { m = t; sub(/m.*/, "", m); s = t; sub(/^[0-9]+m/, "", s); sub(/s$/, "", s); print m * 60 + s }'; }
now() { date +%s.%N; }
row() { awk -v tool="$1" -v w="$2" -v c="$3" -v v="$4" -v a="$5" \
  'BEGIN { printf "%-26s %8.3f %8.3f %10d %12.2f %12.3f\n", tool, w, c, v, (v > 0 ? c * 1e6 / v : 0), a }'; }

# (a) opticsd
a0=$(agents_cpu)
"$BIN" poll "$N" "$BASE_PORT" "$POLLS" 50 | tee "$WORK/opticsd.out"
read -r _ _ O_WALL O_CPU O_VB < <(grep '^RESULT' "$WORK/opticsd.out")
# Agents' CPU includes the warm-up poll (static tables): reported per timed poll below.
O_AGENTS=$(awk -v a="$a0" -v b="$(agents_cpu)" -v n="$POLLS" 'BEGIN { print (b - a) / (n + 1) }')

# (b) concurrent snmpbulkwalk, one process per target and column; CPU of the
# children from bash's `times` in a subshell that does nothing else.
bulk() {
  local start end pids=()
  start=$(now)
  for ((i = 0; i < N; i++)); do
    for col in "${COLUMNS[@]}"; do
      snmpbulkwalk -v2c -c public -Cr50 -On -t 5 -r 1 "127.0.0.1:$((BASE_PORT + i))" "$col" >"$WORK/bulk-$i-${col##*.}.out" &
      pids+=($!)
    done
  done
  wait "${pids[@]}"
  end=$(now)
  echo "WALL $(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
  times  # not in a pipeline: that would be another subshell without these children
}
B_WALL=0 B_CPU=0
a0=$(agents_cpu)
for ((k = 0; k < POLLS; k++)); do
  out=$(bulk)
  wall=$(sed -n 's/^WALL //p' <<<"$out")
  read -r cu cs < <(tail -1 <<<"$out")
  B_WALL=$(awk -v a="$B_WALL" -v b="$wall" 'BEGIN { print a + b }')
  B_CPU=$(awk -v a="$B_CPU" -v u="$(secs "$cu")" -v s="$(secs "$cs")" 'BEGIN { print a + u + s }')
done
B_AGENTS=$(awk -v a="$a0" -v b="$(agents_cpu)" -v n="$POLLS" 'BEGIN { print (b - a) / n }')
B_WALL=$(awk -v a="$B_WALL" -v n="$POLLS" 'BEGIN { print a / n }')
B_CPU=$(awk -v a="$B_CPU" -v n="$POLLS" 'BEGIN { print a / n }')
B_VB=$(cat "$WORK"/bulk-*.out | grep -c "^\.$SENSOR\.")

# (c) prometheus-snmp-exporter v0.21: modules at the top level, each with its
# own auth (the `modules:`/`auths:` split came in v0.23).
E_WALL="" E_CPU="" E_VB=0
EXPORTER=$(command -v prometheus-snmp-exporter || true)
if [ -n "$EXPORTER" ] && command -v curl >/dev/null; then
  cat >"$WORK/snmp.yml" <<YAML
arista_dom:
  walk: [${COLUMNS[0]}, ${COLUMNS[1]}]
  version: 2
  max_repetitions: 50
  retries: 1
  timeout: 5s
  auth:
    community: public
  metrics:
  - name: entPhySensorValue
    oid: ${COLUMNS[0]}
    type: gauge
    help: ENTITY-SENSOR-MIB entPhySensorValue
    indexes:
    - labelname: entPhysicalIndex
      type: gauge
  - name: entPhySensorOperStatus
    oid: ${COLUMNS[1]}
    type: gauge
    help: ENTITY-SENSOR-MIB entPhySensorOperStatus
    indexes:
    - labelname: entPhysicalIndex
      type: gauge
YAML
  "$EXPORTER" --config.file="$WORK/snmp.yml" --web.listen-address="127.0.0.1:$EXPORTER_PORT" >"$WORK/exporter.log" 2>&1 &
  EPID=$!
  PIDS+=("$EPID")
  for ((t = 0; t < 100; t++)); do curl -sf "http://127.0.0.1:$EXPORTER_PORT/metrics" >/dev/null && break; sleep 0.1; done
  [ "$t" -lt 100 ] || { echo "snmp_exporter did not start:"; cat "$WORK/exporter.log"; exit 1; }
  ticks=$(getconf CLK_TCK)
  proc_cpu() { awk -v hz="$ticks" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$EPID/stat"; }
  scrape() {  # waits for its curls only (a bare `wait` would wait for the agents)
    local pids=()
    for ((i = 0; i < N; i++)); do
      curl -sf "http://127.0.0.1:$EXPORTER_PORT/snmp?module=arista_dom&target=127.0.0.1:$((BASE_PORT + i))" \
        >"$WORK/scrape-$i.prom" &
      pids+=($!)
    done
    wait "${pids[@]}" || echo "some scrapes failed (see $WORK/exporter.log)"
  }
  scrape  # warm-up (connection set-up, Go runtime growth)
  E_WALL=0 E_CPU=0
  a0=$(agents_cpu)
  for ((k = 0; k < POLLS; k++)); do
    c0=$(proc_cpu) t0=$(now)
    scrape
    t1=$(now) c1=$(proc_cpu)
    E_WALL=$(awk -v a="$E_WALL" -v b="$t0" -v c="$t1" 'BEGIN { print a + c - b }')
    E_CPU=$(awk -v a="$E_CPU" -v b="$c0" -v c="$c1" 'BEGIN { print a + c - b }')
  done
  E_AGENTS=$(awk -v a="$a0" -v b="$(agents_cpu)" -v n="$POLLS" 'BEGIN { print (b - a) / n }')
  E_WALL=$(awk -v a="$E_WALL" -v n="$POLLS" 'BEGIN { print a / n }')
  E_CPU=$(awk -v a="$E_CPU" -v n="$POLLS" 'BEGIN { print a / n }')
  E_VB=$(cat "$WORK"/scrape-*.prom | grep -c '^entPhySensor\(Value\|OperStatus\){' || true)
  grep -h 'snmp_scrape_pdus_returned\|snmp_scrape_walk_duration' "$WORK/scrape-0.prom" | grep -v '^#' || true
else
  echo "prometheus-snmp-exporter or curl not installed: exporter row skipped"
fi

echo
echo "SNMP poll of $N synthetic Arista switches (1,664 DOM sensors each; columns value + status), mean of $POLLS rounds, $(nproc) cores"
printf "%-26s %8s %8s %10s %12s %12s\n" tool "wall s" "CPU s" varbinds "CPU us/vb" "agents CPU s"
row "opticsd (snmp driver)" "$O_WALL" "$O_CPU" "$O_VB" "$O_AGENTS"
row "snmpbulkwalk -Cr50 x$((2 * N))" "$B_WALL" "$B_CPU" "$B_VB" "$B_AGENTS"
[ -n "$E_WALL" ] && row "prometheus-snmp-exporter" "$E_WALL" "$E_CPU" "$E_VB" "$E_AGENTS"
echo "(varbinds: answered per round; snmpbulkwalk/exporter count the values they printed;"
echo " agents CPU: the snmpd agents' user+sys per round, opticsd's averaged with its warm-up poll)"
