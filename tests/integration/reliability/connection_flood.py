#!/usr/bin/env python3
"""Holds idle and slowloris connections open against one 127.0.0.1 port.

Idle connections connect and send nothing; slowloris ones (after the TLS
handshake with --tls) send a request line and then one header line every few
seconds, never finishing the request. Each connection the server closes is
reopened at once, as an attacker would. Runs for --seconds, then prints one
line of counts (opened, dropped by the server, open at the end).
Loopback only: the address is fixed.
"""
import argparse
import asyncio
import os
import ssl

HOST = "127.0.0.1"


class Counts:
    opened = 0
    dropped = 0
    open_now = 0


async def hold(port, tls, slowloris, header_every_s, counts):
    context = None
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    while True:
        writer = None
        try:
            # The handshake is part of a slowloris client; an idle one never starts it.
            reader, writer = await asyncio.open_connection(
                HOST, port, ssl=context if slowloris else None)
            counts.opened += 1
            counts.open_now += 1
            try:
                if slowloris:
                    writer.write(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    await writer.drain()
                    while True:
                        try:
                            data = await asyncio.wait_for(reader.read(4096), header_every_s)
                            if not data:
                                break
                        except asyncio.TimeoutError:
                            writer.write(b"X-Slow: 1\r\n")
                            await writer.drain()
                else:
                    while await reader.read(4096):
                        pass
            finally:
                counts.open_now -= 1
                counts.dropped += 1
        except (OSError, ssl.SSLError, asyncio.IncompleteReadError, ConnectionError):
            await asyncio.sleep(0.01)
        finally:
            if writer is not None:
                writer.transport.abort()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--slowloris", type=int, default=1000)
    parser.add_argument("--header-every", type=float, default=5.0, help="seconds between slowloris header lines")
    parser.add_argument("--seconds", type=float, required=True)
    args = parser.parse_args()
    counts = Counts()
    tasks = [asyncio.ensure_future(hold(args.port, args.tls, False, 0, counts)) for _ in range(args.idle)]
    tasks += [asyncio.ensure_future(hold(args.port, args.tls, True, args.header_every, counts))
              for _ in range(args.slowloris)]
    await asyncio.sleep(args.seconds)
    print(f"opened={counts.opened} dropped={counts.dropped} open_at_end={counts.open_now}", flush=True)
    # Exit at once: the kernel closes the sockets. (Cancelling 2,000 tasks
    # mid-handshake could hang the run once here.)
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
