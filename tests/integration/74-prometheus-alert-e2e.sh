#!/usr/bin/env bash
# End to end: a real Prometheus server scrapes opticsd running the simulator
# with one module whose connector gets dirty, evaluates the shipped alert
# rules, and OpticsdPreFecBerHigh reaches "firing" in /api/v1/alerts for that
# port only, its description naming the module from opticsd_module_info and
# the host behind the port from opticsd_port_topology_info. Every shipped rule
# and every Grafana dashboard query must evaluate without error against the
# real series.
#
# The rules are the shipped file with every `for:` shortened to 5s (the
# production waits are minutes); nothing else is changed.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"

PORT=$(free_port)
PROM_PORT=$(free_port)
cat >"$WORK/opticsd.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT}
poll: {interval: 1s, timeout: 2s}
storage: {path: $WORK/state/history.db}
targets:
  - name: leaf-1
    driver: sim
    module: osfp-800g-2fr4
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 2, onset: 0s, ramp: 10s}
topology:
  links:
    - {switch: leaf-1, ports: Ethernet1-4, host: "gpu-node-{n}", nic: mlx5_1, gpu: "1", rail: "2"}
YAML
start_opticsd "$WORK/opticsd.log" run --config "$WORK/opticsd.yaml"
wait_for 100 metric_has "$PORT" '^opticsd_target_up\{.*\} 1' || { cat "$WORK/opticsd.log"; fail "opticsd did not come up"; }

sed -E 's/^( *)for: [0-9]+[smh]$/\1for: 5s/' "$OPTICSD_SOURCE_DIR/deploy/prometheus/opticsd-alerts.yml" >"$WORK/rules.yml"
grep -q 'for: 5s' "$WORK/rules.yml" || fail "could not shorten for: in the rules copy"
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [$WORK/rules.yml]
scrape_configs:
  - job_name: opticsd
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
  - job_name: opticsd_thresholds
    metrics_path: /metrics/thresholds
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
YAML
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PROM_PORT"
wait_for 150 curl -sf "$PROM/-/ready" || { cat "$WORK/prometheus.log"; fail "prometheus did not become ready"; }

alerts() { curl -sf "$PROM/api/v1/alerts"; }
firing_ber() {
  alerts | python3 -c '
import json, sys
alerts = json.load(sys.stdin)["data"]["alerts"]
ok = [a for a in alerts if a["labels"]["alertname"] == "OpticsdPreFecBerHigh" and a["state"] == "firing"
      and a["labels"].get("target") == "leaf-1" and a["labels"].get("port") == "Ethernet2"]
sys.exit(0 if ok else 1)'
}
note "waiting for OpticsdPreFecBerHigh to fire on leaf-1 Ethernet2"
if ! wait_for 600 firing_ber; then
  alerts | python3 -m json.tool || true
  curl -sf "$PROM/api/v1/query" --data-urlencode 'query={__name__=~"opticsd_(module|lane)_pre_fec_ber_ratio|opticsd_pre_fec_ber_threshold_ratio",port="Ethernet2"}' | python3 -m json.tool | head -60 || true
  fail "pre-FEC BER alert did not reach firing within 120 s"
fi
alerts >"$WORK/alerts.json"
python3 - "$WORK/alerts.json" <<'PY' || fail "alert state or annotations are wrong"
import json, sys
alerts = json.load(open(sys.argv[1]))["data"]["alerts"]
ber = [a for a in alerts if a["labels"]["alertname"] == "OpticsdPreFecBerHigh"]
for a in ber:
    print(a["state"], a["labels"], "\n ", a["annotations"]["description"])
wrong = [a for a in ber if a["labels"].get("port") != "Ethernet2"]
if wrong:
    print("BER alert on a healthy port:", wrong); sys.exit(1)
firing = [a for a in ber if a["state"] == "firing"]
desc = firing[0]["annotations"]["description"]
for want in ("leaf-1", "Ethernet2", "Module:", "Behind it: host gpu-node-2 NIC mlx5_1 GPU 1 rail 2"):
    if want not in desc:
        print("description lacks", want); sys.exit(1)
PY

note "every shipped rule evaluates cleanly on the real series"
curl -sf "$PROM/api/v1/rules" >"$WORK/rules.json"
python3 - "$WORK/rules.json" <<'PY' || fail "a rule fails to evaluate"
import json, sys
bad = 0
for g in json.load(open(sys.argv[1]))["data"]["groups"]:
    for r in g["rules"]:
        if r.get("health") != "ok":
            print("rule", r["name"], "health", r.get("health"), r.get("lastError")); bad += 1
sys.exit(1 if bad else 0)
PY

note "every Grafana dashboard query evaluates cleanly on the real series"
python3 - "$PROM" "$OPTICSD_SOURCE_DIR/deploy/grafana" <<'PY' || fail "a dashboard query fails"
import glob, json, os, sys, urllib.parse, urllib.request
prom, grafana = sys.argv[1], sys.argv[2]
values = {"$__rate_interval": "1m", "$target": "leaf-1", "$port": "Ethernet2"}
def exprs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "expr" and isinstance(v, str) and v:
                yield v
            else:
                yield from exprs(v)
    elif isinstance(node, list):
        for v in node:
            yield from exprs(v)
bad = checked = 0
for path in sorted(glob.glob(os.path.join(grafana, "*.json"))):
    for expr in exprs(json.load(open(path))):
        query = expr
        for k, v in values.items():
            query = query.replace(k, v)
        url = prom + "/api/v1/query?" + urllib.parse.urlencode({"query": query})
        try:
            answer = json.load(urllib.request.urlopen(url, timeout=10))
        except Exception as e:  # HTTP 400: a query Prometheus cannot parse or run
            answer = {"status": "error", "error": getattr(e, "read", lambda: str(e).encode())().decode()}
        checked += 1
        if answer.get("status") != "success":
            bad += 1
            print(os.path.basename(path), expr, "->", answer.get("error"))
print(f"{checked} dashboard queries evaluated, {bad} failed")
sys.exit(1 if bad or checked == 0 else 0)
PY
stop_opticsd
echo PASS
