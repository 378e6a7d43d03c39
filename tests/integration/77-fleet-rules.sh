#!/usr/bin/env bash
# The fleet-wide rules (deploy/prometheus/opticsd-fleet-rules.yml): promtool
# accepts them and their unit tests pass; every recording rule has a
# promql_expr_test and every alert a test where it fires (each severity) and
# one where it must not; every test group that joins links has its input
# series from at least two `instance` values (a link's ends live in two
# opticsd instances); and no rule keeps `instance` or `job` in a by/on list
# (they must never be part of a link's identity).
source "$(dirname "$0")/lib.sh"
need promtool
need python3
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
DIR="$OPTICSD_SOURCE_DIR/deploy/prometheus"

promtool check rules "$DIR/opticsd-fleet-rules.yml" || fail "promtool check rules failed"
(cd "$DIR" && promtool test rules opticsd-fleet-rules.test.yml) || fail "promtool test rules failed"

python3 - "$DIR/opticsd-fleet-rules.yml" "$DIR/opticsd-fleet-rules.test.yml" <<'PY' || fail "a fleet rule lacks tests"
import re, sys, yaml
rules = yaml.safe_load(open(sys.argv[1]))
tests = yaml.safe_load(open(sys.argv[2]))
records, alerts = set(), {}
bad = []
for g in rules["groups"]:
    for r in g["rules"]:
        if "record" in r:
            records.add(r["record"])
        else:
            alerts.setdefault(r["alert"], set()).add(r["labels"]["severity"])
        for clause in re.findall(r"\b(?:by|on|without|ignoring)\s*\(([^)]*)\)", r["expr"]):
            if {"instance", "job"} & {l.strip() for l in clause.split(",")}:
                bad.append(f"{r.get('record') or r.get('alert')}: instance/job in ({clause})")
tested, fires, quiet = set(), {}, set()
for t in tests["tests"]:
    instances = {m for s in t["input_series"] for m in re.findall(r'instance="([^"]*)"', s["series"])}
    exprs = [c["expr"] for c in t.get("promql_expr_test", [])]
    for e in exprs:
        tested.update(n for n in records if re.search(re.escape(n) + r"\b", e))
    joins = any("link" in e for e in exprs) or t.get("alert_rule_test")
    if joins and len(instances) < 2:
        bad.append(f"test {t['name']!r}: its series come from {sorted(instances)}, not two instances")
    for case in t.get("alert_rule_test", []):
        exp = case.get("exp_alerts") or []
        for a in exp:
            fires.setdefault(case["alertname"], set()).add(a["exp_labels"].get("severity"))
        if not exp:
            quiet.add(case["alertname"])
for n in sorted(records - tested):
    bad.append(f"{n}: no promql_expr_test")
for name, severities in sorted(alerts.items()):
    if severities - fires.get(name, set()):
        bad.append(f"{name}: no test sees severity {sorted(severities - fires.get(name, set()))} fire")
    if name not in quiet:
        bad.append(f"{name}: no test where it must not fire")
print(f"{len(records)} recording rules, {len(alerts)} alerts checked")
for b in bad:
    print("MISSING:", b)
sys.exit(1 if bad else 0)
PY
echo PASS
