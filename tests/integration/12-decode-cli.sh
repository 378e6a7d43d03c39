#!/usr/bin/env bash
# `opticsd decode FILE [--json]` on the synthetic EEPROM fixtures of every
# family: the text output names the values, the JSON parses and carries the
# numbers worked out in tests/fixtures/eeprom/*/NOTE.md, a truncated dump says
# what is missing and still exits 0, a malformed or missing file is a clear
# error with a nonzero exit.
source "$(dirname "$0")/lib.sh"
need python3

FIX="$OPTICSD_SOURCE_DIR/tests/fixtures/eeprom"

# expect_text NAME REGEX...: `opticsd decode` of fixture NAME exits 0 and has a line matching each REGEX.
expect_text() {
  local name=$1 re; shift
  "$OPTICSD" decode "$FIX/$name/module.dump" >"$WORK/$name.txt" 2>"$WORK/$name.err" || fail "$name: text decode exited $?"
  for re in "$@"; do
    grep -Eq "$re" "$WORK/$name.txt" || fail "$name: no line matching '$re' in:"$'\n'"$(cat "$WORK/$name.txt")"
  done
}
# check JSONFILE PYTHON...: each PYTHON expression holds with `j` the parsed JSON and `near(a, b, tol)`.
check() {
  python3 - "$@" <<'PY' || fail "JSON check failed for $1"
import json, sys
j = json.load(open(sys.argv[1]))
def near(a, b, tol=1e-6):
    return a is not None and abs(a - b) <= tol
for expr in sys.argv[2:]:
    if not eval(expr):
        print("false: " + expr, file=sys.stderr)
        print(json.dumps(j, indent=1)[:3000], file=sys.stderr)
        sys.exit(1)
PY
}
# expect_json NAME PYTHON...: `opticsd decode --json` of fixture NAME exits 0 and each expression holds.
expect_json() {
  local name=$1; shift
  "$OPTICSD" decode "$FIX/$name/module.dump" --json >"$WORK/$name.json" 2>"$WORK/$name.err" ||
    fail "$name: json decode exited $?"
  check "$WORK/$name.json" "$@"
}

note "SFF-8472, internal calibration"
expect_text synthetic-sfp-internal-cal 'Management interface.*: sff8472 \(SFF-8472 rev' 'Vendor PN.*: SFP-10G-SR$' \
  'Module temperature +: -5\.50 degrees C' \
  'Rcvr signal avg optical power \(Lane 1\).*-40\.00 dBm \(no light\)' \
  'Transmit avg optical power \(Lane 1\).*: 0\.5000 mW / -3\.01 dBm'
expect_json synthetic-sfp-internal-cal \
  'j["identity"]["family"] == "sff8472" and j["identity"]["part_number"] == "SFP-10G-SR"' \
  'j["module"]["temperature_celsius"] == -5.5' \
  'near(j["lanes"][0]["tx_power_dbm"], -3.0103, 1e-4) and j["lanes"][0]["status"]["rx_no_light"] is True' \
  'j["lanes"][0]["rx_power_dbm"] == -40.0 and "issues" not in j'

note "SFF-8472, external calibration; SFF-8472 without DDM"
expect_text synthetic-sfp-external-cal 'Media / interface.*: 10GBASE-LR$'
expect_json synthetic-sfp-external-cal 'j["module"]["temperature_celsius"] == 15.0'
expect_json synthetic-sfp-no-ddm 'j["identity"]["has_diagnostics"] is False and "module" not in j'

note "SFF-8636 QSFP28"
expect_text synthetic-qsfp28-sr4 'Media / interface.*: 100GBASE-SR4$' 'Vendor SN.*: QSN0001\\x01$' \
  'Rcvr signal avg optical power \(Lane 4\)'
expect_json synthetic-qsfp28-sr4 'j["identity"]["family"] == "sff8636" and len(j["lanes"]) == 4' \
  'j["module"]["temperature_celsius"] == 41.25 and near(j["lanes"][0]["rx_power_dbm"], 0.0)' \
  'j["lanes"][1]["rx_power_dbm"] == -40.0 and j["lanes"][1]["status"]["rx_no_light"] is True' \
  'near(j["lane_thresholds"]["rx_power_dbm"]["high_alarm"], 5.0, 1e-3)'

note "CMIS: 400G DR4 with VDM, OSFP with two banks, flat-memory DAC"
expect_text synthetic-cmis-400g-dr4 'Management interface.*: cmis \(CMIS 5\.0\)' 'Firmware version.*: 2\.7$' \
  'VDM observables' 'Pre-FEC BER current, media input \(Lane 2\).*: 1\.00e-07'
expect_json synthetic-cmis-400g-dr4 'j["identity"]["media"] == "400GBASE-DR4"' \
  'j["module"]["temperature_celsius"] == -3.5 and near(j["module"]["supply_voltage_volts"], 3.31)' \
  'near(j["lanes"][1]["pre_fec_ber_ratio"], 1e-7, 1e-12) and len(j["vdm_observables"]) > 0'
expect_json synthetic-cmis-osfp-2banks 'j["identity"]["media"] == "800G-SR8" and len(j["lanes"]) == 16'
expect_text synthetic-cmis-flat-dac 'Passive copper.*: Yes'
expect_json synthetic-cmis-flat-dac 'j["identity"]["passive_copper"] is True and j["identity"]["has_diagnostics"] is False'

note "truncated dump: the SFP without its A2h sections"
sed '/^\[i2c=0x51/,$d' "$FIX/synthetic-sfp-internal-cal/module.dump" >"$WORK/truncated.dump"
grep -q '^\[i2c=0x50' "$WORK/truncated.dump" || fail "truncated dump lost its A0h section"
"$OPTICSD" decode "$WORK/truncated.dump" >"$WORK/truncated.txt" 2>&1 || fail "truncated dump: exit $?"
grep -Eq 'Not decoded.*A2h' "$WORK/truncated.txt" || fail "truncated dump does not say A2h is missing: $(cat "$WORK/truncated.txt")"
grep -Eq 'Vendor PN.*SFP-10G-SR' "$WORK/truncated.txt" || fail "truncated dump lost the identity"
"$OPTICSD" decode "$WORK/truncated.dump" --json >"$WORK/truncated.json" || fail "truncated dump --json: exit $?"
check "$WORK/truncated.json" 'any("A2h" in i for i in j["issues"]) and "module" not in j'

note "malformed dump: line number and offset, exit 1"
set +e
"$OPTICSD" decode "$OPTICSD_SOURCE_DIR/tests/fuzz/corpus/fuzz_eeprom_dump_file/regress-ethtool-hex-offset-past-linear-image.txt" \
  >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "malformed dump exited $rc, want 1"
grep -q 'line 2: offset 0xd040' "$WORK/bad.err" || fail "malformed dump error unclear: $(cat "$WORK/bad.err")"

note "missing file: clear error, nonzero exit"
set +e
"$OPTICSD" decode "$WORK/no-such-file.dump" >"$WORK/missing.out" 2>"$WORK/missing.err"
rc=$?
set -e
[ "$rc" != 0 ] || fail "missing file exited 0"
grep -q "cannot open $WORK/no-such-file.dump" "$WORK/missing.err" || fail "missing file error unclear: $(cat "$WORK/missing.err")"
[ ! -s "$WORK/missing.out" ] || fail "missing file wrote to stdout"

echo "PASS"
