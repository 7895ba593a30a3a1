#!/usr/bin/env python3
"""Issue 10's and issue 34's reproductions against the release binary: every one gets a clear 4xx (or a
file:line / field error and exit 1 on the command line), with its time, and the server stays up.
With --limit-ms 100 a slower answer fails too (a measurement for a quiet machine, not for CI).

Also: 1,500 half-sent requests are all closed by the read timeout while /health keeps
answering, and planning for --users distinct users keeps the server's memory under the bound
that --max-users-in-memory sets.   scripts/hostile.py [--bin .build/release/fetchsched] [--users 2000]
"""
import argparse, atexit, json, os, resource, socket, subprocess, sys, tempfile, time, urllib.error, urllib.request
from concurrent.futures import ThreadPoolExecutor

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=os.environ.get("FETCHSCHED", ".build/release/fetchsched"))
ap.add_argument("--port", type=int, default=18093)
ap.add_argument("--users", type=int, default=2000, help="distinct users to plan for")
ap.add_argument("--max-users-in-memory", type=int, default=500)
ap.add_argument("--apps", type=int, default=1, choices=range(1, 7),
                help="apps whose plans are asked of each user in the memory case (from the second on, they share one run)")
ap.add_argument("--limit-ms", type=float, default=None,
                help="also fail a request slower than this (for measuring on a quiet machine; CI only reports times)")
ap.add_argument("--pg", help="a PostgreSQL cluster's URL: keep the store in a fresh database there")
args = ap.parse_args()
base = f"http://127.0.0.1:{args.port}"
work = tempfile.mkdtemp()
db = os.path.join(work, "store.sqlite")
if args.pg:
    pg_name = f"hostile_{os.getpid()}"
    subprocess.run(["psql", args.pg, "-qc", f"CREATE DATABASE {pg_name}"], check=True)
    db = args.pg.rsplit("/", 1)[0] + "/" + pg_name
failures = []
rows = []

def check(case, what, ok, ms, detail=""):
    slow = ms is not None and args.limit_ms is not None and ms > args.limit_ms
    rows.append((case, what, "ok" if ok and not slow else "FAIL", "" if ms is None else f"{ms:.1f}", detail))
    if not ok or slow:
        failures.append(f"{case} {what}: {detail} ({ms} ms)")

# A store with two tenants' copies of a small generated population, and --users more users.
log = os.path.join(work, "log.csv")
subprocess.run([args.bin, "generate", "--users", str(args.users), "--days", "2", "--seed", "3", "--out", log], check=True)
lines = open(log).read().splitlines()
with open(os.path.join(work, "tenants.csv"), "w") as f:
    f.write(lines[0] + "\n")
    for l in lines[1:]:
        ts, user, rest = l.split(",", 2)
        for tenant in ("a", "b"):
            if user in ("user-0001", "user-0002"):
                f.write(f"{ts},{tenant}/{user},{rest}\n")
        f.write(f"{ts},a/{user},{rest}\n")
subprocess.run([args.bin, "ingest", os.path.join(work, "tenants.csv"), "--db", db], check=True, stdout=subprocess.DEVNULL)
tokens = os.path.join(work, "tokens.json")
json.dump({"tokens": [{"token": "token-a-0123456789abcdef", "tenant": "a"}, {"token": "token-b-0123456789abcdef", "tenant": "b"}]}, open(tokens, "w"))
A = {"Authorization": "Bearer token-a-0123456789abcdef"}
B = {"Authorization": "Bearer token-b-0123456789abcdef"}

server_log = os.path.join(work, "serve.log")
server_log = os.path.join(work, "serve.log")
server = subprocess.Popen([args.bin, "serve", "--db", db, "--port", str(args.port), "--tokens", tokens, "--read-timeout", "2s",
                           "--max-users-in-memory", str(args.max_users_in_memory)], stderr=open(server_log, "w"))
atexit.register(lambda: server.poll() is None and server.kill())  # no server outlives the script, whatever fails

def call(method, path, body=None, headers=A, timeout=30):
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json", **headers})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        status, text = e.code, e.read().decode()
    return status, text, (time.perf_counter() - t) * 1000

def field(text):
    try:
        return json.loads(text)["error"].get("field")
    except Exception:
        return None

def expect(case, what, method, path, body=None, status=400, want_field=None, headers=A):
    got, text, ms = call(method, path, body, headers)
    ok = got == status and (want_field is None or field(text) == want_field)
    check(case, what, ok, ms, f"{got} field={field(text)}")

def cli(case, what, argv, says):
    t = time.perf_counter()
    r = subprocess.run([args.bin] + argv, capture_output=True, text=True)
    ms = (time.perf_counter() - t) * 1000
    check(case, what, r.returncode in (1, 64) and says in r.stderr, None, f"exit {r.returncode}: {r.stderr.strip()[:90]}")
    rows[-1] = rows[-1][:3] + (f"{ms:.0f} (process)",) + rows[-1][4:]

def rss_kb():
    for line in open(f"/proc/{server.pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    sys.exit("the server died: " + open(server_log).read()[-2000:])

for _ in range(200):
    try:
        urllib.request.urlopen(base + "/health", timeout=1).read(); break
    except Exception:
        time.sleep(0.05)
else:
    sys.exit("server did not start")

plan = "/v1/users/user-0001/apps/com.example.news/plan"
before_b = call("GET", plan, headers=B)[1]
call("GET", plan)  # build the session
fetch = {"app": "com.example.news", "start": "2025-01-07T12:00:00Z", "durationMs": 2000, "bytes": 1000, "network": "wifi", "result": "newData"}
expect(1, "plan horizon=99999999999999999999h", "GET", plan + "?horizon=99999999999999999999h", want_field="horizon")
expect(1, "interval custom:9999999999999d", "PUT", "/v1/users/user-0001/apps/com.example.news/interval", {"interval": "custom:9999999999999d"}, want_field="interval")
expect(1, "fetch durationMs Int64.max", "POST", "/v1/users/user-0001/fetches", {**fetch, "durationMs": 2**63 - 1}, want_field="durationMs")
expect(1, "fetch bytes Int64.max (wifi)", "POST", "/v1/users/user-0001/fetches", {**fetch, "bytes": 2**63 - 1}, want_field="bytes")
expect(1, "fetch bytes 2^62 (cellular)", "POST", "/v1/users/user-0001/fetches", {**fetch, "bytes": 2**62, "network": "cellular"}, want_field="bytes")
expect(1, "then GET budget", "GET", "/v1/users/user-0001/budget", status=200)
cli(1, "next --horizon 99999999999999999999h", ["next", "--db", db, "--user", "a/user-0001", "--app", "x", "--horizon", "99999999999999999999h"], "--horizon")
cli(1, "replay --policy fixed:99999999999999999999h", ["replay", log, "--policy", "fixed:99999999999999999999h"], "fixed:")
expect(2, "plan at=9999-12-31 (tenant a)", "GET", plan + "?at=9999-12-31T00:00:00Z", want_field="at")
expect(2, "plan at=9999-12-31 (tenant b)", "GET", plan + "?at=9999-12-31T00:00:00Z", want_field="at", headers=B)
expect(2, "plan at=2099-12-31", "GET", plan + "?at=2099-12-31T00:00:00Z", want_field="at")
expect(2, "event dated 9999", "POST", "/v1/events", {"events": [{"id": "far", "user": "user-0001", "timestamp": "9999-01-01T00:00:00Z", "event": "open", "app": "x"}]}, want_field="events[0].timestamp")
expect(2, "fetch report dated 9999", "POST", "/v1/users/user-0001/fetches", {**fetch, "start": "9999-01-01T00:00:00Z"}, want_field="start")
expect(2, "events of one user in 1970 and 2099", "POST", "/v1/events", {"events": [
    {"id": f"span-{i}", "user": "span", "timestamp": t, "event": "open", "app": "news"}
    for i, t in enumerate(["1970-01-01T00:00:00Z", "1970-01-01T01:00:00Z", "2099-12-31T00:00:00Z"])]}, status=200)
expect(2, "then a plan for that user (a 130-year silence)", "GET", "/v1/users/span/apps/news/plan", status=200)
expect(2, "/health meanwhile", "GET", "/health", status=200)
expect(3, "app name of 500 KB", "POST", "/v1/events", {"events": [{"id": "big", "user": "user-0001", "timestamp": "2025-01-07T12:00:00Z", "event": "open", "app": "x" * 500_000}]}, want_field="events[0].app")
expect(3, "app name of 1 MiB (over the body limit)", "POST", "/v1/events", {"events": [{"id": "big", "user": "user-0001", "timestamp": "2025-01-07T12:00:00Z", "event": "open", "app": "x" * (1 << 20)}]}, status=413, want_field="body")
expect(4, "fetch report dated 2525", "POST", "/v1/users/user-0001/fetches", {**fetch, "start": "2525-01-01T00:00:00Z"}, want_field="start")
expect(5, "user 'alice\\u0000' in a batch", "POST", "/v1/events", {"events": [{"id": "nul", "user": "alice\u0000", "timestamp": "2025-01-07T12:00:00Z", "event": "open", "app": "x"}]}, want_field="events[0].user")
expect(5, "DELETE /v1/users/alice%00", "DELETE", "/v1/users/alice%00", want_field="user")

scen = os.path.join(work, "s.json")
for text, name in [('{"battery":{"capacityWh":1e308}}', "battery.capacityWh"), ('{"budgets":{"energyJoulesPerDay":1e300}}', "budgets.energyJoulesPerDay"),
                   ('{"energy":{"processingWatts":1e308}}', "energy.processingWatts"), ('{"energy":{"wifi":{"wakeJoules":1e300}}}', "energy.wifi.wakeJoules")]:
    open(scen, "w").write(text)
    cli(8, f"scenario {text}", ["replay", log, "--scenario", scen], name)
empty = os.path.join(work, "empty.csv")
open(empty, "w").close()
for cmd in ("check", "replay", "ingest"):
    extra = ["--db", os.path.join(work, "x.sqlite")] if cmd == "ingest" else []
    cli(9, f"{cmd} <directory>", [cmd, work] + extra, "is not a regular file")
    cli(9, f"{cmd} <0-byte file>", [cmd, empty] + extra, "is empty")
bad = os.path.join(work, "esc.csv")
open(bad, "w").write("timestamp,user,app,event,value\n2025-01-06T07:00:00Z,u,a,bogus\x1b[2J,\n")
cli(9, "escape bytes in a message", ["check", bad], "bogus\\u{1B}[2J")

# Issue 34: names no decoder may rewrite, the tenant prefix, past plans at once, a second writer.
expect(34, "DELETE /v1/users/%EF%BB%BFuser-0001 (a U+FEFF before the name)", "DELETE", "/v1/users/%EF%BB%BFuser-0001", want_field="user")
expect(34, "PUT interval of %EF%BB%BFcom.example.news", "PUT", "/v1/users/user-0001/apps/%EF%BB%BFcom.example.news/interval",
       {"interval": "never"}, want_field="app")
expect(34, "GET /v1/users/user%ZZ/budget (a bad escape)", "GET", "/v1/users/user%ZZ/budget", want_field="user")
expect(34, "event for user '\\ufeffuser-0001' in a body", "POST", "/v1/events",
       {"events": [{"id": "bom", "user": "\ufeffuser-0001", "timestamp": "2025-01-07T12:00:00Z", "event": "open", "app": "x"}]},
       want_field="events[0].user")
expect(34, "then user-0001 is still there, news still planned", "GET", plan, status=200)
got, text, ms = call("GET", "/v1/users/user-0001/apps/com.example.nothing/plan")
check(34, "a plan's reason shows no tenant prefix", got == 200 and "a/" not in text, ms, text[:70])
past = plan + "?at=2025-01-06T18:00:00Z"
with ThreadPoolExecutor(17) as pool:
    jobs = [pool.submit(call, "GET", past, None, B if i == 16 else A) for i in range(17)]
    answers = [j.result() for j in jobs]
codes = sorted(a[0] for a in answers[:16])
check(34, "16 plans for a past moment at once (tenant a): 200 or 429", all(c in (200, 429) for c in codes), max(a[2] for a in answers[:16]),
      f"{codes.count(200)} x 200, {codes.count(429)} x 429")
check(34, "tenant b's past plan meanwhile", answers[16][0] == 200, answers[16][2], str(answers[16][0]))
cli(34, "next --user nobody (no events)", ["next", "--db", db, "--user", "nobody", "--app", "y"], "no events of user 'nobody'")
if not args.pg:
    cli(34, "ingest into the SQLite file the server uses", ["ingest", log, "--db", db], "is being written by another process")

# Case 10: a declared length over the limit is refused before the body; half-sent requests are closed.
s = socket.create_connection(("127.0.0.1", args.port))
t = time.perf_counter()
s.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token-a-0123456789abcdef\r\nContent-Length: 99999999999\r\n\r\n{")
head = s.recv(200).decode(errors="replace")
check(10, "Content-Length: 99999999999", head.startswith("HTTP/1.1 413"), (time.perf_counter() - t) * 1000, head.split("\r\n")[0])
s.close()
half = []
for _ in range(1500):
    c = socket.create_connection(("127.0.0.1", args.port))
    c.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Le")
    half.append(c)
t = time.perf_counter()
_, _, health_ms = call("GET", "/health")
check(10, "/health with 1,500 half-sent requests open", True, health_ms)
closed = 0
for c in half:
    c.settimeout(10)
    try:
        closed += c.recv(10) == b""
    except OSError:
        pass
    c.close()
waited = time.perf_counter() - t
check(10, "1,500 half-sent requests closed by the 2 s read timeout", closed == 1500, None, f"{closed} closed in {waited:.1f} s")

# Issue 64: one name in one form; a body trickled in is cut off within three read timeouts.
expect(64, "GET a plan of user-0001 decomposed-e (jose%CC%81 form)", "GET", "/v1/users/user-0001e%CC%81/budget", want_field="user")
expect(64, "event for a decomposed (NFD) user in a body", "POST", "/v1/events",
       {"events": [{"id": "nfd", "user": "jose\u0301", "timestamp": "2025-01-07T12:00:00Z", "event": "open", "app": "x"}]},
       want_field="events[0].user")
s = socket.create_connection(("127.0.0.1", args.port))
s.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer token-a-0123456789abcdef\r\nContent-Length: 1000\r\n\r\n")
t = time.perf_counter()
trickled, cut = 0, False
while time.perf_counter() - t < 20:
    try:
        s.sendall(b"x")
        trickled += 1
        s.settimeout(0.5)
        if s.recv(10) == b"":
            cut = True
            break
    except socket.timeout:
        continue
    except OSError:
        cut = True
        break
s.close()
check(64, "a body trickled a byte every 0.5 s is cut off (2 s read timeout: at 6 s)", cut and time.perf_counter() - t < 10,
      (time.perf_counter() - t) * 1000, f"{trickled} bytes sent")

# Case 6: plans for many distinct users; memory stays bounded by the live-state cap.
apps = ["com.example.news", "com.example.chat", "com.example.social", "com.example.mail", "com.example.weather",
        "com.example.transit"][:args.apps]
rss0 = rss_kb()
firsts = []
for i in range(1, args.users + 1):
    _, _, ms = call("GET", f"/v1/users/user-{i:04d}/apps/{apps[0]}/plan")
    firsts.append(ms)
    for app in apps[1:]:
        call("GET", f"/v1/users/user-{i:04d}/apps/{app}/plan")
rss1 = rss_kb()
for i in range(1, args.users + 1):
    for app in apps:
        call("GET", f"/v1/users/user-{i:04d}/apps/{app}/plan")
rss2 = rss_kb()
firsts.sort()
metrics = urllib.request.urlopen(base + "/metrics").read().decode()
evicted = next((l.split()[-1] for l in metrics.splitlines() if l.startswith("fetchsched_session_evictions_total")), "?")
check(6, f"first plan for {args.users} users (p50, p99 ms)", True, firsts[len(firsts) // 2], f"p99 {firsts[int(len(firsts) * 0.99)]:.1f} ms")
# docs/cli.md ("serve", "Memory") documents the bound: 150 MB plus 120 KB per live state the cap allows
# (the state, the plans it keeps until the user's next event, and the run they read).
bound_kb = 150 * 1024 + 120 * min(args.users, args.max_users_in_memory)
check(6, f"RSS after {args.users} users, {len(apps)} app(s) each, cap {args.max_users_in_memory} (MB: start, after, after again; bound)",
      max(rss1, rss2) < bound_kb, None,
      f"{rss0 / 1024:.0f} -> {rss1 / 1024:.0f} -> {rss2 / 1024:.0f} < {bound_kb / 1024:.0f}; evictions {evicted}")

after_b = call("GET", plan, headers=B)[1]
check("-", "tenant b's plan unchanged by all of the above", after_b == before_b, None)
alive = server.poll() is None
check("-", "server still up", alive, None)
# Issue 81, finding 6: one user with 100,000 apps opened once each. A decision weighs at most the
# 256 most recently opened, so the first plan is computed in seconds (it took minutes), and the
# server answers others meanwhile.
t = time.perf_counter()
many = [{"id": f"m-{i}", "user": "many81", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1736150400 + 20 * i)),
         "event": "open", "app": f"com.app{i}"} for i in range(100_000)]
ingested = all(call("POST", "/v1/events", {"events": many[i:i + 5_000]}, timeout=120)[0] == 200 for i in range(0, len(many), 5_000))
check(81, "one user, 100,000 apps: ingest", ingested, (time.perf_counter() - t) * 1000)
with ThreadPoolExecutor(1) as pool:
    pending = pool.submit(call, "GET", "/v1/users/many81/apps/com.app99999/plan", None, A, 120)
    got, _, health_ms = call("GET", "/health")
    check(81, "one user, 100,000 apps: /health while the first plan runs", got == 200, health_ms)
    got, text, ms = pending.result()
check(81, "one user, 100,000 apps: the first plan", got == 200 and ms < 30_000, ms, f"{got} {text[:60]}")

errors = [l for l in open(os.path.join(work, "serve.log")) if " error " in l]
check("-", "no server error logged", not errors, None, errors[0][:100] if errors else "")

if args.pg:
    # Issue 34, case 8: the database goes away under the running service (connections refused and
    # ended, as when its server stops), then comes back.
    def admin(sql):
        subprocess.run(["psql", args.pg, "-qAtc", sql], check=True, stdout=subprocess.DEVNULL)
    admin(f"ALTER DATABASE {pg_name} ALLOW_CONNECTIONS false")
    admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{pg_name}'")
    outage = {"events": [{"id": "outage-1", "user": "user-0001", "timestamp": "2025-01-07T23:00:00Z", "event": "open", "app": "x"}]}
    for what, method, path, body in [("POST /v1/events", "POST", "/v1/events", outage), ("GET plan", "GET", plan, None),
                                     ("GET /ready", "GET", "/ready", None)]:
        got, text, ms = call(method, path, body)
        check(34, f"store down: {what}", got == 503 and "store is unavailable" in text and ms < 10_000, ms, f"{got} {text[:60]}")
    got, _, ms = call("GET", "/health")
    check(34, "store down: /health (liveness)", got == 200, ms)
    admin(f"ALTER DATABASE {pg_name} ALLOW_CONNECTIONS true")
    t = time.perf_counter()
    for _ in range(120):
        if call("GET", "/ready")[0] == 200:
            break
        time.sleep(0.25)
    check(34, "store back: /ready", call("GET", "/ready")[0] == 200, (time.perf_counter() - t) * 1000)
    got, text, ms = call("GET", "/v1/users/user-0001/budget")
    check(34, "store back: the refused event was never stored", got == 200 and
          subprocess.run(["psql", db, "-qAtc", "SELECT count(*) FROM event_ids WHERE id = 'outage-1'"],
                         capture_output=True, text=True).stdout.strip() == "0", ms)
    metrics = urllib.request.urlopen(base + "/metrics").read().decode()
    counted = next((l.split()[-1] for l in metrics.splitlines() if l.startswith("fetchsched_store_unavailable_total")), "0")
    check(34, "store down: each 503 counted", counted == "3", None, f"fetchsched_store_unavailable_total {counted}")
server.terminate()
server.wait(10)

if args.pg:
    subprocess.run(["psql", args.pg, "-qc", f"DROP DATABASE {pg_name} WITH (FORCE)"], check=True)
print(f"store: {'PostgreSQL' if args.pg else 'SQLite'}")
print("| case | request | result | ms | detail |\n|---|---|---|---:|---|")
for r in rows:
    print("| " + " | ".join(str(x) for x in r) + " |")
if failures:
    sys.exit("hostile: " + "; ".join(failures))
print("hostile: every case refused cleanly, server up")
