#!/usr/bin/env bash
# needs-drivers: snmp
# A switch that stops answering keeps its last known state on /metrics for
# poll.keep_stale_for, marked, then its values vanish (issue 17):
# an snmpsim agent is killed -9 under `opticsd run`; its lane series stay,
# byte for byte, on /metrics and /metrics?target= with opticsd_target_up 0,
# opticsd_target_stale 1 and an unchanged opticsd_target_last_success_timestamp_seconds,
# and nothing more is written to history; after keep_stale_for they are gone
# (stale 0, the last-success time kept, /sd unchanged); the agent restarted
# on its port brings fresh values back. A remote-write receiver gets no lane
# series while the values are kept (they are not pushed again as new).
# check-config refuses a bound over a day.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/reliability/faults.sh"
need curl
need snmpsimd
need snmpget
FIXTURES="$OPTICSD_SOURCE_DIR/tests/fixtures/snmp"
KEEP_S=10

# series PORT PATH REGEX: the scrape's sample lines matching the extended regex, sorted.
series() {
  local text
  text=$(curl -sf --max-time 10 "http://127.0.0.1:$1$2") || return 1
  grep -E "$3" <<<"$text" | sort || true
}
# value_of PORT SERIES_REGEX: the value of the one series matching (empty when absent).
value_of() { series "$1" /metrics "$2" | awk '{print $NF}' | head -1; }
stale_is() { metric_has "$1" "^opticsd_target_stale\\{.*target=\"$2\".*\\} $3\$"; }
lanes_of() { series "$1" "${3:-/metrics}" "^opticsd_lane_rx_power_dbm\\{.*target=\"$2\""; }
lanes_gone() { [ -z "$(lanes_of "$1" "$2")" ]; }

note "check-config validates poll.keep_stale_for"
cat >"$WORK/bad.yaml" <<YAML
poll: {keep_stale_for: 2d}
targets: [{name: a, driver: sim}]
YAML
"$OPTICSD" check-config "$WORK/bad.yaml" >"$WORK/bad.check" 2>&1 && fail "check-config accepted keep_stale_for: 2d"
grep -q 'poll.keep_stale_for' "$WORK/bad.check" || { cat "$WORK/bad.check"; fail "the error does not name poll.keep_stale_for"; }

# A remote-write receiver that logs, per request, its arrival time and
# whether it holds any lane series (snappy block format decoded here: the
# body names its series as plain strings).
RW_PORT=$(free_port)
python3 - "$RW_PORT" "$WORK/received.log" <<'PY' &
import http.server, sys, time

def unsnappy(data):
    i, shift, n = 0, 0, 0
    while True:  # varint: uncompressed length
        b = data[i]; i += 1
        n |= (b & 0x7F) << shift; shift += 7
        if b < 0x80:
            break
    out = bytearray()
    while i < len(data):
        tag = data[i]; i += 1
        kind = tag & 3
        if kind == 0:  # literal
            length = tag >> 2
            if length >= 60:
                extra = length - 59
                length = int.from_bytes(data[i:i + extra], "little"); i += extra
            length += 1
            out += data[i:i + length]; i += length
            continue
        if kind == 1:
            length = 4 + ((tag >> 2) & 7); offset = ((tag >> 5) << 8) | data[i]; i += 1
        elif kind == 2:
            length = 1 + (tag >> 2); offset = int.from_bytes(data[i:i + 2], "little"); i += 2
        else:
            length = 1 + (tag >> 2); offset = int.from_bytes(data[i:i + 4], "little"); i += 4
        for _ in range(length):
            out.append(out[-offset])
    assert len(out) == n, (len(out), n)
    return bytes(out)

class Receiver(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the writer expects

    def do_POST(self):
        body = unsnappy(self.rfile.read(int(self.headers["Content-Length"])))
        lanes = int(b"opticsd_lane_rx_power_dbm" in body)
        with open(sys.argv[2], "a") as log:
            log.write(f"{time.time():.3f} {lanes}\n")
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Receiver).serve_forever()
PY
PIDS+=($!)
: >"$WORK/received.log"
# lane_pushes FROM TO: requests with lane series received between two unix times.
lane_pushes() { awk -v a="$1" -v b="$2" '$1 >= a && $1 <= b && $2 == 1 {n++} END {print n + 0}' "$WORK/received.log"; }

start_snmpsim sw "$FIXTURES/arista-eos.snmprec"
SW_PORT=$SNMPSIM_PORT
SW_PID=$SNMPSIM_PID
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 500ms, timeout: 2s, max_backoff: 1s, keep_stale_for: ${KEEP_S}s}
storage: {path: $WORK/history.db, sample_interval: 0s}
remote_write: {url: "http://127.0.0.1:$RW_PORT/api/v1/write"}
targets:
  - {name: sw, driver: snmp, address: 127.0.0.1, port: $SW_PORT, community: arista-eos, profile: arista-eos, timeout: 800ms, retries: 0}
YAML
"$OPTICSD" check-config "$WORK/opticsd.yaml" >/dev/null || fail "check-config refused the test config"
start_daemon "$WORK/opticsd.yaml"
wait_polled "$PORT" 1
wait_for 100 target_up_is "$PORT" sw 1 || { cat "$WORK/daemon.log"; fail "the SNMP target never came up"; }
wait_for 50 stale_is "$PORT" sw 0 || fail "a fresh target is not marked opticsd_target_stale 0"
before=$(lanes_of "$PORT" sw)
[ -n "$before" ] || fail "no lane series from the agent"
echo "lane series: $(wc -l <<<"$before")"
SD_BEFORE=$(curl -sf "http://127.0.0.1:$PORT/sd")

note "agent killed: last values kept, marked"
kill -9 "$SW_PID"
KILLED=$(date +%s)
KILLED_AT=$(date +%s.%N)
wait_for 50 target_up_is "$PORT" sw 0 || fail "the killed agent's target is still up"
wait_for 25 stale_is "$PORT" sw 1 || fail "the kept values are not marked stale"
STALE_SEEN=$(date +%s.%N)
[ "$(lanes_of "$PORT" sw)" = "$before" ] || fail "the kept lane series differ from the last good poll's"
[ "$(lanes_of "$PORT" sw "/metrics?target=sw")" = "$before" ] || fail "the per-target scrape lost the kept values"
series "$PORT" "/metrics?target=sw" '^opticsd_target_stale\{.*target="sw".*\} 1$' | grep -q . \
  || fail "the per-target scrape does not mark the values stale"
LAST1=$(value_of "$PORT" '^opticsd_target_last_success_timestamp_seconds\{.*target="sw"')
[ -n "$LAST1" ] || fail "no opticsd_target_last_success_timestamp_seconds"
awk -v l="$LAST1" -v k="$KILLED" 'BEGIN {exit !(l <= k + 1 && l > k - 60)}' || fail "last success $LAST1 is not just before the kill at $KILLED"
sleep 2.5  # the store stats are published every 2 s
WRITTEN1=$(metric_sum "$PORT" '^opticsd_store_samples_written_total ')
sleep 2.5
WRITTEN2=$(metric_sum "$PORT" '^opticsd_store_samples_written_total ')
[ "$WRITTEN1" -gt 0 ] || fail "nothing was written to history before the kill"
[ "$WRITTEN2" = "$WRITTEN1" ] || fail "history went on writing the kept values ($WRITTEN1 -> $WRITTEN2 samples)"
[ "$(value_of "$PORT" '^opticsd_target_last_success_timestamp_seconds\{.*target="sw"')" = "$LAST1" ] \
  || fail "the last-success time moved without a success"
stale_is "$PORT" sw 1 || fail "the mark went before keep_stale_for"
[ "$(lanes_of "$PORT" sw)" = "$before" ] || fail "the kept values went before keep_stale_for (${KEEP_S}s)"

note "after keep_stale_for (${KEEP_S}s): values gone"
wait_for 100 lanes_gone "$PORT" sw || fail "the kept values outlived keep_stale_for"
GONE=$(date +%s)
[ "$(lane_pushes 0 "$KILLED_AT")" -gt 0 ] || fail "the receiver got no lane series before the kill"
# From a second after the mark (a good poll's request may still be in flight) to the drop.
kept_pushes=$(lane_pushes "$(awk -v t="$STALE_SEEN" 'BEGIN {printf "%.3f", t + 1}')" "$GONE")
[ "$kept_pushes" -eq 0 ] || fail "remote write pushed the kept values again ($kept_pushes requests)"
echo "values kept for about $((GONE - KILLED)) s after the kill"
# The clock starts at the first failed poll, at most a poll timeout before the kill.
[ $((GONE - KILLED)) -ge $((KEEP_S - 2)) ] || fail "the values went after $((GONE - KILLED)) s, under keep_stale_for"
stale_is "$PORT" sw 0 || fail "nothing is served, yet it is marked stale"
target_up_is "$PORT" sw 0 || fail "target_up changed without a poll"
[ "$(value_of "$PORT" '^opticsd_target_last_success_timestamp_seconds\{.*target="sw"')" = "$LAST1" ] \
  || fail "the last-success time went with the values"
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics?target=sw")" = 200 ] \
  || fail "the per-target scrape of a target whose values expired is not 200"
[ -z "$(lanes_of "$PORT" sw "/metrics?target=sw")" ] || fail "the per-target scrape still has the expired values"
[ "$(curl -sf "http://127.0.0.1:$PORT/sd")" = "$SD_BEFORE" ] || fail "/sd changed with the target's health"
grep -q 'target failing, its last values are kept target=sw' "$WORK/daemon.log" || fail "no log line when values are kept"
grep -q 'kept values dropped target=sw' "$WORK/daemon.log" || fail "no log line when kept values are dropped"

note "agent back: fresh values, mark cleared"
SNMPSIM_REUSE_PORT=$SW_PORT start_snmpsim sw2 "$FIXTURES/arista-eos.snmprec"
wait_for 75 target_up_is "$PORT" sw 1 || { tail -20 "$WORK/daemon.log"; fail "the target did not recover"; }
wait_for 25 stale_is "$PORT" sw 0 || fail "the stale mark stayed after a good poll"
[ -n "$(lanes_of "$PORT" sw)" ] || fail "no values after the recovery"
wait_for 25 test "$(lane_pushes "$GONE" 9999999999)" -gt 0 || fail "remote write did not resume after the recovery"
LAST2=$(value_of "$PORT" '^opticsd_target_last_success_timestamp_seconds\{.*target="sw"')
awk -v a="$LAST1" -v b="$LAST2" 'BEGIN {exit !(b > a)}' || fail "the last-success time did not move on ($LAST1 -> $LAST2)"
stop_opticsd
echo PASS
