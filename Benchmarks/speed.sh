#!/usr/bin/env bash
# The engine's speed next to a bare parse, on a generated log: medians of 3 runs of each.
# Usage: Benchmarks/speed.sh [users] [days] [runs]   (from the repository root)
# Prints one row per command: median seconds, and that time over `check`'s.
set -euo pipefail
users=${1:-1000}; days=${2:-28}; runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product fetchsched >/dev/null 2>&1
bin=$(swift build -c release --show-bin-path)/fetchsched
log="$work/log.csv"
"$bin" generate --users "$users" --days "$days" --seed 11 --out "$log"
python3 - "$bin" "$log" "$runs" <<'PY'
import os, statistics, subprocess, sys, time
bin, log, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = os.path.getsize(log)
commands = [
    ("check (parse only)", ["check", log]),
    ("replay fixed:15m, 1 thread", ["replay", log, "--policy", "fixed:15m", "--threads", "1"]),
    ("replay adaptive, 1 thread", ["replay", log, "--policy", "adaptive", "--threads", "1"]),
    ("bench 4 policies, 2 threads", ["bench", log, "--policies", "fixed:15m,ios,adaptive,oracle", "--threads", "2"]),
    ("bench --frontier (the compared families' sweeps), 2 threads", ["bench", log, "--policies", "none", "--frontier", "--threads", "2"]),
]
base = None
for name, args in commands:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([bin, *args, "--quiet"] if args[0] != "check" else [bin, *args], check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    t = statistics.median(times)
    base = base or t
    extra = f", {size / t / 1e6:.0f} MB/s" if base == t and name.startswith("check") else ""
    print(f"{name}: {t:.2f} s ({t / base:.1f}x check){extra}", flush=True)
PY
