#!/usr/bin/env python3
"""Rebuild latency of `quizdeck serve` after editing one question.

    rebuild.py --quizdeck Q --site DIR [--edits N] [--topic REL]
               [--page URL] [--name NAME]

Starts `quizdeck serve` on a free port, listens to its event stream and
edits one heading of the file REL (by default a question's stem in the
bank) N times (after one warm-up edit), each time timing from the write
to the reload event, then checks that the last edit is on the served
page URL. Prints two lines for the bench's results, in seconds:

    NAME.rebuild MEDIAN MIN MAX -          the write to the reload event
    NAME.rebuild-server MEDIAN MIN MAX -   the build as serve timed it

The first includes inotify and the debounce; the second is the load,
link and render alone. Only 127.0.0.1 is contacted.
"""

import argparse
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_http(port, proc, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit("serve exited with status %d" % proc.returncode)
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/")
            r = c.getresponse()
            r.read()
            c.close()
            if r.status == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("serve did not answer in %d s" % timeout)


class Events:
    """A server-sent event stream, read line by line with a deadline."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.conn.request("GET", "/__quizdeck/events")
        self.resp = self.conn.getresponse()
        if self.resp.status != 200:
            raise SystemExit("event stream: status %d" % self.resp.status)

    def next(self, want):
        """Reads events until one named `want`; returns its data."""
        name, data = None, []
        while True:
            line = self.resp.fp.readline()
            if not line:
                raise SystemExit("event stream closed")
            line = line.decode("utf-8").rstrip("\r\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if name == want:
                    return "\n".join(data)
                if name == "build-error":
                    raise SystemExit("the edit broke the build:\n" + "\n".join(data))
                name, data = None, []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quizdeck", required=True)
    ap.add_argument("--site", required=True)
    ap.add_argument("--edits", type=int, default=21)
    ap.add_argument("--topic", default="content/quiz/bank/topic-050.md")
    ap.add_argument("--page", default="/quiz/bank/")
    ap.add_argument("--name", default="bank")
    ap.add_argument("--pause", type=float, default=0.5,
                    help="seconds between edits, as a person types and saves")
    ap.add_argument("--budget", type=float, default=60,
                    help="stop editing after this many seconds (at least 3 edits)")
    a = ap.parse_args()

    topic = os.path.join(a.site, a.topic)
    if not os.path.exists(topic):
        # The tenth-size bank has fewer topics: take the middle one.
        d = os.path.dirname(topic)
        names = sorted(n for n in os.listdir(d) if n.startswith("topic-"))
        topic = os.path.join(d, names[len(names) // 2])
    with open(topic, encoding="utf-8") as f:
        original = f.read()
    # The topic's 50th question's stem or chapter's heading (or its last).
    stems = [m for m in re.finditer(r"^##+ (.*?) \{#", original, re.M)]
    target = stems[min(50, len(stems) - 1)]

    port = free_port()
    env = dict(os.environ)
    # serve's private folder beside the corpus: on tmpfs, like the builds.
    env["TMPDIR"] = os.path.dirname(os.path.abspath(a.site))
    log = open(os.path.join(env["TMPDIR"], "serve.log"), "wb")
    proc = subprocess.Popen([a.quizdeck, "serve", "-C", a.site, "--port", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    wall, server = [], []
    try:
        wait_http(port, proc, 600)
        ev = Events(port)
        ev.next("hello")
        start = None
        last = a.edits
        for i in range(a.edits + 1):
            # A slow build must not hold the bench: stop once over budget.
            if start is not None and i > 3 and time.monotonic() - start > a.budget:
                last = i - 1
                break
            text = (original[:target.end(1)] + " (edit %d)" % i + original[target.end(1):])
            # Back-to-back edits would time the end of the last build too
            # (freeing its model), which no one waits for when editing.
            time.sleep(a.pause)
            t0 = time.perf_counter()
            with open(topic, "w", encoding="utf-8") as f:
                f.write(text)
            data = ev.next("reload")
            t1 = time.perf_counter()
            if i == 0:
                start = time.monotonic()
                continue    # the warm-up (it also waits out the first PDFs)
            wall.append(t1 - t0)
            server.append(json.loads(data)["build_ms"] / 1000)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("GET", a.page)
        page = c.getresponse().read().decode("utf-8")
        if "(edit %d)" % last not in page:
            raise SystemExit("the last edit is not on the served page")
    finally:
        with open(topic, "w", encoding="utf-8") as f:
            f.write(original)
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    for name, v in ((a.name + ".rebuild", wall), (a.name + ".rebuild-server", server)):
        print("%s %.4f %.4f %.4f -" % (name, statistics.median(v), min(v), max(v)))


if __name__ == "__main__":
    sys.exit(main())
