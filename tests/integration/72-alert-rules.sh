#!/usr/bin/env bash
# The Prometheus alert rules: `promtool check rules` accepts them and
# `promtool test rules` passes; every alert in the rules file has a unit
# test that sees it fire, and at least one evaluation where it must not
# (before `for:` elapses, on healthy series, or after it resolves).
source "$(dirname "$0")/lib.sh"
need promtool
need python3
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

# Every alert names where: summary and description exist and use target.
python3 - "$DIR/opticsd-alerts.yml" <<'PY' || fail "an alert lacks summary/description naming the target"
import sys, yaml
bad = 0
for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
    for r in g["rules"]:
        if "alert" not in r:
            continue
        a = r.get("annotations", {})
        for key in ("summary", "description"):
            if "$labels.target" not in a.get(key, "") and "$labels.instance" not in a.get(key, ""):
                print(f"{r['alert']} ({r['labels'].get('severity')}): {key} does not name the target")
                bad += 1
sys.exit(1 if bad else 0)
PY
echo PASS
