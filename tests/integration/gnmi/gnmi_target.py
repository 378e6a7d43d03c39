#!/usr/bin/python3
"""A gNMI target for opticsd's tests, on Debian's python3-grpcio.

Serves Capabilities and Subscribe (STREAM with SAMPLE/ON_CHANGE, ONCE, POLL) for a
switch with an 800G OSFP DR8 (Ethernet1, 8 lanes, decimal64 values in PROTO)
and a 400G QSFP-DD DR4 (Ethernet2, 4 lanes, double values in PROTO), built
from the OpenConfig platform-transceiver, platform and interfaces models. In
JSON_IETF each channel's state is one JSON container (decimal64 as strings).

Each channel sends instant, min, max and avg of its powers and bias, and its
rx-los and tx-failure flags. Faults are flags: --degrade-lane, --los-lane, --flap-every, --drop-while, --slow,
--oversize-after, --unknown-paths, --password (bad credentials are refused),
TLS with --cert/--key. Each request is logged as a JSON line to --log.

--dialect sends what other devices send instead, built from their public
models (never from captures): `qualified` is the same OpenConfig data with
origin rfc7951 and RFC 7951 module-qualified element names in prefixes and
paths, channels numbered 1..N; `junos` is Juniper's native optics sensor
(optics.proto leaves under /interfaces/interface[name]/optics, lane_number
from 0, Rx power as bytes_val IEEE 754 float32 in network byte order);
`iosxr` is Cisco-IOS-XR-controller-optics-oper optics-info with keyless
lane-data (lane-index 1..N, power in 0.01 dBm); `srlinux` is SR Linux's
native /interface[name]/transceiver with channel[index] from 1; `sonic` is SONiC's
telemetry container: Redis tables as JSON_IETF rows keyed by port name, one
DB per Subscribe call (prefix target STATE_DB: TRANSCEIVER_DOM_SENSOR,
TRANSCEIVER_INFO, PORT_TABLE; COUNTERS_DB: COUNTERS/Ethernet* with the FEC
codeword bins SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S0..S15, whose
highest growing bin climbs one symbol every --tail-step seconds on
Ethernet1; Ethernet2 has no bins), any other target refused as the server
does.

The message classes come from schemas/gnmi/gnmi.proto through protoc
--python_out (--proto-out names the directory they were generated into).
"""
import argparse
import json
import math
import os
import struct
import sys
import threading
import time
from concurrent import futures

import grpc

PORTS = {
    # interface: (component, form factor, pmd, lanes, channel base, proto value kind)
    "Ethernet1": ("Ethernet1", "OSFP", "ETH_800GBASE_DR8", 8, "decimal64"),
    "Ethernet2": ("Ethernet2", "QSFP_DD", "ETH_400GBASE_DR4", 4, "double"),
}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--proto-out", required=True)
    p.add_argument("--encodings", default="PROTO,JSON_IETF")
    p.add_argument("--cert")
    p.add_argument("--key")
    p.add_argument("--username")
    p.add_argument("--password")
    p.add_argument("--degrade-lane", help="IFACE:LANE, Rx falls 10 dB over --degrade-seconds")
    p.add_argument("--degrade-seconds", type=float, default=3.0)
    p.add_argument("--los-lane", help="IFACE:LANE streams rx-los true (the channel flag)")
    p.add_argument("--flap-every", type=float, help="Ethernet2 oper-status toggles every N s (ON_CHANGE)")
    p.add_argument("--drop-while", help="while this file exists, STREAM subscriptions end (and are refused) UNAVAILABLE")
    p.add_argument("--slow", action="store_true", help="accept calls, never answer")
    p.add_argument("--oversize-after", type=float, help="one notification of 256 KiB after N s")
    p.add_argument("--unknown-paths", action="store_true")
    p.add_argument("--dialect", default="openconfig",
                   choices=["openconfig", "qualified", "junos", "iosxr", "srlinux", "sonic"])
    p.add_argument("--tail-step", type=float, default=1.0, help="sonic: seconds per symbol the FEC tail climbs")
    p.add_argument("--log", required=True)
    return p.parse_args()


ARGS = parse_args()
sys.path.insert(0, ARGS.proto_out)
from schemas.gnmi import gnmi_pb2 as pb  # noqa: E402

START = time.time()
LOG_LOCK = threading.Lock()
STATE = {"oversize_sent": False}


def log(event):
    with LOG_LOCK, open(ARGS.log, "a") as f:
        f.write(json.dumps(event) + "\n")


# RFC 7951 section 4: the first element and each one whose module changes carry the module name.
QUALIFIED = {"components": "openconfig-platform:components",
             "transceiver": "openconfig-platform-transceiver:transceiver",
             "interfaces": "openconfig-interfaces:interfaces"}


def split_elems(text):
    """'/a/b[k=x/y]/c' -> ['a', 'b[k=x/y]', 'c']: a '/' inside a key value ("et-0/0/1") does not split."""
    parts, depth, current = [], 0, ""
    for c in text.strip("/"):
        depth += {"[": 1, "]": -1}.get(c, 0)
        if c == "/" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    return parts + [current]


def path(text, origin=""):
    out = pb.Path(origin=origin)
    for part in split_elems(text):
        name, _, rest = part.partition("[")
        if ARGS.dialect == "qualified":
            name = QUALIFIED.get(name, name)
        elem = out.elem.add(name=name)
        while rest:
            kv, _, rest = rest.partition("]")
            k, _, v = kv.partition("=")
            elem.key[k] = v
            rest = rest.lstrip("[")
    return out


def rx_power(iface, lane, now):
    base = -1.5 - 0.1 * lane + 0.02 * math.sin(now + lane)
    if ARGS.degrade_lane == f"{iface}:{lane}":
        base -= 10.0 * min(1.0, (now - START) / ARGS.degrade_seconds)
    return round(base, 2)


def oper_up(now):
    if not ARGS.flap_every:
        return True
    return int((now - START) / ARGS.flap_every) % 2 == 0


def number(value, kind, encoding):
    v = pb.TypedValue()
    if encoding == pb.JSON_IETF:
        v.json_ietf_val = json.dumps(f"{value:.2f}").encode()
    elif kind == "decimal64":
        v.decimal_val.digits = int(round(value * 100))
        v.decimal_val.precision = 2
    else:
        v.double_val = value
    return v


def text(value, encoding):
    v = pb.TypedValue()
    if encoding == pb.JSON_IETF:
        v.json_ietf_val = json.dumps(value).encode()
    else:
        v.string_val = value
    return v


def oc_prefix(text):
    return path(text, "rfc7951" if ARGS.dialect == "qualified" else "")


def channel(ch):
    """The index a device sends for channel ch (0-based here): 1-based in the qualified dialect."""
    return ch + 1 if ARGS.dialect == "qualified" else ch


def float32_bytes(value):
    return struct.pack(">f", value)


def native_updates(now):
    """One notification per port in the native dialects (SAMPLE and identity together)."""
    notes = []
    for i, (iface, (_comp, _ff, _pmd, lanes, _kind)) in enumerate(PORTS.items()):
        if ARGS.dialect == "junos":
            n = pb.Notification(timestamp=int(now * 1e9), prefix=path(f"/interfaces/interface[name=et-0/0/{i}]/optics"))
            n.update.add(path=path("/module_temp"), val=pb.TypedValue(double_val=38.5 + i))
            n.update.add(path=path("/laser_rx_power_low_alarm_threshold_dbm"), val=pb.TypedValue(double_val=-14.0))
            for lane in range(lanes):
                base = f"/lanediags/lane[lane_number={lane}]"
                n.update.add(path=path(base + "/lane_laser_receiver_power_dbm"),
                             val=pb.TypedValue(bytes_val=float32_bytes(rx_power(iface, lane + 1, now))))
                n.update.add(path=path(base + "/lane_laser_output_power_dbm"), val=pb.TypedValue(double_val=1.0))
                n.update.add(path=path(base + "/lane_laser_bias_current"), val=pb.TypedValue(double_val=7.5))
                n.update.add(path=path(base + "/lane_rx_loss_of_signal_alarm"), val=pb.TypedValue(bool_val=False))
        elif ARGS.dialect == "iosxr":
            n = pb.Notification(timestamp=int(now * 1e9), prefix=path(
                f"/optics-oper/optics-ports/optics-port[name=Optics0/0/0/{i}]/optics-info",
                "Cisco-IOS-XR-controller-optics-oper"))
            n.update.add(path=path("/transceiver-info/vendor-name"), val=pb.TypedValue(string_val="ACME OPTICS"))
            for lane in range(1, lanes + 1):
                n.update.add(path=path("/lane-data/lane-index"), val=pb.TypedValue(uint_val=lane))
                n.update.add(path=path("/lane-data/receive-power"),
                             val=pb.TypedValue(int_val=int(round(rx_power(iface, lane, now) * 100))))
                n.update.add(path=path("/lane-data/transmit-power"), val=pb.TypedValue(int_val=100))
                n.update.add(path=path("/lane-data/laser-bias-current-milli-amps"), val=pb.TypedValue(uint_val=7))
        else:  # srlinux
            n = pb.Notification(timestamp=int(now * 1e9), prefix=path(f"/interface[name=ethernet-1/{i + 1}]"))
            n.update.add(path=path("/oper-state"), val=pb.TypedValue(string_val="up"))
            n.update.add(path=path("/transceiver/temperature/latest-value"), val=pb.TypedValue(int_val=41))
            for lane in range(1, lanes + 1):
                dec = pb.TypedValue()
                dec.decimal_val.digits = int(round(rx_power(iface, lane, now) * 100))
                dec.decimal_val.precision = 2
                n.update.add(path=path(f"/transceiver/channel[index={lane}]/input-power/latest-value"), val=dec)
        notes.append(n)
    return notes


def sonic_rows(db, now):
    """SONiC's Redis rows as its gNMI server sends them: one JSON_IETF value per
    subscribed table, rows keyed by port name (sonic-gnmi, virtual paths)."""
    tables = {}
    if db == "STATE_DB":
        dom, info, port_table = {}, {}, {}
        for i, (iface, (_comp, ff, _pmd, lanes, _kind)) in enumerate(PORTS.items()):
            dom[iface] = {"temperature": "41.0", "voltage": "3.30"}
            for lane in range(1, lanes + 1):
                dom[iface].update({f"rx{lane}power": f"{rx_power(iface, lane, now):.2f}", f"tx{lane}power": "1.00",
                                   f"tx{lane}bias": "7.50"})
            info[iface] = {"manufacturer": "ACME OPTICS", "model": f"PN-{ff}", "serial": f"SN-{iface}", "type": ff}
            port_table[iface] = {"oper_status": "up", "fec": "rs", "speed": str(800000 if lanes == 8 else 400000)}
        tables = {"TRANSCEIVER_DOM_SENSOR": dom, "TRANSCEIVER_INFO": info, "PORT_TABLE": port_table}
    elif db == "COUNTERS_DB":
        # Bins 0..top grow by a per-bin step each call; top climbs with time.
        steps = int((now - START) * 20)
        top = min(15, 2 + int((now - START) / ARGS.tail_step))
        bins = {f"SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S{k}": str((10 ** max(0, 9 - k)) + (steps * (16 - k) if k <= top else 0))
                for k in range(16)}
        tables = {"COUNTERS/Ethernet*": {
            "Ethernet1": dict(bins, SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES=str(1000 + steps),
                              SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES="0"),
            "Ethernet2": {"SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES": str(500 + steps),
                          "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES": "0"}}}
    notes = []
    for table, rows in tables.items():
        n = pb.Notification(timestamp=int(now * 1e9), prefix=pb.Path(target=db))
        at = n.update.add(path=path(table))
        at.val.json_ietf_val = json.dumps(rows).encode()
        notes.append(n)
    return notes


def sample_updates(encoding, now, db=""):
    """The SAMPLE leaves: module and per-channel values."""
    if ARGS.dialect == "sonic":
        return sonic_rows(db, now)
    if ARGS.dialect not in ("openconfig", "qualified"):
        return native_updates(now)
    notes = []
    for iface, (comp, _ff, _pmd, lanes, kind) in PORTS.items():
        n = pb.Notification(timestamp=int(now * 1e9), prefix=oc_prefix(f"/components/component[name={comp}]"))
        n.update.add(path=path("/state/temperature/instant"), val=number(40.0 + 0.1 * lanes, kind, encoding))
        n.update.add(path=path("/transceiver/state/supply-voltage/instant"), val=number(3.3, kind, encoding))
        for ch in range(lanes):
            lane = ch + 1
            base = f"/transceiver/physical-channels/channel[index={channel(ch)}]/state"
            rx, tx, bias = rx_power(iface, lane, now), 1.0, 7.5
            # avg/min/max over the "module's window": a fixed spread around the instant value.
            stats = {"input-power": (rx, rx - 0.25, rx + 0.25, rx), "output-power": (tx, tx - 0.5, tx + 0.5, tx),
                     "laser-bias-current": (bias, bias - 0.25, bias + 0.25, bias)}
            los = ARGS.los_lane == f"{iface}:{lane}"
            if encoding == pb.JSON_IETF:
                container = {
                    (f"openconfig-platform-transceiver:{leaf}" if leaf == "input-power" else leaf):
                        {"instant": f"{v[0]:.2f}", "min": f"{v[1]:.2f}", "max": f"{v[2]:.2f}", "avg": f"{v[3]:.2f}"}
                    for leaf, v in stats.items()
                }
                container.update({"rx-los": los, "tx-failure": False})
                n.update.add(path=path(base), val=pb.TypedValue(json_ietf_val=json.dumps(container).encode()))
            else:
                for leaf, v in stats.items():
                    for stat, value in zip(("instant", "min", "max", "avg"), v):
                        n.update.add(path=path(f"{base}/{leaf}/{stat}"), val=number(value, kind, encoding))
                n.update.add(path=path(base + "/rx-los"), val=pb.TypedValue(bool_val=los))
                n.update.add(path=path(base + "/tx-failure"), val=pb.TypedValue(bool_val=False))
        if ARGS.unknown_paths:
            n.update.add(path=path("/transceiver/state/vendor-oui"), val=text("00:11:22", encoding))
            n.update.add(path=path("/state/no-such-container/leaf"), val=number(1.0, kind, encoding))
        notes.append(n)
    if ARGS.unknown_paths:
        notes.append(pb.Notification(timestamp=int(now * 1e9), update=[
            pb.Update(path=path("/system/state/hostname"), val=text("leaf-g", encoding))]))
    return notes


def oper_update(iface, encoding, now):
    return pb.Notification(timestamp=int(now * 1e9), update=[
        pb.Update(path=path(f"/interfaces/interface[name={iface}]/state/oper-status"),
                  val=text("UP" if oper_up(now) or iface != "Ethernet2" else "DOWN", encoding))])


def static_updates(encoding, now):
    """The ON_CHANGE leaves: identity, presence, thresholds, interface mapping."""
    if ARGS.dialect not in ("openconfig", "qualified"):
        return []  # the native dialects send all with the samples
    notes = []
    for iface, (comp, ff, pmd, lanes, kind) in PORTS.items():
        n = pb.Notification(timestamp=int(now * 1e9),
                            prefix=oc_prefix(f"/components/component[name={comp}]/transceiver"))
        for leaf, value in (("present", "PRESENT"), ("form-factor", f"oc-opt-types:{ff}"),
                            ("vendor", "ACME OPTICS"), ("vendor-part", f"PN-{ff}"), ("serial-no", f"SN-{comp}"),
                            ("ethernet-pmd", f"oc-opt-types:{pmd}")):
            n.update.add(path=path(f"/state/{leaf}"), val=text(value, encoding))
        for severity, low in (("CRITICAL", -12.0), ("WARNING", -10.5)):
            n.update.add(path=path(f"/thresholds/threshold[severity={severity}]/state/input-power-lower"),
                         val=number(low, kind, encoding))
        notes.append(n)
        m = pb.Notification(timestamp=int(now * 1e9), prefix=oc_prefix(f"/interfaces/interface[name={iface}]/state"))
        m.update.add(path=path("/transceiver"), val=text(comp, encoding))
        channels = pb.TypedValue()
        if encoding == pb.JSON_IETF:
            channels.json_ietf_val = json.dumps([channel(ch) for ch in range(lanes)]).encode()
        else:
            for ch in range(lanes):
                channels.leaflist_val.element.add(uint_val=channel(ch))
        m.update.add(path=path("/physical-channel"), val=channels)
        notes.append(m)
        notes.append(oper_update(iface, encoding, now))
    return notes


def dropping():
    """The test, not a clock, says when the stream is down: a timed drop raced the test's other waits."""
    return bool(ARGS.drop_while) and os.path.exists(ARGS.drop_while)


def authorized(context):
    if not ARGS.username:
        return True
    md = dict(context.invocation_metadata())
    if md.get("username") == ARGS.username and md.get("password") == ARGS.password:
        return True
    log({"rpc": "refused", "username": md.get("username")})
    context.abort(grpc.StatusCode.UNAUTHENTICATED, "bad username or password")
    return False


def capabilities(request, context):
    if ARGS.slow:
        time.sleep(3600)
    authorized(context)
    log({"rpc": "Capabilities"})
    names = ARGS.encodings.split(",")
    return pb.CapabilityResponse(
        gNMI_version="0.10.0",
        supported_encodings=[pb.Encoding.Value(n) for n in names],
        supported_models=[pb.ModelData(name="openconfig-platform-transceiver", organization="OpenConfig"),
                          pb.ModelData(name="openconfig-interfaces", organization="OpenConfig")])


def subscribe(request_iterator, context):
    if ARGS.slow:
        time.sleep(3600)
    authorized(context)
    request = next(request_iterator)
    sub = request.subscribe
    modes = [(("/" + "/".join(e.name for e in s.path.elem)), pb.SubscriptionMode.Name(s.mode), s.sample_interval,
              s.heartbeat_interval) for s in sub.subscription]
    db = sub.prefix.target
    log({"rpc": "Subscribe", "mode": pb.SubscriptionList.Mode.Name(sub.mode),
         "encoding": pb.Encoding.Name(sub.encoding), "updates_only": sub.updates_only, "subscriptions": modes,
         "target": db})
    encoding = sub.encoding
    if ARGS.dialect == "sonic" and db not in ("STATE_DB", "COUNTERS_DB"):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"Invalid target name {db}")
    if sub.mode == pb.SubscriptionList.STREAM and dropping():
        log({"rpc": "refused", "mode": "STREAM"})
        context.abort(grpc.StatusCode.UNAVAILABLE, "test target drops the stream")
    if sub.mode == pb.SubscriptionList.POLL:  # data only when asked, each answer closed by a sync
        for req in request_iterator:
            if req.HasField("poll"):
                log({"rpc": "Poll"})
                for n in static_updates(encoding, time.time()) + sample_updates(encoding, time.time(), db):
                    yield pb.SubscribeResponse(update=n)
                yield pb.SubscribeResponse(sync_response=True)
        return
    now = time.time()
    if not (sub.mode == pb.SubscriptionList.STREAM and sub.updates_only):
        for n in static_updates(encoding, now) + sample_updates(encoding, now, db):
            yield pb.SubscribeResponse(update=n)
    yield pb.SubscribeResponse(sync_response=True)
    if sub.mode == pb.SubscriptionList.ONCE:
        return
    interval = min((s.sample_interval for s in sub.subscription if s.mode == pb.SAMPLE), default=1_000_000_000) / 1e9
    began = time.time()
    last_sample = began
    last_up = oper_up(began)
    while context.is_active():
        time.sleep(0.05)
        now = time.time()
        if dropping():
            log({"rpc": "dropped"})
            context.abort(grpc.StatusCode.UNAVAILABLE, "test target drops the stream")
        if ARGS.oversize_after and not STATE["oversize_sent"] and now - START > ARGS.oversize_after:
            STATE["oversize_sent"] = True
            log({"rpc": "oversize"})
            big = pb.Notification(timestamp=int(now * 1e9), update=[pb.Update(
                path=path("/components/component[name=Ethernet1]/transceiver/state/vendor"),
                val=pb.TypedValue(string_val="x" * 262144))])
            yield pb.SubscribeResponse(update=big)
        up = oper_up(now)
        if up != last_up:  # ON_CHANGE: sent as it happens, not at the next sample
            last_up = up
            log({"rpc": "flap", "up": up})
            yield pb.SubscribeResponse(update=oper_update("Ethernet2", encoding, now))
        if now - last_sample >= interval:
            last_sample = now
            for n in sample_updates(encoding, now, db):
                yield pb.SubscribeResponse(update=n)


def main():
    # gRPC sets SO_REUSEPORT by default: a second test's target on the same
    # port would then share its connections with this one. Off, and a port
    # that cannot be bound is an error, not a silent listener on nothing.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16), options=[("grpc.so_reuseport", 0)])
    handler = grpc.method_handlers_generic_handler("gnmi.gNMI", {
        "Capabilities": grpc.unary_unary_rpc_method_handler(
            capabilities, request_deserializer=pb.CapabilityRequest.FromString,
            response_serializer=pb.CapabilityResponse.SerializeToString),
        "Subscribe": grpc.stream_stream_rpc_method_handler(
            subscribe, request_deserializer=pb.SubscribeRequest.FromString,
            response_serializer=pb.SubscribeResponse.SerializeToString),
    })
    server.add_generic_rpc_handlers((handler,))
    address = f"127.0.0.1:{ARGS.port}"
    if ARGS.cert:
        with open(ARGS.key, "rb") as k, open(ARGS.cert, "rb") as c:
            creds = grpc.ssl_server_credentials([(k.read(), c.read())])
        bound = server.add_secure_port(address, creds)
    else:
        bound = server.add_insecure_port(address)
    if not bound:
        sys.exit(f"cannot listen on {address}")
    server.start()
    log({"rpc": "listening", "port": ARGS.port})
    server.wait_for_termination()


if __name__ == "__main__":
    main()
