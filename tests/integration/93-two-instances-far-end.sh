#!/usr/bin/env bash
# A link's far end served by another opticsd instance, seen from the near
# instance's optic page and from `opticsd explain` (issues 31 item 3, 28 item 5):
#
#   "host"   gpu-node-2, the simulator's port eth1, its listener behind basic auth;
#   "switch" leaf-2, whose Ethernet2 has gpu-node-2 eth1 at its far end (topology),
#            with history.
#
# The switch starts with no `instances:`; reloads (SIGHUP) then name the host
# without credentials, then with them, and change listen.external_url. Asserted:
# - each reload applies at once: the page's far end goes from "no instance is
#   configured" to a clear 401 to the host's values; opticsd_web_info carries
#   the new external_url only; neither key is logged as waiting for a restart;
# - explain --config prints the far end's page link in the host instance and,
#   per lane, both directions with the loss; the password appears nowhere;
# - with the host stopped, explain says so in one line, prints the rest of the
#   story and succeeds.
source "$(dirname "$0")/lib.sh"
need curl
need python3

HOST_PORT=$(free_port)
PORT=$(free_port)
HOST="http://127.0.0.1:$HOST_PORT"
printf 'far-end-secret-pw\n' >"$WORK/host-password"
chmod 600 "$WORK/host-password"
cat >"$WORK/host.yaml" <<YAML
listen: {address: 127.0.0.1:$HOST_PORT, basic_auth_user: opticsd, basic_auth_password_file: $WORK/host-password}
poll: {interval: 500ms, timeout: 2s}
storage: {enabled: false}
targets:
  - {name: gpu-node-2, driver: sim, ports: 1, lanes: 8, port_prefix: eth}
YAML
# switch_config EXTERNAL_URL [INSTANCES_YAML]
switch_config() {
  write_config "$WORK/switch.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT, external_url: "$1"}
poll: {interval: 500ms, timeout: 2s}
storage: {path: $WORK/history.db}
targets:
  - {name: leaf-2, driver: sim, ports: 2, lanes: 8}
topology:
  links:
    - {switch: leaf-2, port: Ethernet2, host: gpu-node-2, nic: eth1, peer_switch: gpu-node-2, peer_port: eth1}
${2:-}
YAML
}
switch_config "https://optics-a.example.net"

start_opticsd "$WORK/host.log" run --config "$WORK/host.yaml"
HOST_PID=$OPTICSD_PID
wait_for 150 sh -c "curl -sf -u opticsd:far-end-secret-pw '$HOST/metrics' | grep -q 'target=\"gpu-node-2\",port=\"eth1\"'" ||
  { cat "$WORK/host.log"; fail "the host instance serves nothing for gpu-node-2 eth1"; }
start_daemon "$WORK/switch.yaml" "$WORK/switch.log"
wait_polled "$PORT" 1

# far_end FIELD: the switch page's far end of leaf-2 Ethernet2, one field as JSON.
far_end() {
  curl -sf --max-time 10 "http://127.0.0.1:$PORT/optic?target=leaf-2&port=Ethernet2&format=json" |
    python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["far_end"].get(sys.argv[1])))' "$1"
}
far_end_says() { far_end "$1" | grep -q -- "$2"; }
reloads() { grep -c "config reloaded" "$WORK/switch.log" || true; }
reload() {
  local before
  before=$(reloads)
  kill -HUP "$OPTICSD_PID"
  wait_for 100 sh -c "[ \$(grep -c 'config reloaded' '$WORK/switch.log') -gt $before ]" ||
    { cat "$WORK/switch.log"; fail "the reload did not happen"; }
}

note "no instances: yet: the page says so"
wait_for 50 far_end_says error "no instance is configured" || { far_end error; fail "far end without instances:"; }
metric_has "$PORT" '^opticsd_web_info\{external_url="https://optics-a.example.net"\} 1' || fail "no opticsd_web_info"

note "reload: instances: names the host, without credentials; a new external_url"
switch_config "https://optics-b.example.net" "instances: [{url: \"$HOST\", targets: [\"gpu-node-*\"]}]"
reload
wait_for 50 far_end_says error "answered 401 Unauthorized: it wants basic auth credentials and none are configured" ||
  { far_end error; fail "the 401 is not reported clearly"; }
metric_has "$PORT" '^opticsd_web_info\{external_url="https://optics-b.example.net"\} 1' || fail "external_url not applied on reload"
metric_count_is "$PORT" '^opticsd_web_info\{' 1 || fail "the old external_url is still served"

note "reload: with the host's credentials (from a file; this copy readable by others, which is warned)"
cp "$WORK/host-password" "$WORK/switch-password"
chmod 644 "$WORK/switch-password"
switch_config "https://optics-b.example.net" "instances:
  - {url: \"$HOST\", targets: [\"gpu-node-*\"], basic_auth_user: opticsd, basic_auth_password_file: $WORK/switch-password}"
reload
wait_for 50 far_end_says reachable true || { far_end error; fail "the far end is not fetched with credentials"; }
far_end lanes | python3 -c 'import json,sys
lanes = json.load(sys.stdin)
assert len(lanes) == 8 and all(l.get("their_tx_dbm") is not None and l.get("their_rx_dbm") is not None for l in lanes), lanes' ||
  fail "the far end's values are missing"
if grep -q "next restart section=listen" "$WORK/switch.log"; then fail "external_url was said to wait for a restart"; fi
grep -q "config reload: instances applied" "$WORK/switch.log" || fail "the instances reload is not logged"
grep -q "secret readable by other users path=$WORK/switch-password holds=instances\[0\].basic_auth_password_file" \
  "$WORK/switch.log" || fail "no warning for the instance's password file readable by others"

note "explain follows the far end into the host instance"
wait_for 100 "$OPTICSD" explain --config "$WORK/switch.yaml" leaf-2 Ethernet2 || fail "explain finds no history"
"$OPTICSD" explain --config "$WORK/switch.yaml" leaf-2 Ethernet2 >"$WORK/explain.txt" 2>&1 || { cat "$WORK/explain.txt"; fail "explain failed"; }
sed -n '/^Far end/,$p' "$WORK/explain.txt"
grep -qF "Far end: gpu-node-2 eth1 (instance $HOST) $HOST/optic?target=gpu-node-2&port=eth1" "$WORK/explain.txt" ||
  fail "explain does not link the far end's page in the host instance"
grep -Eq '^  lane 1: their Tx -?[0-9.]+ dBm, our Rx -?[0-9.]+ dBm, loss -?[0-9.]+ dB; our Tx -?[0-9.]+ dBm, their Rx -?[0-9.]+ dBm, loss -?[0-9.]+ dB$' \
  "$WORK/explain.txt" || fail "explain does not show both directions with the loss"
[ "$(grep -c '^  lane [0-9]: their Tx' "$WORK/explain.txt")" -eq 8 ] || fail "explain does not pair every lane"
if grep -rq "far-end-secret-pw" "$WORK/explain.txt" "$WORK/switch.log"; then fail "the password was printed"; fi

note "the host stops: explain says so in one line and tells the rest"
kill -TERM "$HOST_PID"
wait "$HOST_PID" || true
"$OPTICSD" explain --config "$WORK/switch.yaml" leaf-2 Ethernet2 >"$WORK/explain-down.txt" 2>&1 ||
  { cat "$WORK/explain-down.txt"; fail "explain failed with the far instance down"; }
sed -n '/^Far end/,$p' "$WORK/explain-down.txt"
[ "$(sed -n '/^Far end/,$p' "$WORK/explain-down.txt" | wc -l)" -eq 2 ] || fail "more than one line about the unreachable far end"
grep -q "^  its last values could not be fetched: $HOST/optic?.*cannot connect" "$WORK/explain-down.txt" ||
  fail "explain does not say the far instance is unreachable"
grep -q "^Lane  Rx power" "$WORK/explain-down.txt" || fail "explain dropped our own lanes"
stop_opticsd
echo PASS
