#!/usr/bin/env bash
# The metrics endpoint: loopback unless configured otherwise (the default
# listen address, and an explicit port is bound on 127.0.0.1 only), basic
# auth answers 401 without or with wrong credentials and 200 with the right
# ones, and the password never shows in the log. With a certificate made here
# by openssl, /metrics is served over HTTPS that curl verifies against it,
# plain HTTP gets nothing, and a key others can read is warned about.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need ss

note "default listen address"
printf 'targets:\n  - {name: one, driver: sim, ports: 1, lanes: 1}\nstorage: {enabled: false}\n' >"$WORK/default.yaml"
if ss -Hltn 'sport = :9464' | grep -q .; then
  note "port 9464 is in use here: checking the default address through poll-once's config view only"
else
  start_opticsd "$WORK/default.log" run --config "$WORK/default.yaml"
  wait_for 100 grep -q 'metrics: http://' "$WORK/default.log" || { cat "$WORK/default.log"; fail "no start-up line"; }
  grep -q 'metrics: http://127.0.0.1:9464/metrics' "$WORK/default.log" || fail "default listen is not 127.0.0.1:9464"
  listening=$(ss -Hltnp | grep "pid=$OPTICSD_PID," | awk '{print $4}')
  echo "listening on: $listening"
  [ "$listening" = "127.0.0.1:9464" ] || fail "default bind is '$listening', expected only 127.0.0.1:9464"
  stop_opticsd
fi

note "basic auth"
PORT=$(free_port)
PASSWORD=Metrics85PassVq3
printf '%s\n' "$PASSWORD" >"$WORK/metrics.pass"
chmod 0600 "$WORK/metrics.pass"
cat >"$WORK/auth.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT, basic_auth_user: prometheus, basic_auth_password_file: $WORK/metrics.pass}
storage: {enabled: false}
targets:
  - {name: one, driver: sim, ports: 1, lanes: 1}
YAML
start_opticsd "$WORK/auth.log" run --config "$WORK/auth.yaml"
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" "http://127.0.0.1:$PORT/metrics"; }
wait_for 100 bash -c "[ \$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$PORT/metrics) = 401 ]" \
  || { cat "$WORK/auth.log"; fail "no 401 without credentials"; }
[ "$(code -u "prometheus:wrong")" = 401 ] || fail "wrong password not refused"
[ "$(code -u "other:$PASSWORD")" = 401 ] || fail "wrong user not refused"
[ "$(code -u "prometheus:${PASSWORD}x")" = 401 ] || fail "password with a suffix accepted"
[ "$(code -u "prometheus:$PASSWORD")" = 200 ] || fail "right credentials not accepted"
curl -s -D "$WORK/headers" -o /dev/null "http://127.0.0.1:$PORT/metrics" || true
grep -qi '^WWW-Authenticate: Basic' "$WORK/headers" || fail "401 without a WWW-Authenticate challenge"
body=$(curl -sf -u "prometheus:$PASSWORD" "http://127.0.0.1:$PORT/metrics")
grep -q '^opticsd_build_info' <<<"$body" || fail "authenticated scrape has no metrics"
curl -s "http://127.0.0.1:$PORT/metrics" | grep -q '^opticsd_' && fail "metrics served without credentials"
stop_opticsd
grep -q "$PASSWORD" "$WORK/auth.log" && fail "basic-auth password in the log"

note "TLS"
need openssl
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 2 -nodes -subj /CN=localhost \
  -addext "subjectAltName=IP:127.0.0.1" -keyout "$WORK/metrics.key" -out "$WORK/metrics.crt" 2>/dev/null \
  || fail "openssl could not make a test certificate"
chmod 0644 "$WORK/metrics.key"  # readable by others: must be warned about
PORT=$(free_port)
cat >"$WORK/tls.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT, basic_auth_user: prometheus, basic_auth_password_file: $WORK/metrics.pass,
         tls_cert_file: $WORK/metrics.crt, tls_key_file: $WORK/metrics.key}
# A short interval: the first poll lands at a random point of it, and the
# default 30 s would outlast the wait below about a third of the time.
poll: {interval: 1s}
storage: {enabled: false}
targets:
  - {name: one, driver: sim, ports: 1, lanes: 1}
YAML
"$OPTICSD" check-config "$WORK/tls.yaml" >/dev/null || fail "a TLS listen config was refused"
start_opticsd "$WORK/tls.log" run --config "$WORK/tls.yaml"
wait_for 100 grep -q 'metrics: https://' "$WORK/tls.log" || { cat "$WORK/tls.log"; fail "start-up line does not say https"; }
https() { curl -s --max-time 10 --cacert "$WORK/metrics.crt" "$@" "https://127.0.0.1:$PORT/metrics"; }
wait_for 100 bash -c "curl -sf --cacert '$WORK/metrics.crt' -u 'prometheus:$PASSWORD' https://127.0.0.1:$PORT/metrics | grep -q '^opticsd_lane_rx_power_dbm'" \
  || { cat "$WORK/tls.log"; fail "no metrics over verified HTTPS"; }
[ "$(https -o /dev/null -w '%{http_code}')" = 401 ] || fail "HTTPS without credentials not refused"
https -u "prometheus:$PASSWORD" -o /dev/null -w '%{ssl_verify_result}' | grep -qx 0 || fail "certificate not verified"
curl -s --max-time 5 "http://127.0.0.1:$PORT/metrics" | grep -q '^opticsd_' && fail "metrics served over plain HTTP on the TLS port"
kill -0 "$OPTICSD_PID" || fail "daemon died after plain HTTP on its TLS port"
stop_opticsd
grep -q 'secret readable by other users.*metrics.key' "$WORK/tls.log" || fail "a key readable by others was not warned about"
grep -q 'BEGIN PRIVATE KEY' "$WORK/tls.log" && fail "key material in the log"

note "a certificate that does not load stops start-up with the file named"
sed "s#tls_cert_file: $WORK/metrics.crt#tls_cert_file: $WORK/missing.crt#" "$WORK/tls.yaml" >"$WORK/bad-tls.yaml"
status=0
"$OPTICSD" run --config "$WORK/bad-tls.yaml" >"$WORK/bad-tls.log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "start-up with a missing certificate succeeded"
grep -q 'missing.crt' "$WORK/bad-tls.log" || { cat "$WORK/bad-tls.log"; fail "the error does not name the certificate"; }
echo PASS
