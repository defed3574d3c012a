#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu's command line: --help, --version, unknown commands and options.
. "$(dirname "$0")/../lib/tap.sh"
plan 26
kind golden

. "$REPO/tests/lib/sysfs_fixture.sh"
unit_setup

# run ARGS...: sets rc, out (stdout) and err (stderr) of netpmu ARGS.
run() {
	"$NETPMU" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
flat() { printf '%s' "$1" | tr '\n' '|'; }

run --help
check_eq "--help exits 0" 0 "$rc"
check_eq "--help prints the usage line first" "usage: netpmu COMMAND [ARGS...]" "$(head -n 1 <<<"$out")"
check_eq "--help lists 'list' with one line" \
	"  list     list the HNS3 and PCIe PMUs with identifier, perf type and counting CPU" \
	"$(grep '^  list ' <<<"$out")"
check_eq "--help lists 'trace' with one line" 1 "$(grep -c '^  trace  ' <<<"$out")"
check_eq "--help lists 'stat' with one line" 1 "$(grep -c '^  stat  ' <<<"$out")"
check_eq "--help writes nothing on stderr" "" "$err"
help_text=$out

run -h
check_eq "-h prints the same text as --help" "$(flat "$help_text")" "$(flat "$out")"

run --version
check_eq "--version exits 0" 0 "$rc"
if [[ "$out" =~ ^netpmu\ [^[:space:]]+$ ]]; then
	pass "--version prints one line 'netpmu VERSION'"
else
	fail "--version prints one line 'netpmu VERSION'" "got '$(flat "$out")'"
fi

run frobnicate
check_eq "unknown command exits 2" 2 "$rc"
check_eq "unknown command: one line on stderr naming the valid commands" \
	"netpmu: unknown command 'frobnicate' (valid: list, stat, top, serve, doctor, trace)" "$(flat "$err")"
check_eq "unknown command prints nothing on stdout" "" "$out"

run --frobnicate
check_eq "unknown option exits 2" 2 "$rc"
check_eq "unknown option: one line on stderr" \
	"netpmu: unknown option '--frobnicate' (valid: --help, --version, or a command: list, stat, top, serve, doctor, trace)" \
	"$(flat "$err")"

run
check_eq "no command exits 2" 2 "$rc"
check_eq "no command prints the usage on stderr" "usage: netpmu COMMAND [ARGS...]" "$(head -n 1 <<<"$err")"
check_eq "no command prints nothing on stdout" "" "$out"

run list --help
check_eq "list --help exits 0" 0 "$rc"
check_eq "list --help prints the list usage" "usage: netpmu list [PATTERN] [--events] [--json] [--sysfs-root DIR]" \
	"$(head -n 1 <<<"$out")"
check_eq "list --help documents the one-document JSON output" 1 "$(grep -c 'one JSON document on one line: an array of an object' <<<"$out")"

run list --frobnicate
check_eq "list with an unknown option exits 2" 2 "$rc"
check_eq "list with an unknown option: one line on stderr" \
	"netpmu list: unknown option '--frobnicate' (valid: --events, --json, --sysfs-root DIR, --help)" "$(flat "$err")"

run list --sysfs-root
check_eq "list --sysfs-root without a value exits 2" 2 "$rc"
check_eq "list --sysfs-root without a value: one line on stderr" \
	"netpmu list: --sysfs-root needs a value (see netpmu list --help)" "$(flat "$err")"

run list one two
check_eq "list with two patterns exits 2" 2 "$rc"
check_eq "list with two patterns: one line on stderr" \
	"netpmu list: one PATTERN at most, got 'one' and 'two'" "$(flat "$err")"
exit 0
