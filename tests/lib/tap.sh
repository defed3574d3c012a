# SPDX-License-Identifier: GPL-2.0
# Shell test helpers. A test prints one line per check, which tests/run counts:
#   ok - DESCRIPTION
#   not ok - DESCRIPTION: WHY
#   ok - DESCRIPTION # SKIP REASON      (only when a precondition is truly absent)

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
NETPMU=${NETPMU:-$REPO/.output/netpmu}

pass() { echo "ok - $1"; }
fail() { echo "not ok - $1: $2"; }
skip() { echo "ok - $1 # SKIP $2"; }

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

# wait_sigint_handled PID: waits (up to 20 s) until PID has its own SIGINT
# handler. A command started with & by a script begins with SIGINT ignored,
# so a Ctrl-C sent before the handler is installed would be lost.
wait_sigint_handled() {
	local i caught
	for i in $(seq 200); do
		caught=$(sed -n 's/^SigCgt:\t*//p' "/proc/$1/status" 2>/dev/null) || return 1
		[ -n "$caught" ] && [ $((0x$caught & 2)) != 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# check_eq_todo BUG DESCRIPTION EXPECTED ACTUAL: a check of a known product
# bug (TAP's TODO directive): "not ok - DESCRIPTION: WHY # TODO BUG" while
# it fails, which tests/run counts as a known failure, not a failure;
# "ok - DESCRIPTION # TODO BUG" once it passes (then drop the TODO).
check_eq_todo() {
	if [ "$3" = "$4" ]; then echo "ok - $2 # TODO $1"
	else echo "not ok - $2: expected '$3', got '$4' # TODO $1"; fi
}
