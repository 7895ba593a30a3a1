#!/usr/bin/env python3
"""Fails when a target of the package imports one of the package's own modules it does not
depend on directly in Package.swift.

SwiftPM lets a target import any module built before it (a dependency's dependency too), so a
module could lean on another without the manifest, or docs/architecture.md, saying so. The
manifest's direct dependencies are the module graph; this holds the sources to it.

    python3 scripts/module-imports.py        # from the repository root; exit 1 names each import
"""
import json
import os
import re
import subprocess
import sys

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?(\w+)")


def main():
    dump = subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, timeout=300)
    if dump.returncode != 0:
        sys.exit(f"module-imports.py: swift package dump-package failed: {dump.stderr.strip()}")
    package = json.loads(dump.stdout)
    targets = {t["name"]: t for t in package["targets"]}
    problems = []
    for name, target in sorted(targets.items()):
        allowed = {name}
        for dep in target["dependencies"]:
            if "byName" in dep:
                allowed.add(dep["byName"][0])
            elif "target" in dep:
                allowed.add(dep["target"][0])
        default = "Tests" if target["type"] == "test" else "Sources"
        path = target.get("path") or os.path.join(default, name)
        for root, _, files in os.walk(path):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                source = os.path.join(root, file)
                with open(source, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if m and m.group(1) in targets and m.group(1) not in allowed:
                            problems.append(f"{source}:{number}: {name} imports {m.group(1)}, not among its dependencies in Package.swift")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"module-imports: {len(targets)} targets import only the package's modules they depend on")


if __name__ == "__main__":
    main()
