#!/usr/bin/env python3
"""Runs every command of README.md's ```sh blocks as written, from the repository's root, as a
newcomer would, then fails if the checkout has a file it did not have before.

Usage: scripts/run-readme.py path/to/fetchsched [README.md]

`fetchsched` stands for the given binary. `$out` is a scratch directory, made as the README
says (`out=$(mktemp -d)`) and removed at the end: the examples write their files there, and one
that writes into the checkout instead fails the run (`git status` before and after, ignored files
included, where the repository is a git checkout). `swift` lines (the two commands, which CI runs
itself) and lines about the development workspace's `../shared` are left out. A `fetchsched
serve` line starts the server in a process group of its own, waits for
`/health`, and the `curl` lines after it run against it; the group is killed when the block
ends, whatever happens. Any command that fails, or runs past its bound, fails the run.
"""
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

COMMAND_BOUND = 300  # seconds; the slowest example takes a few
SERVER_BOUND = 20


def sh_blocks(text):
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


def wait_for_health(port, server):
    deadline = time.monotonic() + SERVER_BOUND
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"readme: the server exited with {server.returncode} before answering")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"readme: the server did not answer /health within {SERVER_BOUND} s")


def stop(server):
    if server and server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


def untracked(root):
    """The checkout's files git does not track (ignored ones too, an ignored folder as one), or None
    where it is not a git checkout."""
    try:
        done = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=all", "--ignored=matching"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return {line[3:] for line in done.stdout.splitlines() if line[:3] in ("?? ", "!! ")}


def run_block(block, binary, root, env):
    server = None
    try:
        for line in block.splitlines():
            line = line.split(" #", 1)[0].strip() if line.lstrip().startswith("fetchsched") else line.strip()
            if not line or line.startswith("#") or line.startswith("swift ") or "../shared" in line:
                continue
            if line.startswith("fetchsched serve"):
                port = re.search(r"--port (\d+)", line).group(1)
                expand = lambda a: re.sub(r"\$(\w+)", lambda m: env.get(m.group(1), m.group(0)), a)
                argv = [binary] + [expand(a) for a in shlex.split(line)[1:]]
                print(f"$ {line} &", flush=True)
                server = subprocess.Popen(argv, cwd=root, env=env, start_new_session=True,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                wait_for_health(port, server)
                continue
            if line.startswith("curl "):
                command = "curl --fail --silent --show-error --max-time 10 " + line[len("curl "):]
            elif line.startswith("fetchsched "):
                command = shlex.quote(binary) + line[len("fetchsched"):]
            else:
                raise SystemExit(f"readme: a command this runner does not know: {line}")
            print(f"$ {line}", flush=True)
            done = subprocess.run(["bash", "-c", command], cwd=root, env=env, timeout=COMMAND_BOUND,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            tail = "\n".join(done.stdout.splitlines()[-3:])
            if done.returncode != 0:
                raise SystemExit(f"readme: exit {done.returncode}: {line}\n{done.stdout[-2000:]}")
            if tail:
                print(tail)
    finally:
        stop(server)


def main():
    binary = os.path.abspath(sys.argv[1])
    readme = sys.argv[2] if len(sys.argv) > 2 else "README.md"
    root = os.path.dirname(os.path.abspath(readme))
    blocks = sh_blocks(open(readme, encoding="utf-8").read())
    before = untracked(root)
    with tempfile.TemporaryDirectory(prefix="fetchsched-readme.") as out:
        env = dict(os.environ, out=out)
        for block in blocks:
            run_block(block, binary, root, env)
    print(f"readme: {len(blocks)} blocks ran as written")
    after = untracked(root)
    if before is None or after is None:
        print("readme: not a git checkout, so files left in it are not looked for")
    elif after - before:
        raise SystemExit("readme: the examples left files in the checkout (write them under $out): "
                         + ", ".join(sorted(after - before)))
    else:
        print("readme: the checkout has no file it did not have before")

if __name__ == "__main__":
    main()
