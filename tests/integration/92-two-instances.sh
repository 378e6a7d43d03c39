#!/usr/bin/env bash
# Both ends of a link in two opticsd instances, joined by the fleet's
# Prometheus (and by VictoriaMetrics + vmalert) with the shipped
# deploy/prometheus/opticsd-fleet-rules.yml:
#
#   "host"   gpu-node-1, a replay target standing for its two NICs eth0, eth1
#            (CMIS 400GBASE-DR4 pages written here from the spec, Tx -1.5 dBm
#            a lane; Rx 0 dBm on eth0, -4 dBm on eth1), GPU and rail per NIC
#            in its topology, as deploy/config/gpu-host.yaml has them;
#   "switch" leaf-1, the simulator's 400GBASE-DR4 ports Ethernet1, Ethernet2
#            (Tx about 1.2 dBm), whose topology states the far ends as LLDP
#            would: Ethernet1 -> gpu-node-1 eth0, Ethernet2 -> gpu-node-1 eth1.
#
# The fibre from leaf-1 Ethernet2 is degraded on the switch side (a dirty
# connector on its Tx): gpu-node-1 eth1 receives about 5.2 dB less than
# leaf-1 sends, over the 3 dB budget of DR4 (below the critical 6). Asserted,
# first through a real Prometheus scraping both instances (the switch per
# target through /sd, the host as its own job), then through remote write
# from both into a real VictoriaMetrics with vmalert evaluating the same file:
# - the degraded link shows as link loss on the host's Rx and exactly one
#   OpticsdFleetLinkLossOverBudget fires, naming both ends, the host, NIC,
#   GPU and rail; its description names both ends too;
# - the healthy link is joined (its loss is there, under budget) and raises
#   nothing, in either direction; no link rule holds an instance label.
# The rules' `for:` are shortened to 2s in the copy the servers load;
# nothing else is changed.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need prometheus
: "${OPTICSD_SOURCE_DIR:?set OPTICSD_SOURCE_DIR to the source tree (ctest does)}"
RULES="$OPTICSD_SOURCE_DIR/deploy/prometheus/opticsd-fleet-rules.yml"

note "the shipped GPU-host config is valid once its host name is filled in"
sed 's/@HOSTNAME@/gpu-node-1/g' "$OPTICSD_SOURCE_DIR/deploy/config/gpu-host.yaml" >"$WORK/gpu-host.yaml"
"$OPTICSD" check-config "$WORK/gpu-host.yaml" >"$WORK/check.log" 2>&1 || { cat "$WORK/check.log"; fail "gpu-host.yaml is refused"; }

# The host's NICs: CMIS 5.0 400GBASE-DR4 pages (the replay fixtures' builder,
# tests/fixtures/replay/make_fixtures.py), lane powers in 0.1 uW (CMIS 5.0
# Table 8-70: page 11h bytes 154-169 Tx power, 186-201 Rx power).
python3 - "$OPTICSD_SOURCE_DIR/tests/fixtures/replay" "$WORK/host" <<'PY' || fail "could not write the host's pages"
import os, sys
sys.path.insert(0, sys.argv[1])
from make_fixtures import cmis, u16, write
def uw10(dbm): return int(round(10 ** (dbm / 10) * 10000))
for port, rx_dbm, serial in (("eth0", 0.0, "HOSTNIC0"), ("eth1", -4.0, "HOSTNIC1")):
    m = cmis(serial)
    p11 = dict(page=0x11)
    m.put(154, b"".join(u16(uw10(-1.5)) for _ in range(4)) + bytes(8), **p11)
    m.put(186, b"".join(u16(uw10(rx_dbm)) for _ in range(4)) + bytes(8), **p11)
    write(os.path.join(sys.argv[2], port, "module.dump"), m.dump(f"{port}: CMIS 400GBASE-DR4, Rx {rx_dbm} dBm a lane"))
PY

HOST_PORT=$(free_port)
SWITCH_PORT=$(free_port)
PROM_PORT=$(free_port)
VM_PORT=$(free_port)
VM="http://127.0.0.1:$VM_PORT"
HAVE_VM=0
if command -v victoria-metrics >/dev/null && command -v vmalert >/dev/null; then HAVE_VM=1; fi
# Both instances also push to VictoriaMetrics when it is installed.
push() { [ $HAVE_VM = 1 ] && echo "remote_write: {url: \"$VM/api/v1/write\", external_labels: {job: $1, instance: $2}, max_backoff: 1s, timeout: 2s}"; true; }

cat >"$WORK/host.yaml" <<YAML
listen: {address: 127.0.0.1:$HOST_PORT}
poll: {interval: 1s, timeout: 2s}
storage: {enabled: false}
$(push opticsd-hosts gpu-node-1)
targets:
  - {name: gpu-node-1, driver: replay, directory: $WORK/host}
topology:
  links:
    - {switch: gpu-node-1, port: eth0, gpu: "0", rail: "1"}
    - {switch: gpu-node-1, port: eth1, gpu: "1", rail: "2"}
YAML
cat >"$WORK/switch.yaml" <<YAML
listen: {address: 127.0.0.1:$SWITCH_PORT}
poll: {interval: 1s, timeout: 2s}
storage: {enabled: false}
$(push opticsd poller-1)
targets:
  - {name: leaf-1, driver: sim, module: qsfp-dd-400g-dr4, ports: 2}
topology:
  links:
    - {switch: leaf-1, port: Ethernet1, host: gpu-node-1, nic: eth0, peer_switch: gpu-node-1, peer_port: eth0}
    - {switch: leaf-1, port: Ethernet2, host: gpu-node-1, nic: eth1, peer_switch: gpu-node-1, peer_port: eth1}
YAML

if [ $HAVE_VM = 1 ]; then
  victoria-metrics -httpListenAddr="127.0.0.1:$VM_PORT" -storageDataPath="$WORK/vm" -search.latencyOffset=0s \
    -search.disableCache -loggerLevel=ERROR >"$WORK/vm.log" 2>&1 &
  PIDS+=($!)
  wait_for 150 curl -sf "$VM/health" || { cat "$WORK/vm.log"; fail "victoria-metrics not ready"; }
fi
"$OPTICSD" run --config "$WORK/host.yaml" >"$WORK/host.log" 2>&1 &
PIDS+=($!)
"$OPTICSD" run --config "$WORK/switch.yaml" >"$WORK/switch.log" 2>&1 &
PIDS+=($!)
wait_for 150 metric_has "$HOST_PORT" '^opticsd_lane_rx_power_dbm\{target="gpu-node-1",port="eth1"' ||
  { cat "$WORK/host.log"; fail "the host instance serves no Rx power for eth1"; }
wait_for 150 metric_has "$SWITCH_PORT" '^opticsd_port_topology_info\{target="leaf-1",port="Ethernet2".*peer_target="gpu-node-1"' ||
  { cat "$WORK/switch.log"; fail "the switch instance serves no topology for Ethernet2"; }

# The agent's own /sd entry: its one target, named after the host.
curl -sf "http://127.0.0.1:$HOST_PORT/sd" | python3 -c 'import json,sys
groups = json.load(sys.stdin)
sys.exit(0 if [g["labels"]["__param_target"] for g in groups] == ["gpu-node-1"] else 1)' ||
  fail "the host agent's /sd does not list gpu-node-1 alone"

# The servers' copy of the rules: only `for:` shortened.
sed -E 's/^( *)for: [0-9]+m$/\1for: 2s/' "$RULES" >"$WORK/fleet-rules.yml"
[ "$(grep -c 'for: 2s' "$WORK/fleet-rules.yml")" -eq "$(grep -Ec '^ *for: ' "$RULES")" ] || fail "could not shorten every for:"

cat >"$WORK/prometheus.yml" <<YAML
global: {scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s}
rule_files: [$WORK/fleet-rules.yml]
scrape_configs:
  # The switch poller, one scrape per switch through /sd (the sharded config's relabelling).
  - job_name: opticsd
    http_sd_configs: [{url: "http://127.0.0.1:$SWITCH_PORT/sd", refresh_interval: 1s}]
    relabel_configs: [{source_labels: [__param_target], target_label: instance}]
  # The GPU hosts' agents: one target per host.
  - job_name: opticsd-hosts
    static_configs: [{targets: ["127.0.0.1:$HOST_PORT"]}]
YAML
promtool check config "$WORK/prometheus.yml" >/dev/null || fail "the Prometheus config is invalid"
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/tsdb" \
  --web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
PROM="http://127.0.0.1:$PROM_PORT"
wait_for 150 curl -sf "$PROM/-/ready" || { cat "$WORK/prometheus.log"; fail "prometheus not ready"; }

# query URL PROMQL: the instant result's series as JSON lines {labels..., "value": v}.
query() {
  curl -sf "$1/api/v1/query" --data-urlencode "query=$2" |
    python3 -c 'import json,sys
for r in json.load(sys.stdin)["data"]["result"]:
    print(json.dumps(dict(r["metric"], value=float(r["value"][1])), sort_keys=True))'
}
firing() { query "$1" 'ALERTS{alertname="OpticsdFleetLinkLossOverBudget",alertstate="firing"}' | grep -q .; }
# VictoriaMetrics makes fresh rows searchable within seconds; flushing at each
# look lets vmalert's chain of rules (each reading the one before) settle sooner.
vm_firing() { curl -sf "$VM/internal/force_flush" >/dev/null; firing "$VM"; }

# check_join NAME URL ALERTS_URL: the assertions above against one engine.
check_join() {
  local name=$1 url=$2 alerts=$3
  query "$url" 'opticsd:link_loss:db' >"$WORK/$name-loss.jsonl"
  query "$url" 'opticsd:link_lane_loss:db' >"$WORK/$name-lane-loss.jsonl"
  query "$url" 'ALERTS{alertname="OpticsdFleetLinkLossOverBudget"}' >"$WORK/$name-alerts.jsonl"
  curl -sf "$alerts" >"$WORK/$name-api-alerts.json" || fail "$name: cannot read $alerts"
  python3 - "$WORK" "$name" <<'PY'
import json, sys
work, name = sys.argv[1], sys.argv[2]
def lines(kind): return [json.loads(l) for l in open(f"{work}/{name}-{kind}.jsonl")]
loss = {(s["target"], s["port"], s["far_target"], s["far_port"]): s for s in lines("loss")}
print(f"{name}: link loss", {f"{k[0]}:{k[1]}<-{k[2]}:{k[3]}": round(v["value"], 2) for k, v in sorted(loss.items())})
bad = []
want = [("gpu-node-1", "eth0", "leaf-1", "Ethernet1"), ("leaf-1", "Ethernet1", "gpu-node-1", "eth0"),
        ("gpu-node-1", "eth1", "leaf-1", "Ethernet2"), ("leaf-1", "Ethernet2", "gpu-node-1", "eth1")]
for key in want:
    if key not in loss: bad.append(f"no link loss for {key}")
if any("instance" in s or "job" in s for s in loss.values()): bad.append("an instance/job label in a link series")
degraded = loss.get(want[2], {}).get("value", 0)
if not 4.0 < degraded < 6.0: bad.append(f"loss into gpu-node-1 eth1 is {degraded}, not about 5.2 dB")
for key in (want[0], want[1], want[3]):
    if key in loss and not loss[key]["value"] < 3: bad.append(f"healthy direction {key} loses {loss[key]['value']} dB")
lanes = [s for s in lines("lane-loss") if (s["target"], s["port"]) == ("gpu-node-1", "eth1")]
if len(lanes) != 4: bad.append(f"{len(lanes)} lanes of loss into gpu-node-1 eth1, not 4")
firing = [a for a in lines("alerts") if a["alertstate"] == "firing"]
if len(firing) != 1: bad.append(f"{len(firing)} firing link-loss alerts, not 1: {firing}")
else:
    a = firing[0]
    expect = dict(target="gpu-node-1", port="eth1", far_target="leaf-1", far_port="Ethernet2",
                  host="gpu-node-1", nic="eth1", gpu="1", rail="2", severity="warning")
    for k, v in expect.items():
        if a.get(k) != v: bad.append(f"alert label {k}={a.get(k)!r}, want {v!r}")
api = json.load(open(f"{work}/{name}-api-alerts.json"))["data"]["alerts"]
descs = [x["annotations"]["description"] for x in api
         if "OpticsdFleetLinkLossOverBudget" in (x["labels"].get("alertname"), x.get("name")) and x["state"] == "firing"]
if len(descs) != 1 or "from leaf-1 Ethernet2 to gpu-node-1 eth1" not in descs[0] or "GPU 1 rail 2" not in descs[0]:
    bad.append(f"the description does not name both ends and the GPU: {descs}")
else:
    print(f"{name}: {descs[0][:160]}...")
for b in bad: print(f"{name}: {b}")
sys.exit(1 if bad else 0)
PY
}

# vmalert starts now, beside the Prometheus: its chain of rules settles meanwhile.
if [ $HAVE_VM = 1 ]; then
  python3 "$OPTICSD_SOURCE_DIR/tests/integration/alerting/webhook_receiver.py" "$WORK/hook.port" "$WORK/notifier.jsonl" &
  PIDS+=($!)
  wait_for 50 test -s "$WORK/hook.port" || fail "the notifier sink did not start"
  VMALERT_PORT=$(free_port)
  vmalert -rule="$WORK/fleet-rules.yml" -datasource.url="$VM" -remoteWrite.url="$VM" -remoteWrite.flushInterval=200ms \
    -notifier.url="http://127.0.0.1:$(cat "$WORK/hook.port")" -evaluationInterval=1s \
    -httpListenAddr="127.0.0.1:$VMALERT_PORT" -loggerLevel=ERROR >"$WORK/vmalert.log" 2>&1 &
  PIDS+=($!)
  VMALERT="http://127.0.0.1:$VMALERT_PORT"
  wait_for 150 curl -sf "$VMALERT/health" || { cat "$WORK/vmalert.log"; fail "vmalert not ready"; }
fi

note "Prometheus: both instances scraped, the rules join the ends"
wait_for 200 firing "$PROM" || { query "$PROM" 'opticsd:link_loss:db'; cat "$WORK/prometheus.log"; fail "prometheus: no link-loss alert"; }
sleep 3 # a few more evaluations: an alert for a healthy link would show now
check_join prometheus "$PROM" "$PROM/api/v1/alerts" || fail "prometheus: the join is wrong"

if [ $HAVE_VM = 0 ]; then
  echo "SKIP (partly): victoria-metrics or vmalert is not installed; the remote-write half did not run"
  echo PASS
  exit 0
fi
note "VictoriaMetrics: both instances remote-write, vmalert evaluates the same rules"
wait_for 240 vm_firing || {
  query "$VM" 'opticsd:link_loss:db'
  cat "$WORK/vmalert.log"
  fail "victoria-metrics: no link-loss alert"
}
sleep 3
check_join victoria-metrics "$VM" "$VMALERT/api/v1/alerts" || fail "victoria-metrics: the join is wrong"
echo PASS
