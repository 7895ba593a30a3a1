#!/usr/bin/env python3
"""Fetch every app every hour, on the hour: the built-in fixed:60m, as an exec: policy.

    fetchsched bench data/sample.csv --policies "fixed:60m,exec:python3 examples/policies/hourly.py"

Reads one JSON object per line on stdin; answers each "decide" line with one line on stdout.
"""
import json
import sys

PERIOD = 3_600_000  # milliseconds

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "decide":
        continue  # events: this policy learns nothing from them
    t = msg["t"]
    fetch = []
    if msg["point"] in ("tick", "timer") and t % PERIOD == 0:
        fetch = [a["app"] for a in msg["apps"] if a["interval"] != "never"]
    print(json.dumps({"fetch": fetch, "wakeAt": (t // PERIOD + 1) * PERIOD}), flush=True)
