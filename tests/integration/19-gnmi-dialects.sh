#!/usr/bin/env bash
# needs-drivers: gnmi
# gNMI as other devices send it, over real gRPC: the test target speaks each
# dialect (tests/integration/gnmi/gnmi_target.py --dialect, built from the
# public models) and `opticsd poll-once --explain` polls it with the variant
# drivers/gnmi/README.md tells that user to pick. Checks: every lane of both
# ports lands on the right lane number with the value sent (module-qualified
# names with origin rfc7951 and channels 1..N; Junos native with float32
# bytes_val and lane_number from 0; IOS-XR native keyless lane-data in 0.01
# dBm; SR Linux native channel[index] from 1), and --explain names the
# subscription, the channel base and a rule per path.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/gnmi/gnmi_lib.sh"
need_gnmi_target

check_dialect() {
  local dialect=$1 variant=$2 port_a=$3 port_b=$4 base=$5
  local port
  port=$(free_port)
  start_gnmi_target "t-$dialect" "$port" --encodings PROTO --dialect "$dialect"
  cat >"$WORK/$dialect.yaml" <<YAML
targets:
  - {name: $dialect, driver: gnmi, address: 127.0.0.1:$port, tls: false, variant: $variant, connect_timeout: 5s}
YAML
  set +e
  "$OPTICSD" poll-once --config "$WORK/$dialect.yaml" --explain >"$WORK/$dialect.json" 2>"$WORK/$dialect.err"
  local rc=$?
  set -e
  [ "$rc" -eq 0 ] || { cat "$WORK/$dialect.err"; fail "$dialect: poll-once exit $rc"; }
  python3 - "$WORK/$dialect.json" "$port_a" "$port_b" "$base" <<'PY' || { cat "$WORK/$dialect.err"; fail "$dialect: wrong lanes or values"; }
import json, sys
path, port_a, port_b, base = sys.argv[1:5]
target = json.load(open(path))["targets"][0]
samples = {s["port"]: s for s in target["samples"]}
assert set(samples) >= {port_a, port_b}, sorted(samples)
for port, lanes in ((port_a, 8), (port_b, 4)):
    got = {l["lane"]: l.get("rx_power_dbm") for l in samples[port].get("lanes", [])}
    assert sorted(got) == list(range(1, lanes + 1)), (port, sorted(got))
    for lane, rx in got.items():
        # the target sends -1.5 - 0.1 x lane (+- 0.02) for lane n, whatever its numbering
        assert rx is not None and abs(rx - (-1.5 - 0.1 * lane)) < 0.03, (port, lane, rx)
explain = target["explain"]
assert any(line.startswith("subscription sent: ONCE") for line in explain), explain[:3]
assert any(line.startswith("channel base: channel " + base + " is lane 1") for line in explain), explain[:3]
assert any(": mapped by " in line for line in explain), explain[:5]
PY
  note "$dialect: both ports, every lane, with variant $variant"
}

check_dialect openconfig openconfig Ethernet1 Ethernet2 0
check_dialect qualified openconfig Ethernet1 Ethernet2 1
check_dialect junos junos et-0/0/0 et-0/0/1 0
check_dialect iosxr iosxr Optics0/0/0/0 Optics0/0/0/1 1
check_dialect srlinux srlinux ethernet-1/1 ethernet-1/2 1

# The wrong variant for a device: nothing maps, and --explain says why per path.
port=$(free_port)
start_gnmi_target t-wrong "$port" --encodings PROTO --dialect junos
cat >"$WORK/wrong.yaml" <<YAML
targets:
  - {name: wrong, driver: gnmi, address: 127.0.0.1:$port, tls: false, variant: openconfig, connect_timeout: 5s}
YAML
set +e
"$OPTICSD" poll-once --config "$WORK/wrong.yaml" --explain >"$WORK/wrong.json" 2>"$WORK/wrong.err"
set -e
grep -q "explain wrong: /interfaces/interface\[name=et-0/0/0\]/optics/module_temp: ignored: no rule for leaf 'module_temp'" \
  "$WORK/wrong.err" || { cat "$WORK/wrong.err"; fail "--explain does not say why a Junos path is ignored"; }
echo PASS
