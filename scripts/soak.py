#!/usr/bin/env python3
"""A soak of the service: mixed requests from several clients for a while, the server's memory
and open descriptors sampled each second. It fails on any 5xx or refused connection, on memory
that keeps growing after the first fifth of the run, and on descriptors that do not come back.

    scripts/soak.py [--bin .build/release/fetchsched] [--seconds 300] [--clients 6] [--pg URL]

The mix, per client, seeded: 40% ingest (10 new events of one of 50 users a batch, some sent
twice as a retry would; past --pool new batches, only retries, so that the data stops growing and
memory must then stay flat), 20% plans, 10% wakes, 5% each push advice, budget, interval,
fetch report, and /health, /ready or /metrics. Prints a table of the figures; --json writes them.
"""
import argparse, calendar, http.client, json, os, random, signal, subprocess, sys, tempfile, threading, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=os.environ.get("FETCHSCHED", ".build/release/fetchsched"))
ap.add_argument("--seconds", type=float, default=300)
ap.add_argument("--clients", type=int, default=6)
ap.add_argument("--port", type=int, default=18301)
ap.add_argument("--pg", help="a PostgreSQL cluster's URL: the store in a fresh database there")
ap.add_argument("--json", help="write the figures here")
ap.add_argument("--pool", type=int, default=3000,
                help="new batches per client; then it sends them again (retries, stored once), so the data stops growing")
args = ap.parse_args()
if not (1 <= args.seconds <= 3600 and 1 <= args.clients <= 64 and 1 <= args.pool <= 100_000):
    sys.exit("soak: --seconds 1…3600, --clients 1…64, --pool 1…100000")

work = tempfile.mkdtemp(prefix="soak-")
db = os.path.join(work, "soak.sqlite")
if args.pg:
    name = f"soak_{os.getpid()}"
    subprocess.run(["psql", args.pg, "-qc", f"CREATE DATABASE {name}"], check=True)
    db = args.pg.rsplit("/", 1)[0] + "/" + name
log = os.path.join(work, "log.csv")
subprocess.run([args.bin, "generate", "--users", "50", "--days", "7", "--seed", "9", "--out", log], check=True)
subprocess.run([args.bin, "ingest", log, "--db", db], check=True, stdout=subprocess.DEVNULL, timeout=300)
rows = open(log).read().splitlines()[1:]
users = sorted({r.split(",")[1] for r in rows})
apps = sorted({r.split(",")[2] for r in rows if r.split(",")[2]})
# New events start a day after the log's last, one second apart per client and batch.
last = max(int(calendar.timegm(time.strptime(r.split(",")[0][:19], "%Y-%m-%dT%H:%M:%S"))) for r in rows)

server = subprocess.Popen([args.bin, "serve", "--db", db, "--port", str(args.port)], stderr=open(os.path.join(work, "serve.log"), "w"),
                          start_new_session=True)


def stop_server():
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def sample():
    """The server's resident memory (KiB) and open descriptors, nil once it is gone."""
    try:
        rss = next(int(l.split()[1]) for l in open(f"/proc/{server.pid}/status") if l.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{server.pid}/fd"))
    except (OSError, StopIteration):
        return None


for _ in range(300):
    try:
        c = http.client.HTTPConnection("127.0.0.1", args.port, timeout=2)
        c.request("GET", "/health")
        if c.getresponse().status == 200:
            break
    except OSError:
        time.sleep(0.1)
else:
    stop_server()
    sys.exit("soak: the server did not answer /health within 30 s")

lock = threading.Lock()
counts, errors, latencies = {}, [], []
# When each client sent its last new batch: from the last of them on, the stored data no longer grows.
exhausted = [None] * args.clients
end = time.monotonic() + args.seconds


def client(k):
    rng = random.Random(k)
    conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
    sent, n = [], 0
    while time.monotonic() < end:
        user, app = rng.choice(users), rng.choice(apps)
        r = rng.random()
        body, method = None, "GET"
        if r < 0.4:
            if sent and (rng.random() < 0.1 or n >= args.pool):
                batch = rng.choice(sent)  # a retry: the same ids, stored once
            else:
                t = last + 86_400 + (n * args.clients + k) * 10
                n += 1
                batch = [{"id": f"s{k}-{n}-{i}", "user": user, "event": "open", "app": rng.choice(apps),
                          "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t + i))} for i in range(10)]
                sent.append(batch)
                if n == args.pool:
                    exhausted[k] = time.monotonic()
            route, method, path, body = "ingest", "POST", "/v1/events", {"events": batch}
        elif r < 0.6:
            route, path = "plan", f"/v1/users/{user}/apps/{app}/plan"
        elif r < 0.7:
            route, path = "wake", f"/v1/users/{user}/wake?kind=screen_on"
        elif r < 0.75:
            route, path = "push", f"/v1/users/{user}/apps/{app}/push"
        elif r < 0.8:
            route, path = "budget", f"/v1/users/{user}/budget"
        elif r < 0.85:
            route, method, path = "interval", "PUT", f"/v1/users/{user}/apps/{app}/interval"
            body = {"interval": rng.choice(["minimum", "custom:30m", "custom:2h"])}
        elif r < 0.9:
            start = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(last + 3_600 + rng.randrange(80_000)))
            route, method, path = "fetch report", "POST", f"/v1/users/{user}/fetches"
            body = {"app": app, "start": start, "durationMs": rng.randrange(200, 20_000), "bytes": rng.randrange(0, 200_000),
                    "network": rng.choice(["wifi", "cellular"]), "result": rng.choice(["newData", "noData", "failed"])}
        else:
            route = path = rng.choice(["/health", "/ready", "/metrics"])
        data = None if body is None else json.dumps(body).encode()
        t = time.perf_counter()
        try:
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            resp = conn.getresponse()
            resp.read()
            status = resp.status
        except (OSError, http.client.HTTPException) as e:
            status = f"{type(e).__name__}"
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        ms = (time.perf_counter() - t) * 1000
        with lock:
            counts[(route, status)] = counts.get((route, status), 0) + 1
            latencies.append(ms)
            if not isinstance(status, int) or status >= 500:
                if len(errors) < 10:
                    errors.append(f"{method} {path}: {status}")


samples = []
threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(args.clients)]
began = time.monotonic()
for t in threads:
    t.start()
while time.monotonic() < end:
    s = sample()
    if s is None:
        break
    samples.append((round(time.monotonic() - began, 1),) + s)
    time.sleep(1)
for t in threads:
    t.join(timeout=60)
time.sleep(1)  # connections closed: the descriptors they held come back
after = sample()
stop_server()


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else 0


requests = sum(counts.values())
warm = samples[max(1, len(samples) // 5):] or samples
tenth = max(1, len(warm) // 10)
rss_start, rss_end = median([s[1] for s in warm[:tenth]]), median([s[1] for s in warm[-tenth:]])
# Once the data stops growing, the memory must stop too: what grows then is a leak, not data.
plateau_at = max(exhausted) - began if all(exhausted) else None
steady = [s for s in samples if plateau_at is not None and s[0] >= plateau_at + 10]
steady_tenth = max(1, len(steady) // 10)
rss_steady = (median([s[1] for s in steady[:steady_tenth]]), median([s[1] for s in steady[-steady_tenth:]])) if len(steady) >= 30 else None
fds = [s[2] for s in samples]
figures = {
    "seconds": args.seconds, "clients": args.clients, "store": "postgresql" if args.pg else "sqlite", "requests": requests,
    "perSecond": round(requests / max(1e-9, args.seconds)),
    "serverErrors": sum(v for (_, st), v in counts.items() if not isinstance(st, int) or st >= 500),
    "byRoute": {f"{r} {st}": v for (r, st), v in sorted(counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))},
    "p50ms": round(median(latencies), 1), "p99ms": round(sorted(latencies)[int(len(latencies) * 0.99)] if latencies else 0, 1),
    "rssKiB": {"first": samples[0][1] if samples else 0, "afterWarmUp": rss_start, "end": rss_end, "peak": max((s[1] for s in samples), default=0)},
    "descriptors": {"first": fds[0] if fds else 0, "peak": max(fds, default=0), "after": after[1] if after else None},
    "steady": None if rss_steady is None else {"fromSecond": round(plateau_at + 10), "rssKiBStart": rss_steady[0], "rssKiBEnd": rss_steady[1]},
}
print(f"| soak ({figures['store']}, {args.clients} clients, {args.seconds:.0f} s) | |\n|---|---:|")
for key in ("requests", "perSecond", "serverErrors", "p50ms", "p99ms"):
    print(f"| {key} | {figures[key]} |")
for k, v in figures["rssKiB"].items():
    print(f"| memory {k} (MB) | {v / 1024:.1f} |")
if rss_steady:
    print(f"| memory once the data stopped growing, from {plateau_at + 10:.0f} s (MB) | {rss_steady[0] / 1024:.1f} |")
    print(f"| memory at the end of that (MB) | {rss_steady[1] / 1024:.1f} |")
for k, v in figures["descriptors"].items():
    print(f"| descriptors {k} | {v} |")
for k, v in figures["byRoute"].items():
    print(f"| {k} | {v} |")
if args.json:
    json.dump(figures, open(args.json, "w"), indent=2)
problems = []
if errors:
    problems.append(f"{figures['serverErrors']} server errors or refused connections: {errors[:3]}")
if not samples or after is None:
    problems.append("the server was gone before the end")
elif rss_end > rss_start * 1.5 + 20 * 1024:
    problems.append(f"memory kept growing: {rss_start / 1024:.0f} MB after the warm-up, {rss_end / 1024:.0f} MB at the end")
if rss_steady and rss_steady[1] > rss_steady[0] * 1.1 + 8 * 1024:
    problems.append(f"memory grew while the data did not: {rss_steady[0] / 1024:.0f} MB to {rss_steady[1] / 1024:.0f} MB")
if after and fds and after[1] > fds[0] + 16:
    problems.append(f"descriptors did not come back: {fds[0]} at the start, {after[1]} after the clients closed")
if requests < args.seconds:
    problems.append(f"only {requests} requests in {args.seconds:.0f} s")
if problems:
    sys.exit("soak: " + "; ".join(problems))
print(f"soak: {requests} requests, no server error; memory and descriptors flat")
