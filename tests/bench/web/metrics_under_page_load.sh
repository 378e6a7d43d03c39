#!/usr/bin/env bash
# /metrics under page load (issue 28): does a browser refreshing the
# operator's pages every second slow the scrapes? The real daemon polls
# MODULES simulated 8-lane modules (64-port switches) with history on; curl
# scrapes /metrics?target=sw-K (the per-target scrape the shipped sharded
# Prometheus config does), one after another round the fleet, every GAP_S.
# Rounds of ROUND_S alternate: quiet (scrapes only), then loaded (the same
# scrapes while a loop fetches the 14-day optic page of sw-1 Ethernet1 and
# the fleet page `/` every second, as a browser left open on each would).
# Reports the scrape time (curl time_total, ms) median and p99 both ways, and
# what the pages took.
#
#   tests/bench/web/metrics_under_page_load.sh [MODULES=16000] [ROUNDS=2] [ROUND_S=60] [WARMUP_S=60]
#
# History: each poll of every module goes to the store's writer while the
# pages read the same file over their own read-only connections (WAL): the
# figures say whether a read blocks the writer or a scrape. Bounded: about
# WARMUP_S + 2 * ROUNDS * ROUND_S seconds. The figures depend on what else
# the machine runs; report its load with them.
set -euo pipefail
: "${OPTICSD:=${OPTICSD_BUILD_DIR:?set OPTICSD or OPTICSD_BUILD_DIR}/daemon/cli/opticsd}"
SOURCE_DIR=$(cd "$(dirname "$0")/../../.." && pwd)
MODULES=${1:-16000}
ROUNDS=${2:-2}
ROUND_S=${3:-60}
WARMUP=${4:-60}
GAP_S=${GAP_S:-0.2}
INTERVAL=${INTERVAL:-30s}
PORTS=64
SWITCHES=$(((MODULES + PORTS - 1) / PORTS))
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-page-load.XXXXXX")
# shellcheck source=../daemon/lib/sim_fleet.sh
. "$SOURCE_DIR/tests/bench/daemon/lib/sim_fleet.sh"
PORT=$(free_port)
BASE="http://127.0.0.1:$PORT"
PID=
PAGES_PID=
trap 'kill $PAGES_PID $PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT

{
  echo "listen: {address: 127.0.0.1:$PORT}"
  echo "poll: {interval: $INTERVAL, timeout: 10s, concurrency: 64}"
  echo "storage: {path: $WORK/history.db, retention: 1h}"
  sim_fleet_targets "$SWITCHES" "$PORTS"
} >"$WORK/opticsd.yaml"
"$OPTICSD" run --config "$WORK/opticsd.yaml" >"$WORK/daemon.log" 2>&1 &
PID=$!
for _ in $(seq 1 300); do curl -sf -o /dev/null "$BASE/sd" && break; sleep 0.2; done
OPTIC="$BASE/optic?target=sw-1&port=Ethernet1&range=14d"

echo "fleet: $((SWITCHES * PORTS)) modules on $SWITCHES switches, history on, poll every $INTERVAL;" \
  "$ROUNDS quiet and $ROUNDS loaded rounds of ${ROUND_S}s after ${WARMUP}s warm-up; load $(cut -d' ' -f1-3 /proc/loadavg)"
sleep "$WARMUP"
kill -0 "$PID" || { tail "$WORK/daemon.log"; echo "FAIL: daemon died during warm-up"; exit 1; }
curl -sf -o /dev/null "$OPTIC" || { echo "FAIL: the optic page does not answer"; exit 1; }

# Scrapes round the fleet for ROUND_S seconds; one time_total (s) a line into $1.
next=1
scrape_round() {
  local end=$((SECONDS + ROUND_S))
  while [ $SECONDS -lt $end ]; do
    curl -sf -o /dev/null -H 'Accept-Encoding: gzip' -w '%{time_total}\n' "$BASE/metrics?target=sw-$next" >>"$1" ||
      echo "scrape of sw-$next failed" >&2
    next=$((next % SWITCHES + 1))
    sleep "$GAP_S"
  done
}

# A browser on each page, refreshing every second; one "page time_total" a line into $1.
pages_loop() {
  while :; do
    curl -sf -o /dev/null -w "optic %{time_total}\n" "$OPTIC" >>"$1" || echo "optic failed" >>"$1"
    curl -sf -o /dev/null -w "fleet %{time_total}\n" "$BASE/" >>"$1" || echo "fleet failed" >>"$1"
    sleep 1
  done
}

: >"$WORK/quiet"
: >"$WORK/loaded"
: >"$WORK/pages"
for ((r = 1; r <= ROUNDS; r++)); do
  scrape_round "$WORK/quiet"
  pages_loop "$WORK/pages" &
  PAGES_PID=$!
  scrape_round "$WORK/loaded"
  kill "$PAGES_PID" 2>/dev/null || true
  wait "$PAGES_PID" 2>/dev/null || true
  PAGES_PID=
done
kill -0 "$PID" || { tail "$WORK/daemon.log"; echo "FAIL: daemon died"; exit 1; }
dropped=$(curl -sf "$BASE/metrics/self" | awk '/^opticsd_store_samples_dropped_total/ {s += $2} END {print s + 0}')

python3 - "$WORK/quiet" "$WORK/loaded" "$WORK/pages" "$dropped" <<'PY'
import statistics, sys

def stats(values):
    v = sorted(values)
    if not v:
        return "no samples"
    p99 = v[min(len(v) - 1, int(round(0.99 * (len(v) - 1))))]
    return f"{len(v)} scrapes: median {statistics.median(v):.1f} ms, p99 {p99:.1f} ms, max {v[-1]:.1f} ms"

def read(path):
    return [1000 * float(x) for x in open(path) if x.strip()]

print("per-target /metrics scrape, quiet:          ", stats(read(sys.argv[1])))
print("per-target /metrics scrape, pages every 1 s:", stats(read(sys.argv[2])))
pages = {}
failed = 0
for line in open(sys.argv[3]):
    name, _, t = line.partition(" ")
    if t.strip() == "" or name.endswith("failed"):
        failed += 1
        continue
    pages.setdefault(name, []).append(1000 * float(t))
for name, v in sorted(pages.items()):
    v.sort()
    print(f"{name} page fetch: {len(v)} fetches, median {statistics.median(v):.1f} ms, max {v[-1]:.1f} ms")
print(f"page fetches failed: {failed}; history rows dropped by the store's writer: {sys.argv[4]}")
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
