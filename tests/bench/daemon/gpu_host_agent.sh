#!/usr/bin/env bash
# Footprint of the GPU-host agent (deploy/config/gpu-host.yaml) on 8 NICs:
# RSS (steady and peak) and CPU per poll of the real daemon, as shipped
# (history on, 3 days, 64 MiB cap; the rules engine; topology), with its
# ethtool target replaced by a replay target serving 8 CMIS 400GBASE-DR4
# modules with FEC counters (the same page plan, decoders and pipeline as a
# live read; the netlink syscalls are not in it: drivers/ethtool/README.md
# measures those, about 1.3 syscalls and 20 us per interface per cycle).
# A scrape of /metrics and /metrics/thresholds every SCRAPE_EVERY polls
# stands for the fleet's Prometheus (30 s polls, 30 s scrapes: every poll).
#
#   [HISTORY=off] tests/bench/daemon/gpu_host_agent.sh [POLLS] [INTERVAL_S] [SCRAPE_EVERY]
#   (defaults 120 polls of 1 s: CPU per poll does not depend on the interval;
#   HISTORY=off: the config's `storage` turned off, as its comment offers)
#
# Prints one line of figures; tests/bench/RESULTS.md keeps them.
set -euo pipefail
: "${OPTICSD:=${OPTICSD_BUILD_DIR:?set OPTICSD or OPTICSD_BUILD_DIR}/daemon/cli/opticsd}"
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../../.." && pwd)
source "$HERE/lib/sim_fleet.sh"
POLLS=${1:-120}
INTERVAL_S=${2:-1}
SCRAPE_EVERY=${3:-1}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/opticsd-gpu-host.XXXXXX")
PID=
trap '[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT

# 8 NICs: CMIS 5.0 400GBASE-DR4 pages from the replay fixtures' builder, and a
# FEC sequence (RS(544) blocks, mlx5 style) so BER derivation runs every poll.
python3 - "$SRC/tests/fixtures/replay" "$WORK/nics" "$POLLS" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
from make_fixtures import cmis, write
polls = int(sys.argv[3])
for i in range(8):
    port = f"enp{12 + 32 * i}s0np0"
    write(os.path.join(sys.argv[2], port, "module.dump"), cmis(f"BENCHNIC{i}").dump(f"{port}: CMIS 400GBASE-DR4"))
    lines = ["# opticsd fec sequence v1"]
    for step in range(polls + 20):
        lines.append(f"corrected_blocks={step * 5000} uncorrectable_blocks=0 bits_per_block=75 speed_gbps=400 lanes=8 up=1")
    write(os.path.join(sys.argv[2], port, "fec.seq"), "\n".join(lines) + "\n")
PY

PORT=$(free_port)
# The shipped config, with only what a bench must change: the host name, the
# listen address, the state path, the interval and the driver.
python3 - "$SRC/deploy/config/gpu-host.yaml" "$WORK/opticsd.yaml" "$PORT" "$WORK" "$INTERVAL_S" "${HISTORY:-on}" <<'PY'
import sys
text = open(sys.argv[1]).read().replace("@HOSTNAME@", "gpu-node-bench")
text = text.replace('address: ":9464"', f'address: "127.0.0.1:{sys.argv[3]}"')
text = text.replace("  interval: 30s", f"  interval: {sys.argv[5]}s")
text = text.replace("  sample_interval: 30s", f"  sample_interval: 30s\n  path: {sys.argv[4]}/history.db")
if sys.argv[6] == "off":
    text = text.replace("  max_size: 64MiB\n", "  max_size: 64MiB\n  enabled: false\n")
    assert "enabled: false" in text
old = '    driver: ethtool\n    interfaces: ["enp*np*"]'
assert old in text, "gpu-host.yaml changed: update the bench"
text = text.replace(old, f"    driver: replay\n    directory: {sys.argv[4]}/nics")
open(sys.argv[2], "w").write(text)
PY
"$OPTICSD" check-config "$WORK/opticsd.yaml" >/dev/null
"$OPTICSD" run --config "$WORK/opticsd.yaml" >"$WORK/opticsd.log" 2>&1 &
PID=$!
polls() { curl -sf "http://127.0.0.1:$PORT/metrics/self" | awk '/^opticsd_poll_duration_seconds_count/ {s += $2} END {print s + 0}'; }
for _ in $(seq 150); do
  n=$(polls 2>/dev/null) || n=0
  [ "$n" -ge 3 ] && break
  sleep 0.2
done
[ "$n" -ge 3 ] || { cat "$WORK/opticsd.log"; echo "the agent did not poll" >&2; exit 1; }
modules=$(curl -sf "http://127.0.0.1:$PORT/metrics" | grep -c '^opticsd_module_info{' || true)
[ "$modules" -eq 8 ] || { echo "the agent serves $modules modules, not 8" >&2; exit 1; }
series=$(curl -sf "http://127.0.0.1:$PORT/metrics" | grep -vc '^#' || true)
thresholds=$(curl -sf "http://127.0.0.1:$PORT/metrics/thresholds" | grep -vc '^#' || true)

start_polls=$(polls)
start_ticks=$(cpu_ticks "$PID")
start_s=$(date +%s.%N)
done_polls=0
while [ "$done_polls" -lt "$POLLS" ]; do
  sleep "$INTERVAL_S"
  done_polls=$(($(polls) - start_polls))
  if [ $((done_polls % SCRAPE_EVERY)) -eq 0 ]; then
    curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT/metrics" -o /dev/null
    curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT/metrics/thresholds" -o /dev/null
  fi
done
end_ticks=$(cpu_ticks "$PID")
end_s=$(date +%s.%N)
done_polls=$(($(polls) - start_polls))
hz=$(getconf CLK_TCK)
python3 - "$((end_ticks - start_ticks))" "$hz" "$done_polls" "$start_s" "$end_s" "$(rss_kb "$PID")" "$(hwm_kb "$PID")" \
  "$series" "$thresholds" "$(cat "$WORK"/history.db* 2>/dev/null | wc -c)" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import sys
ticks, hz, polls, t0, t1, rss, hwm, series, th, db = sys.argv[1:11]
load = sys.argv[11]
cpu_s = int(ticks) / int(hz)
wall = float(t1) - float(t0)
print(f"gpu-host agent, 8 NICs: {polls} polls in {wall:.0f} s; CPU {cpu_s:.2f} s = {1000 * cpu_s / int(polls):.2f} ms per poll "
      f"({100 * cpu_s / wall:.2f} % of a core at this interval; at 30 s: {100 * cpu_s / int(polls) / 30:.3f} %); "
      f"RSS {int(rss) / 1024:.1f} MB, VmHWM {int(hwm) / 1024:.1f} MB; /metrics {series} series, /metrics/thresholds {th}; "
      f"history (db + WAL) {int(db) / 1024:.0f} KB; load {load}")
PY
