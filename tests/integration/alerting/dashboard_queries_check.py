#!/usr/bin/env python3
"""Every PromQL expression in the Grafana dashboards (panels and template
variables) evaluates without error on a real Prometheus.

Usage: dashboard_queries_check.py PROMETHEUS_URL GRAFANA_DIR
"""
import glob
import json
import os
import re
import sys
import urllib.parse
import urllib.request

prom, grafana = sys.argv[1], sys.argv[2]
# Grafana's variables as a user's selection would fill them.
VALUES = {"$__rate_interval": "1m", "$__interval": "15s", "$__range": "1h", "$instance": ".+", "$target": "leaf-1",
          "$port": "Ethernet2", "$job": "opticsd"}


def exprs(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "expr" and isinstance(v, str) and v:
                yield v
            elif k == "query" and isinstance(v, dict) and v.get("query"):
                yield v["query"]
            else:
                yield from exprs(v)
    elif isinstance(node, list):
        for v in node:
            yield from exprs(v)


def promql(expr):
    # Template-variable queries: label_values(metric, label) -> the metric's selector.
    m = re.fullmatch(r"\s*label_values\((.*),\s*\w+\)\s*", expr, re.S)
    if m:
        expr = m.group(1)
    elif re.fullmatch(r"\s*label_values\(\w+\)\s*", expr):
        return None
    for k in sorted(VALUES, key=len, reverse=True):
        expr = expr.replace(k, VALUES[k])
    return expr


bad = checked = 0
for path in sorted(glob.glob(os.path.join(grafana, "*.json"))):
    for expr in exprs(json.load(open(path))):
        query = promql(expr)
        if query is None:
            continue
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
