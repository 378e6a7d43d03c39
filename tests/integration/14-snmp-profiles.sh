#!/usr/bin/env bash
# needs-drivers: snmp
# Every shipped SNMP profile through the real daemon: one snmpsim agent serves
# the Arista EOS, SONiC, Cisco NX-OS and IOS-XE, Juniper, Nokia SR OS, IP
# Infusion OcNOS and Dell OS9 fixtures (community = fixture), the
# daemon picks each profile by sysObjectID (none is named in the config), and
# every target comes up with module values, lane Rx power and identity on a
# scrape that passes promtool, with no poll errors.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need snmpsimd
need snmpget
need promtool
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
FIXTURES="$OPTICSD_SOURCE_DIR/tests/fixtures/snmp"
PROFILES=(arista-eos sonic cisco-entity-sensor cisco-iosxe cisco-iosxr juniper-dom nokia-sros ipinfusion-ocnos dell-os9)  # fixture names

files=()
for p in "${PROFILES[@]}"; do files+=("$FIXTURES/$p.snmprec"); done
start_snmpsim fleet "${files[@]}"
for p in "${PROFILES[@]}"; do
  [ -f "$WORK/snmpsim-fleet/data/$p.snmprec" ] || fail "fixture $p.snmprec not served"
done
PORT=$(free_port)  # set here: write_config runs in the pipeline's subshell
{
  echo "poll: {interval: 1s, timeout: 5s}"
  echo "storage: {enabled: false}"
  echo "targets:"
  for p in "${PROFILES[@]}"; do
    # IOS-XR shares Cisco's sysObjectID subtree: its profile is chosen by name.
    profile=""
    [ "$p" = cisco-iosxr ] && profile=", profile: cisco-iosxr"
    echo "  - {name: sw-$p, driver: snmp, address: '127.0.0.1:$SNMPSIM_PORT', community: $p, timeout: 8s, retries: 1$profile}"
  done
} | write_config "$WORK/opticsd.yaml"
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 1
for p in "${PROFILES[@]}"; do
  target_up_is "$PORT" "sw-$p" 1 || { cat "$WORK/run.log"; fail "sw-$p did not come up on its first poll"; }
done
sleep 2
scrape "$PORT" >"$WORK/scrape.txt"
promtool check metrics <"$WORK/scrape.txt" || fail "promtool check metrics failed"
for p in "${PROFILES[@]}"; do
  t="sw-$p"
  modules=$(grep -c "^opticsd_module_present{target=\"$t\"" "$WORK/scrape.txt" || true)
  rx=$(grep -c "^opticsd_lane_rx_power_dbm{target=\"$t\"" "$WORK/scrape.txt" || true)
  temp=$(grep -c "^opticsd_module_temperature_celsius{target=\"$t\"" "$WORK/scrape.txt" || true)
  echo "$t: modules=$modules rx_lanes=$rx temperatures=$temp"
  [ "$modules" -ge 1 ] || fail "$t: no modules"
  [ "$rx" -ge 1 ] || fail "$t: no lane Rx power"
  # cisco-iosxr reads no temperature: no public source names IOS-XR's temperature sensor.
  [ "$temp" -ge 1 ] || [ "$p" = cisco-iosxr ] || fail "$t: no module temperature"
  grep -q "^opticsd_poll_errors_total{.*target=\"$t\".*} [1-9]" "$WORK/scrape.txt" && fail "$t: poll errors"
  grep -Eq "^opticsd_target_modules\{.*target=\"$t\".*\} $modules\$" "$WORK/scrape.txt" \
    || fail "$t: opticsd_target_modules is not the $modules modules exported"
  grep -E "^opticsd_lane_rx_power_dbm\{target=\"$t\"" "$WORK/scrape.txt" | awk '{ if ($NF < -40 || $NF > 10) bad = 1 } END { exit bad }' \
    || fail "$t: an Rx power outside -40..10 dBm (scaling?)"
done
grep -q 'opticsd_module_info{target="sw-arista-eos".*vendor="' "$WORK/scrape.txt" || fail "no identity from the Arista profile"
# OcNOS numbers its transceivers itself: named by the MIB index, never by the
# ifIndex that happens to share the number (9 is eth0 in the fixture).
grep -Eq '^opticsd_lane_rx_power_dbm\{target="sw-ipinfusion-ocnos".*port="cmmTrans1\.49"' "$WORK/scrape.txt" \
  || fail "OcNOS transceiver 1.49 is not named cmmTrans1.49"
grep -Eq '^opticsd_.*target="sw-ipinfusion-ocnos".*port="eth0"' "$WORK/scrape.txt" \
  && fail "OcNOS transceiver 9 was named after ifIndex 9 (eth0)"
# Junos: the near-end pre-FEC BER from JNX-OPT-IF-EXT-MIB (23 x 10^-6), not the
# far end's, and the hottest lane's laser temperature (47 C).
grep -Eq '^opticsd_module_pre_fec_ber_ratio\{target="sw-juniper-dom".*port="et-0/0/2".*\} 2\.3e-0?5$' "$WORK/scrape.txt" \
  || { grep pre_fec "$WORK/scrape.txt"; fail "Junos OTN pre-FEC BER of et-0/0/2 is not 2.3e-05"; }
grep -Eq '^opticsd_module_laser_temperature_celsius\{target="sw-juniper-dom".*port="et-0/0/2".*\} 47$' "$WORK/scrape.txt" \
  || fail "Junos laser temperature of et-0/0/2 is not the hottest lane's"
stop_opticsd

# A profile that fits no sensor of the device while ENTITY-MIB lists its
# transceivers: poll-once fails and says why; --explain shows each row.
cat >"$WORK/mismatch.yaml" <<EOF
targets:
  - {name: wrong-profile, driver: snmp, address: '127.0.0.1:$SNMPSIM_PORT', community: arista-eos, profile: cisco-entity-sensor, timeout: 10s}
  - {name: junos, driver: snmp, address: '127.0.0.1:$SNMPSIM_PORT', community: juniper-dom, timeout: 10s}
EOF
set +e
"$OPTICSD" poll-once --config "$WORK/mismatch.yaml" --explain >"$WORK/explain.json" 2>"$WORK/explain.err"
rc=$?
set -e
[ "$rc" -eq 1 ] || { cat "$WORK/explain.err"; fail "poll-once exit $rc, expected 1 (a target found 0 modules)"; }
grep -q "target wrong-profile: profile cisco-entity-sensor found 0 modules, but ENTITY-MIB lists" "$WORK/explain.err" \
  || { cat "$WORK/explain.err"; fail "poll-once does not say why 0 modules"; }
grep -q "explain junos: profile juniper-dom (" "$WORK/explain.err" || fail "--explain names no profile"
grep -q "explain junos: jnxDomCurrentEntry.517: row skipped (no module): all_zero" "$WORK/explain.err" \
  || { cat "$WORK/explain.err"; fail "--explain does not show the empty cage skipped"; }
python3 - "$WORK/explain.json" <<'PY' || fail "poll-once JSON: wrong ok flags or an empty-cage module"
import json, sys
targets = {t["target"]: t for t in json.load(open(sys.argv[1]))["targets"]}
assert targets["wrong-profile"]["ok"] is False, targets["wrong-profile"]
assert targets["junos"]["ok"] is True
assert sorted(s["port"] for s in targets["junos"]["samples"]) == ["et-0/0/2", "ge-1/0/0"], targets["junos"]["samples"]
assert any("row skipped" in line for line in targets["junos"]["explain"])
PY
# A path that loses the first copy of every request: with 'timeout: 2s,
# retries: 3' each try waits 500 ms, so the retries fit inside the poll's
# deadline and the walk goes on (to its max_varbinds cap: the agent's table
# never ends). A try as long as the deadline would end the poll at 2 s with
# "no answer within 2000 ms".
LOSSY_PORT=$(free_port)
python3 "$OPTICSD_SOURCE_DIR/tests/integration/snmp/misbehaving_agent.py" "$LOSSY_PORT" >"$WORK/lossy.out" 2>&1 &
PIDS+=($!)
wait_for 50 grep -q ready "$WORK/lossy.out" || fail "misbehaving_agent.py did not start"
cat >"$WORK/lossy.yaml" <<EOF
targets:
  - {name: lossy, driver: snmp, address: '127.0.0.1:$LOSSY_PORT', community: lossy, profile: sonic, timeout: 2s, retries: 3, max_repetitions: 50, max_varbinds: 60}
EOF
set +e
"$OPTICSD" poll-once --config "$WORK/lossy.yaml" >"$WORK/lossy.json" 2>"$WORK/lossy.err"
set -e
grep -q "exceeded 60 varbinds (max_varbinds)" "$WORK/lossy.err" \
  || { cat "$WORK/lossy.err"; fail "retries did not carry the walks through the lossy path within the deadline"; }
grep -q "no answer within" "$WORK/lossy.err" && { cat "$WORK/lossy.err"; fail "the poll deadline came before the retries"; }
echo PASS
