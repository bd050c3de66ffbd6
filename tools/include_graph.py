#!/usr/bin/env python3
"""The include graph of Pliant's libraries, by room: a room is a header and
the source of the same name (engine/tendon.h with engine/tendon.cpp; a
public include/pliant/NAME.h with the library's NAME.cpp). A room's arrows
are the project includes of its files. Floors are counted from the ground:
a room stands one floor above the highest room it includes.

    include_graph.py [--root DIR] [--check] [FOLDER ...]

Prints each floor with its rooms. With --check, exits 1 when some rooms
include each other in a circle (then some arrow must run back up), naming
every circle and the includes that close it, or when any source of the
project includes a file by a relative path ("../"); FOLDERs default to
the libraries: include/pliant model solvers engine.
"""
import os
import re
import sys
from collections import defaultdict

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files_under(root, folders):
    out = []
    for folder in folders:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            for name in sorted(names):
                if name.endswith((".h", ".cpp")):
                    out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return out


def room_of(path, public_sources):
    """engine/tendon.cpp -> engine/tendon; include/pliant/data.h -> the
    source folder's stem of data.cpp when one exists, else pliant/data."""
    stem = os.path.splitext(path)[0]
    if path.startswith("include/"):
        name = os.path.basename(stem)
        return public_sources.get(name, "pliant/" + name)
    return stem


def graph(root, folders):
    files = files_under(root, folders)
    sources = [f for f in files if f.endswith(".cpp")]
    by_name = defaultdict(list)
    for s in sources:
        by_name[os.path.basename(os.path.splitext(s)[0])].append(os.path.splitext(s)[0])
    public_sources = {name: stems[0] for name, stems in by_name.items() if len(stems) == 1
                      and not os.path.exists(os.path.join(root, stems[0] + ".h"))}
    known = set(files)
    edges = defaultdict(set)  # room -> rooms it includes
    why = {}
    rooms = set()
    for f in files:
        room = room_of(f, public_sources)
        rooms.add(room)
        with open(os.path.join(root, f)) as text:
            for target in INCLUDE.findall(text.read()):
                path = os.path.join("include", target) if target.startswith("pliant/") else target
                if path not in known:
                    continue
                other = room_of(path, public_sources)
                if other != room:
                    edges[room].add(other)
                    why.setdefault((room, other), "%s includes %s" % (f, target))
    return rooms, edges, why


def circles(rooms, edges):
    """Strongly connected components of more than one room (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(rooms):
        if v not in index:
            visit(v)
    return out


def floors(rooms, edges):
    floor = {}

    def height(v, seen):
        if v in floor:
            return floor[v]
        if v in seen:
            return 0
        seen.add(v)
        h = 1 + max((height(w, seen) for w in edges[v]), default=-1)
        seen.discard(v)
        floor[v] = h
        return h

    for v in rooms:
        height(v, set())
    return floor


def relative_includes(root):
    """Every '#include "../...' in the project's own sources."""
    out = []
    folders = ["include", "model", "solvers", "engine", "viewer", "samples", "python", "tests"]
    for path in files_under(root, folders):
        with open(os.path.join(root, path)) as text:
            for number, line in enumerate(text, 1):
                if re.match(r'\s*#\s*include\s+"\.\./', line):
                    out.append("%s:%d: %s" % (path, number, line.strip()))
    return out


def main(argv):
    root = "."
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if "--root" in args:
        i = args.index("--root")
        root = args[i + 1]
        del args[i:i + 2]
    folders = args or ["include/pliant", "model", "solvers", "engine"]
    rooms, edges, why = graph(root, folders)
    found = circles(rooms, edges)
    floor = floors(rooms, edges)
    for level in range(max(floor.values(), default=-1) + 1):
        names = sorted(r for r in rooms if floor[r] == level)
        print("floor %d: %s" % (level, " ".join(names)))
    print("%d rooms, %d floors, %d arrows, %d circles" %
          (len(rooms), max(floor.values(), default=-1) + 1,
           sum(len(e) for e in edges.values()), len(found)))
    for component in found:
        print("circle: " + " -> ".join(component))
        members = set(component)
        for a in component:
            for b in sorted(edges[a] & members):
                print("    " + why[(a, b)])
    relative = relative_includes(root)
    for line in relative:
        print("relative include: " + line)
    return 1 if check and (found or relative) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
