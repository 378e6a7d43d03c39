#!/usr/bin/env bash
# Fleet-scale scraping: two real Prometheus servers run the shipped sharded
# scrape config (deploy/prometheus/scrape/opticsd-sharded.yml, with only the
# address, the intervals and each server's SHARD_INDEX filled in). They find
# every target through opticsd's /sd, split them with hashmod, and scrape
# /metrics?target=NAME (gzip, as Prometheus asks) and /metrics/thresholds:
# every target is scraped by exactly one server, none is missed, and each
# server holds only its own targets' series.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"

TARGETS=12
PORT=$(free_port)  # set here: write_config runs in the pipeline's subshell
{
  echo "poll: {interval: 1s, timeout: 2s}"
  echo "storage: {enabled: false}"
  echo "targets:"
  for i in $(seq 1 $TARGETS); do
    echo "  - {name: leaf-$i, driver: sim, module: osfp-800g-2fr4, ports: 2, lanes: 8}"
  done
} | write_config "$WORK/opticsd.yaml"
start_daemon "$WORK/opticsd.yaml" "$WORK/opticsd.log"
# Every target polled once: first polls land at random points of the interval,
# and a target scraped before its first poll has fewer series than after it.
wait_polled "$PORT" 1
[ "$(scrape "$PORT" | grep '^opticsd_module_present{' | sed -E 's/.*target="([^"]*)".*/\1/' | sort -u | wc -l)" -eq "$TARGETS" ] \
  || fail "not every target's modules are on /metrics after each was polled"

note "the SD endpoint lists every target at the address it was asked on"
curl -sf "http://127.0.0.1:$PORT/sd" >"$WORK/sd.json" || fail "GET /sd failed"
python3 - "$WORK/sd.json" "$TARGETS" "127.0.0.1:$PORT" <<'PY' || fail "/sd is wrong"
import json, sys
groups = json.load(open(sys.argv[1]))
names = sorted(g["labels"]["__param_target"] for g in groups)
want = sorted(f"leaf-{i}" for i in range(1, int(sys.argv[2]) + 1))
if names != want: print("SD lists", names); sys.exit(1)
if any(g["targets"] != [sys.argv[3]] for g in groups): print("wrong address", groups[0]); sys.exit(1)
PY

note "gzip when asked, the same text inflated"
curl -sf "http://127.0.0.1:$PORT/metrics?target=leaf-1" -o "$WORK/plain.txt" || fail "per-target scrape failed"
curl -sf -H 'Accept-Encoding: gzip' -D "$WORK/gz.headers" "http://127.0.0.1:$PORT/metrics?target=leaf-1" -o "$WORK/body.gz" ||
  fail "gzip scrape failed"
grep -qi '^Content-Encoding: gzip' "$WORK/gz.headers" || fail "no Content-Encoding: gzip"
gzip -dc "$WORK/body.gz" >"$WORK/inflated.txt" || fail "the gzip body does not inflate"
# The Samples' part of the text is rendered once per poll; a poll may land
# between the two requests, so compare the series names, not the values.
diff <(sed 's/ .*//' "$WORK/plain.txt" | sort) <(sed 's/ .*//' "$WORK/inflated.txt" | sort) >/dev/null ||
  fail "the gzip body holds other series than the plain one"

declare -a PROM
for shard in 0 1; do
  prom_port=$(free_port)
  sed -E -e "s#http://opticsd-1.example.net:9464#http://127.0.0.1:$PORT#; s#opticsd-1.example.net:9464#127.0.0.1:$PORT#" \
    -e 's/scrape_interval: 30s/scrape_interval: 1s/; s/scrape_timeout: 20s/scrape_timeout: 1s/' \
    -e 's/scrape_interval: 2m/scrape_interval: 2s/; s/scrape_timeout: 1m/scrape_timeout: 2s/' \
    -e 's/refresh_interval: 1m/refresh_interval: 1s/' \
    -e "s/regex: \"0\"  # SHARD_INDEX/regex: \"$shard\"  # SHARD_INDEX/" \
    "$OPTICSD_SOURCE_DIR/deploy/prometheus/scrape/opticsd-sharded.yml" >"$WORK/prometheus-$shard.yml"
  grep -q "regex: \"$shard\"" "$WORK/prometheus-$shard.yml" || fail "could not set SHARD_INDEX in the config copy"
  promtool check config "$WORK/prometheus-$shard.yml" >/dev/null || fail "the shard $shard config is invalid"
  prometheus --config.file="$WORK/prometheus-$shard.yml" --storage.tsdb.path="$WORK/tsdb-$shard" \
    --web.listen-address="127.0.0.1:$prom_port" --log.level=warn >"$WORK/prometheus-$shard.log" 2>&1 &
  PIDS+=($!)
  PROM[$shard]="http://127.0.0.1:$prom_port"
done
for shard in 0 1; do
  wait_for 150 curl -sf "${PROM[$shard]}/-/ready" || { cat "$WORK/prometheus-$shard.log"; fail "prometheus $shard not ready"; }
done

# query SHARD PROMQL: the instant result as JSON.
query() { curl -sf "${PROM[$1]}/api/v1/query" --data-urlencode "query=$2"; }
# All targets up across both servers, and each server's thresholds job done.
all_scraped() {
  local total=0 n
  for shard in 0 1; do
    n=$(query "$shard" 'count(up{job="opticsd"} == 1) or vector(0)' | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["result"][0]["value"][1])')
    total=$((total + n))
    query "$shard" 'count(up{job="opticsd_thresholds"} == 1)' | grep -q '"value"' || return 1
  done
  [ "$total" -eq "$TARGETS" ]
}
note "waiting for both servers to scrape every target once"
wait_for 300 all_scraped || { for s in 0 1; do query "$s" 'up'; echo; done; fail "not every target was scraped"; }
sleep 3  # a few more rounds: a target scraped by both would show now

for shard in 0 1; do
  query "$shard" 'up{job="opticsd"}' >"$WORK/up-$shard.json"
  query "$shard" 'count by (target) (opticsd_lane_rx_power_dbm)' >"$WORK/rx-$shard.json"
  query "$shard" 'count by (target) (opticsd_lane_threshold_rx_power_dbm)' >"$WORK/th-$shard.json"
done
python3 - "$WORK" "$TARGETS" <<'PY' || fail "the shards do not split the targets exactly"
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
def labels(path, key):
    return {r["metric"][key] for r in json.load(open(f"{work}/{path}"))["data"]["result"]}
up = [labels(f"up-{s}.json", "instance") for s in (0, 1)]
print("shard 0:", sorted(up[0]), "\nshard 1:", sorted(up[1]))
want = {f"leaf-{i}" for i in range(1, n + 1)}
if up[0] & up[1]: print("scraped by both:", up[0] & up[1]); sys.exit(1)
if up[0] | up[1] != want: print("missed:", want - (up[0] | up[1])); sys.exit(1)
if not up[0] or not up[1]: print("one server got nothing: hashmod did not split"); sys.exit(1)
for s in (0, 1):
    rx, th = labels(f"rx-{s}.json", "target"), labels(f"th-{s}.json", "target")
    if rx != up[s]: print(f"shard {s} holds lane series of", rx, "but scrapes", up[s]); sys.exit(1)
    if th != up[s]: print(f"shard {s} holds thresholds of", th, "but scrapes", up[s]); sys.exit(1)
PY
stop_opticsd
echo PASS
