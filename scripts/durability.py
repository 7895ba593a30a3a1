#!/usr/bin/env python3
"""Kill-and-restart check of `fetchsched serve`: nothing acknowledged is lost, nothing is stored twice.

Posts a generated log in batches from a second thread, kills the server with SIGKILL while
requests are in flight, checks that every acknowledged event is in the store, restarts the
server on the same store, retries every batch (acknowledged or not), and checks the store holds
each event exactly once.   scripts/durability.py [--bin .build/release/fetchsched]

With --pg URL (a cluster, as scripts/pg-cluster.sh prints) the store is a fresh PostgreSQL
database with two instances on it: the one killed each round, and a second one that lives
throughout, through which every batch is retried at the end.
"""
import argparse, json, os, signal, sqlite3, subprocess, sys, tempfile, threading, time, urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=os.environ.get("FETCHSCHED", ".build/release/fetchsched"))
ap.add_argument("--port", type=int, default=18091)
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--pg", help="a PostgreSQL cluster's URL: run two instances on a fresh database there")
args = ap.parse_args()
base = f"http://127.0.0.1:{args.port}"
work = tempfile.mkdtemp()
db = os.path.join(work, "store.sqlite")
if args.pg:
    name = f"durability_{os.getpid()}"
    subprocess.run(["psql", args.pg, "-qc", f"CREATE DATABASE {name}"], check=True)
    db = args.pg.rsplit("/", 1)[0] + "/" + name

subprocess.run([args.bin, "generate", "--users", "60", "--days", "3", "--seed", "7", "--out", os.path.join(work, "log.csv")], check=True)
rows = [l.rstrip("\n").split(",") for l in open(os.path.join(work, "log.csv")).readlines()[1:]]
events = []
for i, (ts, user, app, kind, value) in enumerate(rows):
    e = {"id": f"ev-{i}", "timestamp": ts, "user": user, "event": kind}
    if app: e["app"] = app
    if value: e["value"] = value
    events.append(e)
batches = [events[i:i + 100] for i in range(0, len(events), 100)]

def start(port=args.port):
    p = subprocess.Popen([args.bin, "serve", "--db", db, "--port", str(port)], stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read(); return p
        except Exception:
            time.sleep(0.05)
    sys.exit("server did not start")

def post(batch, url=base):
    req = urllib.request.Request(url + "/v1/events", data=json.dumps({"events": batch}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    return json.loads(urllib.request.urlopen(req, timeout=10).read())

def stored_ids():
    if args.pg:
        q = lambda sql: subprocess.run(["psql", db, "-tAc", sql], check=True, capture_output=True, text=True).stdout.split()
        return set(q("SELECT id FROM event_ids")), int(q("SELECT count(*) FROM events")[0])
    con = sqlite3.connect(db)
    try:
        return {r[0] for r in con.execute("SELECT id FROM event_ids")}, con.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        con.close()

# With PostgreSQL, a second instance runs throughout: the retries go through it.
other = start(args.port + 1) if args.pg else None

acked = set()
for round in range(args.rounds):
    server = start()
    done = threading.Event()
    def sender():
        for b in batches:
            if done.is_set(): return
            try:
                post(b)
                acked.update(e["id"] for e in b)
            except Exception:
                return
    t = threading.Thread(target=sender); t.start()
    time.sleep(0.15 + 0.2 * round)          # kill at a different point each round
    server.send_signal(signal.SIGKILL); server.wait(); done.set(); t.join()
    ids, count = stored_ids()
    lost = acked - ids
    print(f"round {round + 1}: killed after {len(acked)} acknowledged events; stored {count} events, {len(ids)} ids; lost {len(lost)}")
    if lost: sys.exit(f"FAIL: {len(lost)} acknowledged events lost, e.g. {sorted(lost)[:3]}")
    if count != len(ids): sys.exit(f"FAIL: {count} events stored for {len(ids)} ids")

server = other or start()
retry_url = f"http://127.0.0.1:{args.port + 1}" if other else base
accepted = duplicates = 0
for b in batches:
    r = post(b, retry_url); accepted += r["accepted"]; duplicates += r["duplicates"]
if other:
    # Plans from both instances, byte for byte, after all those writes through both.
    first = start()
    users = sorted({e["user"] for e in events})[:6]
    apps = sorted({e["app"] for e in events if "app" in e})[:2]
    for u in users:
        for a in apps:
            got = [urllib.request.urlopen(f"http://127.0.0.1:{p}/v1/users/{u}/apps/{a}/plan", timeout=10).read()
                   for p in (args.port, args.port + 1)]
            if got[0] != got[1]: sys.exit(f"FAIL: the two instances plan {u}/{a} differently")
    print(f"plans of {len(users)} users x {len(apps)} apps: the same bytes from both instances")
    first.send_signal(signal.SIGTERM); first.wait(timeout=30)
server.send_signal(signal.SIGTERM)
code = server.wait(timeout=30)
ids, count = stored_ids()
print(f"retry of all {len(events)} events{' through the other instance' if other else ''}: {accepted} accepted, {duplicates} duplicates; store holds {count}; SIGTERM exit {code}")
if count != len(events) or len(ids) != len(events): sys.exit("FAIL: the store does not hold each event exactly once")
if code != 0: sys.exit("FAIL: the server did not shut down cleanly on SIGTERM")
print(f"durability ({'PostgreSQL, two instances' if args.pg else 'SQLite'}): every acknowledged event survived SIGKILL, and retries stored nothing twice")
if args.pg:
    subprocess.run(["psql", args.pg, "-qc", f"DROP DATABASE {name} WITH (FORCE)"], check=True)
