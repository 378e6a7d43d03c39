#!/usr/bin/env bash
# Slow readers do not pin memory (issue 15): 60 clients reading /metrics at
# about 50 KB/s each, reconnecting when an answer ends or is cut, leave the
# daemon's resident memory within 10 % of what it is with no reader plus one
# copy of the scrape's text, on a fleet of MODULES simulated modules (default
# 2,000). The text is shared by the readers while they read it and kept by
# none after (issue 13: it used to stay in the no-reader baseline until the
# next poll); a copy per reader would be 60 of them. Also reports the peak
# RSS (the unit's MemoryMax= must leave room above it). Loopback only;
# READ_SECONDS (default 40) of slow reading.
#
# A whole-instance scrape is composed of the targets' shared renders and
# holds one 16 KiB part at a time (daemon/exporter/README.md, "Serving").
# Before that each scrape rendered from its own snapshot and pinned a poll of
# the whole fleet: 10,000 modules went from 188 MB to 2.6 GB. By hand:
#   OPTICSD=build/daemon/cli/opticsd MODULES=10000 bash tests/integration/88-slow-readers.sh
source "$(dirname "$0")/lib.sh"
need curl
need python3
MODULES=${MODULES:-2000}
READ_SECONDS=${READ_SECONDS:-40}
PORTS_PER_TARGET=100
TARGETS=$(((MODULES + PORTS_PER_TARGET - 1) / PORTS_PER_TARGET))

PORT=$(free_port)  # set here: write_config runs in the pipeline's subshell
{
  echo "poll: {interval: 5s}"
  echo "storage: {enabled: false}"
  echo "targets:"
  for ((i = 0; i < TARGETS; i++)); do echo "  - {name: sw$i, driver: sim, ports: $PORTS_PER_TARGET, lanes: 8}"; done
} | write_config "$WORK/opticsd.yaml"
start_daemon "$WORK/opticsd.yaml" "$WORK/opticsd.log"
wait_polled "$PORT" 1  # the whole fleet, each target's first poll anywhere in the 5 s interval

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$OPTICSD_PID/status"; }
hwm_kib() { awk '/^VmHWM:/ {print $2}' "/proc/$OPTICSD_PID/status"; }

# Baseline: a few whole scrapes, as a scraper makes them, then the RSS.
for _ in 1 2 3 4 5; do scrape "$PORT" >"$WORK/scrape.txt" || fail "scrape failed"; sleep 1; done
size=$(wc -c <"$WORK/scrape.txt")
baseline=$(rss_kib)
echo "scrape size: $size bytes; RSS with no slow reader: ${baseline} KiB"

note "60 slow readers at 50 KB/s for ${READ_SECONDS}s"
python3 "$(dirname "$0")/reliability/slow_readers.py" --port "$PORT" --readers 60 --rate 50000 \
  --seconds "$READ_SECONDS" >"$WORK/readers.out" &
readers=$!
PIDS+=("$readers")
peak=0
for ((t = 0; t < READ_SECONDS - 2; t += 2)); do
  sleep 2
  now=$(rss_kib)
  [ "$now" -gt "$peak" ] && peak=$now
done
wait "$readers" || fail "the slow readers failed"
cat "$WORK/readers.out"
scrape "$PORT" >/dev/null || fail "a normal scrape failed after the slow readers"
echo "RSS with 60 slow readers: peak ${peak} KiB (baseline ${baseline} KiB, $((100 * (peak - baseline) / baseline)) % above); process high-water mark $(hwm_kib) KiB"
[ $((peak * 100)) -le $((baseline * 110 + size / 1024 * 100)) ] ||
  fail "RSS with 60 slow readers is more than 10 % and one scrape's text above the baseline"
stop_opticsd
echo PASS
