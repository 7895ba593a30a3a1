#!/usr/bin/env python3
"""Issue 64's PostgreSQL hangs, on the release server against a real cluster (run as root, or as
the cluster's owner: it stops PostgreSQL processes with SIGSTOP and resumes them):

16. Instance B's listening backend stopped; a write through instance A; plans asked of B every
    100 ms through the moment B notices its listener is gone: each is answered within 10 s.
17. Every PostgreSQL process stopped for 20 s with a write in flight: the write gets a 503 within
    the store's wait, and is not stored once the database answers again.

    scripts/pg-freeze.py --bin .build/release/fetchsched --pg postgres://user@127.0.0.1:55432/db

Prints one line per case and exits non-zero on any failure.
"""
import argparse, json, os, signal, subprocess, sys, threading, time, urllib.error, urllib.request

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=".build/release/fetchsched")
ap.add_argument("--pg", required=True)
ap.add_argument("--port", type=int, default=18211)
args = ap.parse_args()
failures, procs = [], []
dbname = f"freeze_{os.getpid()}"
subprocess.run(["psql", args.pg, "-qc", f"CREATE DATABASE {dbname}"], check=True)
dburl = args.pg.rsplit("/", 1)[0] + "/" + dbname
pg_port = dburl.rsplit(":", 1)[1].split("/")[0]


def serve(port):
    p = subprocess.Popen([args.bin, "serve", "--db", dburl, "--port", str(port)], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    procs.append(p)
    for _ in range(200):
        if call(port, "GET", "/ready", timeout=1)[0] == 200:
            return p
        time.sleep(0.05)
    sys.exit(f"pg-freeze: no server on port {port}")


def call(port, method, path, body=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=data, headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, time.perf_counter() - t
    except urllib.error.HTTPError as e:
        return e.code, time.perf_counter() - t
    except Exception:
        return None, time.perf_counter() - t


def event(i, hour):
    return {"id": f"e{i}", "user": "ann", "timestamp": f"2025-01-06T{hour:02d}:00:00Z", "event": "open", "app": "com.example.news"}


def psql(sql):
    return subprocess.run(["psql", dburl, "-tAc", sql], capture_output=True, text=True, check=True).stdout.split()


def check(case, what, ok, detail):
    print(f"{case} {what}: {'ok' if ok else 'FAIL'} ({detail})")
    if not ok:
        failures.append(f"{case} {what}: {detail}")


try:
    a, b = args.port, args.port + 1
    pa, pb = serve(a), serve(b)
    check("-", "first write through A", call(a, "POST", "/v1/events", {"events": [event(i, 8 + i) for i in range(3)]})[0] == 200, "")
    check("-", "B plans", call(b, "GET", "/v1/users/ann/apps/com.example.news/plan")[0] == 200, "")
    # Case 16: B's listening backend is the LISTEN session whose client port is one of B's sockets.
    time.sleep(0.5)
    ss = subprocess.run(["ss", "-tnpH"], capture_output=True, text=True).stdout.splitlines()
    b_ports = {l.split()[3].rsplit(":", 1)[1] for l in ss if f"pid={pb.pid}," in l and l.split()[4].endswith(":" + pg_port)}
    listeners = [r.split("|") for r in psql("SELECT pid, client_port FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")]
    mine = [pid for pid, port in listeners if port in b_ports]
    check(16, "B's listening backend found", len(mine) == 1, f"{listeners} {b_ports}")
    if len(mine) == 1:
        os.kill(int(mine[0]), signal.SIGSTOP)
        try:
            t0 = time.perf_counter()
            check(16, "a write through A", call(a, "POST", "/v1/events", {"events": [event(10, 12)]})[0] == 200, "")
            answers = []

            def ask(at):
                while time.perf_counter() - t0 < at:
                    time.sleep(0.005)
                answers.append((at,) + call(b, "GET", "/v1/users/ann/apps/com.example.news/plan", timeout=20))

            threads = [threading.Thread(target=ask, args=(4.5 + i * 0.1,)) for i in range(80)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            os.kill(int(mine[0]), signal.SIGCONT)
        late = [f"{at:.1f} s: {code} in {took:.1f} s" for at, code, took in answers if code is None or took > 10]
        codes = sorted({str(c) for _, c, _ in answers})
        check(16, f"{len(answers)} plans of B from 4.5 to 12.5 s after the write, each answered within 10 s", not late,
              "; ".join(late) or "answers " + ",".join(codes))
    # Case 17: every process of the cluster stopped, a write in flight.
    postmaster = int(open(psql("SHOW data_directory")[0] + "/postmaster.pid").read().split()[0]) if os.geteuid() == 0 else None
    pids = [int(p) for p in subprocess.run(["pgrep", "-f", "postgres"], capture_output=True, text=True).stdout.split()]
    def parent(pid):
        try:
            return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except OSError:
            return None
    cluster = [p for p in pids if p == postmaster or parent(p) == postmaster]
    before = int(psql("SELECT count(*) FROM events")[0])
    for p in cluster:
        os.kill(p, signal.SIGSTOP)
    try:
        code, took = call(a, "POST", "/v1/events", {"events": [event(20, 14), event(21, 15)]}, timeout=30)
        time.sleep(max(0.0, 20 - took))
    finally:
        for p in cluster:
            os.kill(p, signal.SIGCONT)
    check(17, "a write while every PostgreSQL process is stopped: 503 within 5 s", code == 503 and took < 5, f"{code} in {took:.2f} s")
    time.sleep(2)
    after = int(psql("SELECT count(*) FROM events")[0])
    check(17, "and nothing of it stored once the database answers again", after == before, f"{before} events before, {after} after")
    check(17, "A answers again", call(a, "POST", "/v1/events", {"events": [event(30, 16)]})[0] == 200, "")
finally:
    for p in procs:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    subprocess.run(["psql", args.pg, "-qc", f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)"], capture_output=True)
if failures:
    sys.exit("pg-freeze: " + "; ".join(failures))
print("pg-freeze: every case ended cleanly")
