#!/usr/bin/env python3
"""Checks every relative link and image of the repository's Markdown pages.

Usage: scripts/check-links.py [ROOT]

Each `[text](target)` and `![alt](target)` outside code blocks and code spans, in every `*.md`
the repository holds (`git ls-files`, untracked files too, ignored ones not), must name a file or directory that exists, and a
`#fragment` a heading of the page it points to (GitHub's anchors: lower case, punctuation
dropped, spaces as hyphens). Links to other sites are listed by count, not fetched: the
machines this runs on may have no network. Exits non-zero with `file:line: problem` for each
broken link.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def anchor(heading):
    text = re.sub(r"`|\*\*", "", heading.strip()).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(path):
    """Yields (line number, line) outside fenced code blocks, with code spans blanked."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield number, re.sub(r"`[^`]*`", "``", line)


def anchors(path, cache={}):
    """The anchors of a page's headings, numbered as GitHub numbers repeats."""
    if path not in cache:
        found, seen, fenced = set(), {}, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("```"):
                    fenced = not fenced
                elif not fenced and line.startswith("#"):
                    base = anchor(line.lstrip("#"))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else f"{base}-{n}")
        cache[path] = found
    return cache[path]


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split()
    problems, checked, external = [], 0, 0
    for name in files:
        path = os.path.join(root, name)
        for number, line in prose_lines(path):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    external += 1
                    continue
                checked += 1
                file_part, _, fragment = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
                if not os.path.exists(dest):
                    problems.append(f"{name}:{number}: {target}: no such file")
                elif fragment and dest.endswith(".md"):
                    if fragment not in anchors(dest):
                        problems.append(f"{name}:{number}: {target}: no heading '#{fragment}' there")
    for problem in problems:
        print(problem)
    print(f"links: {checked} relative links in {len(files)} pages checked, {len(problems)} broken; "
          f"{external} links to other sites not fetched")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
