#!/usr/bin/env python3
"""Fails when the sub-folders of one library include each other in a cycle.

usage: folder_cycles.py LIBCORE_DIR LIB      e.g. folder_cycles.py libcore hybrid
       folder_cycles.py --self-test

Reads every .hpp/.cpp under LIBCORE_DIR/LIB/<folder>/, takes its `#include "LIB/<other>/..."`
lines and draws an edge folder -> other. A cycle (two or more folders that reach each other)
is printed with one include line per edge that closes it, and the exit status is 1. Exit 0
when the folder graph is acyclic, 2 on bad usage.
"""
import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def folder_edges(libcore, lib):
    """{(from, to): 'file:line: include'} for includes between different folders of lib."""
    root = os.path.join(libcore, lib)
    edges = {}
    for folder in sorted(os.listdir(root)):
        top = os.path.join(root, folder)
        if not os.path.isdir(top):
            continue
        for dirpath, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".h", ".cc")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        parts = m.group(1).split("/")
                        if len(parts) < 3 or parts[0] != lib or parts[1] == folder:
                            continue
                        rel = os.path.relpath(path, libcore)
                        edges.setdefault((folder, parts[1]), f"{rel}:{lineno}: {line.strip()}")
    return edges


def cycles(edges):
    """Strongly connected components with more than one folder (Tarjan), each sorted."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def check(libcore, lib, out):
    edges = folder_edges(libcore, lib)
    bad = cycles(edges)
    for comp in bad:
        out.write(f"{lib}: folder cycle between {', '.join(comp)}:\n")
        for (a, b), where in sorted(edges.items()):
            if a in comp and b in comp:
                out.write(f"  {a} -> {b}  ({where})\n")
    return 1 if bad else 0


def self_test():
    """The check goes red on a planted cycle and green once it is broken."""
    with tempfile.TemporaryDirectory() as tmp:
        def write(rel, text):
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)

        write("lib/a/x.hpp", '#include "lib/b/y.hpp"\n#include "lib/a/z.hpp"\n')
        write("lib/b/y.hpp", '#include <vector>\n')
        write("lib/b/w.cpp", '#include "lib/c/v.hpp"\n')
        write("lib/c/v.hpp", '  #  include "lib/a/x.hpp"\n')
        sink = open(os.devnull, "w")
        if check(tmp, "lib", sink) != 1:
            print("self-test: the cycle a -> b -> c -> a was not found")
            return 1
        if cycles(folder_edges(tmp, "lib")) != [["a", "b", "c"]]:
            print("self-test: wrong cycle reported")
            return 1
        write("lib/c/v.hpp", '#include "other/a/x.hpp"\n')
        if check(tmp, "lib", sink) != 0:
            print("self-test: an acyclic tree was reported as a cycle")
            return 1
    print("self-test: ok")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3 or not os.path.isdir(os.path.join(argv[1], argv[2])):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    status = check(argv[1], argv[2], sys.stdout)
    if status == 0:
        print(f"{argv[2]}: no folder cycle")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
