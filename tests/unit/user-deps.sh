#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The loader's objects depend on each other one way (issue 13): no object
# uses a symbol of another that, directly or around a loop, uses one of its;
# no file includes a header of a folder above its own (the layers below); and
# no source file under user/ is over 600 lines. Builds nothing: reads with nm
# the objects already built under $OUTPUT/ARCH/user/ (make netpmu), this
# machine's arch first.
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/object_graph.sh"
plan 5
kind exact

out=${OUTPUT:-$REPO/.output}
host=$(uname -m)
[ "$host" = aarch64 ] && host=arm64

# Every source file under user/ stays readable in one sitting.
long=$(find "$REPO/user" -name '*.[ch]' -exec wc -l {} + |
	awk '$2 != "total" && $1 > 600 { sub(".*/user/", "user/", $2); print $2 " (" $1 ")" }')
if [ -z "$long" ]; then
	pass "no file under user/ is over 600 lines"
else
	fail "no file under user/ is over 600 lines" "$(echo "$long" | tr '\n' ' ')"
fi

# The folders of user/, lowest layer first; folders of one layer do not
# include each other.
layers=("lib" "sys" "pmu queue" "event" "session record" "stat trace top serve doctor" "cmd")
declare -A rank
for i in "${!layers[@]}"; do
	for f in ${layers[$i]}; do rank[$f]=$i; done
done
unknown= upward=
for d in "$REPO"/user/*/; do
	d=$(basename "$d")
	[ -n "${rank[$d]+x}" ] || unknown+=" user/$d"
done
while IFS=: read -r file inc; do
	from=${file#"$REPO"/user/}
	from=${from%%/*}
	to=${inc%%/*}
	[ -n "${rank[$from]+x}" ] && [ -n "${rank[$to]+x}" ] || continue
	if [ "$from" != "$to" ] && [ "${rank[$to]}" -ge "${rank[$from]}" ]; then
		upward+=" ${file#"$REPO"/} includes $inc;"
	fi
done < <(grep -o '^#include "[a-z]*/[^"]*"' -r "$REPO/user" --include='*.[ch]' | sed 's/#include "//; s/"$//')
check_eq "every folder of user/ is one of the layers" "" "$unknown"
if [ -z "$upward" ]; then
	pass "no file under user/ includes a header of its own layer's other folders or of a layer above"
else
	fail "no file under user/ includes a header of its own layer's other folders or of a layer above" "$upward"
fi

dir=
for d in "$out/$host/user" "$out"/*/user; do
	[ -d "$d" ] && { dir=$d; break; }
done
if [ -z "$dir" ]; then
	skip_checks 2 "loader objects and their graph" "no loader built under $out (run: make netpmu)"
	exit 0
fi
arch=$(basename "$(dirname "$dir")")

# The object of every user/ source (stale objects of moved sources are not
# read): a source without its object would leave a node out of the graph.
srcs=$(cd "$REPO/user" && find . -name '*.c' | sed 's|^\./||' | sort)
missing=
for src in $srcs; do
	[ -f "$dir/${src%.c}.o" ] || missing+=" user/$src"
done
if [ -n "$missing" ]; then
	fail "$arch: every user/ source has its object" "missing:$missing (run: make netpmu)"
	exit 0
fi
pass "$arch: every user/ source has its object ($(echo "$srcs" | wc -l) objects)"

# One line per object and symbol: "OBJECT D SYMBOL" (defined) or "OBJECT U
# SYMBOL" (used), objects named as their sources under user/.
syms=$(mktemp)
trap 'rm -f "$syms"' EXIT
for src in $srcs; do
	object_symbols "$dir/${src%.c}.o" "${src%.c}.o"
done >"$syms"

cycles=$(object_cycles "$syms")
if [ -z "$cycles" ]; then
	pass "$arch: the loader's object dependency graph has no cycle"
else
	fail "$arch: the loader's object dependency graph has no cycle" "$(echo "$cycles" | tr '\n' ' ')"
fi
