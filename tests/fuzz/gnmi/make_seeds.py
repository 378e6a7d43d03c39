#!/usr/bin/python3
"""Writes the typed-value seeds of fuzz_gnmi_notification (seed-kinds-*).

Built from the gNMI 0.10 TypedValue definition, RFC 7951 names and the
vendor models the variants map, never from captures:
  protoc -I . --python_out=/tmp/p schemas/gnmi/gnmi.proto
  PYTHONPATH=/tmp/p /usr/bin/python3 tests/fuzz/gnmi/make_seeds.py tests/fuzz/corpus/fuzz_gnmi_notification
"""
import json
import struct
import sys

from schemas.gnmi import gnmi_pb2 as g


def path(text, origin=""):
    p = g.Path(origin=origin)
    for part in [x for x in text.split("/") if x]:
        name, _, rest = part.partition("[")
        e = p.elem.add(name=name)
        while rest:
            kv, _, rest = rest.partition("]")
            k, _, v = kv.partition("=")
            e.key[k] = v
            rest = rest.lstrip("[")
    return p


def response(prefix, updates, origin=""):
    r = g.SubscribeResponse()
    r.update.prefix.CopyFrom(path(prefix, origin))
    for p, fill in updates:
        u = r.update.update.add()
        u.path.CopyFrom(path(p))
        fill(u.val)
    return r.SerializeToString()


def every_kind():
    ch = "/physical-channels/channel[index=1]/state"
    return response(
        "/openconfig-platform:components/component[name=xcvr-1]/openconfig-platform-transceiver:transceiver",
        [
            (ch + "/input-power/instant", lambda v: v.__setattr__("bytes_val", struct.pack(">f", -2.5))),
            (ch + "/output-power/instant", lambda v: v.__setattr__("bytes_val", struct.pack(">d", 1.25))),
            (ch + "/laser-bias-current/instant", lambda v: v.__setattr__("float_val", 6.5)),
            (ch + "/input-power/avg", lambda v: v.__setattr__("double_val", -2.4)),
            (ch + "/input-power/min", lambda v: (v.decimal_val.__setattr__("digits", -312),
                                                 v.decimal_val.__setattr__("precision", 2))),
            (ch + "/input-power/max", lambda v: v.__setattr__("bytes_val", b"\x01\x02\x03")),
            ("/state/supply-voltage/instant", lambda v: v.__setattr__("json_ietf_val", b'{"x":"3.3"}')),
            ("/state/supply-voltage", lambda v: v.__setattr__("json_val", b'{"instant":"3.31"}')),
            ("/state/fec-corrected-bits", lambda v: v.__setattr__("uint_val", 12345)),
            ("/state/present", lambda v: v.__setattr__("string_val", "PRESENT")),
            ("/state/vendor", lambda v: v.__setattr__("ascii_val", "ACME")),
            (ch + "/rx-los", lambda v: v.__setattr__("bool_val", True)),
            ("/state/serial-no", lambda v: v.__setattr__("proto_bytes", b"\x08\x01")),
            ("/state/date-code", lambda v: v.__setattr__("int_val", -1)),
            ("/physical-channels/channel[index=2]/state/input-power/instant",
             lambda v: v.leaflist_val.element.add(double_val=1.0)),
        ],
        origin="rfc7951",
    )


def junos():
    lane = "/lanediags/lane[lane_number=0]"
    return response("/interfaces/interface[name=et-0/0/0]/optics", [
        ("/module_temp", lambda v: v.__setattr__("double_val", 38.5)),
        (lane + "/lane_laser_receiver_power_dbm", lambda v: v.__setattr__("bytes_val", struct.pack(">f", -3.1))),
        (lane + "/lane_rx_loss_of_signal_alarm", lambda v: v.__setattr__("bool_val", False)),
        ("/laser_rx_power_low_alarm_threshold_dbm", lambda v: v.__setattr__("double_val", -14.0)),
    ])


def iosxr():
    updates = []
    for lane in (1, 2):
        updates.append(("/lane-data/lane-index", lambda v, lane=lane: v.__setattr__("uint_val", lane)))
        updates.append(("/lane-data/receive-power", lambda v: v.__setattr__("int_val", -251)))
    updates.append(("/lane-data", lambda v: v.__setattr__(
        "json_ietf_val", b'[{"lane-index":3,"transmit-power":110}]')))
    return response("/optics-oper/optics-ports/optics-port[name=Optics0/0/0/1]/optics-info", updates,
                    origin="Cisco-IOS-XR-controller-optics-oper")


def sonic_counters():
    """SONiC's COUNTERS_DB rows as sonic-gnmi sends them: one JSON_IETF value at
    COUNTERS/Ethernet*, rows keyed by port name, the FEC codeword bins S0..S16
    (S16 has no rule), a text that is no number, a port without bins."""
    rows = {"Ethernet0": {f"SAI_PORT_STAT_IF_IN_FEC_CODEWORD_ERRORS_S{k}": str(10 ** max(0, 9 - k)) for k in range(17)},
            "Ethernet8": {"SAI_PORT_STAT_IF_IN_FEC_CORRECTABLE_FRAMES": "17",
                          "SAI_PORT_STAT_IF_IN_FEC_NOT_CORRECTABLE_FRAMES": "N/A"}}
    r = g.SubscribeResponse()
    r.update.prefix.target = "COUNTERS_DB"
    u = r.update.update.add()
    u.path.CopyFrom(path("/COUNTERS/Ethernet*"))
    u.val.json_ietf_val = json.dumps(rows).encode()
    return r.SerializeToString()


if __name__ == "__main__":
    out = sys.argv[1]
    for name, data in (("seed-kinds-openconfig", every_kind()), ("seed-kinds-junos", junos()),
                       ("seed-kinds-iosxr", iosxr()), ("seed-kinds-sonic-counters", sonic_counters())):
        with open(f"{out}/{name}", "wb") as f:
            f.write(data)
