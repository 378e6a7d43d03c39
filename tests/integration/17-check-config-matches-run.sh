#!/usr/bin/env bash
# needs-drivers: snmp
# check-config (systemd's ExecStartPre) and run agree on every config (issue
# 15): each bad config below is refused by both, each with the same problem
# named at file:line:col, so a unit whose pre-check passes never fails to
# start in a loop; each good one passes check-config and run serves it.
source "$(dirname "$0")/lib.sh"
need curl
need openssl

TARGET='targets: [{name: one, driver: sim, ports: 1, lanes: 1}]'
NOSTORE='storage: {enabled: false}'
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 2 -nodes -subj /CN=localhost \
  -keyout "$WORK/a.key" -out "$WORK/a.crt" 2>/dev/null || fail "openssl could not make a certificate"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 2 -nodes -subj /CN=other \
  -keyout "$WORK/b.key" -out "$WORK/b.crt" 2>/dev/null || fail "openssl could not make a certificate"
chmod 0600 "$WORK/a.key" "$WORK/b.key"
printf 'not a certificate\n' >"$WORK/garbage.crt"
mkdir -p "$WORK/a-directory"
printf 'x\n' >"$WORK/a-file"
printf 'secret-pass\n' >"$WORK/pass"
chmod 0600 "$WORK/pass"

# Each case: NAME|EXPECTED TEXT (a grep -E pattern, after file:line:col)|YAML
# (one line, \n for new lines; the port is free and on 127.0.0.1 where one is
# bound). The expected problem must be the only one.
cases=(
  "port-out-of-range|listen.address: port '99999'|listen: {address: 127.0.0.1:99999}\n$NOSTORE\n$TARGET"
  "host-name|listen.address: 'metrics.example' is not an IP address|listen: {address: 'metrics.example:9464'}\n$NOSTORE\n$TARGET"
  "no-port|listen.address: expected HOST:PORT|listen: {address: 127.0.0.1}\n$NOSTORE\n$TARGET"
  "missing-password-file|listen.basic_auth_password_file: cannot read $WORK/missing.pass|listen: {address: 127.0.0.1:PORT, basic_auth_user: p, basic_auth_password_file: $WORK/missing.pass}\n$NOSTORE\n$TARGET"
  "password-file-is-a-directory|listen.basic_auth_password_file: cannot read .*is a directory|listen: {address: 127.0.0.1:PORT, basic_auth_user: p, basic_auth_password_file: $WORK/a-directory}\n$NOSTORE\n$TARGET"
  "missing-certificate|listen.tls_cert_file: cannot read $WORK/missing.crt|listen: {address: 127.0.0.1:PORT, tls_cert_file: $WORK/missing.crt, tls_key_file: $WORK/a.key}\n$NOSTORE\n$TARGET"
  "missing-key|listen.tls_key_file: cannot read $WORK/missing.key|listen: {address: 127.0.0.1:PORT, tls_cert_file: $WORK/a.crt, tls_key_file: $WORK/missing.key}\n$NOSTORE\n$TARGET"
  "certificate-not-pem|listen.tls_cert_file: cannot load TLS certificate|listen: {address: 127.0.0.1:PORT, tls_cert_file: $WORK/garbage.crt, tls_key_file: $WORK/a.key}\n$NOSTORE\n$TARGET"
  "key-of-another-certificate|listen.tls_key_file: .*does not belong to certificate|listen: {address: 127.0.0.1:PORT, tls_cert_file: $WORK/a.crt, tls_key_file: $WORK/b.key}\n$NOSTORE\n$TARGET"
  "storage-path-is-a-directory|storage.path: .*a-directory is a directory|listen: {address: 127.0.0.1:PORT}\nstorage: {path: $WORK/a-directory}\n$TARGET"
  "storage-path-under-a-file|storage.path: .* lies under .*a-file, which is not a directory|listen: {address: 127.0.0.1:PORT}\nstorage: {path: $WORK/a-file/db/history.db}\n$TARGET"
  "missing-snmp-profile-dir|targets\\[0\\].profile_dir: '$WORK/no-profiles' is not a directory|listen: {address: 127.0.0.1:PORT}\n$NOSTORE\ntargets:\n  - {name: sw, driver: snmp, address: 127.0.0.1, community: public, profile_dir: $WORK/no-profiles}"
  "duplicate-section|listen: duplicate key: given on line 1 and again on line 3|listen: {address: 127.0.0.1:PORT}\n$NOSTORE\nlisten: {address: 127.0.0.1:1}\n$TARGET"
  "misspelled-key|poll.intervall: unknown key 'intervall': did you mean 'interval'|listen: {address: 127.0.0.1:PORT}\npoll: {intervall: 5s}\n$NOSTORE\n$TARGET"
)

for entry in "${cases[@]}"; do
  IFS='|' read -r name expected yaml <<<"$entry"
  port=$(free_port)
  config="$WORK/$name.yaml"
  printf '%b\n' "${yaml//PORT/$port}" >"$config"
  located="^$config:[0-9]+:[0-9]+: ($expected)"
  status=0
  "$OPTICSD" check-config "$config" >"$WORK/$name.check" 2>&1 || status=$?
  [ "$status" -ne 0 ] || { cat "$config"; fail "$name: check-config passed it"; }
  grep -Eq "$located" "$WORK/$name.check" || { cat "$WORK/$name.check"; fail "$name: check-config did not say '$expected' at file:line:col"; }
  grep -q "config invalid: 1 problem(s)" "$WORK/$name.check" || { cat "$WORK/$name.check"; fail "$name: more problems than the one meant"; }
  status=0
  timeout 20 "$OPTICSD" run --config "$config" >"$WORK/$name.run" 2>&1 || status=$?
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || { cat "$WORK/$name.run"; fail "$name: run did not refuse it (exit $status)"; }
  grep -Eq "$located" "$WORK/$name.run" || { cat "$WORK/$name.run"; fail "$name: run did not say '$expected' at file:line:col"; }
  echo "agree: $name"
done

note "an empty file is named as empty by both"
: >"$WORK/empty.yaml"
"$OPTICSD" check-config "$WORK/empty.yaml" >"$WORK/empty.check" 2>&1 && fail "check-config passed an empty file"
grep -q "the file is empty" "$WORK/empty.check" || { cat "$WORK/empty.check"; fail "check-config did not say the file is empty"; }
timeout 20 "$OPTICSD" run --config "$WORK/empty.yaml" >"$WORK/empty.run" 2>&1 && fail "run accepted an empty file"
grep -q "the file is empty" "$WORK/empty.run" || { cat "$WORK/empty.run"; fail "run did not say the file is empty"; }

note "the listen forms of other exporters: ':PORT' is every IPv4 address, 'localhost:PORT' loopback"
port=$(free_port)
printf 'listen: {address: ":%s"}\n%s\n%s\n' "$port" "$NOSTORE" "$TARGET" >"$WORK/all.yaml"
"$OPTICSD" check-config "$WORK/all.yaml" >"$WORK/all.check" || { cat "$WORK/all.check"; fail "':PORT' refused"; }
grep -q "listen: 0.0.0.0:$port" "$WORK/all.check" || { cat "$WORK/all.check"; fail "':PORT' is not every IPv4 address"; }
"$OPTICSD" check-config "$WORK/all.yaml" 2>&1 >/dev/null | grep -q "warning: /metrics on 0.0.0.0:$port is open to the network without TLS or basic auth" \
  || fail "no warning for /metrics open to the network without TLS or auth"
# (not started: tests bind 127.0.0.1 only)
printf 'listen: {address: "localhost:%s"}\npoll: {interval: 300ms}\n%s\n%s\n' "$port" "$NOSTORE" "$TARGET" >"$WORK/localhost.yaml"
"$OPTICSD" check-config "$WORK/localhost.yaml" >"$WORK/localhost.check" || fail "'localhost:PORT' refused"
grep -q "listen: 127.0.0.1:$port" "$WORK/localhost.check" || { cat "$WORK/localhost.check"; fail "localhost is not 127.0.0.1"; }
start_daemon "$WORK/localhost.yaml" "$WORK/localhost.log"
wait_polled "$port" 1 one
metric_has "$port" 'target="one"' || { cat "$WORK/localhost.log"; fail "run did not serve 'localhost:PORT' on 127.0.0.1"; }
stop_opticsd

note "a good TLS + auth config passes both"
port=$(free_port)
printf 'listen: {address: 127.0.0.1:%s, basic_auth_user: p, basic_auth_password_file: %s, tls_cert_file: %s, tls_key_file: %s}\npoll: {interval: 300ms}\nstorage: {path: %s}\n%s\n' \
  "$port" "$WORK/pass" "$WORK/a.crt" "$WORK/a.key" "$WORK/state/history.db" "$TARGET" >"$WORK/good.yaml"
"$OPTICSD" check-config "$WORK/good.yaml" >"$WORK/good.check" || { cat "$WORK/good.check"; fail "a good config was refused"; }
start_opticsd "$WORK/good.log" run --config "$WORK/good.yaml"
served() { curl -skf -u p:secret-pass "https://127.0.0.1:$port/metrics" | grep -q 'target="one"'; }
wait_for 100 served || { cat "$WORK/good.log"; fail "run did not serve the good config"; }
stop_opticsd
echo PASS
