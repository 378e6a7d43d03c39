#!/usr/bin/env bash
# The operator's pages in a real browser (Debian's chromium, headless, started
# here): the daemon polls a small demo-like fleet (one degrading optic, the
# GPU host's NIC at its far end, and a replayed host whose vendor,
# serial and port names are hostile) and serves `/`, the optic's page and the
# triage page. Checked in the DOM: the degrading optic is the first suspect on
# `/` and its page has one plot per lane with a threshold line and its finding
# on the time axis; hostile strings show as text and no script runs; no
# console message; no request leaves the daemon's origin (the browser's own
# net log). Screenshots are kept under $OPTICSD_BUILD_DIR/test-output/. Then
# the same pages as JSON, under TLS with basic auth (401 without
# credentials), and with the history store absent or failing.
source "$(dirname "$0")/lib.sh"
need curl
need python3
need chromium

OUT="${OPTICSD_BUILD_DIR:-$WORK}/test-output/20-operator-pages"
mkdir -p "$OUT"
PORT=$(free_port)
ORIGIN="http://127.0.0.1:$PORT"

# A replayed host with hostile device strings, from the synthetic SFP fixture
# (tests/fixtures/replay/synthetic-host/sfp0, SFF-8472) with its vendor name
# (A0h bytes 20-35) and serial (68-83) rewritten; port names are the folder names.
HOSTILE="$WORK/hostile"
python3 - "$OPTICSD_SOURCE_DIR/tests/fixtures/replay/synthetic-host/sfp0/module.dump" "$HOSTILE" <<'PY'
import os, sys
src, out = sys.argv[1], sys.argv[2]
lines = open(src).read().split("\n")
rows = {}
for i, l in enumerate(lines):
    if l.startswith("0x") and ":" in l and i < 40:
        rows.setdefault(int(l[:4], 16), i)
def put(offset, text):
    data = text.encode("latin-1").ljust(16, b" ")[:16]
    for k, b in enumerate(data):
        o = offset + k
        row = o - o % 16
        i = rows[row]
        parts = lines[i].split()
        parts[1 + o % 16] = "%02x" % b
        lines[i] = parts[0] + " " + " ".join(parts[1:])
put(20, "<script>alert(1)")
put(68, "\"'><img src=x>\x07")
for port in ["<svg onload=alert(1)>", "eth\"'&1\x1b[31m"]:
    os.makedirs(os.path.join(out, port), exist_ok=True)
    open(os.path.join(out, port, "module.dump"), "w").write("\n".join(lines))
PY

cat >"$WORK/opticsd.yaml" <<YAML
listen: {address: 127.0.0.1:$PORT}
poll: {interval: 500ms, timeout: 2s}
storage: {path: $WORK/state/history.db}
targets:
  - name: leaf-2
    driver: sim
    ports: 4
    lanes: 8
    scenarios:
      - {scenario: dirty_connector, port: 2, onset: 0s, ramp: 3s}
  - name: gpu-node-2
    driver: sim
    ports: 1
    lanes: 8
    port_prefix: eth
  - name: host-hostile
    driver: replay
    directory: $HOSTILE
topology:
  links:
    - {switch: leaf-2, port: Ethernet1, host: gpu-node-1, nic: nic1, gpu: "1", rail: "2"}
    - {switch: leaf-2, port: Ethernet2, host: gpu-node-2, nic: nic1, gpu: "1", rail: "2", peer_switch: gpu-node-2, peer_port: eth1}
    - {switch: leaf-2, ports: Ethernet3-4, host: "gpu-node-{n}", nic: nic1, gpu: "1", rail: "2"}
YAML
start_opticsd "$WORK/run.log" run --config "$WORK/opticsd.yaml"
wait_for 300 metric_has "$PORT" '^opticsd_finding\{.*target="leaf-2",port="Ethernet2"' ||
  { cat "$WORK/run.log"; fail "no finding for the degrading optic within a minute"; }
# The finding reaches the history file on the writer's thread.
wait_for 100 sh -c "'$OPTICSD' findings --config '$WORK/opticsd.yaml' --active | grep -q Ethernet2" ||
  fail "the finding is not in the history file"
sleep 2

# chromium NAME URL: the DOM to $WORK/NAME.html, a screenshot to $OUT/NAME.png,
# the console to $WORK/NAME.log, the net log to $WORK/NAME.net.json.
chrome_flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --disable-sync
  --disable-background-networking --disable-component-update --disable-default-apps
  --disable-client-side-phishing-detection --disable-domain-reliability --enable-logging=stderr --log-level=0)
browse() {
  local name=$1 url=$2 size=${3:-1280,2400}
  timeout 90 chromium "${chrome_flags[@]}" --log-net-log="$WORK/$name.net.json" --virtual-time-budget=3000 \
    --dump-dom "$url" >"$WORK/$name.html" 2>"$WORK/$name.log" || fail "chromium could not load $url"
  timeout 90 chromium "${chrome_flags[@]}" --window-size="$size" --screenshot="$OUT/$name.png" "$url" \
    >/dev/null 2>>"$WORK/$name.log" || fail "chromium could not screenshot $url"
  [ -s "$OUT/$name.png" ] || fail "no screenshot of $url"
  if grep -E 'CONSOLE|Refused to|Content Security Policy' "$WORK/$name.log"; then
    fail "$name: console messages (above)"
  fi
  python3 - "$WORK/$name.net.json" "$ORIGIN" <<'PY' || fail "$name: a request left the daemon's origin"
import json, sys
log, origin = json.load(open(sys.argv[1])), sys.argv[2]
types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
seen, bad = 0, []
for e in log["events"]:
    p = e.get("params", {})
    if types.get(e["type"]) != "URL_REQUEST_START_JOB" or "url" not in p:
        continue
    # The browser's own background requests have no page origin; what a page asks for has one.
    if p.get("initiator") == "not an origin" and not p["url"].startswith(origin):
        continue
    seen += 1
    if not p["url"].startswith(origin + "/"):
        bad.append(p["url"])
print(f"page requests: {seen}, outside {origin}: {bad or 'none'}")
sys.exit(1 if bad or seen == 0 else 0)
PY
}

note "/ in chromium"
browse fleet "$ORIGIN/"
python3 - "$WORK/fleet.html" <<'PY' || fail "the fleet page is not as expected"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.row = None; s.links = []; s.scripts = 0
    def handle_starttag(s, tag, a):
        a = dict(a)
        if tag == "script": s.scripts += 1
        if tag == "tr" and a.get("class") == "suspect": s.row = []
        if tag == "a" and s.row is not None: s.row.append(a.get("href"))
    def handle_endtag(s, tag):
        if tag == "tr" and s.row is not None: s.rows.append(s.row); s.row = None
p = P(); p.feed(open(sys.argv[1]).read())
print("suspects:", p.rows[:3])
assert p.scripts == 0, "a script element on the page"
assert p.rows, "no suspects"
assert p.rows[0][0] == "/optic?target=leaf-2&port=Ethernet2", "the degrading optic is not the first suspect"
PY

note "the degrading optic's page"
browse optic "$ORIGIN/optic?target=leaf-2&port=Ethernet2"
python3 - "$WORK/optic.html" <<'PY' || fail "the optic page is not as expected"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.svg = None; s.plots = {}; s.findings = 0; s.actions = 0; s.far = None; s.lanes = 0
    def handle_starttag(s, tag, a):
        a = dict(a); cls = (a.get("class") or "").split()
        if tag == "svg" and "lane-plot" in cls:
            s.svg = a["data-lane"]; s.plots[s.svg] = {"threshold": 0, "finding": 0, "path": 0}
        if s.svg and tag == "line" and "threshold" in cls: s.plots[s.svg]["threshold"] += 1
        if s.svg and tag == "rect" and "finding" in cls: s.plots[s.svg]["finding"] += 1
        if s.svg and tag == "path": s.plots[s.svg]["path"] += 1
        if tag == "article" and "finding" in cls: s.findings += 1
        if tag == "div" and "action" in cls: s.actions += 1
        if tag == "a" and "far-end" in cls: s.far = a["href"]
        if tag == "tr" and "data-lane" in a: s.lanes += 1
    def handle_endtag(s, tag):
        if tag == "svg": s.svg = None
p = P(); p.feed(open(sys.argv[1]).read())
print("plots:", p.plots, "findings:", p.findings, "far end:", p.far)
assert p.lanes == 8, f"{p.lanes} lane rows, expected 8"
assert sorted(p.plots, key=int) == [str(i) for i in range(1, 9)], "not one plot per lane"
for lane, c in p.plots.items():
    assert c["threshold"] > 0, f"lane {lane}: no threshold line"
    assert c["finding"] > 0, f"lane {lane}: the finding is not on the time axis"
    assert c["path"] > 0, f"lane {lane}: no plotted values"
assert p.findings > 0 and p.actions > 0, "no finding with its next action"
assert p.far == "/optic?target=gpu-node-2&port=eth1", "the far end is not linked"
PY
grep -q 'Next: ' "$WORK/optic.html" || fail "no suggested next action"
browse optic-phone "$ORIGIN/optic?target=leaf-2&port=Ethernet2&range=1h" 390,2400
# The whole page over the last hour, plots included (the README's screenshot is one of these).
browse optic-1h "$ORIGIN/optic?target=leaf-2&port=Ethernet2&range=1h" 1280,4400
browse triage "$ORIGIN/triage?host=gpu-node-2,gpu-node-3"
grep -q 'leaf-2 Ethernet2' "$WORK/triage.html" || fail "triage does not list the optic behind gpu-node-2"

note "hostile device strings"
browse hostile "$ORIGIN/triage?target=host-hostile"
hostile_url=$(python3 -c 'import urllib.parse,sys; print("/optic?target=host-hostile&port=" + urllib.parse.quote("<svg onload=alert(1)>", safe=""))')
browse hostile-optic "$ORIGIN$hostile_url"
python3 - "$WORK/hostile-optic.html" "$WORK/hostile.html" <<'PY' || fail "a hostile string was not shown as text"
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.bad = []; s.text = ""
    def handle_starttag(s, tag, a):
        if tag in ("script", "img", "iframe", "object", "embed") or (tag == "svg" and any(k.startswith("on") for k, _ in a)):
            s.bad.append(tag)
        for k, v in a:
            if k.startswith("on"): s.bad.append(f"{tag}[{k}]")
    def handle_data(s, d): s.text += d
for f in sys.argv[1:]:
    p = P(); p.feed(open(f).read())
    print(f, "elements from device text:", p.bad)
    assert not p.bad, "device text became markup"
    assert "<svg onload=alert(1)>" in p.text, "the hostile port name is not shown as text"
    assert "\x1b" not in p.text and "\x07" not in p.text, "a control character reached the page"
p = P(); p.feed(open(sys.argv[1]).read())
assert "<script>alert(1)" in p.text, "the hostile vendor name is not shown as text"
PY

note "JSON"
curl -sf -H 'Accept: application/json' "$ORIGIN/" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["suspects"][0]["target"] == "leaf-2" and d["suspects"][0]["port"] == "Ethernet2", d["suspects"][:1]
assert any(f["port"] == "Ethernet2" for f in d["findings"])' || fail "/ as JSON"
curl -sf -H 'Accept: application/json' "$ORIGIN/optic?target=leaf-2&port=Ethernet2" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["lanes"]) == 8 and d["findings"] and d["findings"][0]["next_action"]["step"]
assert any(s["key"] == "rx_power_dbm" and s["points"] for s in d["series"])
assert d["far_end"]["target"] == "gpu-node-2" and d["far_end"]["lanes"][0]["their_tx_dbm"] is not None' ||
  fail "the optic as JSON"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$ORIGIN/optic?target=leaf-2&port=Nope")" = 404 ] || fail "unknown port not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$ORIGIN/optic?target=leaf-2")" = 400 ] || fail "missing port not 400"
curl -sfI "$ORIGIN/" | grep -qi "^content-security-policy: default-src 'none'" || fail "no CSP header"
"$OPTICSD" explain --config "$WORK/opticsd.yaml" leaf-2 Ethernet2 >"$WORK/explain.txt" || fail "explain failed"
cat "$WORK/explain.txt" | head -30
grep -q 'next: ' "$WORK/explain.txt" || fail "explain gives no next action"
"$OPTICSD" suspects --config "$WORK/opticsd.yaml" --host gpu-node-2 >"$WORK/suspects.txt" || fail "suspects --host failed"
grep -q Ethernet2 "$WORK/suspects.txt" || fail "suspects --host gpu-node-2 does not name Ethernet2"
"$OPTICSD" suspects --config "$WORK/opticsd.yaml" --host gpu-node-4 --format json | python3 -c '
import json, sys; assert json.load(sys.stdin) == [], "gpu-node-4 has no suspect"' || fail "suspects --host gpu-node-4"
stop_opticsd

note "TLS and basic auth"
TLS_PORT=$(free_port)
echo -n 's3cret' >"$WORK/password"
chmod 600 "$WORK/password"
cat >"$WORK/tls.yaml" <<YAML
listen:
  address: 127.0.0.1:$TLS_PORT
  tls_cert_file: $OPTICSD_SOURCE_DIR/tests/fixtures/tls/localhost.crt
  tls_key_file: $OPTICSD_SOURCE_DIR/tests/fixtures/tls/localhost.key
  basic_auth_user: ops
  basic_auth_password_file: $WORK/password
poll: {interval: 500ms}
storage: {enabled: false}
targets:
  - {name: leaf-2, driver: sim, ports: 2, lanes: 4}
YAML
start_opticsd "$WORK/tls.log" run --config "$WORK/tls.yaml"
CA="$OPTICSD_SOURCE_DIR/tests/fixtures/tls/localhost.crt"
wait_for 100 curl -sf --cacert "$CA" -u ops:s3cret "https://localhost:$TLS_PORT/metrics" --resolve "localhost:$TLS_PORT:127.0.0.1" ||
  { cat "$WORK/tls.log"; fail "TLS daemon did not come up"; }
code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$CA" --resolve "localhost:$TLS_PORT:127.0.0.1" "https://localhost:$TLS_PORT/")
[ "$code" = 401 ] || fail "/ without credentials answered $code, not 401"
code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$CA" --resolve "localhost:$TLS_PORT:127.0.0.1" "https://localhost:$TLS_PORT/optic?target=leaf-2&port=Ethernet1")
[ "$code" = 401 ] || fail "the optic page without credentials answered $code, not 401"
wait_for 50 sh -c "curl -sf --cacert '$CA' --resolve localhost:$TLS_PORT:127.0.0.1 -u ops:s3cret 'https://localhost:$TLS_PORT/optic?target=leaf-2&port=Ethernet1' >'$WORK/tls-optic.html'" ||
  fail "the optic page with credentials over TLS"
note "history absent"
grep -q 'id="history-state"' "$WORK/tls-optic.html" || fail "the page does not say history is off"
grep -q 'history is off' "$WORK/tls-optic.html" || fail "the page does not say why history is missing"
grep -q 'data-lane="1"' "$WORK/tls-optic.html" || fail "no live lane values without history"
stop_opticsd

note "history failing"
FAIL_PORT=$(free_port)
mkdir -p "$WORK/broken"
cat >"$WORK/failing.yaml" <<YAML
listen: {address: 127.0.0.1:$FAIL_PORT}
poll: {interval: 500ms}
storage: {path: $WORK/broken/history.db}
targets:
  - {name: leaf-2, driver: sim, ports: 2, lanes: 4}
YAML
# A history file that is not a database: the writer's opens and every read fail.
head -c 8192 /dev/urandom >"$WORK/broken/history.db"
start_opticsd "$WORK/failing.log" run --config "$WORK/failing.yaml"
wait_for 100 metric_has "$FAIL_PORT" '^opticsd_target_up\{' || { cat "$WORK/failing.log"; fail "daemon did not come up"; }
ORIGIN="http://127.0.0.1:$FAIL_PORT"
browse failing-store "$ORIGIN/optic?target=leaf-2&port=Ethernet1"
grep -q 'id="history-state"' "$WORK/failing-store.html" || fail "the page does not say history is failing"
grep -q 'data-lane="1"' "$WORK/failing-store.html" || fail "no live values while history fails"
curl -sf "$ORIGIN/" | grep -q 'History is unavailable' || fail "/ does not say history is unavailable"
stop_opticsd
note "screenshots in $OUT"
