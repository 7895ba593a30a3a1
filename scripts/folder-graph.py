#!/usr/bin/env python3
"""Fails when the folders of a module depend on each other in a circle.

Within a module Swift sees every file at once, so nothing stops `Parsing/` from leaning on
`Engine/` while `Engine/` leans on `Parsing/`. The folders are meant to read as the design, in
layers (docs/architecture.md), so this holds them to it: folder A depends on folder B when a
file of A names a type declared at the top level of a file in B (comments and one-line string
literals left out; a type's extensions do not move it). Any circle of such dependencies is
printed with the types that make each step of it, and the run exits 1.

    python3 scripts/folder-graph.py                  # every module under Sources/
    python3 scripts/folder-graph.py --print FetchCore   # and the graph, folder by folder
"""
import collections
import os
import re
import sys

DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated)\s+|@\w+(?:\([^)]*\))?\s+)*"
    r"(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)
NAME = re.compile(r"\b([A-Z]\w*)\b")
COMMENT = re.compile(r"//.*")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def graph(module_path):
    """Folder -> folder -> the type names that make the step, and the folders in the module."""
    files = collections.defaultdict(list)
    owner = {}
    for root, _, names in os.walk(module_path):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            relative = os.path.relpath(root, module_path)
            folder = "." if relative == "." else relative.split(os.sep)[0]
            with open(path, encoding="utf-8") as f:
                text = f.read()
            files[folder].append(text)
            for match in DECLARATION.finditer(text):
                owner.setdefault(match.group(1), folder)
    edges = collections.defaultdict(lambda: collections.defaultdict(set))
    for folder, texts in files.items():
        for text in texts:
            code = STRING.sub('""', COMMENT.sub("", text))
            for name in set(NAME.findall(code)):
                other = owner.get(name)
                if other is not None and other != folder:
                    edges[folder][other].add(name)
    return edges, sorted(files)


def circles(edges, folders):
    """The strongly connected groups of more than one folder (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in folders:
        if v not in index:
            visit(v)
    return found


def main(argv):
    shown = set(argv[argv.index("--print") + 1:]) if "--print" in argv else set()
    problems = 0
    modules = sorted(d for d in os.listdir("Sources") if os.path.isdir(os.path.join("Sources", d)))
    for module in modules:
        edges, folders = graph(os.path.join("Sources", module))
        if module in shown:
            for a in folders:
                steps = ", ".join(f"{b} ({len(t)})" for b, t in sorted(edges.get(a, {}).items()))
                print(f"{module}/{a} -> {steps or 'nothing'}")
        for group in circles(edges, folders):
            problems += 1
            print(f"folder-graph: the folders of {module} depend on each other in a circle: {', '.join(group)}")
            for a in group:
                for b in group:
                    if b in edges.get(a, {}):
                        print(f"  {a} -> {b}: {', '.join(sorted(edges[a][b]))}")
    if problems:
        return 1
    print(f"folder-graph: no circle among the folders of {len(modules)} modules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
