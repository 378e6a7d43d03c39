#!/usr/bin/env python3
"""Posts the alerts of a few failing optics to a real Alertmanager running the
shipped deploy/alertmanager/alertmanager.yml and checks its groups and its
inhibitions (GET /api/v2/alerts: state "suppressed", inhibitedBy).

Usage: inhibition_check.py http://127.0.0.1:PORT
"""
import json
import sys
import time
import urllib.request

AM = sys.argv[1]
JOB = {"job": "opticsd", "instance": "mgmt-1:9464"}


def alert(name, severity, **labels):
    return dict(JOB, alertname=name, severity=severity, **labels)


# name -> (labels, expected inhibited?)
CASES = {
    # A dirty connector on leaf-1 Ethernet2: module findings (warning), four
    # lanes' Tx bias at the module's limit (muted by the module's own alerts),
    # straggler warning and critical (the warning muted).
    "ber": (alert("OpticsdPreFecBerHigh", "warning", target="leaf-1", port="Ethernet2", rule="pre_fec_ber"), False),
    "rx": (alert("OpticsdRxPowerLow", "warning", target="leaf-1", port="Ethernet2", rule="rx_power_low"), False),
    "bias1": (alert("OpticsdTxBiasHigh", "warning", target="leaf-1", port="Ethernet2", lane="1"), True),
    "bias2": (alert("OpticsdTxBiasHigh", "warning", target="leaf-1", port="Ethernet2", lane="2"), True),
    "imb": (alert("OpticsdRxLaneImbalance", "warning", target="leaf-1", port="Ethernet2", lane="3",
                  rule="rx_lane_imbalance"), True),
    "strag_w": (alert("OpticsdStragglerSuspect", "warning", target="leaf-1", port="Ethernet2"), True),
    "strag_c": (alert("OpticsdStragglerSuspect", "critical", target="leaf-1", port="Ethernet2"), False),
    # A dead lane on Ethernet3: the lane failure is the diagnosis, never muted
    # by the link being down; the link-down alert mutes nothing.
    "dark": (alert("OpticsdLaneFailure", "critical", target="leaf-1", port="Ethernet3", lane="4",
                   rule="lane_failure"), False),
    "down": (alert("OpticsdLinkDown", "critical", target="leaf-1", port="Ethernet3"), False),
    "bias3": (alert("OpticsdTxBiasHigh", "warning", target="leaf-1", port="Ethernet3", lane="1"), False),
    # A lane alert alone on Ethernet5: nothing mutes it.
    "bias5": (alert("OpticsdTxBiasHigh", "warning", target="leaf-1", port="Ethernet5", lane="2"), False),
    # A critical module finding mutes a warning lane alert of another rule;
    # a warning module finding does not mute a critical lane alert.
    "alarm6": (alert("OpticsdModuleAlarm", "critical", target="leaf-1", port="Ethernet6", rule="module_alarm"), False),
    "imb6": (alert("OpticsdTxLaneImbalance", "warning", target="leaf-1", port="Ethernet6", lane="2",
                   rule="tx_lane_imbalance"), True),
    "drift7": (alert("OpticsdTxBiasDrift", "warning", target="leaf-1", port="Ethernet7", rule="bias_drift"), False),
    "imb7": (alert("OpticsdTxLaneImbalance", "critical", target="leaf-1", port="Ethernet7", lane="1",
                   rule="tx_lane_imbalance"), False),
    # opticsd on mgmt-2 is down: its optics alerts (firing on from
    # keep_firing_for) are muted, its own alerts and mgmt-1's are not.
    "am_down": (dict(alertname="OpticsdDown", severity="critical", job="opticsd", instance="mgmt-2:9464"), False),
    "m2_ber": (dict(alertname="OpticsdPreFecBerHigh", severity="warning", job="opticsd", instance="mgmt-2:9464",
                    target="leaf-9", port="Ethernet1", rule="pre_fec_ber"), True),
    "m2_tdown": (dict(alertname="OpticsdTargetDown", severity="warning", job="opticsd", instance="mgmt-2:9464",
                      target="spine-9", driver="snmp"), False),
}

# One group per optic ([target, port]); opticsd's own alerts per instance/target.
EXPECTED_GROUPS = {
    (("port", "Ethernet2"), ("target", "leaf-1")),
    (("port", "Ethernet3"), ("target", "leaf-1")),
    (("port", "Ethernet5"), ("target", "leaf-1")),
    (("port", "Ethernet6"), ("target", "leaf-1")),
    (("port", "Ethernet7"), ("target", "leaf-1")),
    (("port", "Ethernet1"), ("target", "leaf-9")),
    (("instance", "mgmt-2:9464"), ("job", "opticsd")),
    (("instance", "mgmt-2:9464"), ("job", "opticsd"), ("target", "spine-9")),
}


def call(path, body=None):
    req = urllib.request.Request(AM + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        text = r.read()
    return json.loads(text) if text else None


def key(labels):
    return tuple(sorted(labels.items()))


now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
call("/api/v2/alerts", [{"labels": labels, "annotations": {"summary": name}, "startsAt": now}
                        for name, (labels, _) in CASES.items()])

want = {key(labels): inhibited for labels, inhibited in CASES.values()}
deadline = time.time() + 15
while True:
    got = {key(a["labels"]): a["status"] for a in call("/api/v2/alerts")}
    wrong = [(dict(k), got.get(k)) for k, inhibited in want.items()
             if k not in got or bool(got[k]["inhibitedBy"]) != inhibited]
    if not wrong or time.time() > deadline:
        break
    time.sleep(0.3)
for name, (labels, inhibited) in CASES.items():
    st = got.get(key(labels), {})
    print(f"{name:9} {labels['alertname']:24} {labels.get('severity'):8} lane={labels.get('lane', '-'):2}"
          f" state={st.get('state')} inhibited={bool(st.get('inhibitedBy'))} (want {inhibited})")
if wrong:
    print("WRONG inhibition:", wrong)
    sys.exit(1)

groups = {key(g["labels"]) for g in call("/api/v2/alerts/groups")}
if groups != EXPECTED_GROUPS:
    print("groups:", sorted(groups))
    print("expected:", sorted(EXPECTED_GROUPS))
    sys.exit(1)
print(f"{len(CASES)} alerts, {len(groups)} groups, {sum(want.values())} inhibited: as configured")
