#!/usr/bin/env bash
# needs-drivers: snmp
# SNMPv3 and community secrets never appear in logs, metrics, errors or
# poll-once output, on every error path: wrong auth and priv passwords, an
# unknown user, a wrong engine id, an agent that never answers, a wrong
# community, unreadable secret files and refused configs. Secrets are
# distinctive strings; everything opticsd printed is grepped for them. The
# user name (not a secret) must show up, which proves the error paths ran.
# Secret files and a config with inline secrets readable by other users are
# warned about at start; a 0600 secret file is not.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need snmpd
need snmpget

AUTH=AuthSecret84Zq7xKp
PRIV=PrivSecret84Wm3vJr
WRONG_AUTH=WrongAuth84Ty6pLq
WRONG_PRIV=WrongPriv84Bn5sHd
COMMUNITY=Community84Hq2Fx
SECRETS=("$AUTH" "$PRIV" "$WRONG_AUTH" "$WRONG_PRIV" "$COMMUNITY")

# Two snmpd agents with the same authPriv user and distinct engine IDs: the
# good target talks to one, the wrong-credential targets to the other
# (net-snmp keeps SNMPv3 users in one process-wide table keyed by engine ID
# and user, so good and wrong keys for the same pair would collide).
start_snmpd() {  # NAME ENGINE_ID: sets SNMPD_PORT
  SNMPD_PORT=$(free_udp_port)
  local dir="$WORK/snmpd-$1"
  mkdir -p "$dir/persist"
  cat >"$dir/snmpd.conf" <<CONF
agentAddress udp:127.0.0.1:$SNMPD_PORT
engineID $2
createUser opsuser84 SHA-256 "$AUTH" AES "$PRIV"
rouser opsuser84 priv
CONF
  snmpd -f -Lo -C -c "$dir/snmpd.conf" -p "$dir/pid" --persistentDir="$dir/persist" >"$dir/log" 2>&1 &
  PIDS+=("$!")
  wait_for 50 snmpget -v3 -l authPriv -u opsuser84 -a SHA-256 -A "$AUTH" -x AES -X "$PRIV" -r0 -t0.3 \
    "127.0.0.1:$SNMPD_PORT" 1.3.6.1.2.1.1.2.0 || { cat "$dir/log"; skip "snmpd did not start with an SNMPv3 user"; }
}
start_snmpd good goodagent84
GOOD_PORT=$SNMPD_PORT
start_snmpd bad badagent84
BAD_PORT=$SNMPD_PORT
DEAD_PORT=$(free_udp_port)
start_blackhole 127.0.0.1 "$DEAD_PORT"

# Secrets in files: one readable by others (warned), one 0600 (not warned).
printf '%s\n' "$PRIV" >"$WORK/priv-open.txt"
chmod 0644 "$WORK/priv-open.txt"
printf '%s\n' "$AUTH" >"$WORK/auth-closed.txt"
chmod 0600 "$WORK/auth-closed.txt"

PORT=$(free_port)
v3() {  # NAME PORT [extra keys]
  echo "  - {name: $1, driver: snmp, address: 127.0.0.1, port: $2, version: 3, user: opsuser84, security_level: authPriv, auth_protocol: SHA-256, priv_protocol: AES, profile: arista-eos, timeout: 400ms, retries: 0, $3}"
}
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 500ms, max_backoff: 1s}
storage: {enabled: false}
log_level: debug
targets:
$(v3 good "$GOOD_PORT" "auth_password_file: $WORK/auth-closed.txt, priv_password_file: $WORK/priv-open.txt")
$(v3 wrong-auth "$BAD_PORT" "auth_password: $WRONG_AUTH, priv_password: $PRIV")
$(v3 wrong-priv "$BAD_PORT" "auth_password: $AUTH, priv_password: $WRONG_PRIV")
$(v3 unreachable "$DEAD_PORT" "auth_password: $AUTH, priv_password: $PRIV")
$(v3 wrong-engine "$BAD_PORT" "auth_password: $AUTH, priv_password: $PRIV, engine_id: 0x80001f88aabbccddeeff0011")
  - {name: unknown-user, driver: snmp, address: 127.0.0.1, port: $BAD_PORT, version: 3, user: nosuchuser84, security_level: authPriv, auth_password: $AUTH, priv_password: $PRIV, profile: arista-eos, timeout: 400ms, retries: 0}
  - {name: wrong-community, driver: snmp, address: 127.0.0.1, port: $BAD_PORT, community: $COMMUNITY, profile: arista-eos, timeout: 400ms, retries: 0}
YAML
chmod 0644 "$WORK/opticsd.yaml"

note "daemon through every error path"
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1
wait_for 100 target_up_is "$PORT" good 1 || { cat "$WORK/daemon.log"; fail "the correctly configured SNMPv3 target never came up"; }
for t in wrong-auth wrong-priv unreachable wrong-engine unknown-user wrong-community; do
  wait_for 50 target_up_is "$PORT" "$t" 0 || fail "$t should be down"
done
sleep 2
scrape "$PORT" >"$WORK/metrics.txt"
kill -HUP "$OPTICSD_PID"  # a reload logs too
sleep 1
stop_opticsd
grep -q "secret readable by other users path=$WORK/priv-open.txt" "$WORK/daemon.log" || fail "no warning for a secret file readable by others"
grep -q "auth-closed.txt" "$WORK/daemon.log" && fail "a 0600 secret file was warned about"
grep -q "secret readable by other users path=$WORK/opticsd.yaml" "$WORK/daemon.log" \
  || fail "no warning for a config holding inline secrets that others can read"

note "poll-once through the same targets"
"$OPTICSD" poll-once --config "$WORK/opticsd.yaml" >"$WORK/poll-once.out" 2>"$WORK/poll-once.err" || true
grep -q 'opsuser84\|wrong-auth' "$WORK/poll-once.out" "$WORK/poll-once.err" || fail "poll-once reported nothing about the failing targets"

note "refused configs and unreadable secret files"
sed "s|$WORK/auth-closed.txt|$WORK/missing-$AUTH.txt|" "$WORK/opticsd.yaml" >"$WORK/missing.yaml"
"$OPTICSD" check-config "$WORK/missing.yaml" >"$WORK/check1.out" 2>&1 && fail "check-config accepted a missing secret file"
# (the missing file's name holds a secret on purpose: a path is reported, so it is the one allowed place)
sed -i "s|$WORK/missing-$AUTH.txt|$WORK/missing.txt|" "$WORK/missing.yaml"
"$OPTICSD" check-config "$WORK/missing.yaml" >"$WORK/check2.out" 2>&1 && fail "check-config accepted a missing secret file"
printf 'targets:\n  - {name: x, driver: snmp, address: 127.0.0.1, version: 3, user: u, security_level: authPriv, auth_password: %s, priv_password: short, auth_password_file: /x}\n' "$AUTH" \
  >"$WORK/bad.yaml"
"$OPTICSD" check-config "$WORK/bad.yaml" >"$WORK/check3.out" 2>&1 && fail "check-config accepted a bad v3 config"
"$OPTICSD" run --config "$WORK/bad.yaml" >"$WORK/run-bad.out" 2>&1 && fail "run accepted a bad v3 config"

note "grep everything opticsd printed for the secrets"
OUTPUTS=("$WORK/daemon.log" "$WORK/metrics.txt" "$WORK/poll-once.out" "$WORK/poll-once.err" "$WORK/check2.out"
  "$WORK/check3.out" "$WORK/run-bad.out")
for t in wrong-auth wrong-priv unreachable wrong-engine unknown-user wrong-community; do
  grep -q "poll error target=$t " "$WORK/daemon.log" || fail "no logged error for $t: that error path did not run"
  grep -q "\"target\": \"$t\"" "$WORK/poll-once.out" || fail "poll-once printed nothing for $t"
done
grep -q 'opsuser84' "$WORK/check3.out" "$WORK/daemon.log" "$WORK/poll-once.err" "$WORK/poll-once.out" \
  || note "(the user name is not in any error message either)"
leaks=0
for s in "${SECRETS[@]}"; do
  if grep -l -F "$s" "${OUTPUTS[@]}"; then
    echo "LEAK of $s:" >&2
    grep -n -F "$s" "${OUTPUTS[@]}" | cut -c1-300 >&2
    leaks=1
  fi
done
[ "$leaks" -eq 0 ] || fail "secrets leaked"
echo "checked ${#SECRETS[@]} secrets in ${#OUTPUTS[@]} outputs ($(cat "${OUTPUTS[@]}" | wc -c) bytes)"
echo PASS
