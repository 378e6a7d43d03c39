#!/usr/bin/env bash
# Fleet-scale remote-write bench: the real daemon polls MODULES simulated
# 8-lane CMIS modules (64-port switches, osfp-800g-2fr4) every INTERVAL and
# pushes every poll with remote write 1.0 into a real VictoriaMetrics, for
# DURATION_S after WARMUP_S. Reports:
#   samples per second opticsd sent (its sent counter over the window) and
#   VictoriaMetrics' own count of remote-write rows over the same window
#   opticsd CPU (polling + encoding + sending) and VictoriaMetrics CPU, % of one core
#   the queue (largest sampled) and retried/dropped samples in the window
#   loss: after the window the receiver is stopped (so opticsd's sent counter
#   stands still), restarted on the same data elsewhere, and the rows it
#   stored are compared with everything opticsd counted as sent
#
#   tests/bench/daemon/remote_write_fleet.sh [MODULES=64000] [INTERVAL=30s] [DURATION_S=150] [WARMUP_S=60]
#
# History is off: this measures export. Bounded: about 5 minutes at 64,000
# modules. The figures depend on what else the machine runs (the receiver
# shares it); report that with them.
set -euo pipefail
: "${OPTICSD:=${OPTICSD_BUILD_DIR:?set OPTICSD or OPTICSD_BUILD_DIR}/daemon/cli/opticsd}"
MODULES=${1:-64000}
INTERVAL=${2:-30s}
DURATION=${3:-150}
WARMUP=${4:-60}
PORTS=64
SWITCHES=$(((MODULES + PORTS - 1) / PORTS))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-rw-fleet.XXXXXX")
# shellcheck source=lib/sim_fleet.sh
. "$(dirname "$0")/lib/sim_fleet.sh"
PORT=$(free_port)
VM_PORT=$(free_port)
PID=
VM_PID=
trap 'kill $VM_PID $PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

start_vm() {  # PORT
  victoria-metrics -httpListenAddr="127.0.0.1:$1" -storageDataPath="$WORK/vm" -search.latencyOffset=0s \
    -loggerLevel=ERROR >>"$WORK/vm.log" 2>&1 &
  VM_PID=$!
  for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$1/health" && return 0; sleep 0.2; done
  cat "$WORK/vm.log"
  echo "FAIL: victoria-metrics not ready"
  exit 1
}
# self NAME: an unlabelled series of opticsd's /metrics/self.
self() { curl -sf "http://127.0.0.1:$PORT/metrics/self" | awk -v n="$1" '$1 == n {printf "%.0f\n", $2}'; }
# vm_metric PORT REGEX: the sum of VictoriaMetrics' own series matching REGEX.
vm_metric() {
  curl -sf "http://127.0.0.1:$1/metrics" | awk -v re="$2" '$1 ~ re {s += $2} END {printf "%.0f\n", s}'
}
vm_inserted() { vm_metric "$1" '^vm_rows_inserted_total\{type="promremotewrite"\}$'; }

start_vm "$VM_PORT"
{
  echo "listen: {address: 127.0.0.1:$PORT}"
  echo "poll: {interval: $INTERVAL, timeout: 10s, concurrency: 64}"
  echo "storage: {enabled: false}"
  echo "remote_write: {url: http://127.0.0.1:$VM_PORT/api/v1/write, external_labels: {cluster: bench}}"
  sim_fleet_targets "$SWITCHES" "$PORTS"
} >"$WORK/opticsd.yaml"
"$OPTICSD" run --config "$WORK/opticsd.yaml" >"$WORK/daemon.log" 2>&1 &
PID=$!
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/metrics/self" && break; sleep 0.2; done

echo "fleet: $((SWITCHES * PORTS)) modules on $SWITCHES switches, interval $INTERVAL, ${DURATION}s after ${WARMUP}s warm-up"
sleep "$WARMUP"
kill -0 "$PID" || { tail "$WORK/daemon.log"; echo "FAIL: daemon died during warm-up"; exit 1; }
hz=$(getconf CLK_TCK)
sent0=$(self opticsd_remote_write_samples_sent_total); retried0=$(self opticsd_remote_write_samples_retried_total)
dropped0=$(self opticsd_remote_write_samples_dropped_total); rows0=$(vm_inserted "$VM_PORT")
ticks0=$(cpu_ticks "$PID"); vm_ticks0=$(cpu_ticks "$VM_PID"); t0=$(date +%s.%N)
queue_max=0
end=$((SECONDS + DURATION))
while [ $SECONDS -lt $end ]; do
  sleep 5
  q=$(self opticsd_remote_write_queue_samples)
  [ "$q" -gt "$queue_max" ] && queue_max=$q
done
sent1=$(self opticsd_remote_write_samples_sent_total); retried1=$(self opticsd_remote_write_samples_retried_total)
dropped1=$(self opticsd_remote_write_samples_dropped_total); rows1=$(vm_inserted "$VM_PORT")
ticks1=$(cpu_ticks "$PID"); vm_ticks1=$(cpu_ticks "$VM_PID"); t1=$(date +%s.%N)
queue_end=$(self opticsd_remote_write_queue_samples)
rss_mb=$(awk '/^VmRSS:/ {print int($2 / 1024)}' "/proc/$PID/status")

# Loss: stop the receiver (it flushes on the way down), so nothing more can
# count as sent; a request in flight then is retried, never counted twice.
kill -INT "$VM_PID"; wait "$VM_PID" || true
sleep 2
sent_total=$(self opticsd_remote_write_samples_sent_total)
dropped_total=$(self opticsd_remote_write_samples_dropped_total)
VM_PORT2=$(free_port)
start_vm "$VM_PORT2"
stored=$(vm_metric "$VM_PORT2" '^vm_rows\{type="storage/(inmemory|small|big)"\}$')
series=$(curl -sf "http://127.0.0.1:$VM_PORT2/api/v1/series/count" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0])')
one=$(curl -sf "http://127.0.0.1:$PORT/metrics?target=sw-1" | grep -vc '^#' || true)
thresholds=$(curl -sf "http://127.0.0.1:$PORT/metrics/thresholds?target=sw-1" | grep -vc '^#' || true)

python3 - <<PY
dt = $t1 - $t0
hz = $hz
modules = $((SWITCHES * PORTS))
per_module = ($one + $thresholds) / $PORTS
interval_s = float("$INTERVAL".rstrip("s"))
print(f"series per module pushed: {per_module:.1f} ({$one / $PORTS:.1f} of /metrics?target= at the default level + {$thresholds / $PORTS:.1f} thresholds); VictoriaMetrics holds {$series} series = {$series / modules:.1f} per module")
print(f"expected per poll round: {per_module * modules:.0f} samples = {per_module * modules / interval_s:.0f} samples/s")
print(f"sent in the {dt:.0f} s window: {$sent1 - $sent0} samples = {($sent1 - $sent0) / dt:.0f} samples/s; VictoriaMetrics inserted {($rows1 - $rows0) / dt:.0f} rows/s")
print(f"retried {$retried1 - $retried0}, dropped {$dropped1 - $dropped0} samples in the window; queue largest sampled {$queue_max}, at the end {$queue_end}")
print(f"opticsd CPU (polling + encoding + sending): {100 * ($ticks1 - $ticks0) / hz / dt:.1f} % of one core; RSS {$rss_mb} MB")
print(f"VictoriaMetrics CPU: {100 * ($vm_ticks1 - $vm_ticks0) / hz / dt:.1f} % of one core")
lost = $sent_total - $stored
verdict = "0 lost" if lost == 0 else (f"{lost} LOST" if lost > 0 else f"{-lost} more stored than counted sent (a request retried after the receiver took it)")
print(f"whole run: opticsd counted {$sent_total} samples sent ({$dropped_total} dropped); VictoriaMetrics, restarted on its data, stores {$stored} rows: {verdict}")
PY
