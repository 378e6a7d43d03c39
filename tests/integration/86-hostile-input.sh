#!/usr/bin/env bash
# needs-drivers: snmp
# Hostile values from agents: non-UTF-8 and control bytes in vendor and model
# names, 30 KB and 64 KiB strings, sensor scale/precision codes at their
# extremes, negative and zero optical power, and a profile (profile_dir) whose
# divisor of 0 turns every reading into ±Inf or NaN. The daemon stays up,
# /metrics passes `promtool check metrics` with no NaN or Inf sample, labels
# are escaped and capped, history keeps working and poll-once prints valid JSON.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need promtool
need snmpsimd
need snmpget
FIXTURES="$OPTICSD_SOURCE_DIR/tests/fixtures/snmp"
PROFILES="$OPTICSD_SOURCE_DIR/schemas/snmp-profiles"

mkdir -p "$WORK/fixtures" "$WORK/profiles"
long30k=$(head -c 30000 /dev/zero | tr '\0' S)
long64k=$(head -c 65536 /dev/zero | tr '\0' M)
# hostile: Arista layout with bad identity bytes and extreme sensor encodings.
sed -E \
  -e 's/^(1\.3\.6\.1\.2\.1\.47\.1\.1\.1\.1\.12\.100301100)\|4\|.*/\1|4x|fffe41c3280a225c7be280ae00ff/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.47\.1\.1\.1\.1\.13\.100301100)\|4\|.*/\1|4x|534650073a1b5b316d4c52/' \
  -e "s/^(1\\.3\\.6\\.1\\.2\\.1\\.47\\.1\\.1\\.1\\.1\\.11\\.100349100)\\|4\\|.*/\\1|4|$long30k/" \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.2\.100301201)\|2\|.*/\1|2|17/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.3\.100301201)\|2\|.*/\1|2|-8/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.4\.100301201)\|2\|.*/\1|2|2147483647/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.4\.100301212)\|2\|.*/\1|2|-5000/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.2\.100349201)\|2\|.*/\1|2|1/' \
  -e 's/^(1\.3\.6\.1\.2\.1\.99\.1\.1\.1\.3\.100349201)\|2\|.*/\1|2|9/' \
  "$FIXTURES/arista-eos.snmprec" >"$WORK/fixtures/hostile.snmprec"
# huge: a 64 KiB model name, more than one UDP datagram can carry.
sed -E "s/^(1\\.3\\.6\\.1\\.2\\.1\\.47\\.1\\.1\\.1\\.1\\.13\\.100301100)\\|4\\|.*/\\1|4|$long64k/" \
  "$FIXTURES/arista-eos.snmprec" >"$WORK/fixtures/huge.snmprec"
[ "$(cmp -l "$FIXTURES/arista-eos.snmprec" "$WORK/fixtures/hostile.snmprec" 2>/dev/null | wc -l)" -gt 0 ] || fail "hostile fixture unchanged"
# zero: JUNIPER-DOM values through a profile whose divisor is 0 (refused at
# load) or 1e-308 (accepted: every non-zero reading overflows to ±Inf).
zero_profile() {
  sed -E -e 's/^name: .*/name: juniper-zero/' -e 's/^sys_object_id: .*/sys_object_id: 1.3.6.1.4.1.99999.1/' \
    -e "s/divisor: [0-9]+/divisor: $1/g" "$PROFILES/juniper-dom.yaml" >"$WORK/profiles/juniper-zero.yaml"
  grep -q "divisor: $1" "$WORK/profiles/juniper-zero.yaml" || fail "profile has no divisor $1"
}
zero_profile 0
sed -E 's/^(1\.3\.6\.1\.4\.1\.2636\.3\.60\.1\.1\.1\.1\.5\.516)\|2\|.*/\1|2|0/' "$FIXTURES/juniper-dom.snmprec" \
  >"$WORK/fixtures/zero.snmprec"
start_snmpsim agent "$WORK/fixtures/hostile.snmprec" "$WORK/fixtures/huge.snmprec" "$WORK/fixtures/zero.snmprec"
AGENT=$SNMPSIM_PORT

write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 500ms, max_backoff: 1s}
storage: {path: $WORK/state/history.db}
targets:
  - {name: sane, driver: sim, ports: 2, lanes: 4}
  - {name: hostile, driver: snmp, address: 127.0.0.1, port: $AGENT, community: hostile, profile: arista-eos, timeout: 2s, retries: 0}
  - {name: huge, driver: snmp, address: 127.0.0.1, port: $AGENT, community: huge, profile: arista-eos, timeout: 1s, retries: 0}
  - {name: zero, driver: snmp, address: 127.0.0.1, port: $AGENT, community: zero, profile: juniper-zero, profile_dir: [$WORK/profiles], timeout: 2s, retries: 0}
YAML
"$OPTICSD" check-config "$WORK/opticsd.yaml" >"$WORK/check0.out" 2>&1 && fail "a profile with divisor 0 was accepted"
grep -q 'divisor' "$WORK/check0.out" || fail "the refusal does not name the divisor"
zero_profile 1e-308
"$OPTICSD" check-config "$WORK/opticsd.yaml" >"$WORK/check.out" 2>&1 || { cat "$WORK/check.out"; fail "check-config refused the hostile-input config"; }
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1  # every target, huge and zero included, has been polled
wait_for 100 target_up_is "$PORT" hostile 1 || { cat "$WORK/daemon.log"; fail "hostile target never polled successfully"; }
sleep 2
kill -0 "$OPTICSD_PID" || fail "daemon died on hostile input"
scrape "$PORT" >"$WORK/metrics.txt"

note "exposition stays valid"
promtool check metrics <"$WORK/metrics.txt" >"$WORK/promtool.out" 2>&1 || { cat "$WORK/promtool.out"; fail "promtool check metrics failed on hostile input"; }
bad=$(awk '$0 !~ /^#/ && ($NF ~ /^[+-]?(Inf|NaN)$/ || $NF ~ /^[+-]?inf$|^nan$/)' "$WORK/metrics.txt" | grep -v '_bucket{' || true)
[ -z "$bad" ] || { echo "$bad" | head -5; fail "NaN or Inf exported as a sample value"; }
python3 - "$WORK/metrics.txt" <<'PY' || fail "exposition is not valid UTF-8 or has an over-long label"
import re, sys, unicodedata
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8")  # raises on invalid UTF-8
for line in text.splitlines():
    if line.startswith("#"):
        continue
    for value in re.findall(r'="((?:[^"\\]|\\.)*)"', line):
        assert len(value.encode()) <= 1024, f"label value of {len(value)} bytes: {line[:120]}"
        assert "\n" not in value and "\x00" not in value and "\x1b" not in value, line[:120]
        # No control, invisible or direction-changing character (U+202E in the
        # hostile vendor bytes) may reach a dashboard unescaped.
        hidden = [c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
        assert not hidden, f"unescaped {[hex(ord(c)) for c in hidden]} in label: {line[:120]}"
PY
note "impossible values are dropped and counted, not exported"
# Sensor scale yotta (17) with 2147483647 is ~2e33 degrees: no module reports that.
absurd=$(awk '$0 !~ /^#/ && $1 ~ /^opticsd_(module|lane)_[a-z_]*(celsius|volts|dbm|milliamperes|ratio)\{/ {
  v = $NF + 0; if (v > 1000 || v < -1000) print }' "$WORK/metrics.txt")
[ -z "$absurd" ] || { echo "$absurd" | head -3; fail "an impossible value was exported"; }
implausible=$(grep -E '^opticsd_implausible_values_total\{.*target="hostile"' "$WORK/metrics.txt" | awk '{print $NF}')
awk -v n="${implausible:-0}" 'BEGIN { exit !(n > 0) }' || fail "dropped impossible values were not counted (got '${implausible}')"
info=$(grep '^opticsd_module_info{.*target="hostile".*port="Ethernet1"' "$WORK/metrics.txt" || true)
[ -n "$info" ] || fail "no module_info for the hostile module"
echo "hostile identity: ${info:0:300}"
# The bad bytes (ff fe) must leave a visible mark, escaped (\xFF) or replaced
# (? or U+FFFD), with the valid bytes around them kept.
grep -Eq 'vendor="(\\{1,2}x[Ff][EeFf]|\?|�){2}A' <<<"$info" || fail "non-UTF-8 vendor bytes not escaped or replaced visibly"
serial=$(grep -o 'serial="S*' <<<"$(grep '^opticsd_module_info{.*target="hostile".*port="Ethernet49"' "$WORK/metrics.txt")" | head -1)
[ "${#serial}" -gt 8 ] && [ "${#serial}" -le 300 ] || fail "30 KB serial not capped (label of ${#serial} chars)"
grep -Eq '^opticsd_lane_rx_power_dbm\{.*target="hostile"' "$WORK/metrics.txt" || fail "hostile target's valid lanes are missing"
grep -Eq '^opticsd_lane_rx_power_dbm\{.*target="zero"' "$WORK/metrics.txt" \
  && grep -E '^opticsd_lane_rx_power_dbm\{.*target="zero"' "$WORK/metrics.txt" | grep -Eqv ' -?[0-9.e+-]+$' \
  && fail "zero-divisor target exported a non-finite power"
a=$(polls "$PORT" sane); sleep 1
[ "$(polls "$PORT" sane)" -gt "$a" ] || fail "the sane target stopped polling"

note "poll-once prints valid JSON for the same targets"
"$OPTICSD" poll-once --config "$WORK/opticsd.yaml" -t hostile -t zero >"$WORK/poll.json" 2>"$WORK/poll.err" || true
python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/poll.json" \
  || { head -c 600 "$WORK/poll.err"; fail "poll-once output is not valid JSON on hostile input"; }
grep -q 'hostile' "$WORK/poll.json" || fail "poll-once printed nothing for the hostile target"

note "history keeps working"
stop_opticsd
grep -Eq 'flush incomplete|writes failing' "$WORK/daemon.log" && fail "the store failed on hostile values"
"$OPTICSD" history --db "$WORK/state/history.db" --target hostile --port Ethernet1 --format json >"$WORK/history.json" \
  || fail "history of the hostile module cannot be read"
python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$WORK/history.json" \
  || fail "history --format json is not valid JSON on hostile input"
echo PASS
