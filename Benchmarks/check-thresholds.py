#!/usr/bin/env python3
"""The Benchmarks package's threshold check, read so that a failure means a regression.

    Benchmarks/check-thresholds.py [--runs 3]

`benchmark thresholds check` fails when a p90 is worse than its threshold by more than its
tolerance (time 25%, allocations 2%), and also when it is better by as much. On a shared 2-core
machine one run can be 50% slower than the next, so this runs the check up to --runs times and
fails only when the same benchmark is worse in every run: a regression persists, noise does
not. Being better is reported, not failed: set new thresholds with `thresholds update`, from
the slowest of several runs (Benchmarks/HISTORY.md, "Speed").
"""
import argparse, os, re, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("--runs", type=int, default=3)
args = ap.parse_args()
os.chdir(os.path.dirname(os.path.abspath(__file__)))
worse_every_time = None
for run in range(1, args.runs + 1):
    r = subprocess.run(["swift", "package", "--disable-sandbox", "benchmark", "thresholds", "check", "--no-progress"],
                       capture_output=True, text=True)
    text = r.stdout + r.stderr
    if "Running Benchmarks" not in text:
        sys.exit(f"the benchmarks did not run:\n{text[-3000:]}")
    worse = set(re.findall(r"Deviations worse than threshold for (\S+)", text))
    better = set(re.findall(r"Deviations better than threshold for (\S+)", text))
    print(f"run {run}: worse {sorted(worse) or 'none'}; better {sorted(better) or 'none'}")
    worse_every_time = worse if worse_every_time is None else worse_every_time & worse
    if not worse_every_time:
        print("thresholds: no regression" + (" (better than thresholds: update them)" if better else ""))
        sys.exit(0)
sys.exit(f"thresholds: worse in every one of {args.runs} runs: {', '.join(sorted(worse_every_time))}")
