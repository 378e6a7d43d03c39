#!/usr/bin/env bash
# Soak: the real daemon polls N simulated modules (64-port switches, 8 lanes)
# at a fixed interval for a while, with history on, and reports peak RSS per
# module, RSS growth after warm-up, open file descriptors and completed polls.
#
#   tests/soak/soak.sh [MODULES=10000] [INTERVAL=1s] [DURATION_S=600] [WARMUP_S=60]
#
# Fails when RSS grows more than 5 % after warm-up, when descriptors grow,
# when fewer than 95 % of the expected polls complete or any poll fails, or when history drops
# samples (history keeps storage.sample_interval, 10 s by default). `./setup.sh soak` runs the full 10-minute soak;
# tests/bench/daemon/fleet_memory.sh runs a short one for the memory figure.
set -euo pipefail
: "${OPTICSD:?set OPTICSD to the opticsd binary}"
MODULES=${1:-10000}
INTERVAL=${2:-1s}
DURATION=${3:-600}
WARMUP=${4:-60}
PORTS=64
SWITCHES=$(((MODULES + PORTS - 1) / PORTS))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-soak.XXXXXX")
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
SCRAPER=
trap 'kill $SCRAPER "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT

{
  echo "listen: {address: 127.0.0.1:$PORT}"
  echo "poll: {interval: $INTERVAL, timeout: 5s, concurrency: 64}"
  echo "storage: {path: $WORK/history.db, retention: 10m}"
  echo "targets:"
  for ((i = 1; i <= SWITCHES; i++)); do
    echo "  - {name: sw-$i, driver: sim, ports: $PORTS, lanes: 8}"
  done
} >"$WORK/soak.yaml"

"$OPTICSD" run --config "$WORK/soak.yaml" >"$WORK/daemon.log" 2>&1 &
PID=$!

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$PID/status"; }
# The kernel's high-water mark: catches the peak of a scrape between samples.
hwm_kb() { awk '/^VmHWM:/ {print $2}' "/proc/$PID/status"; }
fds_now() { find "/proc/$PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
# The fewest of three readings a second apart: a scrape in flight holds one more.
fds() { { fds_now; sleep 1; fds_now; sleep 1; fds_now; } | sort -n | head -1; }
polls() {
  curl -sf --max-time 120 "http://127.0.0.1:$PORT/metrics" |
    awk '/^opticsd_poll_duration_seconds_count/ {n += $2} END {print n + 0}'
}

echo "soak: $((SWITCHES * PORTS)) modules on $SWITCHES switches, interval $INTERVAL, ${DURATION}s (warm-up ${WARMUP}s)"
# Scraped every 15 s from the start, as Prometheus would: the exporter's
# buffers are part of the steady state the warm-up figure must include.
(while sleep 15; do
  curl -sf --max-time 30 -o /dev/null "http://127.0.0.1:$PORT/metrics" && echo ok >>"$WORK/scrapes"
done) &
SCRAPER=$!
sleep "$WARMUP"
kill -0 "$PID" || { cat "$WORK/daemon.log"; echo "FAIL: daemon died during warm-up"; exit 1; }
rss_warm=$(rss_kb); fds_warm=$(fds); polls_warm=$(polls)
peak=$rss_warm
end=$((SECONDS + DURATION - WARMUP))
while [ $SECONDS -lt $end ]; do
  sleep 10
  kill -0 "$PID" || { tail -50 "$WORK/daemon.log"; echo "FAIL: daemon died"; exit 1; }
  r=$(rss_kb); [ "$r" -gt "$peak" ] && peak=$r
done
kill "$SCRAPER" 2>/dev/null || true
echo "scrapes_ok=$(wc -l <"$WORK/scrapes")"
rss_end=$(rss_kb); fds_end=$(fds); polls_end=$(polls)
modules=$((SWITCHES * PORTS))
growth=$(python3 -c "print(f'{($rss_end - $rss_warm) * 100.0 / $rss_warm:.2f}')")
per_module=$(python3 -c "print(f'{$peak * 1024.0 / $modules / 1000:.2f}')")
echo "rss_after_warmup_kib=$rss_warm rss_end_kib=$rss_end rss_peak_kib=$peak growth_percent=$growth"
hwm=$(hwm_kb)
echo "peak_rss_per_module_kb=$per_module fds_after_warmup=$fds_warm fds_end=$fds_end"
echo "rss_high_water_kib=$hwm high_water_per_module_kb=$(python3 -c "print(f'{$hwm * 1024.0 / $modules / 1000:.2f}')")"
interval_s=$(python3 -c "s='$INTERVAL'; print(float(s[:-2]) / 1000 if s.endswith('ms') else float(s[:-1]))")
expected=$(python3 -c "print(int($SWITCHES * ($DURATION - $WARMUP) / $interval_s))")
echo "polls_after_warmup=$polls_warm polls_end=$polls_end polls_expected_after_warmup=$expected"
curl -sf "http://127.0.0.1:$PORT/metrics" >"$WORK/final.prom" || true
grep -E '^opticsd_store_|^opticsd_poll_errors_total' "$WORK/final.prom" |
  awk '{name = $1; sub(/\{.*/, "", name); s[name] += $NF} END {for (k in s) print k, s[k]}' | sort || true
dropped=$(awk '/^opticsd_store_samples_dropped_total/ {print $2}' "$WORK/final.prom")
poll_errors=$(awk '/^opticsd_poll_errors_total/ {n += $NF} END {print n + 0}' "$WORK/final.prom")
status=0
# Jitter moves polls across the window's edges by a few percent either way.
python3 -c "import sys; sys.exit(0 if ($polls_end - $polls_warm) >= 0.95 * $expected else 1)" \
  || { echo "FAIL: only $((polls_end - polls_warm)) of $expected expected polls completed after warm-up"; status=1; }
[ "$poll_errors" = 0 ] || { echo "FAIL: $poll_errors polls of simulated switches failed"; status=1; }
[ "${dropped:-0}" = "0" ] || { echo "FAIL: history dropped $dropped samples"; status=1; }
python3 -c "import sys; sys.exit(0 if $growth <= 5.0 else 1)" || { echo "FAIL: RSS grew ${growth}% after warm-up"; status=1; }
[ "$fds_end" -le "$fds_warm" ] || { echo "FAIL: open descriptors grew $fds_warm -> $fds_end"; status=1; }
[ "$polls_end" -gt "$polls_warm" ] || { echo "FAIL: polls stopped completing"; status=1; }
[ $status -eq 0 ] && echo "soak PASS"
exit $status
