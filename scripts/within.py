#!/usr/bin/env python3
"""Runs a command with a bound on its time, passing its output through as it comes.

    python3 scripts/within.py MINUTES -- COMMAND [ARGS...]

The command runs in a process group of its own. Past the bound, the run fails (exit 124) and
says what was running: for a Swift Testing run, each test that started and never ended; for
every test process of the group (an `.xctest` binary), the stack of each of its threads (gdb, at
most a minute); then the whole group is killed. So a test that waits without end fails CI with
its name, instead of holding the run until CI's own limit ends it without a word. A SIGTERM,
SIGINT or SIGHUP to this script kills the command's group too.
"""
import os
import re
import signal
import subprocess
import sys
import threading

STARTED = re.compile(r"^◇ Test (\w+\([^)]*\)) started\.")
ENDED = re.compile(r"^[✔✘➜] Test (\w+\([^)]*\))")


def group_pids(pgid):
    """The processes of group `pgid`, with their command lines."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[2]) != pgid:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                found.append((int(entry), f.read().replace(b"\0", b" ").decode(errors="replace").strip()))
        except (OSError, IndexError, ValueError):
            continue
    return found


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--" or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", args[0]):
        sys.exit("usage: within.py MINUTES -- COMMAND [ARGS...]")
    minutes, command = float(args[0]), args[2:]
    running = {}
    lock = threading.Lock()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)

    def stopped(signum, _frame):
        # The command's session is its own: a signal that stops this script must reach it too.
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        sys.exit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stopped)

    def relay():
        for raw in child.stdout:
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            line = raw.decode(errors="replace")
            with lock:
                if m := STARTED.match(line):
                    running[m.group(1)] = True
                elif m := ENDED.match(line):
                    running.pop(m.group(1), None)

    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    try:
        status = child.wait(timeout=minutes * 60)
        reader.join(timeout=10)
        sys.exit(status)
    except subprocess.TimeoutExpired:
        pass
    print(f"\nwithin.py: {' '.join(command)} ran past {args[0]} minutes", flush=True)
    with lock:
        names = list(running)
    print(f"tests started and never ended ({len(names)}):" if names else "no test was left running", flush=True)
    for name in names:
        print(f"  {name}", flush=True)
    for pid, cmdline in group_pids(child.pid):
        if ".xctest" not in cmdline:
            continue
        print(f"threads of {pid} ({cmdline[:200]}):", flush=True)
        try:
            subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 25"],
                           stdin=subprocess.DEVNULL, timeout=60, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            print(f"  no stacks: {error}", flush=True)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait()
    sys.exit(124)


if __name__ == "__main__":
    main()
