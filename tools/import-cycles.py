#!/usr/bin/env python3
"""Import circles between the source files of a crate: a file A that names an item of file B
(`use crate::b::X`, `super::b::X`, a path in the code) while B names one of A, directly or
through others. Prints each circle (a strongly connected set of files) and exits 1 if there is
one. A module's own mod.rs naming its children, and children naming their mod.rs, do not count:
that is a folder speaking to itself, not two files depending on each other. Unit tests
(`#[cfg(test)] mod tests`) are left out: they may reach any layer.

    tools/import-cycles.py src/lib.rs src/cli/main.rs
"""
import os, re, sys

def module_files(root):
    """Maps module paths (tuples) to files, from a crate root file."""
    base = os.path.dirname(root)
    files = {(): root}
    def walk(path, file, folder):
        text = open(file, encoding="utf-8").read()
        for name in re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M):
            for candidate in (os.path.join(folder, name + ".rs"), os.path.join(folder, name, "mod.rs")):
                if os.path.exists(candidate):
                    child = path + (name,)
                    files[child] = candidate
                    walk(child, candidate, os.path.join(folder, name))
                    break
    walk((), root, base)
    return files

def references(text):
    """Module paths named in `text` (crate::, super::, self:: paths), comments and the unit
    tests (`#[cfg(test)] mod tests`, a file's last item by the project's custom) removed."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.split(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text)[0]
    for match in re.finditer(r"\b(crate|super|self)((?:::\w+)+)", text):
        yield match.group(1), [part for part in match.group(2).split("::") if part]
    # `use crate::x::{a, b::c}` groups: each branch is a reference of its own.
    for match in re.finditer(r"\b(crate|super|self)((?:::\w+)*)::\{([^}]*)\}", text):
        head = [part for part in match.group(2).split("::") if part]
        for branch in match.group(3).split(","):
            yield match.group(1), head + [p for p in branch.strip().split("::") if p]

def graph(root):
    files = module_files(root)
    edges = {f: set() for f in files.values()}
    for path, file in files.items():
        is_folder = file.endswith("mod.rs") or path == ()
        here = path if is_folder else path[:-1]
        for kind, parts in references(open(file, encoding="utf-8").read()):
            if kind == "crate":
                start = ()
            elif kind == "super":
                start = here[:-1] if is_folder else here
                # `super::super::x`
                while parts and parts[0] == "super":
                    start, parts = start[:-1], parts[1:]
            else:
                start = here if is_folder else path
            target = start
            for part in parts:
                if target + (part,) in files:
                    target = target + (part,)
                else:
                    break
            other = files[target]
            if other == file:
                continue
            # A folder's mod.rs and its own children, in either direction.
            if (len(target) == len(path) + 1 and target[:-1] == path) or (
                len(path) == len(target) + 1 and path[:-1] == target
            ):
                continue
            edges[file].add(other)
    return edges

def circles(edges):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))
    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return out

found = 0
for root in sys.argv[1:]:
    edges = graph(root)
    for group in circles(edges):
        found += 1
        print("circle:", " ".join(group))
        for a in group:
            named = sorted(b for b in edges[a] if b in group)
            print(f"  {a} -> {', '.join(named)}")
    print(f"{root}: {len(edges)} files, {sum(map(len, edges.values()))} imports between them")
sys.exit(1 if found else 0)
