#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The objects of netpmu.ko depend on each other one way (issue 13): no object
# uses a symbol of another that, directly or around a loop, uses one of its.
# Builds nothing: reads with nm the objects of one cell already built under
# $OUTPUT/kmod/ (those its netpmu.mod lists), this machine's arch first.
. "$(dirname "$0")/../lib/tap.sh"
plan 2
kind exact

out=${OUTPUT:-$REPO/.output}
host=$(uname -m)
[ "$host" = aarch64 ] && host=arm64
mod=
for f in "$out"/kmod/"$host"-*/netpmu.mod "$out"/kmod/*/netpmu.mod; do
	[ -s "$f" ] && { mod=$f; break; }
done
if [ -z "$mod" ]; then
	skip_checks 2 "kmod object graph has no cycle" "no netpmu.ko built under $out/kmod (run: make kmod)"
	exit 0
fi
cell=$(dirname "$mod")
cellname=$(basename "$cell")

# One line per object and symbol: "OBJECT D SYMBOL" (defined) or "OBJECT U
# SYMBOL" (used). Paths are shown relative to the cell's folder.
syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
missing=
while read -r obj; do
	[ -n "$obj" ] || continue
	case "$obj" in /*) ;; *) obj=$cell/$obj ;; esac
	if [ ! -f "$obj" ]; then
		missing+=" ${obj#"$cell"/}"
		continue
	fi
	nm "$obj" | awk -v o="${obj#"$cell"/}" '
		$1 == "U" { print o, "U", $2; next }
		NF == 3 && $2 ~ /^[A-TV-Z]$/ { print o, "D", $3 }'
done < <(tr ' ' '\n' <"$mod") >"$syms"
if [ -n "$missing" ]; then
	fail "objects of $cellname's netpmu.mod are present" "missing:$missing"
	exit 0
fi
nobj=$(awk '{ print $1 }' "$syms" | sort -u | wc -l)
[ "$nobj" -ge 2 ] && pass "$cellname: $nobj objects read with nm" ||
	fail "$cellname: objects read with nm" "only $nobj object(s) in $mod"

# Edges A -> B (A uses a symbol B defines), then the strongly connected
# components (Tarjan): any component of two or more objects is a cycle.
cycles=$(python3 - "$syms" <<'EOF'
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
EOF
)
if [ -z "$cycles" ]; then
	pass "$cellname: the object dependency graph of netpmu.ko has no cycle"
else
	fail "$cellname: the object dependency graph of netpmu.ko has no cycle" "$(echo "$cycles" | tr '\n' ' ')"
fi
