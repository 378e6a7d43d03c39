#!/usr/bin/env bash
# Fleet-scale export bench: the real daemon polls MODULES simulated 8-lane
# CMIS modules (64-port switches, osfp-800g-2fr4) every INTERVAL while a real
# Prometheus scrapes every switch per target (/metrics?target=NAME through
# /sd, the shipped deploy/prometheus/scrape/opticsd-sharded.yml with one
# shard) plus the thresholds job, for DURATION_S after WARMUP_S. Reports:
#   series per 8-lane module at the default level (and full, thresholds)
#   per-target scrape duration as Prometheus measured it (median, p90, max)
#   opticsd CPU over the measured window (polling + serving), % of one core
#   RSS steady and peak (VmHWM), KB per module
#   whole-instance /metrics size plain and gzip, time for each
#
#   tests/bench/daemon/fleet_scrape.sh [MODULES=64000] [INTERVAL=30s] [DURATION_S=120] [WARMUP_S=60]
#
# History is off (STORAGE=1 turns it on): this measures export. PROMETHEUS=0
# leaves the Prometheus out (opticsd alone, scraped only by curl). Bounded: a
# few minutes at 64,000 modules. The figures depend on what else the machine
# runs; report that with them.
set -euo pipefail
: "${OPTICSD:=${OPTICSD_BUILD_DIR:?set OPTICSD or OPTICSD_BUILD_DIR}/daemon/cli/opticsd}"
SOURCE_DIR=$(cd "$(dirname "$0")/../../.." && pwd)
MODULES=${1:-64000}
INTERVAL=${2:-30s}
DURATION=${3:-120}
WARMUP=${4:-60}
PORTS=64
SWITCHES=$(((MODULES + PORTS - 1) / PORTS))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-fleet.XXXXXX")
# shellcheck source=lib/sim_fleet.sh
. "$SOURCE_DIR/tests/bench/daemon/lib/sim_fleet.sh"
PORT=$(free_port)
PROM_PORT=$(free_port)
PID=
PROM_PID=
trap 'kill $PROM_PID $PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

{
  echo "listen: {address: 127.0.0.1:$PORT}"
  echo "poll: {interval: $INTERVAL, timeout: 10s, concurrency: 64}"
  if [ "${STORAGE:-0}" = 1 ]; then echo "storage: {path: $WORK/history.db, retention: 10m}"; else echo "storage: {enabled: false}"; fi
  sim_fleet_targets "$SWITCHES" "$PORTS"
} >"$WORK/opticsd.yaml"
"$OPTICSD" run --config "$WORK/opticsd.yaml" >"$WORK/daemon.log" 2>&1 &
PID=$!
for _ in $(seq 1 300); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/sd" && break; sleep 0.2; done

sed -E -e "s#opticsd-1.example.net:9464#127.0.0.1:$PORT#" -e "s/scrape_interval: 30s/scrape_interval: $INTERVAL/" \
  -e 's/modulus: 2  # SHARD_COUNT/modulus: 1  # SHARD_COUNT/' \
  "$SOURCE_DIR/deploy/prometheus/scrape/opticsd-sharded.yml" >"$WORK/prometheus.yml"
if [ "${PROMETHEUS:-1}" = 1 ]; then
  prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
    --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
  PROM_PID=$!
fi
PROM="http://127.0.0.1:$PROM_PORT"

series() { grep -vc '^#' || true; }

echo "fleet: $((SWITCHES * PORTS)) modules on $SWITCHES switches, interval $INTERVAL, ${DURATION}s after ${WARMUP}s warm-up"
sleep "$WARMUP"
kill -0 "$PID" || { tail "$WORK/daemon.log"; echo "FAIL: daemon died during warm-up"; exit 1; }
ticks0=$(cpu_ticks "$PID"); t0=$(date +%s.%N)
peak=$(rss_kb "$PID")
end=$((SECONDS + DURATION))
while [ $SECONDS -lt $end ]; do
  sleep 5
  r=$(rss_kb "$PID"); [ "$r" -gt "$peak" ] && peak=$r
done
ticks1=$(cpu_ticks "$PID"); t1=$(date +%s.%N)
steady=$(rss_kb "$PID")
hz=$(getconf CLK_TCK)
cpu=$(python3 -c "print(f'{100 * ($ticks1 - $ticks0) / $hz / ($t1 - $t0):.1f}')")

# Per-target scrape durations over the window, as Prometheus saw them.
durations="(no Prometheus)"; up="(no Prometheus)"
[ -n "$PROM_PID" ] && durations=$(curl -sf "$PROM/api/v1/query" --data-urlencode \
  "query=quantile_over_time(0.5, scrape_duration_seconds{job=\"opticsd\"}[${DURATION}s])" |
  python3 -c '
import json, statistics, sys
r = [float(x["value"][1]) for x in json.load(sys.stdin)["data"]["result"]]
if not r: print("no scrapes"); sys.exit()
r.sort()
print(f"{len(r)} targets: median {1000*statistics.median(r):.1f} ms, p90 {1000*r[int(0.9*(len(r)-1))]:.1f} ms, max {1000*r[-1]:.1f} ms")')
[ -n "$PROM_PID" ] && up=$(curl -sf "$PROM/api/v1/query" --data-urlencode 'query=count(up{job="opticsd"} == 1)' |
  python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')

# opticsd's own answer time per target, as curl sees it (gzip, like Prometheus),
# for up to 200 switches one after another.
answer_ms=$(for ((i = 1; i <= SWITCHES && i <= 200; i++)); do
  curl -sf -o /dev/null -H 'Accept-Encoding: gzip' -w '%{time_total}\n' "http://127.0.0.1:$PORT/metrics?target=sw-$i"
done | python3 -c '
import statistics, sys
t = sorted(float(x) * 1000 for x in sys.stdin)
print(f"{len(t)} switches: median {statistics.median(t):.1f} ms, p90 {t[int(0.9*(len(t)-1))]:.1f} ms, max {t[-1]:.1f} ms")')
one=$(curl -sf "http://127.0.0.1:$PORT/metrics?target=sw-1" | series)
thresholds=$(curl -sf "http://127.0.0.1:$PORT/metrics/thresholds?target=sw-1" | series)
t_plain0=$(date +%s.%N)
plain=$(curl -sf --max-time 300 "http://127.0.0.1:$PORT/metrics" | wc -c)
t_plain1=$(date +%s.%N)
gz=$(curl -sf --max-time 300 -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT/metrics" | wc -c)
t_gz1=$(date +%s.%N)
hwm=$(hwm_kb "$PID")

python3 - <<PY
modules, ports = $((SWITCHES * PORTS)), $PORTS
print(f"series per 8-lane module, default level: {$one / ports:.1f} (per-target scrape of sw-1: $one series)")
print(f"threshold series per module (/metrics/thresholds): {$thresholds / ports:.1f}")
print(f"targets up in Prometheus: $up of $SWITCHES")
print("per-target scrape duration (median over the window, per target): $durations")
print("opticsd answer time per target (curl, gzip, one after another): $answer_ms")
print(f"opticsd CPU, polling + serving: $cpu % of one core")
print(f"RSS steady {$steady/1024:.0f} MB, peak sampled {$peak/1024:.0f} MB, VmHWM {$hwm/1024:.0f} MB = {$hwm*1024/modules/1000:.1f} KB per module")
print(f"whole-instance /metrics: {$plain/1e6:.0f} MB plain in {$t_plain1-$t_plain0:.1f} s, {$gz/1e6:.1f} MB gzip in {$t_gz1-$t_plain1:.1f} s, ratio {$plain/max($gz,1):.1f}x")
PY
