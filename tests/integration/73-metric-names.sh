#!/usr/bin/env bash
# Every metric the alert rules and the Grafana dashboards use exists in a
# real scrape of the running daemon, and every label value they match on
# exactly (level="low_warning", severity="critical", ...) occurs on that
# metric. The daemon runs the simulator with modules of every family and
# the degradations the alerts are about, so a renamed metric or label
# breaks this test, not a dashboard in production.
source "$(dirname "$0")/lib.sh"
need curl
need python3
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"

write_config "$WORK/opticsd.yaml" <<YAML
storage: {path: $WORK/state/history.db}
targets:
  - name: leaf-cmis
    driver: sim
    module: osfp-800g-2fr4
    ports: 6
    lanes: 8
    # The default detail level carries a data-path state only while it is
    # not activated (never, here); one port at full detail carries them all.
    export: {detail: full, ports: [Ethernet6]}
    scenarios:
      - {scenario: dirty_connector, port: 1, onset: 0s, ramp: 2s}
      - {scenario: lane_failure, port: 2, lane: 3, onset: 0s, ramp: 1s}
      - {scenario: post_fec_errors, port: 3, onset: 0s, ramp: 2s}
      - {scenario: thermal_runaway, port: 4, onset: 0s, ramp: 2s}
  - {name: leaf-qsfp, driver: sim, module: qsfp28-100g-cwdm4, ports: 2}
  - {name: host-sfp, driver: sim, module: sfp-10g-lr, ports: 2}
topology:
  links:
    - {switch: leaf-cmis, ports: Ethernet1-6, host: "gpu-node-{n}", nic: mlx5_0, gpu: "0", rail: "1"}
YAML
start_daemon "$WORK/opticsd.yaml" "$WORK/run.log"
wait_polled "$PORT" 1
# Findings need a few polls of evidence (raise_after); give them up to 20 s.
wait_for 100 metric_has "$PORT" '^opticsd_finding\{' || note "no opticsd_finding after 20 s (reported below if the rules need it)"
sleep 2
scrape "$PORT" >"$WORK/scrape.txt" || fail "scrape failed"
# Thresholds are on their own path, for a slower scrape job: the rules use both.
curl -sf --max-time 10 "http://127.0.0.1:$PORT/metrics/thresholds" >>"$WORK/scrape.txt" || fail "thresholds scrape failed"
stop_opticsd

status=0
python3 - "$WORK/scrape.txt" "$OPTICSD_SOURCE_DIR/deploy" <<'PY' || status=$?
import glob, json, os, re, sys
import yaml

scrape_file, deploy = sys.argv[1], sys.argv[2]
series = {}  # metric name -> list of label dicts
label_re = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
for line in open(scrape_file):
    if not line.strip() or line.startswith("#"):
        continue
    m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s', line)
    if m:
        series.setdefault(m.group(1), []).append(dict(label_re.findall(m.group(3) or "")))

# Expressions: alert rules (expr and the annotation templates, which query
# metrics too) and every dashboard query and variable definition.
exprs = []  # (where, text)
for path in sorted(glob.glob(os.path.join(deploy, "prometheus", "*.yml"))):
    if path.endswith(".test.yml"):
        continue
    for g in yaml.safe_load(open(path))["groups"]:
        for r in g["rules"]:
            where = f"{os.path.basename(path)}: {r.get('alert') or r.get('record')}"
            exprs.append((where, r["expr"]))
            for text in r.get("annotations", {}).values():
                exprs.append((where + " (annotation)", text))

def walk(node, where, out):
    if isinstance(node, dict):
        title = node.get("title", where)
        for key in ("expr", "definition"):
            if isinstance(node.get(key), str):
                out.append((title, node[key]))
        if isinstance(node.get("query"), dict) and isinstance(node["query"].get("query"), str):
            out.append((title, node["query"]["query"]))
        for v in node.values():
            walk(v, title, out)
    elif isinstance(node, list):
        for v in node:
            walk(v, where, out)

dashboards = sorted(glob.glob(os.path.join(deploy, "grafana", "*.json")))
if not dashboards:
    print("no dashboards found"); sys.exit(1)
for path in dashboards:
    d = json.load(open(path))
    # A datasource variable, and every panel and query using it.
    if not any(v.get("type") == "datasource" and v.get("name") == "datasource" for v in d["templating"]["list"]):
        print(f"MISSING: {os.path.basename(path)} has no datasource variable"); sys.exit(1)
    for p in d["panels"]:
        for t in p.get("targets", []):
            if t.get("datasource", {}).get("uid") != "${datasource}":
                print(f"MISSING: {os.path.basename(path)}: panel '{p['title']}' does not use $datasource"); sys.exit(1)
    found = []
    walk(d, os.path.basename(path), found)
    exprs += [(f"{os.path.basename(path)}: {w}", e) for w, e in found]

name_re = re.compile(r'\b(opticsd_[a-zA-Z0-9_]+)\b')
selector_re = re.compile(r'\b(opticsd_[a-zA-Z0-9_]+)\{([^}]*)\}')
matcher_re = re.compile(r'(\w+)\s*=\s*\\?"([^"\\$]*)\\?"')
# A finding's rule label is the name of a rule in the shipped rule set: most
# take minutes of trend to raise, so they are checked against that set, not
# against this short run's scrape.
source_dir = os.path.dirname(deploy)
engine_rules = {r["name"] for r in yaml.safe_load(open(os.path.join(source_dir, "daemon/rules/default_rules.yaml")))["rules"]}
missing, bad_labels, used = [], [], set()
for where, text in exprs:
    for name in sorted(set(name_re.findall(text))):
        used.add(name)
        if name not in series:
            missing.append((name, where))
    for name, body in selector_re.findall(text):
        if name not in series:
            continue
        for label, value in matcher_re.findall(body):
            # "=" matchers only: matcher_re skips !=, =~, !~ and $variables.
            if name == "opticsd_finding" and label == "rule" and value in engine_rules:
                continue
            if not any(s.get(label) == value for s in series[name]):
                bad_labels.append((f'{name}{{{label}="{value}"}}', where))

print(f"scrape: {len(series)} metric names; rules and dashboards use {len(used)}")
rules_engine = {"opticsd_finding", "opticsd_straggler_suspect_score", "opticsd_pre_fec_ber_threshold_ratio"}
seen = set()
for name, where in missing:
    if (name, where) in seen:
        continue
    seen.add((name, where))
    hint = " (rules-engine metric: is the rules engine publishing it yet?)" if name in rules_engine else ""
    print(f"MISSING metric {name}, used by {where}{hint}")
for sel, where in sorted(set(bad_labels)):
    print(f"MISSING label value {sel}, used by {where}")
sys.exit(1 if missing or bad_labels else 0)
PY
[ "$status" -eq 0 ] || { echo "(scrape kept in $WORK/scrape.txt with KEEP_WORK=1)"; fail "rules or dashboards use metrics the daemon does not export"; }
echo PASS
