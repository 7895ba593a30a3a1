#!/usr/bin/env python3
"""Fails when a target of the package, or of the packages beside it that use it (Benchmarks/,
Fuzz/), imports one of the package's own modules it does not depend on directly in its
Package.swift.

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


def dump(path):
    """The manifest of the package at `path`, as `swift package dump-package` gives it."""
    out = subprocess.run(["swift", "package", "--package-path", path, "dump-package"], capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.exit(f"module-imports.py: swift package dump-package in {path} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def check(path, package, modules, problems):
    """Adds to `problems` each import in the package at `path` of one of `modules` that its
    target does not depend on: by name, as a target, or as a product of the root package."""
    targets = {t["name"]: t for t in package["targets"]}
    for name, target in sorted(targets.items()):
        allowed = {name}
        for dep in target["dependencies"]:
            for kind in ("byName", "target", "product"):
                if kind in dep:
                    allowed.add(dep[kind][0])
        default = "Tests" if target["type"] == "test" else "Sources"
        root = os.path.join(path, target.get("path") or os.path.join(default, name))
        for folder, _, files in os.walk(root):
            for file in sorted(files):
                if not file.endswith(".swift"):
                    continue
                source = os.path.normpath(os.path.join(folder, file))
                with open(source, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if m and m.group(1) in modules and m.group(1) not in allowed:
                            problems.append(f"{source}:{number}: {name} imports {m.group(1)}, not among its dependencies in Package.swift")
    return len(targets)


def main():
    root = dump(".")
    modules = {t["name"] for t in root["targets"]}
    problems = []
    count = check(".", root, modules, problems)
    for other in ("Benchmarks", "Fuzz"):
        count += check(other, dump(other), modules, problems)
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"module-imports: {count} targets (this package, Benchmarks/, Fuzz/) import only the package's modules they depend on")


if __name__ == "__main__":
    main()
