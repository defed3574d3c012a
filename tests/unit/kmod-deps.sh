#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The objects of netpmu.ko depend on each other one way (issue 13): no object
# uses a symbol of another that, directly or around a loop, uses one of its.
# Builds nothing: reads with nm the objects of one cell already built under
# $OUTPUT/kmod/ (those its netpmu.mod lists), this machine's arch first.
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/object_graph.sh"
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
	object_symbols "$obj" "${obj#"$cell"/}"
done < <(tr ' ' '\n' <"$mod") >"$syms"
if [ -n "$missing" ]; then
	fail "objects of $cellname's netpmu.mod are present" "missing:$missing"
	exit 0
fi
nobj=$(awk '{ print $1 }' "$syms" | sort -u | wc -l)
[ "$nobj" -ge 2 ] && pass "$cellname: $nobj objects read with nm" ||
	fail "$cellname: objects read with nm" "only $nobj object(s) in $mod"

cycles=$(object_cycles "$syms")
if [ -z "$cycles" ]; then
	pass "$cellname: the object dependency graph of netpmu.ko has no cycle"
else
	fail "$cellname: the object dependency graph of netpmu.ko has no cycle" "$(echo "$cycles" | tr '\n' ' ')"
fi
