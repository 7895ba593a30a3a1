#!/usr/bin/env python3
"""A counting policy written apart from the built-in `counts`, to check that one against it.

    fetchsched bench LOG --policies "counts:0.2,exec:python3 examples/policies/counting.py 0.2"

Counts, per user: opens per app per hour of the local day (at most one per day and hour), the app
opened next within ten minutes of another, and the apps opened within five minutes of a screen_on.
At a tick it fetches an app whose hour count over the days seen reaches the threshold (the one
argument); at an open, a successor whose share of the opened app's opens does; at a screen_on, an
app whose share of unlocks does. Only apps whose last refresh is more than 30 minutes old.
"""
import json
import sys
from collections import defaultdict

THRESHOLD = float(sys.argv[1]) if len(sys.argv) > 1 else 0.2
WINDOW = 30 * 60_000


class User:
    def __init__(self):
        self.hours = defaultdict(lambda: [0] * 24)  # app -> days with an open in each hour
        self.seen = set()  # (app, day, hour) counted
        self.days = set()
        self.opens = defaultdict(int)
        self.next = defaultdict(lambda: defaultdict(int))  # app -> following app -> count
        self.unlock_follow = defaultdict(int)
        self.unlocks = 0
        self.last_open = None  # (app, t)
        self.last_unlock = None
        self.unlock_seen = set()


users = defaultdict(User)


def local(msg):
    t = msg["t"] + msg["offsetMinutes"] * 60_000
    return t // 86_400_000, (t // 3_600_000) % 24


def event(msg):
    u = users[msg["user"]]
    day, hour = local(msg)
    u.days.add(day)
    t = msg["t"]
    if msg["event"] == "screen_on":
        u.unlocks += 1
        u.last_unlock = t
        u.unlock_seen = set()
    elif msg["event"] == "open":
        app = msg["app"]
        u.opens[app] += 1
        if (app, day, hour) not in u.seen:
            u.seen.add((app, day, hour))
            u.hours[app][hour] += 1
        if u.last_open and u.last_open[0] != app and t - u.last_open[1] <= 600_000:
            u.next[u.last_open[0]][app] += 1
        if u.last_unlock is not None and 5_000 <= t - u.last_unlock <= 300_000 and app not in u.unlock_seen:
            u.unlock_seen.add(app)
            u.unlock_follow[app] += 1
        u.last_open = (app, t)


def chance(u, msg, app):
    point = msg["point"]
    if point == "open":
        opened = msg["app"]
        return 0 if app == opened else u.next[opened][app] / (u.opens[opened] + 1)
    if point == "wake" and msg.get("wake") == "screen_on":
        return u.unlock_follow[app] / (u.unlocks + 1)
    if point in ("tick", "timer"):
        _, hour = local(msg)
        return u.hours[app][hour] / (len(u.days) + 1) if app in u.hours else 0
    return 0


def decide(msg):
    u = users[msg["user"]]
    t = msg["t"]
    fetch = []
    for a in msg["apps"]:
        if a["interval"] == "never" or a["inFlight"]:
            continue
        if a["lastRefresh"] is not None and t - a["lastRefresh"] < WINDOW:
            continue
        if chance(u, msg, a["app"]) >= THRESHOLD:
            fetch.append(a["app"])
    return fetch


for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "event":
        event(msg)
    else:
        print(json.dumps({"fetch": decide(msg)}), flush=True)
