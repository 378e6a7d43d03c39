#!/usr/bin/env bash
# The Prometheus alert rules: `promtool check rules` accepts them and
# `promtool test rules` passes; every alert in the rules file has a unit
# test that sees it fire, and at least one evaluation where it must not
# (before `for:` elapses, on healthy series, or after it resolves). Finding
# alerts carry the finding's own severity (no severity label in the rule):
# they need a firing test of any severity. Every engine rule in
# daemon/rules/default_rules.yaml has an alert of its own.
source "$(dirname "$0")/lib.sh"
need promtool
need python3
need amtool
need prometheus-alertmanager
need curl
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
DIR="$OPTICSD_SOURCE_DIR/deploy/prometheus"

promtool check rules "$DIR/opticsd-alerts.yml" || fail "promtool check rules failed"
(cd "$DIR" && promtool test rules opticsd-alerts.test.yml) || fail "promtool test rules failed"

python3 - "$DIR/opticsd-alerts.yml" "$DIR/opticsd-alerts.test.yml" <<'PY' || fail "an alert lacks tests"
import sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
tests = yaml.safe_load(open(sys.argv[2]))
alerts = {}  # name -> severities
for g in rules["groups"]:
    for r in g["rules"]:
        if "alert" in r:
            alerts.setdefault(r["alert"], set()).add(r.get("labels", {}).get("severity"))
fires, quiet = {}, set()
for t in tests["tests"]:
    for case in t.get("alert_rule_test", []):
        name = case["alertname"]
        exp = case.get("exp_alerts") or []
        if exp:
            for a in exp:
                fires.setdefault(name, set()).add(a["exp_labels"].get("severity"))
        else:
            quiet.add(name)
bad = []
for name, severities in sorted(alerts.items()):
    if severities == {None}:  # severity from the finding
        severities = set()
        if not fires.get(name):
            bad.append(f"{name}: no test sees it fire")
    missing = severities - fires.get(name, set())
    if missing:
        bad.append(f"{name}: no test sees severity {sorted(missing)} fire")
    if name not in quiet:
        bad.append(f"{name}: no test where it must not fire")
    print(f"{name}: fires {sorted(fires.get(name, set()))}, quiet case {'yes' if name in quiet else 'no'}")
for b in bad:
    print("MISSING:", b)
sys.exit(1 if bad else 0)
PY

# Every alert names where: summary and description exist and use target
# (or the opticsd instance/job for self-monitoring); every optics alert has
# the `optic` annotation the Alertmanager template names the module with.
python3 - "$DIR/opticsd-alerts.yml" <<'PY' || fail "an alert lacks summary/description naming the target"
import sys, yaml
bad = 0
for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
    for r in g["rules"]:
        if "alert" not in r:
            continue
        a = r.get("annotations", {})
        for key in ("summary", "description"):
            if not any(f"$labels.{l}" in a.get(key, "") for l in ("target", "instance", "job")):
                print(f"{r['alert']} ({r.get('labels', {}).get('severity')}): {key} does not name the target")
                bad += 1
        if g["name"] != "opticsd-self" and "$labels.port" not in a.get("optic", ""):
            print(f"{r['alert']}: no optic annotation naming the port")
            bad += 1
sys.exit(1 if bad else 0)
PY

# Each finding family of the shipped rule set reaches an alert of its own.
python3 - "$DIR/opticsd-alerts.yml" "$OPTICSD_SOURCE_DIR/daemon/rules/default_rules.yaml" <<'PY' || fail "a finding family has no alert"
import re, sys, yaml
covered = set()
for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
    for r in g["rules"]:
        m = re.fullmatch(r'opticsd_finding\{rule="([a-z0-9_]+)"(,mode!="shadow")?\}', r.get("expr", "").strip())
        if m:
            covered.add(m.group(1))
families = [r["name"] for r in yaml.safe_load(open(sys.argv[2]))["rules"]]
missing = [f for f in families if f not in covered]
print(f"{len(families)} finding families, alerts for {len(covered & set(families))}; missing: {missing or 'none'}")
sys.exit(1 if missing or not families else 0)
PY

# The Alertmanager configuration: amtool accepts it (templates included),
# every alert routes to a receiver, and a real Alertmanager given one
# failing optic's worth of alerts groups them per optic and inhibits as
# the config says.
AM_DIR="$OPTICSD_SOURCE_DIR/deploy/alertmanager"
amtool check-config "$AM_DIR/alertmanager.yml" || fail "amtool check-config failed"
route_of() { amtool config routes test --config.file="$AM_DIR/alertmanager.yml" "$@"; }
[ "$(route_of alertname=OpticsdLinkFlapping target=leaf-1 port=Ethernet2 severity=critical)" = oncall ] ||
  fail "optics alerts do not reach the oncall receiver"
[ "$(route_of alertname=OpticsdDown job=opticsd instance=mgmt-1:9464 severity=critical)" = oncall ] ||
  fail "OpticsdDown does not reach the oncall receiver"

AM_PORT=$(free_port)
prometheus-alertmanager --config.file="$AM_DIR/alertmanager.yml" --storage.path="$WORK/am" \
  --web.listen-address="127.0.0.1:$AM_PORT" --cluster.listen-address="" --log.level=warn >"$WORK/am.log" 2>&1 &
PIDS+=($!)
AM="http://127.0.0.1:$AM_PORT"
wait_for 150 curl -sf "$AM/-/ready" || { cat "$WORK/am.log"; fail "alertmanager did not become ready"; }
python3 "$OPTICSD_SOURCE_DIR/tests/integration/alerting/inhibition_check.py" "$AM" || fail "grouping or inhibition is wrong"
echo PASS
