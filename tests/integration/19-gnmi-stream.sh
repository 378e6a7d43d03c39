#!/usr/bin/env bash
# needs-drivers: gnmi sim
# gNMI end to end through `opticsd run`: two test targets stream OpenConfig
# transceiver data (one in PROTO with decimal64/double values, one in
# JSON_IETF with updates_only and a heartbeat), a third is polled (POLL
# mode), beside a simulated leaf. Checks: the STREAM subscription asks SAMPLE
# for values and ON_CHANGE for oper-status; lane values reach /metrics; a flapping link is seen between samples (ON_CHANGE); paths the
# variant does not map are logged and ignored; and a lane whose Rx falls 10 dB
# raises the same finding as the simulator's dirty connector; the channels'
# avg/min/max reach /metrics at the full export detail only, a streamed rx-los
# lands on its lane.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/gnmi/gnmi_lib.sh"
need curl
need_gnmi_target

PROTO_PORT=$(free_port)
JSON_PORT=$(free_port)
start_gnmi_target leaf-g "$PROTO_PORT" --encodings PROTO,JSON_IETF --degrade-lane Ethernet1:3 --degrade-seconds 3 \
  --flap-every 1.5 --unknown-paths
start_gnmi_target leaf-j "$JSON_PORT" --encodings JSON_IETF
POLL_PORT=$(free_port)
start_gnmi_target leaf-p "$POLL_PORT" --los-lane Ethernet1:5

write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 500ms, timeout: 3s}
storage: {path: $WORK/state/history.db}
targets:
  - {name: leaf-g, driver: gnmi, address: 127.0.0.1:$PROTO_PORT, tls: false, sample_interval: 4s}
  - {name: leaf-j, driver: gnmi, address: 127.0.0.1:$JSON_PORT, tls: false, interval: 500ms, updates_only: true, heartbeat_interval: 2s,
     export: {detail: full}}
  - {name: leaf-p, driver: gnmi, address: 127.0.0.1:$POLL_PORT, tls: false, mode: poll}
  - name: leaf-s
    driver: sim
    module: osfp-800g-2fr4
    ports: 2
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 1, onset: 0s, ramp: 3s}
YAML
"$OPTICSD" check-config "$WORK/opticsd.yaml" >"$WORK/check.out" 2>&1 || { cat "$WORK/check.out"; fail "check-config rejected gnmi targets"; }
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 1

note "steady stream: lane values on /metrics (PROTO and JSON_IETF)"
for target in leaf-g leaf-j leaf-p; do
  wait_for 100 metric_has "$PORT" "^opticsd_lane_rx_power_dbm\{.*target=\"$target\"" \
    || { cat "$WORK/run.log"; scrape "$PORT" | grep -E "$target" | head; fail "no lane Rx power from $target"; }
  wait_for 50 metric_has "$PORT" "^opticsd_target_up\{.*target=\"$target\".*\} 1" || fail "$target is not up"
done
text=$(scrape "$PORT")
[ "$(grep -Ec '^opticsd_lane_rx_power_dbm\{.*target="leaf-g",port="Ethernet1"' <<<"$text")" -eq 8 ] \
  || fail "the 800G DR8 port does not have 8 lanes"
[ "$(grep -Ec '^opticsd_lane_rx_power_dbm\{.*target="leaf-j",port="Ethernet2"' <<<"$text")" -eq 4 ] \
  || fail "the 400G DR4 port (JSON_IETF) does not have 4 lanes"
grep -Eq '^opticsd_lane_tx_bias_amperes\{.*target="leaf-j",port="Ethernet2".*\} 0.0075$' <<<"$text" \
  || { grep bias <<<"$text" | head -3; fail "JSON_IETF bias value is not 7.5 mA"; }

note "channel avg/min/max at full detail only; channel flags on the lane"
for stat in rx_power_min_dbm rx_power_max_dbm rx_power_avg_dbm tx_power_min_dbm tx_power_max_dbm tx_power_avg_dbm \
  tx_bias_min_amperes tx_bias_max_amperes tx_bias_avg_amperes; do
  [ "$(grep -Ec "^opticsd_lane_${stat}\{.*target=\"leaf-j\",port=\"Ethernet2\"" <<<"$text")" -eq 4 ] \
    || { grep -E "leaf-j.*Ethernet2" <<<"$text" | head -20; fail "leaf-j (export detail full) lacks $stat on 4 lanes"; }
  grep -Eq "^opticsd_lane_${stat}\{.*target=\"leaf-g\"" <<<"$text" && fail "$stat exported at the default detail"
done
grep -Eq '^opticsd_lane_tx_bias_max_amperes\{.*target="leaf-j",port="Ethernet2".*\} 0.00775$' <<<"$text" \
  || { grep bias_max <<<"$text" | head -3; fail "JSON_IETF bias max is not 7.75 mA"; }
grep -Eq '^opticsd_lane_tx_power_min_dbm\{.*target="leaf-j",port="Ethernet2",lane="1".*\} 0.5$' <<<"$text" \
  || { grep tx_power_min <<<"$text" | head -3; fail "JSON_IETF Tx power min is not 0.5 dBm"; }
wait_for 50 metric_has "$PORT" '^opticsd_lane_rx_los\{.*target="leaf-p",port="Ethernet1",lane="5".*\} 1' \
  || { scrape "$PORT" | grep -E 'rx_los' | head; fail "the streamed rx-los of lane 5 is not on /metrics"; }
[ "$(scrape "$PORT" | grep -Ec '^opticsd_lane_rx_los\{.*target="leaf-p"')" -eq 1 ] || fail "rx-los raised on other lanes"

note "the subscription: STREAM, SAMPLE for values, ON_CHANGE for oper-status"
streaming() { grep -q '"mode": "STREAM"' "$WORK/leaf-g.requests" && grep -q '"mode": "STREAM"' "$WORK/leaf-j.requests"; }
wait_for 50 streaming || fail "no STREAM subscription after the first ONCE"
polls_seen() { [ "$(grep -c '"rpc": "Poll"' "$WORK/leaf-p.requests")" -ge 2 ]; }
wait_for 50 polls_seen || fail "leaf-p (mode: poll) was not sent a Poll request each poll"
python3 - "$WORK/leaf-g.requests" "$WORK/leaf-j.requests" "$WORK/leaf-p.requests" <<'PY' || fail "subscriptions are not what they should be"
import json, sys
# mode: poll: one POLL subscription, a Poll request every poll.
p = [json.loads(l) for l in open(sys.argv[3])]
assert [r["mode"] for r in p if r["rpc"] == "Subscribe"] == ["POLL"], p
assert sum(r["rpc"] == "Poll" for r in p) >= 2, p
def requests(path):
    return [json.loads(l) for l in open(path) if '"Subscribe"' in l]
g, j = requests(sys.argv[1]), requests(sys.argv[2])
assert g[0]["mode"] == "ONCE", g[0]
stream = [r for r in g if r["mode"] == "STREAM"]
assert stream, g
modes = {p: (m, i) for p, m, i, _ in stream[0]["subscriptions"]}
assert modes["/interfaces/interface/state/oper-status"][0] == "ON_CHANGE", modes
assert modes["/components/component/transceiver/physical-channels/channel/state"] == ("SAMPLE", 4_000_000_000), modes
assert stream[0]["encoding"] == "PROTO", stream[0]
assert all(r["encoding"] == "JSON_IETF" for r in j), j
# updates_only: the ONCE snapshot is whole; the STREAM after it asks only for changes.
assert j[0]["mode"] == "ONCE" and not j[0]["updates_only"], j[0]
j_stream = [r for r in j if r["mode"] == "STREAM" and r["updates_only"]]
assert j_stream, j
beats = {h for _, m, _, h in j_stream[0]["subscriptions"] if m == "ON_CHANGE"}
assert beats == {2_000_000_000}, beats
samples = {i for _, m, i, _ in j_stream[0]["subscriptions"] if m == "SAMPLE"}
assert samples == {500_000_000}, samples  # the target's own poll interval, where no sample_interval is given
print("leaf-g:", len(g), "subscriptions; leaf-j encoding JSON_IETF")
PY

note "ON_CHANGE flap seen between 4 s samples"
seen_down=0 seen_up=0
for _ in $(seq 1 40); do
  text=$(scrape "$PORT")
  grep -Eq '^opticsd_link_up\{.*target="leaf-g",port="Ethernet2".*\} 0' <<<"$text" && seen_down=1
  grep -Eq '^opticsd_link_up\{.*target="leaf-g",port="Ethernet2".*\} 1' <<<"$text" && seen_up=1
  [ $seen_down = 1 ] && [ $seen_up = 1 ] && break
  sleep 0.25
done
[ $seen_down = 1 ] && [ $seen_up = 1 ] || fail "the 1.5 s flap of Ethernet2 was not seen (down=$seen_down up=$seen_up)"

note "unknown paths are logged once and ignored"
grep -q 'gnmi target=leaf-g ignores .* e.g. /' "$WORK/run.log" || fail "no log line about unmapped paths"

note "a degrading lane over gNMI raises the finding the simulator raises"
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*target="leaf-s",port="Ethernet1"' \
  || fail "the simulated dirty connector raised nothing"
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*target="leaf-g",port="Ethernet1".*rule="rx_power_low"' \
  || { scrape "$PORT" | grep -E 'leaf-g' | grep -E 'lane="3"' ; fail "the degrading gNMI lane raised no rx_power_low"; }
text=$(scrape "$PORT")
rules() { grep -E "^opticsd_finding\{.*target=\"$1\",port=\"Ethernet1\"" <<<"$text" | grep -Eo 'rule="[^"]+"' | sort -u; }
common=$(comm -12 <(rules leaf-s) <(rules leaf-g))
echo "sim: $(rules leaf-s | tr '\n' ' ')  gnmi: $(rules leaf-g | tr '\n' ' ')"
grep -q 'rule="rx_power_low"' <<<"$common" || fail "gNMI and sim do not share the rx_power_low finding"
grep -Eq '^opticsd_finding\{.*target="leaf-j",port="Ethernet2"' <<<"$text" && fail "a finding on the healthy JSON_IETF port"

stop_opticsd
echo "PASS"
