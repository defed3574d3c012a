#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""object_cycles.py SYMS: the dependency cycles between object files, one line
per cycle, nothing when there is none. SYMS has one line per object and
symbol, "OBJECT D SYMBOL" (defined) or "OBJECT U SYMBOL" (used), as
object_symbols (tests/lib/object_graph.sh) writes it. Edges A -> B (A uses a
symbol B defines), then the strongly connected components (Tarjan): any
component of two or more objects is a cycle."""
import sys
defs, uses = {}, {}
for line in open(sys.argv[1]):
    o, k, s = line.split()
    uses.setdefault(o, set())
    if k == "D":
        defs[s] = o
    else:
        uses[o].add(s)
edges = {o: {} for o in uses}
for o, ss in uses.items():
    for s in ss:
        d = defs.get(s)
        if d and d != o:
            edges[o].setdefault(d, s)
index, low, stack, on, comps = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        visit(v)
for comp in comps:
    inside = set(comp)
    why = ["%s -> %s (%s)" % (a, b, s) for a in comp
           for b, s in sorted(edges[a].items()) if b in inside]
    print("cycle of %d objects: %s" % (len(comp), "; ".join(why)))
