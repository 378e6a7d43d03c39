#!/usr/bin/env python3
"""Assertions on what Alertmanager sent to the sink (webhook_receiver.py) in
74-prometheus-alert-e2e.sh. Prints the notification counts per scenario.

  notifications_check.py optics PROM LOG TIMEOUT_S
      waits until each scenario's own alert fires in Prometheus and its optic
      has been notified, then checks: exactly one webhook and one Slack
      notification per failing optic, none for the healthy ports and nothing
      else; each names the module, port, host, GPU, rail and first finding.
  notifications_check.py killed AM LOG KILLED_AT DOWN_FOR_S
      opticsd was killed at KILLED_AT (UNIX seconds): exactly one OpticsdDown
      page, no earlier than its for: and no later than for: + latency; no
      other notification since the kill; the dead daemon's optics alerts are
      inhibited in Alertmanager.
"""
import json
import re
import sys
import time
import urllib.parse
import urllib.request

# port -> (scenario, the alerts that must fire for it)
SCENARIOS = {
    "Ethernet1": ("dirty connector", {"OpticsdRxPowerLow", "OpticsdPreFecBerHigh"}),
    "Ethernet2": ("laser ageing", {"OpticsdTxBiasDrift"}),
    "Ethernet3": ("flapping link", {"OpticsdLinkFlapping"}),
    "Ethernet4": ("dead lane", {"OpticsdLaneFailure"}),
    "Ethernet5": ("thermal runaway", {"OpticsdTemperatureHigh"}),
}
HEALTHY = {"Ethernet6", "Ethernet7", "Ethernet8"}
# Slack gets a group's title and text, rendered by deploy/alertmanager/opticsd.tmpl.
LATENCY_S = 12  # scrape 1 s + evaluation 1 s + group_wait 2 s + delivery, with room for a loaded machine


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def notifications(log):
    try:
        with open(log) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def firing_in_prometheus(prom):
    alerts = get(prom + "/api/v1/alerts")["data"]["alerts"]
    return {(a["labels"].get("port"), a["labels"]["alertname"]) for a in alerts if a["state"] == "firing"}


def slack_port(n):
    a = n["body"]["attachments"][0]
    m = re.search(r"leaf-1 (Ethernet\d+)\b", a["title"])
    return m.group(1) if m else None


def optics(prom, log, timeout):
    deadline = time.time() + timeout
    while True:
        firing = firing_in_prometheus(prom)
        missing = [(p, a) for p, (_, want) in SCENARIOS.items() for a in want if (p, a) not in firing]
        notified = {n["body"]["groupLabels"].get("port") for n in notifications(log) if n["path"] == "/webhook"}
        if not missing and set(SCENARIOS) <= notified:
            break
        if time.time() > deadline:
            print("still missing alerts:", missing, "; notified optics:", sorted(p for p in notified if p))
            return 1
        time.sleep(1)
    time.sleep(LATENCY_S)  # anything more that would come for these groups comes now
    ns = notifications(log)
    hooks = [n for n in ns if n["path"] == "/webhook"]
    slacks = [n for n in ns if n["path"] == "/slack"]
    bad = []
    groups = [tuple(sorted(n["body"]["groupLabels"].items())) for n in hooks]
    expected = {(("port", p), ("target", "leaf-1")) for p in SCENARIOS}
    if set(groups) != expected:
        bad.append(f"notified groups {sorted(set(groups))}, expected {sorted(expected)}")
    for port, (scenario, want) in SCENARIOS.items():
        mine = [n["body"] for n in hooks if n["body"]["groupLabels"].get("port") == port]
        texts = [n["body"]["attachments"][0] for n in slacks if slack_port(n) == port]
        first_alerts = sorted({a["labels"]["alertname"] for a in mine[0]["alerts"]}) if mine else []
        print(f"{scenario:16} leaf-1 {port}: {len(mine)} webhook, {len(texts)} slack notification(s); "
              f"alerts in it: {', '.join(first_alerts)}")
        if len(mine) != 1 or len(texts) != 1:
            bad.append(f"{port} ({scenario}): {len(mine)} webhook and {len(texts)} slack notifications, want 1 each")
            continue
        body, text = mine[0], texts[0]
        if body["status"] != "firing" or any(a["labels"].get("port") != port for a in body["alerts"]):
            bad.append(f"{port}: the notification is not all firing alerts of this port")
        # The first finding: the alert with the earliest start; the template must name it.
        earliest = min(a["startsAt"] for a in body["alerts"])
        firsts = {a["labels"]["alertname"] for a in body["alerts"] if a["startsAt"] == earliest}
        n = port.removeprefix("Ethernet")
        behind = f"in leaf-1 {port}, behind it: host gpu-node-{n} NIC mlx5_0 GPU {n} rail {n}"
        m = re.search(r"^First finding: (\w+)", text["text"], re.M)
        print(f"    title: {text['title']}")
        print("    " + "\n    ".join(text["text"].splitlines()[:3]))
        if not text["text"].startswith("Optic: Module ") or behind not in text["text"].splitlines()[0]:
            bad.append(f"{port}: the text does not name the module and what is behind it ({behind!r})")
        if not m or m.group(1) not in firsts:
            bad.append(f"{port}: first finding named {m.group(1) if m else None}, earliest alerts are {sorted(firsts)}")
        if f"leaf-1 {port}" not in text["title"]:
            bad.append(f"{port}: title {text['title']!r} does not name the optic")
    for port in sorted(HEALTHY):
        count = sum(1 for g in groups if ("port", port) in g)
        print(f"{'healthy':16} leaf-1 {port}: {count} notification(s)")
    others = [n for n in slacks if slack_port(n) not in SCENARIOS]
    if others:
        bad.append(f"notifications for something else: {[n['body']['attachments'][0]['title'] for n in others]}")
    for b in bad:
        print("WRONG:", b)
    return 1 if bad else 0


def killed(am, log, killed_at, down_for):
    deadline = killed_at + down_for + LATENCY_S + 20
    page = None
    while time.time() < deadline and page is None:
        for n in notifications(log):
            body = n["body"]
            if n["path"] == "/webhook" and any(a["labels"]["alertname"] == "OpticsdDown" for a in body["alerts"]):
                page = n
                break
        time.sleep(0.5)
    if page is None:
        print(f"no OpticsdDown notification within {deadline - killed_at:.0f} s of the kill")
        return 1
    after = page["received"] - killed_at
    time.sleep(3)
    since = [n for n in notifications(log) if n["received"] >= killed_at]
    hooks = [n for n in since if n["path"] == "/webhook"]
    slacks = [n for n in since if n["path"] == "/slack"]
    print(f"{'opticsd killed':16} {len(hooks)} webhook, {len(slacks)} slack notification(s) since the kill; "
          f"OpticsdDown paged {after:.1f} s after the kill (for: {down_for} s)")
    print(f"    title: {slacks[0]['body']['attachments'][0]['title'] if slacks else None}")
    bad = []
    if not down_for - 1 <= after <= down_for + LATENCY_S:
        bad.append(f"paged {after:.1f} s after the kill, want between {down_for - 1} and {down_for + LATENCY_S} s")
    if len(hooks) != 1 or len(slacks) != 1:
        bad.append(f"{len(hooks)} webhook and {len(slacks)} slack notifications since the kill, want 1 each")
    groups = page["body"]["groupLabels"]
    if "port" in groups or groups.get("job") != "opticsd" or not groups.get("instance"):
        bad.append(f"the page is grouped by {groups}, want job and instance")
    filt = urllib.parse.urlencode({"filter": 'port=~".+"'})
    optics = get(am + "/api/v2/alerts?" + filt)
    active = [a["labels"]["alertname"] + " " + a["labels"]["port"] for a in optics if not a["status"]["inhibitedBy"]]
    print(f"    optics alerts still in Alertmanager: {len(optics)}, not inhibited: {len(active)}")
    if not optics or active:
        bad.append(f"optics alerts of the dead daemon not inhibited: {active}")
    for b in bad:
        print("WRONG:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "optics":
        sys.exit(optics(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    sys.exit(killed(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])))
