#!/usr/bin/env bash
# Remote write 1.0 into real receivers: opticsd pushes every poll to a
# Prometheus (--web.enable-remote-write-receiver) and to a VictoriaMetrics,
# and every sample it counts as sent is there (one poll each, then a quiet
# interval, so the counts are exact), with the rules engine's series and
# opticsd's own metrics among them. Then a receiver that is down: the queue
# stays within queue_samples and RSS stays flat, what did not fit is counted
# as dropped, retries are counted, and once the receiver comes up samples
# flow again. Last, receivers behind TLS: VictoriaMetrics with basic auth
# (password from a file) and Prometheus requiring a client certificate; the
# password never reaches the log, and check-config names a bad CA file.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
need victoria-metrics

# self_value PORT NAME: the value of an unlabelled series on /metrics/self.
self_value() {
  curl -sf "http://127.0.0.1:$1/metrics/self" | awk -v n="$2" '$1 == n {print $2}'
}
# opticsd_pushing NAME PORT RECEIVER_URL INTERVAL [QUEUE] [MORE_REMOTE_WRITE_KEYS]: starts an instance.
opticsd_pushing() {
  local name=$1 port=$2 url=$3 interval=$4 queue=${5:-2000000} more=${6:-}
  PORT=$port write_config "$WORK/$name.yaml" <<YAML
poll: {interval: $interval, timeout: 2s, jitter: 0}
storage: {enabled: false}
remote_write: {url: "$url", external_labels: {cluster: it-$name}, queue_samples: $queue, max_backoff: 1s, timeout: 2s$more}
targets:
  - {name: leaf-1, driver: sim, module: osfp-800g-2fr4, ports: 2, lanes: 8}
  - {name: leaf-2, driver: sim, module: qsfp28-100g-cwdm4, ports: 2}
YAML
  start_daemon "$WORK/$name.yaml" "$WORK/$name.log"
}
# received URL CLUSTER [CURL_ARGS...]: samples the receiver holds from that
# instance (a range selector: count_over_time would drop the names and collide).
received() {
  local url=$1 cluster=$2
  shift 2
  curl -sf "$@" "$url/api/v1/query" --data-urlencode "query={cluster=\"$cluster\"}[30m]" |
    python3 -c 'import json,sys; print(sum(len(s["values"]) for s in json.load(sys.stdin)["data"]["result"]))'
}
# holds URL QUERY [CURL_ARGS...]: the receiver has a series for QUERY.
holds() {
  local url=$1 query=$2
  shift 2
  curl -sf "$@" "$url/api/v1/query" --data-urlencode "query=$query" | grep -q '"value"'
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
holds "$PROM" 'opticsd_lane_rx_power_dbm{cluster="it-prom",target="leaf-1",port="Ethernet1",lane="3"}' ||
  fail "a lane series is not in Prometheus under its labels"
for name in prom vm; do
  url=$PROM; [ $name = vm ] && url=$VM
  holds "$url" "opticsd_straggler_suspect_score{cluster=\"it-$name\",target=\"leaf-1\",port=\"Ethernet1\"}" ||
    fail "$name: the rules engine's suspect score was not pushed"
  holds "$url" "opticsd_poll_duration_seconds_count{cluster=\"it-$name\"}" || fail "$name: opticsd's own metrics were not pushed"
done
note "the suspect score and opticsd's own metrics are there too"

note "receiver down: the queue stays bounded, drops and retries are counted"
DOWN=$(free_port); C=$(free_port)
opticsd_pushing down "$C" "http://127.0.0.1:$DOWN/api/v1/write" 500ms 1000
dropping() {
  local d
  d=$(self_value "$C" opticsd_remote_write_samples_dropped_total) || return 1
  [ "${d%.*}" -gt 0 ]
}
wait_for 150 dropping || { cat "$WORK/down.log"; fail "nothing counted as dropped while the receiver is down"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }
DOWN_PID=${PIDS[-1]}
rss0=$(rss_kb "$DOWN_PID")
dropped0=$(self_value "$C" opticsd_remote_write_samples_dropped_total)
# 40 more polls (20 s) into a full queue: memory must not follow them.
sleep 20
rss1=$(rss_kb "$DOWN_PID")
queue=$(self_value "$C" opticsd_remote_write_queue_samples)
retried=$(self_value "$C" opticsd_remote_write_samples_retried_total)
dropped1=$(self_value "$C" opticsd_remote_write_samples_dropped_total)
[ "${dropped1%.*}" -gt "${dropped0%.*}" ] || fail "nothing more dropped over 20 s with the receiver down"
[ $((rss1 - rss0)) -le 8192 ] || fail "RSS grew from $rss0 to $rss1 KB with the receiver down (queue bounded at 1000 samples)"
note "down 20 s more: RSS $rss0 -> $rss1 KB, dropped ${dropped0%.*} -> ${dropped1%.*}"
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

note "TLS: VictoriaMetrics with basic auth, Prometheus requiring a client certificate"
need openssl
TLS=$WORK/tls
mkdir -p "$TLS"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=it-ca -keyout "$TLS/ca.key" -out "$TLS/ca.pem" 2>/dev/null
for who in server client; do
  openssl req -newkey rsa:2048 -nodes -subj "/CN=it-$who" -keyout "$TLS/$who.key" -out "$TLS/$who.csr" 2>/dev/null
  openssl x509 -req -in "$TLS/$who.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" -CAcreateserial -days 2 \
    -extfile <(echo "subjectAltName=IP:127.0.0.1") -out "$TLS/$who.pem" 2>/dev/null
done
PASSWORD=it-pw-$RANDOM$RANDOM
printf '%s\n' "$PASSWORD" >"$TLS/password"
chmod 600 "$TLS/password" "$TLS"/*.key
VMS_PORT=$(free_port)
victoria-metrics -httpListenAddr="127.0.0.1:$VMS_PORT" -storageDataPath="$WORK/vm-tls" -search.latencyOffset=0s \
  -search.disableCache -loggerLevel=ERROR -tls -tlsCertFile="$TLS/server.pem" -tlsKeyFile="$TLS/server.key" \
  -httpAuth.username=opticsd -httpAuth.password="$PASSWORD" >"$WORK/vm-tls.log" 2>&1 &
PIDS+=($!)
cat >"$TLS/web.yml" <<YAML
tls_server_config:
  cert_file: $TLS/server.pem
  key_file: $TLS/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: $TLS/ca.pem
YAML
PROMS_PORT=$(free_port)
prometheus --config.file=/dev/null --storage.tsdb.path="$WORK/tsdb-tls" --web.enable-remote-write-receiver \
  --web.config.file="$TLS/web.yml" --web.listen-address="127.0.0.1:$PROMS_PORT" --log.level=warn \
  >"$WORK/prometheus-tls.log" 2>&1 &
PIDS+=($!)
VMS="https://127.0.0.1:$VMS_PORT"
PROMS="https://127.0.0.1:$PROMS_PORT"
VM_CURL=(--cacert "$TLS/ca.pem" -u "opticsd:$PASSWORD")
PROM_CURL=(--cacert "$TLS/ca.pem" --cert "$TLS/client.pem" --key "$TLS/client.key")
wait_for 150 curl -sf "${VM_CURL[@]}" "$VMS/health" || { cat "$WORK/vm-tls.log"; fail "victoria-metrics (TLS) not ready"; }
wait_for 150 curl -sf "${PROM_CURL[@]}" "$PROMS/-/ready" || { cat "$WORK/prometheus-tls.log"; fail "prometheus (TLS) not ready"; }
curl -s -o /dev/null -w '%{http_code}' --cacert "$TLS/ca.pem" "$VMS/api/v1/write" -d x | grep -q 401 ||
  fail "victoria-metrics takes writes without the password: the auth test would prove nothing"

# check-config names a CA file it cannot load, and never prints the password.
printf 'not a certificate\n' >"$TLS/bad-ca.pem"
cat >"$WORK/bad-ca.yaml" <<YAML
remote_write: {url: "$VMS/api/v1/write", tls_ca_file: $TLS/bad-ca.pem, basic_auth_user: opticsd, basic_auth_password_file: $TLS/password}
targets:
  - {name: leaf-1, driver: sim, module: osfp-800g-2fr4, ports: 1}
YAML
if "$OPTICSD" check-config "$WORK/bad-ca.yaml" >"$WORK/bad-ca.out" 2>&1; then fail "check-config took a CA file that is no certificate"; fi
grep -q "tls_ca_file $TLS/bad-ca.pem" "$WORK/bad-ca.out" || { cat "$WORK/bad-ca.out"; fail "check-config did not name the bad CA file"; }

D=$(free_port); E=$(free_port)
opticsd_pushing vmtls "$D" "$VMS/api/v1/write" 60s 2000000 \
  ", tls_ca_file: $TLS/ca.pem, basic_auth_user: opticsd, basic_auth_password_file: $TLS/password"
opticsd_pushing promtls "$E" "$PROMS/api/v1/write" 60s 2000000 \
  ", tls_ca_file: $TLS/ca.pem, tls_cert_file: $TLS/client.pem, tls_key_file: $TLS/client.key"
wait_for 400 settled "$D" || { cat "$WORK/vmtls.log"; fail "nothing sent to victoria-metrics over TLS with basic auth"; }
wait_for 400 settled "$E" || { cat "$WORK/promtls.log"; fail "nothing sent to prometheus over TLS with a client certificate"; }
sleep 1
curl -sf "${VM_CURL[@]}" "$VMS/internal/force_flush" >/dev/null || true
for pair in "vmtls $D $VMS VM_CURL" "promtls $E $PROMS PROM_CURL"; do
  read -r name port url args <<<"$pair"
  declare -n curl_args=$args
  have=0
  check() {
    sent=$(self_value "$port" opticsd_remote_write_samples_sent_total)
    have=$(received "$url" "it-$name" "${curl_args[@]}")
    [ "$have" -eq "${sent%.*}" ]
  }
  wait_for 50 check || fail "$name: opticsd says it sent ${sent%.*} samples, the receiver has $have"
  dropped=$(self_value "$port" opticsd_remote_write_samples_dropped_total)
  [ "${dropped%.*}" -eq 0 ] || fail "$name: $dropped samples dropped with the receiver up"
  note "$name: sent ${sent%.*} samples over TLS, the receiver holds $have"
  unset -n curl_args
done
! grep -q "$PASSWORD" "$WORK"/{prom,vm,down,vmtls,promtls}.log "$WORK/bad-ca.out" || fail "the remote-write password is in opticsd's log"
echo PASS
