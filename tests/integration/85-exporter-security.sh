#!/usr/bin/env bash
# The metrics endpoint: loopback unless configured otherwise (the default
# listen address, and an explicit port is bound on 127.0.0.1 only), basic
# auth answers 401 without or with wrong credentials and 200 with the right
# ones, and the password never shows in the log. TLS is deliberately not
# offered (Debian 12's civetweb crashes on TLS connections with OpenSSL 3, see
# daemon/exporter/README.md): a `tls` key is refused, not silently ignored.
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

note "TLS keys are refused"
printf 'listen: {address: 127.0.0.1:%s, tls_cert_file: /x.pem}\ntargets:\n  - {name: one, driver: sim}\n' "$PORT" >"$WORK/tls.yaml"
"$OPTICSD" check-config "$WORK/tls.yaml" >"$WORK/tls.out" 2>&1 && fail "a TLS key was accepted and would be ignored"
grep -q 'tls_cert_file' "$WORK/tls.out" || fail "the refusal does not name the TLS key"
echo PASS
