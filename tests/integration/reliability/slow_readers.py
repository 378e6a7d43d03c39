#!/usr/bin/env python3
"""Scrapes one 127.0.0.1 port with N readers that each read slowly.

Each reader sends one GET and reads the answer at about --rate bytes per
second (a small receive buffer, so the server cannot push the body into the
kernel at once), reconnecting when the answer ends or is cut. Runs for
--seconds, then prints the bytes read and the answers cut short.
Loopback only: the address is fixed.
"""
import argparse
import base64
import socket
import ssl
import threading
import time

HOST = "127.0.0.1"


def reader(args, stop, totals, lock):
    while not stop.is_set():
        try:
            raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.settimeout(30)
            raw.connect((HOST, args.port))
            conn = raw
            if args.tls:
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
                conn = context.wrap_socket(raw)
            auth = ""
            if args.user:
                token = base64.b64encode(f"{args.user}:{args.password}".encode()).decode()
                auth = f"Authorization: Basic {token}\r\n"
            conn.sendall(f"GET /metrics HTTP/1.1\r\nHost: {HOST}\r\n{auth}Connection: close\r\n\r\n".encode())
            step = max(1, int(args.rate / 10))
            while not stop.is_set():
                data = conn.recv(step)
                if not data:
                    break
                with lock:
                    totals["bytes"] += len(data)
                time.sleep(0.1)
            conn.close()
        except OSError:
            with lock:
                totals["cut"] += 1
            time.sleep(0.1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--readers", type=int, default=60)
    parser.add_argument("--rate", type=float, default=50_000, help="bytes per second per reader")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--tls", action="store_true")
    parser.add_argument("--user", default="")
    parser.add_argument("--password", default="")
    args = parser.parse_args()
    stop = threading.Event()
    totals = {"bytes": 0, "cut": 0}
    lock = threading.Lock()
    threads = [threading.Thread(target=reader, args=(args, stop, totals, lock), daemon=True)
               for _ in range(args.readers)]
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    print(f"bytes_read={totals['bytes']} cut={totals['cut']}", flush=True)


if __name__ == "__main__":
    main()
