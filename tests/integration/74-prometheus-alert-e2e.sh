#!/usr/bin/env bash
# End to end, the way an on-call engineer gets paged: opticsd polls a
# simulated leaf whose ports fail the ways optics fail (a dirty connector, an
# ageing laser, a flapping link, a dead lane, a thermal runaway; three ports
# stay healthy), a real Prometheus scrapes it with the shipped alert rules, a
# real Alertmanager runs the shipped config and template, and a webhook sink
# on 127.0.0.1 records what would page someone. Then opticsd is killed.
#
# Asserted:
# - one notification per failing optic (group [target, port]), none for the
#   healthy ports, each naming the module, the port, the host, GPU and rail
#   behind it and the first finding (the rendered template, posted through
#   Alertmanager's Slack integration to the sink, and the webhook JSON);
# - each scenario's own finding alert fires under its own name;
# - opticsd killed: OpticsdDown pages once, after its `for:` and within it
#   plus the scrape, evaluation and group_wait latency; the optics alerts of
#   the dead daemon are inhibited, not resolved.
# - every shipped rule and every Grafana dashboard query evaluates cleanly
#   on the real series.
#
# Shortened for the test (nothing else changed): every rule `for:` to 5s and
# OpticsdDown's to 15s; Alertmanager's group_wait to 10s (2s for opticsd's
# own alerts) and group_interval/repeat_interval to 1h, longer than the run,
# so every count below is exact.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
need prometheus-alertmanager
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
ALERTING="$OPTICSD_SOURCE_DIR/tests/integration/alerting"
DOWN_FOR=15

PORT=$(free_port)
PROM_PORT=$(free_port)
AM_PORT=$(free_port)
write_config "$WORK/opticsd.yaml" <<YAML
poll: {interval: 1s, timeout: 2s}
storage: {path: $WORK/state/history.db}
targets:
  - name: leaf-1
    driver: sim
    module: osfp-800g-2fr4
    ports: 8
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 1, onset: 5s, ramp: 20s}
      - {scenario: laser_ageing, port: 2, onset: 10s, ramp: 20s}
      - {scenario: link_flapping, port: 3, onset: 5s, ramp: 5s}
      - {scenario: lane_failure, port: 4, lane: 3, onset: 5s, ramp: 2s}
      - {scenario: thermal_runaway, port: 5, onset: 5s, ramp: 20s}
topology:
  links:
    - {switch: leaf-1, ports: Ethernet1-8, host: "gpu-node-{n}", nic: mlx5_0, gpu: "{n}", rail: "{n}"}
YAML

# The notification sink.
python3 "$ALERTING/webhook_receiver.py" "$WORK/hook.port" "$WORK/notifications.jsonl" &
PIDS+=($!)
wait_for 50 test -s "$WORK/hook.port" || fail "webhook receiver did not start"
HOOK="http://127.0.0.1:$(cat "$WORK/hook.port")"

# Alertmanager: the shipped config, intervals shortened, receiver pointed at the sink.
mkdir -p "$WORK/am"
cp "$OPTICSD_SOURCE_DIR/deploy/alertmanager/opticsd.tmpl" "$WORK/am/"
python3 - "$OPTICSD_SOURCE_DIR/deploy/alertmanager/alertmanager.yml" "$WORK/am/alertmanager.yml" "$HOOK" <<'PY'
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
route = config["route"]
route.update(group_wait="10s", group_interval="1h", repeat_interval="1h")
for child in route["routes"]:
    child["group_wait"] = "2s"
config["receivers"] = [{
    "name": "oncall",
    "webhook_configs": [{"url": sys.argv[3] + "/webhook", "send_resolved": True}],
    "slack_configs": [{"api_url": sys.argv[3] + "/slack", "channel": "#optics", "send_resolved": True,
                       "title": '{{ template "opticsd.title" . }}', "text": '{{ template "opticsd.text" . }}'}],
}]
yaml.safe_dump(config, open(sys.argv[2], "w"), sort_keys=False)
PY
prometheus-alertmanager --config.file="$WORK/am/alertmanager.yml" --storage.path="$WORK/am/data" \
  --web.listen-address="127.0.0.1:$AM_PORT" --cluster.listen-address="" --log.level=warn >"$WORK/am.log" 2>&1 &
PIDS+=($!)
AM="http://127.0.0.1:$AM_PORT"
wait_for 150 curl -sf "$AM/-/ready" || { cat "$WORK/am.log"; fail "alertmanager did not become ready"; }

# Prometheus: the shipped rules, `for:` shortened.
sed -E -e 's/^( *)for: [0-9]+[smh]$/\1for: 5s/' "$OPTICSD_SOURCE_DIR/deploy/prometheus/opticsd-alerts.yml" |
  python3 -c '
import sys, re
text = sys.stdin.read()
# OpticsdDown keeps a for: of its own, asserted below.
text, n = re.subn(r"(- alert: OpticsdDown\n(?:.*\n)*?\s*for: )5s", r"\g<1>'"$DOWN_FOR"'s", text, count=1)
assert n == 1, "OpticsdDown has no for:"
sys.stdout.write(text)' >"$WORK/rules.yml"
grep -q 'for: 5s' "$WORK/rules.yml" || fail "could not shorten for: in the rules copy"
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [$WORK/rules.yml]
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$AM_PORT"]
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

start_daemon "$WORK/opticsd.yaml" "$WORK/opticsd.log"
wait_polled "$PORT" 1
metric_has "$PORT" '^opticsd_target_up\{.*\} 1' || { cat "$WORK/opticsd.log"; fail "opticsd did not come up"; }
START=$(date +%s)

# Each scenario's own alert (Prometheus, firing) and one notification per failing optic.
python3 "$ALERTING/notifications_check.py" optics "$PROM" "$WORK/notifications.jsonl" 150 ||
  { tail -20 "$WORK/opticsd.log"; fail "the optics notifications are wrong"; }

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
python3 "$ALERTING/dashboard_queries_check.py" "$PROM" "$OPTICSD_SOURCE_DIR/deploy/grafana" || fail "a dashboard query fails"

note "opticsd killed: OpticsdDown must page within its for: ($DOWN_FOR s) plus latency"
kill -KILL "$OPTICSD_PID"
KILLED=$(python3 -c 'import time; print(time.time())')
python3 "$ALERTING/notifications_check.py" killed "$AM" "$WORK/notifications.jsonl" "$KILLED" "$DOWN_FOR" ||
  fail "opticsd being down did not page as it should"
note "scenario wall time: $(($(date +%s) - START)) s"
echo PASS
