#!/usr/bin/env python3
"""Runs every command of README.md's ```sh blocks as written, in a scratch directory.

Usage: scripts/run-readme.py path/to/fetchsched [README.md]

`fetchsched` stands for the given binary. The scratch directory sees the repository's `data/`
and `examples/` through symlinks, so what a command writes stays there. `swift` lines (the two
commands, which CI runs itself) and lines about the development workspace's `../shared` are
left out. A `fetchsched serve` line starts the server in a process group of its own, waits for
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


def run_block(block, binary, work):
    server = None
    try:
        for line in block.splitlines():
            line = line.split(" #", 1)[0].strip() if line.lstrip().startswith("fetchsched") else line.strip()
            if not line or line.startswith("#") or line.startswith("swift ") or "../shared" in line:
                continue
            if line.startswith("fetchsched serve"):
                port = re.search(r"--port (\d+)", line).group(1)
                argv = [binary] + shlex.split(line)[1:]
                print(f"$ {line} &", flush=True)
                server = subprocess.Popen(argv, cwd=work, start_new_session=True,
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
            done = subprocess.run(["bash", "-c", command], cwd=work, timeout=COMMAND_BOUND,
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
    with tempfile.TemporaryDirectory(prefix="fetchsched-readme.") as work:
        for name in ("data", "examples"):
            os.symlink(os.path.join(root, name), os.path.join(work, name))
        for block in blocks:
            run_block(block, binary, work)
    print(f"readme: {len(blocks)} blocks ran as written")


if __name__ == "__main__":
    main()
