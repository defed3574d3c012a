#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The man pages (man/) say what the loader's --help says (issue 15): for
# netpmu and each command, the options its --help names are exactly those its
# page names, and man renders every page without a warning.
. "$(dirname "$0")/../lib/tap.sh"
commands=(list stat top doctor trace serve)
plan $((2 * (${#commands[@]} + 1) + 1))
kind exact

# options: every -X and --long-name in the text on stdin, one per line, sorted.
# A short option stands alone (-e, not the v of perf's -vv nor a word-dash).
options() {
	grep -oE '(^|[^A-Za-z0-9_-])(--[a-z][a-z0-9-]*|-[A-Za-z])([^A-Za-z0-9-]|$)' |
		grep -oE -- '-{1,2}[A-Za-z][a-z0-9-]*' | sort -u
}
# The page's text with roff's font changes and escaped dashes undone.
page_text() { sed -E 's/\\f[BIRP]//g; s/\\-/-/g; /^\.\\"/d' "$REPO/man/$1.8"; }

check() { # NAME (netpmu or netpmu-CMD) HELP_TEXT
	local name=$1 help=$2 diff
	if [ ! -r "$REPO/man/$name.8" ]; then
		fail "$name(8) names the options of its --help" "no man/$name.8"
	else
		diff=$(diff <(options <<<"$help") <(page_text "$name" | options) | sed -n 's/^\([<>]\) /\1/p' | tr '\n' ' ')
		if [ -z "$diff" ]; then
			pass "$name(8) names exactly the options of its --help ($(options <<<"$help" | wc -l))"
		else
			fail "$name(8) names exactly the options of its --help" "only in --help (<) or the page (>): $diff"
		fi
	fi
	local warnings
	warnings=$(MANWIDTH=80 man --warnings -l "$REPO/man/$name.8" 2>&1 >/dev/null)
	if [ -z "$warnings" ]; then
		pass "man --warnings renders $name(8) without a warning"
	else
		fail "man --warnings renders $name(8) without a warning" "$(echo "$warnings" | head -3 | tr '\n' ' ')"
	fi
}

check netpmu "$("$NETPMU" --help 2>&1)"
for c in "${commands[@]}"; do
	check "netpmu-$c" "$("$NETPMU" "$c" --help 2>&1)"
done

# No page for a command the loader lacks.
pages=$(cd "$REPO/man" && ls *.8 | sed 's/\.8$//' | sort | tr '\n' ' ')
want=$(printf '%s\n' netpmu "${commands[@]/#/netpmu-}" | sort | tr '\n' ' ')
if [ "$pages" = "$want" ]; then
	pass "man/ holds a page for netpmu and each command, no other ($pages)"
else
	fail "man/ holds a page for netpmu and each command, no other" "has $pages, wants $want"
fi
