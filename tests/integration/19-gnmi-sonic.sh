#!/usr/bin/env bash
# needs-drivers: gnmi
# SONiC's FEC codeword-error bins over real gRPC: the test target speaks the
# `sonic` dialect (tests/integration/gnmi/gnmi_target.py: STATE_DB optics and
# COUNTERS_DB counters, one DB per Subscribe call, any other target refused)
# and opticsd uses the shipped `sonic` variant. Checks: poll-once makes two
# calls, one per prefix target, and prints Ethernet1's 16 bins [n, n] with
# the RS(544,514) limit (PORT_TABLE fec rs at 800G), Ethernet2 none; the
# daemon then shows the switch port's FEC tail and margin on /metrics, as a
# host port's, climbing as the target's tail does; Ethernet2 has neither.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/gnmi/gnmi_lib.sh"
need_gnmi_target

TARGET_PORT=$(free_port)
start_gnmi_target sonic "$TARGET_PORT" --encodings JSON_IETF --dialect sonic --tail-step 1.5
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 500ms, timeout: 3s}
targets:
  - {name: sonic, driver: gnmi, address: 127.0.0.1:$TARGET_PORT, tls: false, variant: sonic, connect_timeout: 5s,
     sample_interval: 500ms}
YAML

set +e
"$OPTICSD" poll-once --config "$WORK/opticsd.yaml" >"$WORK/once.json" 2>"$WORK/once.err"
rc=$?
set -e
[ "$rc" -eq 0 ] || { cat "$WORK/once.err"; fail "poll-once exit $rc"; }
python3 - "$WORK/once.json" "$WORK/sonic.requests" <<'PY' || { cat "$WORK/once.err"; fail "poll-once: wrong bins or calls"; }
import json, sys
target = json.load(open(sys.argv[1]))["targets"][0]
samples = {s["port"]: s for s in target["samples"]}
e1 = samples["Ethernet1"]["fec"]
bins = e1["histogram"]
assert [(b["low"], b["high"]) for b in bins] == [(n, n) for n in range(16)], bins
assert all(isinstance(b["codewords_total"], int) for b in bins), bins
assert e1["correctable_symbols"] == 15, e1
assert "tail_symbols" not in e1, e1  # one poll is no window
assert "histogram" not in samples["Ethernet2"].get("fec", {}), samples["Ethernet2"]
calls = [json.loads(l) for l in open(sys.argv[2]) if '"Subscribe"' in l]
assert sorted(c["target"] for c in calls if c["mode"] == "ONCE") == ["COUNTERS_DB", "STATE_DB"], calls
counters = [c for c in calls if c["target"] == "COUNTERS_DB"][0]
assert [s[0] for s in counters["subscriptions"]] == ["/COUNTERS/Ethernet*"], counters
PY
note "poll-once: one call per DB, Ethernet1's 16 bins and the RS(544,514) limit"

# The daemon, in STREAM mode and (sonic-p) in POLL mode: two POLL calls, each
# Poll answered by both before the poll completes.
write_config "$WORK/daemon.yaml" <<YAML
poll: {interval: 500ms, timeout: 3s}
targets:
  - {name: sonic, driver: gnmi, address: 127.0.0.1:$TARGET_PORT, tls: false, variant: sonic, connect_timeout: 5s,
     sample_interval: 500ms}
  - {name: sonic-p, driver: gnmi, address: 127.0.0.1:$TARGET_PORT, tls: false, variant: sonic, connect_timeout: 5s,
     mode: poll}
YAML
start_daemon "$WORK/daemon.yaml" "$WORK/run.log"
# tail_and_margin [TARGET]: "TAIL MARGIN" of TARGET's Ethernet1 from one
# scrape; fails while a window has none (a poll that saw no counter update
# since the previous one has no tail).
tail_and_margin() {
  scrape "$PORT" | TARGET="${1:-sonic}" python3 -c '
import os, re, sys
want = "target=\"%s\"" % os.environ["TARGET"]
got = {}
for line in sys.stdin:
    m = re.match(r"opticsd_port_fec_(tail|margin)_symbols\{(.*)\} (\S+)$", line.strip())
    if m and "port=\"Ethernet1\"" in m.group(2) and want in m.group(2):
        got[m.group(1)] = float(m.group(3))
sys.exit(1) if len(got) < 2 else print(got["tail"], got["margin"])'
}
# Kept from the scrape that had them: the next scrape may fall in a window
# without a counter update (under load it did, and the check read nothing).
reading=""
read_tail_and_margin() { reading=$(tail_and_margin); }
wait_for 100 read_tail_and_margin || fail "no FEC tail and margin for the switch port"
read -r first margin <<<"$reading"
python3 -c "import sys; t, m = $first, $margin; sys.exit(0 if 2 <= t <= 15 and m == 15 - t else 1)" \
  || fail "tail $first and margin $margin do not add up to RS(544,514)'s 15"
climbed() {
  local now
  now=$(tail_and_margin) || return 1
  python3 -c "import sys; sys.exit(0 if ${now% *} > $first else 1)"
}
wait_for 100 climbed || fail "the tail stayed at $first while the target's climbed"
! metric_has "$PORT" '^opticsd_port_fec_tail_symbols\{.*port="Ethernet2"' || fail "Ethernet2 has no bins, yet a tail"
wait_for 100 tail_and_margin sonic-p || fail "POLL mode: no FEC tail and margin for the switch port"
grep -q '"mode": "POLL".*"target": "COUNTERS_DB"' "$WORK/sonic.requests" || fail "POLL mode: no COUNTERS_DB call"
note "daemon: Ethernet1's tail $first (margin $margin) climbed to $(tail_and_margin || echo '?'); POLL mode too; Ethernet2 none"
echo PASS
