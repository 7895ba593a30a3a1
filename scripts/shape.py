#!/usr/bin/env python3
"""The code's shape: files over 300 lines, functions over 60, and the engine's structure.

Usage: scripts/shape.py [--check] [--folder Sources/FetchCore/Engine]
Counts a function from its `func`/`init`/accessor line to its closing brace; braces inside
string literals and comments are ignored. With --check it exits 1 on any file or function
over the limits (the limits of issue 13).
"""
import argparse, os, re, sys

MAX_FILE, MAX_FUNC = 300, 60
DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|final|'
                  r'override|mutating|nonmutating|convenience|required|nonisolated|@inlinable|@usableFromInline|'
                  r'@inline\(__always\)|@discardableResult)\s+)*(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*\(|deinit\b)')
TYPE = re.compile(r'^\s*(?:@\w+\s+)*(?:(?:public|private|fileprivate|internal|package|final|indirect)\s+)*'
                  r'(struct|class|enum|protocol|actor)\s+(\w+)')

def strip(line, state):
    """Removes comments and string contents from a line; state carries a /* */ or \"\"\" across lines."""
    out, i = [], 0
    while i < len(line):
        if state['block']:
            j = line.find('*/', i)
            if j < 0: return ''.join(out)
            state['block'], i = False, j + 2
        elif state['multi']:
            j = line.find('"""', i)
            if j < 0: return ''.join(out)
            state['multi'], i = False, j + 3
        elif line.startswith('//', i): break
        elif line.startswith('/*', i): state['block'], i = True, i + 2
        elif line.startswith('"""', i): state['multi'], i = True, i + 3
        elif line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == '\\' else 1
            i += 1
        else:
            out.append(line[i]); i += 1
    return ''.join(out)

def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    state, depth, stack, found = {'block': False, 'multi': False}, 0, [], []
    pending = None
    for n, raw in enumerate(lines, 1):
        code = strip(raw, state)
        m = DECL.match(code)
        if m and pending is None: pending = (m.group(1).split('(')[0].strip(), n)
        for ch in code:
            if ch == '{':
                if pending is not None:
                    stack.append((depth, pending)); pending = None
                depth += 1
            elif ch == '}':
                depth -= 1
                if stack and stack[-1][0] == depth:
                    _, (name, start) = stack.pop()
                    found.append((n - start + 1, name, start))
        if pending is not None and pending[1] != n and code.strip() == '': pending = None
    return found, len(lines) - (1 if lines and lines[-1] == '' else 0)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--folder', action='append', default=[])
    ap.add_argument('roots', nargs='*', default=['Sources'])
    a = ap.parse_args()
    bad = 0
    for root in a.roots:
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith('.swift'): continue
                p = os.path.join(d, f)
                funcs, count = functions(p)
                if count > MAX_FILE: print(f'{p}: {count} lines (over {MAX_FILE})'); bad += 1
                for length, name, start in funcs:
                    if length > MAX_FUNC: print(f'{p}:{start}: {name} is {length} lines (over {MAX_FUNC})'); bad += 1
    for folder in a.folder:
        files, types, longest = 0, set(), (0, '', '')
        for d, _, fs in os.walk(folder):
            for f in fs:
                if not f.endswith('.swift'): continue
                p = os.path.join(d, f); files += 1
                st = {'block': False, 'multi': False}
                for raw in open(p, encoding='utf-8'):
                    m = TYPE.match(strip(raw, st))
                    if m: types.add(m.group(2))
                for length, name, start in functions(p)[0]:
                    if length > longest[0]: longest = (length, name, f'{p}:{start}')
        print(f'{folder}: {files} files, {len(types)} types, longest function {longest[1]} '
              f'({longest[0]} lines, {longest[2]})')
    if a.check and bad: sys.exit(1)

if __name__ == '__main__':
    main()
