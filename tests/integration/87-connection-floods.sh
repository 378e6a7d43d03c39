#!/usr/bin/env bash
# Idle and slowloris floods cannot take /metrics from its scraper (issue 15).
# 1,000 silent connections and 1,000 slowloris ones (a header line every 5 s,
# never a whole request), each reopened as soon as the server drops it, are
# held against the plain HTTP port and then against a TLS + basic-auth port,
# while a Prometheus-like scraper (a fresh connection per scrape, 10 s
# timeout) scrapes every 0.3 s. At least 99 % of its scrapes must succeed.
# Loopback only; FLOOD_SECONDS (default 30) of scraping per port.
source "$(dirname "$0")/lib.sh"
need curl
need openssl
need python3
ulimit -n 8192 2>/dev/null || true
[ "$(ulimit -n)" -ge 4500 ] || skip "needs 4,500 open files for the flood (ulimit -n is $(ulimit -n))"
FLOOD_SECONDS=${FLOOD_SECONDS:-30}
FLOOD="$(dirname "$0")/reliability/connection_flood.py"

PASSWORD=Flood89PassWq7
printf '%s\n' "$PASSWORD" >"$WORK/metrics.pass"
chmod 0600 "$WORK/metrics.pass"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 2 -nodes -subj /CN=localhost \
  -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/metrics.key" -out "$WORK/metrics.crt" 2>/dev/null \
  || fail "openssl could not make a test certificate"
chmod 0600 "$WORK/metrics.key"

PLAIN_PORT=$(free_port)
cat >"$WORK/plain.yaml" <<YAML
listen: {address: 127.0.0.1:$PLAIN_PORT}
storage: {enabled: false}
targets:
  - {name: one, driver: sim, ports: 4, lanes: 4}
YAML
start_opticsd "$WORK/plain.log" run --config "$WORK/plain.yaml"
PLAIN_PID=$OPTICSD_PID
TLS_PORT=$(free_port)
cat >"$WORK/tls.yaml" <<YAML
listen: {address: 127.0.0.1:$TLS_PORT, basic_auth_user: prometheus, basic_auth_password_file: $WORK/metrics.pass,
         tls_cert_file: $WORK/metrics.crt, tls_key_file: $WORK/metrics.key}
storage: {enabled: false}
targets:
  - {name: one, driver: sim, ports: 4, lanes: 4}
YAML
start_opticsd "$WORK/tls.log" run --config "$WORK/tls.yaml"
TLS_PID=$OPTICSD_PID

PLAIN_URL="http://127.0.0.1:$PLAIN_PORT/metrics"
TLS_URL="https://127.0.0.1:$TLS_PORT/metrics"
TLS_ARGS=(--cacert "$WORK/metrics.crt" -u "prometheus:$PASSWORD")
wait_for 100 curl -sf "$PLAIN_URL" || { cat "$WORK/plain.log"; fail "plain port never served"; }
wait_for 100 curl -sf "${TLS_ARGS[@]}" "$TLS_URL" || { cat "$WORK/tls.log"; fail "TLS port never served"; }

# flood_and_scrape NAME PORT FLOOD_ARGS -- CURL_ARGS...: writes "ok total" to NAME.result
# and the flood's counts to NAME.flood.
flood_and_scrape() {
  local name=$1 port=$2 flood_args=$3; shift 4
  # shellcheck disable=SC2086 # word splitting wanted
  timeout $((FLOOD_SECONDS + 60)) python3 "$FLOOD" --port "$port" $flood_args --seconds $((FLOOD_SECONDS + 8)) \
    >"$WORK/$name.flood" &
  local flood_pid=$!
  PIDS+=("$flood_pid")
  sleep 5  # the flood reaches full strength
  local ok=0 total=0 end=$((SECONDS + FLOOD_SECONDS)) code
  while [ "$SECONDS" -lt "$end" ]; do
    code=$(curl -s -o "$WORK/$name.body" -w '%{http_code}' --max-time 10 "$@") || true
    total=$((total + 1))
    if [ "$code" = 200 ] && grep -q '^opticsd_build_info' "$WORK/$name.body"; then ok=$((ok + 1)); fi
    sleep 0.3
  done
  wait "$flood_pid" || fail "$name: the flood client failed"
  echo "$ok $total" >"$WORK/$name.result"
}

check() {
  local name=$1 pid=$2 result
  result=$(cat "$WORK/$name.result")
  local ok=${result% *} total=${result#* }
  local flood
  flood=$(cat "$WORK/$name.flood")
  echo "$name: $ok of $total scrapes succeeded under the flood ($flood)"
  kill -0 "$pid" || fail "$name: the daemon died under the flood"
  # The flood really held its connections: far more were opened than the
  # 2,000 it keeps, because the server kept closing them.
  local opened=${flood#opened=}
  opened=${opened%% *}
  [ "$opened" -ge 2000 ] || fail "$name: the flood opened only $opened connections"
  [ "$total" -ge 20 ] || fail "$name: only $total scrapes in ${FLOOD_SECONDS}s"
  [ $((ok * 100)) -ge $((total * 99)) ] || fail "$name: only $ok of $total scrapes succeeded (< 99 %)"
}

note "plain HTTP: 1,000 idle + 1,000 slowloris connections"
flood_and_scrape plain "$PLAIN_PORT" "--idle 1000 --slowloris 1000" -- "$PLAIN_URL"
check plain "$PLAIN_PID"

note "TLS + basic auth: 1,000 idle + 1,000 slowloris (after the handshake) connections"
flood_and_scrape tls "$TLS_PORT" "--tls --idle 1000 --slowloris 1000" -- "${TLS_ARGS[@]}" "$TLS_URL"
check tls "$TLS_PID"

OPTICSD_PID=$PLAIN_PID stop_opticsd
OPTICSD_PID=$TLS_PID stop_opticsd
echo PASS
