#!/usr/bin/env python3
"""Times two commands in turn (A B A B ...) and prints each one's CPU seconds and the ratio A/B.

    Benchmarks/in-turn.py [--runs N] [--warmup N] --vs 'COMMAND B' -- COMMAND A ...

CPU seconds are user + system of the finished child, from the operating system's accounting
(getrusage of the reaped child), so a comparison holds while the machine's speed drifts: the
ratio is taken pair by pair and its median quoted. Output of the commands is thrown away; a
command that fails stops the run. Standard library only.
"""
import argparse
import os
import shlex
import statistics
import sys


def run(argv):
    """Runs argv to its end, its output thrown away, and returns its user + system CPU seconds."""
    try:
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
    except OSError as e:
        sys.exit(f"in-turn.py: cannot start {argv[0]}: {e.strerror}")
    _, status, usage = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"in-turn.py: {shlex.join(argv)} exited with {code}")
    return usage.ru_utime + usage.ru_stime


def summary(values):
    return f"{min(values):.3f} {statistics.median(values):.3f} {max(values):.3f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each (1 to 100)")
    parser.add_argument("--warmup", type=int, default=1, help="runs of each not counted, first (0 to 10)")
    parser.add_argument("--vs", required=True, help="command B, split as a shell splits words")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- command A and its arguments")
    args = parser.parse_args()
    a = args.command[1:] if args.command[:1] == ["--"] else args.command
    b = shlex.split(args.vs)
    if not a or not b:
        parser.error("both commands are needed")
    if not 1 <= args.runs <= 100 or not 0 <= args.warmup <= 10:
        parser.error("--runs is 1 to 100, --warmup 0 to 10")
    for _ in range(args.warmup):
        run(a)
        run(b)
    times_a, times_b = [], []
    for _ in range(args.runs):
        times_a.append(run(a))
        times_b.append(run(b))
    ratios = [x / y for x, y in zip(times_a, times_b) if y > 0]
    print(f"runs: {args.runs} of each, in turn; CPU seconds min median max")
    print(f"A  {summary(times_a)}  {shlex.join(a)}")
    print(f"B  {summary(times_b)}  {shlex.join(b)}")
    if ratios:
        print(f"A/B  {min(ratios):.3f} {statistics.median(ratios):.3f} {max(ratios):.3f}")


if __name__ == "__main__":
    main()
