#!/usr/bin/env python3
"""A notification sink for the alerting scenarios: listens on 127.0.0.1 (a free
port, written to PORT_FILE once listening) and appends every POST as one JSON
line {"path", "received" (UNIX seconds), "body"} to LOG. Alertmanager's
webhook and Slack integrations both post JSON, so one sink records both.

Usage: webhook_receiver.py PORT_FILE LOG
"""
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

port_file, log_path = sys.argv[1], sys.argv[2]


class Sink(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            parsed = json.loads(body)
        except ValueError:
            parsed = {"unparsed": body.decode("utf-8", "replace")}
        with open(log_path, "a") as log:
            log.write(json.dumps({"path": self.path, "received": time.time(), "body": parsed}) + "\n")
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Sink)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
# Renamed when complete: a reader never sees half a number.
os.rename(port_file + ".tmp", port_file)
server.serve_forever()
