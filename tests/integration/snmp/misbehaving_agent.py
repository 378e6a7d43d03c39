#!/usr/bin/env python3
"""A tiny SNMPv2c responder that misbehaves on purpose, for the driver's tests.

Usage: misbehaving_agent.py PORT. The community picks the behaviour:
  loop     GETNEXT/GETBULK answers go deeper, then back up: OIDs stop increasing
  endless  answers increase forever under any root (a table that never ends)
  huge     every walk yields one row whose value is a ~60 KiB OCTET STRING
  exceptions  like endless, but every value is noSuchInstance (nothing to keep)
  flood    like endless, but every answer comes 20 times, after 20 stray datagrams
           (another request id, another community, truncated junk)
  lossy    like endless, but the first copy of every request is dropped: only a
           retry is answered (a lossy path in front of the agent)
Every mode answers GET for sysObjectID.0 with Arista's OID. Prints "ready".
"""
import os
import socket
import sys

SYS_OBJECT_ID = (1, 3, 6, 1, 2, 1, 1, 2, 0)
ARISTA = (1, 3, 6, 1, 4, 1, 30065, 1, 3011, 7060, 3720, 64)
DEPTH = 13  # walks reach this many arcs before the last arc counts up


def tlv(tag, body):
    n = len(body)
    if n < 0x80:
        head = bytes([n])
    else:
        raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
        head = bytes([0x80 | len(raw)]) + raw
    return bytes([tag]) + head + body


def read_tlv(data, pos):
    tag, n = data[pos], data[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        n = int.from_bytes(data[pos:pos + k], "big")
        pos += k
    return tag, data[pos:pos + n], pos + n


def enc_int(v):
    return tlv(0x02, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big", signed=True))


def enc_oid(arcs):
    out = bytearray([arcs[0] * 40 + arcs[1]])
    for a in arcs[2:]:
        chunk = [a & 0x7F]
        a >>= 7
        while a:
            chunk.append(0x80 | (a & 0x7F))
            a >>= 7
        out += bytes(reversed(chunk))
    return tlv(0x06, bytes(out))


def dec_oid(body):
    arcs, v = [body[0] // 40, body[0] % 40], 0
    for b in body[1:]:
        v = (v << 7) | (b & 0x7F)
        if not b & 0x80:
            arcs.append(v)
            v = 0
    return tuple(arcs)


def step(mode, oid):
    if mode == "loop":
        return oid + (1,) if len(oid) < DEPTH else oid[:-1]  # deeper, then back up
    if len(oid) < DEPTH:
        return oid + (1,) * (DEPTH - len(oid))
    return oid[:-1] + (oid[-1] + 1,)


def answer(mode, kind, oids, max_rep):
    out = []
    if kind == 0xA0:  # GET
        for o in oids:
            out.append(enc_oid(o) + (enc_oid(ARISTA) if o == SYS_OBJECT_ID else b"\x80\x00"))
        return out
    o = oids[0]
    for _ in range(max_rep if kind == 0xA5 else 1):
        if mode == "huge":
            if len(o) >= DEPTH:
                out.append(enc_oid(o) + b"\x82\x00")  # endOfMibView
                break
            o = o + (100301213,) if len(o) < DEPTH - 1 else o + (1,)
            out.append(enc_oid(o) + tlv(0x04, b"DOM RX Power Sensor for " + b"E" * 60000))
            break
        o = step(mode, o)
        out.append(enc_oid(o) + (b"\x81\x00" if mode == "exceptions" else enc_int(1000)))
    return out


def main():
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    sock.bind(("127.0.0.1", int(sys.argv[1])))
    try:
        print("ready", flush=True)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the test stops reading after this line
    except BrokenPipeError:
        pass
    seen_requests = set()
    while True:
        data, peer = sock.recvfrom(65535)
        try:
            _, msg, _ = read_tlv(data, 0)
            _, version, pos = read_tlv(msg, 0)
            _, community, pos = read_tlv(msg, pos)
            kind, pdu, _ = read_tlv(msg, pos)
            _, reqid, p = read_tlv(pdu, 0)
            _, _, p = read_tlv(pdu, p)
            _, max_rep, p = read_tlv(pdu, p)
            _, vbl, _ = read_tlv(pdu, p)
            oids, q = [], 0
            while q < len(vbl):
                _, vb, q = read_tlv(vbl, q)
                _, name, _ = read_tlv(vb, 0)
                oids.append(dec_oid(name))
            binds = answer(community.decode(), kind, oids, int.from_bytes(max_rep, "big") or 1)
        except (IndexError, ValueError, UnicodeDecodeError):
            continue
        if community == b"lossy" and reqid not in seen_requests:
            seen_requests.add(reqid)
            continue
        def reply_for(rid, comm):
            body = tlv(0x02, rid) + enc_int(0) + enc_int(0) + tlv(0x30, b"".join(tlv(0x30, b) for b in binds))
            return tlv(0x30, tlv(0x02, version) + tlv(0x04, comm) + tlv(0xA2, body))
        reply = reply_for(reqid, community)
        if community == b"flood":
            stray_id = (int.from_bytes(reqid, "big") + 1000).to_bytes(4, "big")
            for i in range(20):
                stray = [reply_for(stray_id, community), reply_for(reqid, b"other"), reply[: len(reply) // 2]][i % 3]
                sock.sendto(stray, peer)
            for _ in range(19):
                sock.sendto(reply, peer)
        sock.sendto(reply, peer)


if __name__ == "__main__":
    main()
