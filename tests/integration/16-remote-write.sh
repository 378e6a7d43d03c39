#!/usr/bin/env bash
# Remote write 1.0 into real receivers: opticsd pushes every poll to a
# Prometheus (--web.enable-remote-write-receiver) and to a VictoriaMetrics,
# and every sample it counts as sent is there (one poll each, then a quiet
# interval, so the counts are exact). Then a receiver that is down: the
# queue stays within queue_samples, what did not fit is counted as dropped,
# retries are counted, and once the receiver comes up samples flow again.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
need victoria-metrics

# self_value PORT NAME: the value of an unlabelled series on /metrics/self.
self_value() {
  curl -sf "http://127.0.0.1:$1/metrics/self" | awk -v n="$2" '$1 == n {print $2}'
}
# opticsd_pushing NAME PORT RECEIVER_URL INTERVAL [QUEUE]: starts an instance.
opticsd_pushing() {
  local name=$1 port=$2 url=$3 interval=$4 queue=${5:-2000000}
  cat >"$WORK/$name.yaml" <<YAML
listen: {address: 127.0.0.1:$port}
poll: {interval: $interval, timeout: 2s, jitter: 0}
storage: {enabled: false}
remote_write: {url: "$url", external_labels: {cluster: it-$name}, queue_samples: $queue, max_backoff: 1s, timeout: 2s}
targets:
  - {name: leaf-1, driver: sim, module: osfp-800g-2fr4, ports: 2, lanes: 8}
  - {name: leaf-2, driver: sim, module: qsfp28-100g-cwdm4, ports: 2}
YAML
  "$OPTICSD" run --config "$WORK/$name.yaml" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
}
# received URL CLUSTER: series the receiver holds from that instance (one
# poll each: one sample per series).
received() {
  curl -sf "$1/api/v1/query" --data-urlencode "query=count({cluster=\"$2\"})" |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(int(float(r[0]["value"][1])) if r else 0)'
}

PROM_PORT=$(free_port)
prometheus --config.file=/dev/null --storage.tsdb.path="$WORK/tsdb" --web.enable-remote-write-receiver \
  --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
VM_PORT=$(free_port)
victoria-metrics -httpListenAddr="127.0.0.1:$VM_PORT" -storageDataPath="$WORK/vm" -search.latencyOffset=0s \
  -search.disableCache -loggerLevel=ERROR >"$WORK/vm.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PROM_PORT"
VM="http://127.0.0.1:$VM_PORT"
wait_for 150 curl -sf "$PROM/-/ready" || { cat "$WORK/prometheus.log"; fail "prometheus not ready"; }
wait_for 150 curl -sf "$VM/health" || { cat "$WORK/vm.log"; fail "victoria-metrics not ready"; }

# One poll each (the next is 60 s away): the counters then stand still. The
# scheduler spreads first polls over the interval, so the first may take 60 s.
A=$(free_port); B=$(free_port)
opticsd_pushing prom "$A" "$PROM/api/v1/write" 60s
opticsd_pushing vm "$B" "$VM/api/v1/write" 60s
settled() {  # PORT: both targets polled, something sent, nothing queued
  local sent queue t
  for t in leaf-1 leaf-2; do
    curl -sf "http://127.0.0.1:$1/metrics?target=$t" | grep -q '^opticsd_module_present' || return 1
  done
  sent=$(self_value "$1" opticsd_remote_write_samples_sent_total) || return 1
  queue=$(self_value "$1" opticsd_remote_write_queue_samples) || return 1
  [ "${sent%.*}" -gt 0 ] && [ "${queue%.*}" -eq 0 ]
}
wait_for 400 settled "$A" || { cat "$WORK/prom.log"; fail "nothing sent to prometheus"; }
wait_for 400 settled "$B" || { cat "$WORK/vm.log"; fail "nothing sent to victoria-metrics"; }
sleep 1
curl -sf "$VM/internal/force_flush" >/dev/null || true
for pair in "prom $A $PROM" "vm $B $VM"; do
  read -r name port url <<<"$pair"
  dropped=$(self_value "$port" opticsd_remote_write_samples_dropped_total)
  have=0
  check() {
    sent=$(self_value "$port" opticsd_remote_write_samples_sent_total)
    have=$(received "$url" "it-$name")
    [ "$have" -eq "${sent%.*}" ]
  }
  wait_for 50 check || fail "$name: opticsd says it sent ${sent%.*} samples, the receiver has $have"
  [ "${dropped%.*}" -eq 0 ] || fail "$name: $dropped samples dropped with the receiver up"
  note "$name: sent ${sent%.*} samples, the receiver holds $have, none dropped"
done
curl -sf "$PROM/api/v1/query" --data-urlencode 'query=opticsd_lane_rx_power_dbm{cluster="it-prom",target="leaf-1",port="Ethernet1",lane="3"}' |
  grep -q '"value"' || fail "a lane series is not in Prometheus under its labels"

note "receiver down: the queue stays bounded, drops and retries are counted"
DOWN=$(free_port); C=$(free_port)
opticsd_pushing down "$C" "http://127.0.0.1:$DOWN/api/v1/write" 500ms 1000
dropping() {
  local d
  d=$(self_value "$C" opticsd_remote_write_samples_dropped_total) || return 1
  [ "${d%.*}" -gt 0 ]
}
wait_for 150 dropping || { cat "$WORK/down.log"; fail "nothing counted as dropped while the receiver is down"; }
queue=$(self_value "$C" opticsd_remote_write_queue_samples)
retried=$(self_value "$C" opticsd_remote_write_samples_retried_total)
[ "${queue%.*}" -le 1000 ] || fail "queue holds $queue samples, over queue_samples 1000"
[ "${retried%.*}" -gt 0 ] || fail "no retries counted"
note "down: queue ${queue%.*} <= 1000, retried ${retried%.*}, dropped $(self_value "$C" opticsd_remote_write_samples_dropped_total)"
prometheus --config.file=/dev/null --storage.tsdb.path="$WORK/tsdb2" --web.enable-remote-write-receiver \
  --web.listen-address="127.0.0.1:$DOWN" --log.level=warn >"$WORK/prometheus2.log" 2>&1 &
PIDS+=($!)
flowing() {
  local s
  s=$(self_value "$C" opticsd_remote_write_samples_sent_total) || return 1
  [ "${s%.*}" -gt 0 ] && [ "$(received "http://127.0.0.1:$DOWN" it-down)" -gt 0 ]
}
wait_for 150 flowing || fail "samples did not flow once the receiver came up"
echo PASS
