#!/usr/bin/env python3
"""Issue 34's reproductions on the command line's newer surfaces, against the release binary:
exec: policies that hang, flood, answer out of step or leave children; output paths that are
devices or symlinks; merge of shards that do not belong together; import of inputs that are
not files or are cut short. Each must end within its bound with a clear message and the right
exit status, leave no process running and no file replaced.

    scripts/hostile-cli.py [--bin .build/release/fetchsched]

Prints a table (case, what, result, seconds, detail) and exits non-zero on any failure.
"""
import argparse, os, signal, stat, subprocess, sys, tempfile, time

ap = argparse.ArgumentParser()
ap.add_argument("--bin", default=os.environ.get("FETCHSCHED", ".build/release/fetchsched"))
args = ap.parse_args()
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sample = os.path.join(root, "data", "sample.csv")
work = tempfile.mkdtemp(prefix="hostile-cli-")
rows, failures = [], []


def check(case, what, ok, seconds, detail=""):
    rows.append((case, what, "ok" if ok else "FAIL", "" if seconds is None else f"{seconds:.2f}", detail.replace("|", "/")[:110]))
    if not ok:
        failures.append(f"{case} {what}: {detail[:200]}")


def run(argv, limit=60, env=None):
    """Runs fetchsched in a process group of its own; after `limit` seconds the group is killed."""
    t = time.perf_counter()
    p = subprocess.Popen([args.bin] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, env=env)
    try:
        out, err = p.communicate(timeout=limit)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        try:
            out, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:  # a child outside the group still holds the pipes
            p.kill(); p.wait()
            out, err = b"", b"(output held by an orphaned child)"
        code = None
    return code, out.decode(errors="replace"), err.decode(errors="replace"), time.perf_counter() - t


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def policy(name, body):
    """A shell policy that writes its pid first; returns (exec: name, pid file)."""
    path, pid = os.path.join(work, f"{name}.sh"), os.path.join(work, f"{name}.pid")
    open(path, "w").write(f"echo $$ > {pid}\n{body}\n")
    return f"exec:sh {path}", pid


# exec: policies with --exec-timeout 2: each run ends within seconds, says why, leaves nothing.
wait_decide = "while read l; do case $l in *decide*) break;; esac; done; "
for name, body, says in [
    ("sleeps", "sleep 300", "no answer within 2 s"),
    ("garbage", "yes garbage", "one line per decision point"),
    ("line-100MB", wait_decide + "head -c 100000000 /dev/zero | tr '\\0' x", "an answer longer than 1048576 bytes"),
    ("random-bytes", "cat /dev/urandom", "policy 'exec:"),
    ("ignores-TERM", "trap '' TERM HUP INT; sleep 300", "no answer within 2 s"),
    ("trickles", wait_decide + "while true; do printf x; sleep 0.5; done", "no answer within 2 s"),
    ("two-lines", "while read l; do case $l in *decide*) echo '{}'; echo '{}';; esac; done", "one line per decision point"),
]:
    name_, pid = policy(name, body)
    code, _, err, s = run(["replay", sample, "--policy", name_, "--exec-timeout", "2", "--threads", "1", "--quiet"])
    left = open(pid).read().strip() if os.path.exists(pid) else ""
    check(2, f"exec: {name}", code == 1 and says in err and s < 30 and not (left and alive(int(left))), s,
          f"exit {code}: {err.strip()[:80]}")

hourly = os.path.join(root, "examples", "policies", "hourly.py")
child = os.path.join(work, "child.pid")
name_, _ = policy("background-child", f"sleep 300 & echo $! > {child}\nexec python3 {hourly}")
code, _, err, s = run(["replay", sample, "--policy", name_, "--exec-timeout", "2", "--quiet"])
check(3, "exec: a background child (sleep 300 &)", code == 0 and not alive(int(open(child).read())) and s < 30, s, f"exit {code} {err.strip()[:60]}")

t1 = os.path.join(work, "t1.py")
open(t1, "w").write("import json, sys\nfor l in sys.stdin:\n    m = json.loads(l)\n    if m['type'] == 'decide':\n"
                    "        print(json.dumps({'wakeAt': m['t'] + 1}), flush=True)\n")
code, _, err, s = run(["replay", sample, "--policy", f"exec:python3 {t1}", "--quiet"], limit=300)
check(4, "exec: wakeAt t+1 at every decision", code == 0, s, f"exit {code} {err.strip()[:60]}")

ready = os.path.join(work, "ready")
os.mkfifo(ready)
name_, pid = policy("killed-run", f"echo up > {ready}\nsleep 300")
p = subprocess.Popen([args.bin, "replay", sample, "--policy", name_, "--exec-timeout", "600", "--quiet"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
fd = os.open(ready, os.O_RDONLY | os.O_NONBLOCK)
import select
select.select([fd], [], [], 30)
t = time.perf_counter()
p.send_signal(signal.SIGTERM)
try:
    code = p.wait(30)
except subprocess.TimeoutExpired:
    p.kill(); code = None
os.close(fd)
check(2, "kill -TERM of the run stops its policy", code == 128 + signal.SIGTERM and not alive(int(open(pid).read())),
      time.perf_counter() - t, f"exit {code}")

# Output paths: a device is written in place, a symlink refused and what it points at kept. As
# root the device is a node of our own, like /dev/null (a build that replaces it then replaces
# ours, not the system's); otherwise /dev/null itself.
device = "/dev/null"
if os.geteuid() == 0:
    device = os.path.join(work, "null")
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
target, link = os.path.join(work, "target"), os.path.join(work, "link")
open(target, "w").write("keep\n")
os.symlink(target, link)
for option, argv in [("--trace", ["replay", sample, "--policy", "fixed:60m", "--quiet", "--trace"]),
                     ("--out", ["generate", "--users", "2", "--days", "1", "--out"])]:
    code, _, err, s = run(argv + [device])
    check(5, f"{option} <a character device>", code == 0 and stat.S_ISCHR(os.lstat(device).st_mode), s, f"exit {code}")
    code, _, err, s = run(argv + [link])
    check(5, f"{option} <symlink>", code == 1 and "symbolic link" in err and open(target).read() == "keep\n" and os.path.islink(link), s,
          err.strip()[:80])

# merge: shards of another input at the same path, totals that disagree, a date that is none.
log = os.path.join(work, "log.csv")
gen = subprocess.run([args.bin, "generate", "--users", "12", "--days", "3", "--seed", "5"], capture_output=True, text=True, check=True).stdout
open(log, "w").write(gen)
def shard(i, n, into):
    code, out, err, _ = run(["replay", log, "--policy", "fixed:15m", "--shard", f"{i}/{n}", "--quiet"])
    open(into, "w").write(out)
    return code
a0, a1, b1 = (os.path.join(work, f) for f in ("a0.json", "a1.json", "b1.json"))
shard(0, 2, a0); shard(1, 2, a1)
lines = gen.splitlines()
opens = [l for l in lines if ",open," in l]
other = next(l for l in opens if l.split(",")[2] != opens[0].split(",")[2])
open(log, "w").write(gen.replace(opens[0], opens[0].replace("," + opens[0].split(",")[2] + ",", "," + other.split(",")[2] + ",")))
shard(1, 2, b1)
code, _, err, s = run(["merge", a0, b1])
check(7, "merge: shards of different inputs at one path", code == 1 and "inputDigest differs" in err, s, err.strip()[:80])
code, _, err, s = run(["merge", a0, a1])
check(7, "merge: the shards of one run", code == 0, s, f"exit {code}")
for what, old, new, says in [("a total that disagrees with perUser", '"opens":', '"opens":999999,"x":', "is not the sum of"),
                             ("the date 2025-13-45", '"date":"', '"date":"2025-13-45","x":"', "is not a date")]:
    bad = os.path.join(work, "bad.json")
    open(bad, "w").write(open(a0).read().replace(old, new, 1))
    code, _, err, s = run(["merge", bad, a1])
    check(7, f"merge: {what}", code == 1 and says in err, s, err.strip()[:80])

# --by-user (issue 37): a TMPDIR it cannot use, a TMPDIR that is a symlink to another place; the
# temporary files are unlinked at once, so nothing is left, and the same bytes as time order.
whole = run(["bench", log, "--policies", "fixed:15m,adaptive", "--format", "json", "--quiet"])
for what, tmp in [("a file", log), ("a missing directory", os.path.join(work, "missing"))]:
    code, _, err, s = run(["bench", log, "--policies", "fixed:15m,adaptive", "--by-user", "--quiet"],
                          env=dict(os.environ, TMPDIR=tmp))
    check(37, f"--by-user with TMPDIR {what}", code == 1 and "--by-user: cannot create a temporary file" in err, s, err.strip()[:80])
spill = os.path.join(work, "spill")
os.mkdir(spill)
os.symlink(spill, os.path.join(work, "spill-link"))
code, out, err, s = run(["bench", log, "--policies", "fixed:15m,adaptive", "--by-user", "--format", "json", "--quiet"],
                        env=dict(os.environ, TMPDIR=os.path.join(work, "spill-link")))
check(37, "--by-user through a symlinked TMPDIR: same bytes, nothing left", code == 0 and out == whole[1] and os.listdir(spill) == [], s,
      f"exit {code}")

# import: not a file, a line that is not one, a file cut short, numbers a lenient parser takes.
fifo = os.path.join(work, "fifo")
os.mkfifo(fifo)
out = os.path.join(work, "imported.csv")
for argv in (["import", "--from", "aware", "--utc-offset", "+01:00", "--out", out, fifo], ["check", fifo]):
    code, _, err, s = run(argv, limit=30)
    check(11, f"{argv[0]} <FIFO>", code == 1 and "not a regular file" in err, s, err.strip()[:80])
sparse = os.path.join(work, "sparse.csv")
with open(sparse, "wb") as f:
    f.truncate(1 << 31)
for argv in (["import", "--from", "aware", "--utc-offset", "+01:00", "--out", out, sparse], ["check", sparse]):
    code, _, err, s = run(argv, limit=60)
    check(11, f"{argv[0]} <2 GiB sparse file, no newline>", code == 1 and "longer than 1048576" in err and s < 5, s, err.strip()[:80])
os.unlink(sparse)
head = "timestamp,package,event_type\n1710140282000,com.google.android.gm,1\n"
cut = os.path.join(work, "cut.csv")
open(cut, "w").write(head + "1710140283000,com.g")
code, _, err, s = run(["import", "--from", "usagestats", cut, "--out", out, "--user", "ann", "--utc-offset", "+01:00"])
check(11, "import: a cut-off last line", code == 1 and "ends inside this line" in err, s, err.strip()[:80])
badlines = os.path.join(work, "badlines.csv")
open(badlines, "wb").write(head.encode() + b"x" * ((1 << 20) + 10) + b"\n\xff\xfe,x,1\n1710140283000,com.google.android.gm,2\n")
code, _, err, s = run(["import", "--from", "usagestats", badlines, "--out", out, "--user", "ann", "--utc-offset", "+01:00", "--skip-invalid"])
check(11, "import --skip-invalid: a 1 MiB line and a non-UTF-8 line", code == 0 and "line too long 1" in err and "not UTF-8 1" in err, s,
      err.strip().replace("\n", "; ")[:100])
for value in ("0x10", "+1710140282000", " 1710140282000", "1.71e12"):
    f = os.path.join(work, "n.csv")
    open(f, "w").write(f"_id,timestamp,device_id,screen_status\n1,{value},dev,1\n")
    code, _, err, s = run(["import", "--from", "aware", f, "--out", out, "--utc-offset", "+01:00"])
    check(11, f"import: timestamp {value!r}", code == 1 and "is not Unix milliseconds" in err, s, err.strip()[:80])
# A fraction of zeros is a whole number (pandas writes 3.0, issue 36); any other fraction is not.
for value in ("1.5", "-0", "-0.0", "+1", "1."):
    f = os.path.join(work, "n.csv")
    open(f, "w").write(f"_id,timestamp,device_id,screen_status\n1,1710140282000,dev,{value}\n")
    code, _, err, s = run(["import", "--from", "aware", f, "--out", out, "--utc-offset", "+01:00"])
    check(11, f"import: screen_status {value!r}", code == 1 and "is not a whole number" in err, s, err.strip()[:80])

# next for a user the store does not have (SIGILL before).
db = os.path.join(work, "s.sqlite")
run(["ingest", sample, "--db", db])
code, _, err, s = run(["next", "--db", db, "--user", "nobody", "--app", "y"])
check(1, "next --user nobody", code == 1 and "no events of user 'nobody'" in err, s, err.strip()[:80])

# Issue 64: outputs that fail loudly, inputs that are only read, one name for one person.
def shell(command, limit=60):
    """Runs a shell command line (for redirections) in a process group of its own."""
    t = time.perf_counter()
    p = subprocess.Popen(["/bin/sh", "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL); p.communicate()
        out, err, code = b"", b"", None
    return code, out.decode(errors="replace"), err.decode(errors="replace"), time.perf_counter() - t


for argv in (["bench", sample, "--policies", "none"], ["check", sample], ["predict", sample], ["generate", "--users", "3"],
             ["bench", sample, "--policies", "none", "--shard", "0/2"]):
    for redirect in ("> /dev/full", ">&-"):
        code, _, err, s = shell(" ".join([args.bin] + argv) + " " + redirect)
        check(64, f"{argv[0]} {redirect}", code == 1 and "cannot write standard output" in err, s, err.strip()[:80])
log64 = os.path.join(work, "log64.csv")
open(log64, "w").write(open(sample).read())
os.link(log64, os.path.join(work, "hard64.csv"))
before = open(log64).read()
for argv in (["replay", log64, "--policy", "none", "--trace", log64], ["bench", log64, "--report", os.path.join(work, "hard64.csv")],
             ["predict", log64, "--report", log64], ["import", "--from", "usagestats", "--user", "a", "--utc-offset", "+00:00", log64, "--out", log64]):
    code, _, err, s = run(argv)
    check(64, f"{argv[0]}: output over its input", code == 1 and "refusing to write over" in err and open(log64).read() == before, s,
          err.strip()[:80])
for argv in (["replay", "--policy", "none"], ["bench"], ["next", "--user", "u", "--app", "a"]):
    typo = os.path.join(work, "typo64.sqlite")
    code, _, err, s = run(argv + ["--db", typo])
    check(64, f"{argv[0]} --db <missing store>", code == 1 and "does not exist" in err and not os.path.exists(typo), s, err.strip()[:80])
for name, message in (("appm:17", "is not a value of appm:<k>"), ("adaptive:0x1p-3", "is not a value of adaptive:<x>")):
    code, _, err, s = run(["bench", sample, "--policies", name])
    check(64, f"bench --policies {name}", code == 1 and message in err, s, err.strip()[:80])
decomposed = os.path.join(work, "nfd.csv")
open(decomposed, "w").write("timestamp,user,app,event,value\n2025-01-06T08:00:00+01:00,jose\u0301,com.a,open,\n")
code, _, err, s = run(["check", decomposed])
check(64, "check: a decomposed (NFD) user name", code == 1 and "NFC" in err, s, err.strip()[:80])
grandchild = os.path.join(work, "grandchild.pid")
name, _ = policy("setsid", f"setsid sh -c 'echo $$ > {grandchild}; exec sleep 300' &\nexec python3 {os.path.join(root, 'examples/policies/hourly.py')}")
code, _, err, s = run(["replay", sample, "--policy", name, "--quiet"])
check(64, "exec: a grandchild that calls setsid", code == 0 and not alive(int(open(grandchild).read())), s, f"exit {code} {err.strip()[:60]}")

# Issue 81: a database's companions are inputs; `-` and /dev/stdout are standard output; a zero
# time is no unit; a descriptor that is not open is a clean error.
evidence = os.path.join(work, "e81.db")
open(evidence, "wb").write(open(os.path.join(root, "data", "import", "wellbeing", "app_usage"), "rb").read())
for companion in ("-wal", "-journal", "-shm"):
    before81 = sorted(os.listdir(work))
    code, _, err, s = run(["import", "--from", "wellbeing", "--user", "s", "--time-zone", "UTC", evidence, "--out", evidence + companion])
    check(81, f"import --out <db>{companion}", code == 1 and "refusing to write over" in err and sorted(os.listdir(work)) == before81, s,
          err.strip()[:80])
piped = os.path.join(work, "piped81.csv")
for name in ("-", "/dev/stdout", "/dev/fd/1"):
    code, _, err, s = shell(f"cd {work} && {os.path.abspath(args.bin)} generate --users 2 --days 1 --out {name} > {piped}")
    head = open(piped).readline() if os.path.exists(piped) else ""
    check(81, f"generate --out {name} > file", code == 0 and head.startswith("timestamp,") and not os.path.exists(os.path.join(work, "-")),
          s, err.strip()[:80])
code, _, err, s = run(["generate", "--users", "2", "--out", "/dev/fd/57"])
check(81, "generate --out /dev/fd/57 (not open)", code == 1 and "is not open" in err, s, err.strip()[:80])
zones = os.path.join(work, "tz81.csv"); screen81 = os.path.join(work, "screen81.csv")
open(zones, "w").write("device_id,tzcode,timestamp\nd,Europe/Helsinki,0\nd,Europe/Berlin,1710200000000\n")
open(screen81, "w").write("_id,timestamp,device_id,screen_status\n1,1710147600000,d,1\n")
code, _, err, s = run(["import", "--from", "aware", screen81, zones, "--out", os.path.join(work, "aware81.csv")])
check(81, "import aware: a time zone table starting at 0", code == 0, s, err.strip()[:80])

# Issue 81, finding 4: a stop signal while a phone database is being copied (a 400 MB file)
# leaves nothing in TMPDIR. The signal goes once the run's private directory is there.
tmp81 = os.path.join(work, "tmp81"); os.mkdir(tmp81)
big81 = os.path.join(work, "big81.db")
open(big81, "wb").write(open(os.path.join(root, "data", "import", "wellbeing", "app_usage"), "rb").read())
os.truncate(big81, 400 << 20)
t = time.perf_counter()
p81 = subprocess.Popen([args.bin, "import", "--from", "wellbeing", "--user", "s", "--time-zone", "UTC", big81, "--out",
                        os.path.join(work, "big81.csv")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                       env=dict(os.environ, TMPDIR=tmp81))
seen = False
while p81.poll() is None and time.perf_counter() - t < 30 and not seen:
    seen = bool(os.listdir(tmp81))
if seen:
    p81.send_signal(signal.SIGTERM)
try:
    code81 = p81.wait(timeout=30)
except subprocess.TimeoutExpired:
    os.killpg(p81.pid, signal.SIGKILL); p81.wait(); code81 = None
left81 = os.listdir(tmp81)
check(81, "import: SIGTERM during the copy", seen and code81 == 128 + signal.SIGTERM and not left81, time.perf_counter() - t,
      f"seen {seen}, exit {code81}, left {left81}")

# Issue 81, finding 6: one user with many apps. A decision weighs at most the 256 most recently
# opened, so a replay and a plan grow with the opens (they grew with opens times apps).
for n in (5_000, 100_000):
    many = os.path.join(work, f"apps81-{n}.csv")
    with open(many, "w") as f:
        f.write("timestamp,user,app,event,value\n")
        f.writelines(f"{1736150400 + 20 * i},u,com.app{i},open,\n" for i in range(n))
    families = "adaptive,ev-learned,ev-habits,android-prefetch,counts" if n == 5_000 else "adaptive,ev-habits,android-prefetch,counts"
    code, out, err, s = run(["bench", many, "--policies", families, "--quiet"], limit=60)
    check(81, f"bench: one user, {n} apps, {families}", code == 0 and "ev-habits" in out, s, err.strip()[:80])
store81 = os.path.join(work, "apps81.sqlite")
code, _, err, s = run(["ingest", os.path.join(work, "apps81-5000.csv"), "--db", store81], limit=60)
check(81, "ingest: one user, 5000 apps", code == 0, s, err.strip()[:80])
code, out, err, s = run(["next", "--db", store81, "--user", "u", "--app", "com.app4999", "--policy", "ev-learned"], limit=60)
check(81, "next --policy ev-learned: one user, 5000 apps", code == 0 and "com.app4999" in out, s, err.strip()[:80])

# Issue 81, findings 12 and 13: a MySQL dump's hex literals and executable comments are read; an
# INSERT … SELECT into an AWARE table and an unclosed comment are refused, naming the line.
dump81 = os.path.join(work, "dump81.sql")
head81 = ("-- MySQL dump\nINSERT INTO `timezone` (`_id`, `timestamp`, `device_id`, `timezone_id`) VALUES (1,1710104400000,'d','UTC');\n"
          "CREATE TABLE `screen` (`_id` int, `timestamp` double, `device_id` varbinary(9), `screen_status` int);\n")
for body, expect_code, expect in [("/*!40000 INSERT INTO `screen` VALUES (1,1710136800000,0x64,1)*/;\n", 0, "screen_on"),
                                  ("INSERT INTO `screen` SELECT * FROM `old`;\n", 1, ":4: INSERT … SELECT into screen"),
                                  ("/* cut\nINSERT INTO `screen` VALUES (1,1710136800000,'d',1);\n", 1, "opened with /* on line 4")]:
    open(dump81, "w").write(head81 + body)
    code, out, err, s = run(["import", "--from", "aware", dump81, "--out", "-"])
    check(81, f"import aware dump: {body.splitlines()[0][:40]}", code == expect_code and expect in (out + err), s, err.strip()[:80])

print("| case | what | result | s | detail |\n|---|---|---|---:|---|")
for r in rows:
    print("| " + " | ".join(str(x) for x in r) + " |")
if failures:
    sys.exit("hostile-cli: " + "; ".join(failures))
print(f"hostile-cli: all {len(rows)} cases ended cleanly")
