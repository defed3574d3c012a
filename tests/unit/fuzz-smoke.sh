#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The short fuzzing pass CI runs: every libFuzzer harness of tests/fuzz/ over
# its seed corpus, then 2 s of fuzzing each (make fuzz runs 60 s each). Any
# crash, sanitizer report, leak or hang fails its harness's line; the input is
# kept in .output/fuzz/crashes/NAME/.
. "$(dirname "$0")/../lib/tap.sh"
harnesses=("$REPO"/tests/fuzz/fuzz_*.c)
plan $((1 + ${#harnesses[@]}))
kind weak 'a fuzzer has no expected output: no crash, sanitizer report, leak or hang in its time'

log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
	skip_checks $((1 + ${#harnesses[@]})) "the fuzz harnesses build and run" \
		"no libFuzzer runtime (scripts/install-deps installs libclang-rt-14-dev)"
	exit 0
fi
if ! make -C "$REPO" -s fuzz-build >"$log" 2>&1; then
	fail "the fuzz harnesses build" "$(tail -n 5 "$log" | tr '\n' ' ')"
	exit 0
fi
pass "the fuzz harnesses build"
"$REPO/tests/fuzz/run" --quick >"$log" 2>&1
for c in "${harnesses[@]}"; do
	name=$(basename "$c" .c)
	line=$(grep "^$name: " "$log")
	case $line in
	*", ok") pass "$name: the seeds and 2 s of fuzzing, no crash" ;;
	*) fail "$name: the seeds and 2 s of fuzzing, no crash" "${line:-no result: $(tail -n 3 "$log" | tr '\n' ' ')}" ;;
	esac
done
