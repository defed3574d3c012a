# SPDX-License-Identifier: GPL-2.0
# Shell test helpers. A test declares its plan, then prints one line per
# check, which tests/lib/tap_run and tests/run count:
#   1..N                                 (plan N: the checks it runs; at the end when data-dependent)
#   ok - DESCRIPTION [KIND]
#   not ok - DESCRIPTION [KIND]: WHY
#   ok - DESCRIPTION [KIND] # SKIP REASON (only when a precondition is truly absent)
# KIND is the evidence a check gives, set by `kind` for the checks that
# follow, or by TAP_KIND=KIND before one check:
#   exact   against a truth independent of netpmu: datagrams sent,
#           /proc/interrupts, the driver's own counts, real perf's attrs and
#           counts, the spec's bytes and errnos
#   golden  exact, against values or messages the test's author worked out
#   model   the device model against its documented formula
#   weak: REASON  a presence, non-zero, monotonic or tolerance check, or an
#           exit status, with why nothing stronger is known
# A check without a kind is tagged [untagged], which tests/run reports.

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
NETPMU=${NETPMU:-$REPO/.output/netpmu}
# The tests' known UDP flows (tests/lib/udp_flow.c, make loaders), for this
# machine's architecture; tests/vm/run sets the cell's.
export UDP_FLOW=${UDP_FLOW:-$REPO/.output/${HOSTTYPE/aarch64/arm64}/tests/udp_flow}

# plan N: the number of checks this script runs; tests/lib/tap_run fails a
# script whose checks are fewer or more.
plan() { echo "1..$1"; }

# kind exact|golden|model|weak REASON: the kind of the checks that follow.
# Exported, so that python checks (tests/lib/tap.py) carry it too.
kind() {
	case "$1" in
	exact|golden|model) [ $# = 1 ] || { echo "kind $1 takes no reason" >&2; return 1; }
		export TAP_KIND=$1 ;;
	weak) [ -n "${2:-}" ] || { echo "kind weak needs its reason" >&2; return 1; }
		export TAP_KIND="weak: $2" ;;
	*) echo "kind: unknown kind '$1'" >&2; return 1 ;;
	esac
}
tag() { echo "[${TAP_KIND:-untagged}]"; }

pass() { echo "ok - $1 $(tag)"; }
fail() { echo "not ok - $1 $(tag): $2"; }
skip() { echo "ok - $1 $(tag) # SKIP $2"; }
# skip_checks N DESCRIPTION REASON: the N checks a missing precondition
# leaves out, one SKIP line each, so that the plan still adds up.
skip_checks() {
	local i
	for i in $(seq "$1"); do skip "$2 ($i of $1)" "$3"; done
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}

# check_cmd DESCRIPTION COMMAND...: passes when COMMAND exits 0.
check_cmd() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$desc"; else fail "$desc" "'$*' failed: $(echo "$out" | tail -n 3 | tr '\n' ' ')"; fi
}

# scaled N: N times NETPMU_TIMEOUT_SCALE, the factor a slow kernel's cell
# (tests/vm/run) sets for every wait: a retry count or a number of seconds.
scaled() { echo $(($1 * ${NETPMU_TIMEOUT_SCALE:-1})); }

# wait_until SECONDS COMMAND...: runs COMMAND (a function may set variables)
# every 0.1 s until it succeeds; fails once SECONDS, scaled, have passed.
wait_until() {
	local deadline=$((${EPOCHREALTIME/./} + $(scaled "$1") * 1000000))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME/./}" -lt $deadline ] || return 1
		sleep 0.1
	done
}
# Exported with scaled, for the flow functions tests run under perf's or
# netpmu stat's bash -c.
export -f scaled wait_until

# lines_at_least FILE PATTERN N: FILE has N lines or more matching PATTERN (grep).
lines_at_least() { [ "$(grep -c "$2" "$1" 2>/dev/null)" -ge "$3" ]; }

# wait_output SECONDS WANT COMMAND...: until COMMAND prints WANT (up to
# SECONDS, scaled); then prints what it printed last.
output_is() {
	local want=$1
	shift
	waited_output=$("$@")
	[ "$waited_output" = "$want" ]
}
wait_output() {
	local seconds=$1 waited_output
	shift
	wait_until "$seconds" output_is "$@"
	echo "$waited_output"
}

# wait_line FILE PATTERN: waits until FILE has a line matching PATTERN (grep),
# up to 60 s, scaled.
wait_line() { wait_until 60 grep -q "$2" "$1" 2>/dev/null; }

# sigint_handled_or_gone PID: PID has its own SIGINT handler, or has exited.
sigint_handled_or_gone() {
	local caught
	caught=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null) || return 0
	[ -n "$caught" ] && [ $((0x$caught & 2)) != 0 ]
}
# wait_sigint_handled PID: waits (up to 20 s, scaled) until PID has its own
# SIGINT handler; fails at once when PID has exited. A command started with &
# by a script begins with SIGINT ignored, so a Ctrl-C sent before the handler
# is installed would be lost.
wait_sigint_handled() { wait_until 20 sigint_handled_or_gone "$1" && [ -e "/proc/$1/status" ]; }

# interrupt_and_reap PID...: a Ctrl-C to each (a tracer prints what it
# holds), then waits for every child: the EXIT trap of a test that leaves
# tracers in the background.
interrupt_and_reap() {
	local pid
	for pid in "$@"; do kill -INT "$pid" 2>/dev/null; done
	wait 2>/dev/null
}
