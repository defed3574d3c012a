#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu trace --explain: which parts of --where the napi_poll program tests
# before the ring buffer (the comparisons of the top-level && over a poll's
# cpu, ifindex, napi_id, irq, work, budget and dev; at most 8), and which
# stay in user space and why; worked out by hand from the rules in
# user/trace/poll_filter.h. tests/host/trace_query.sh checks, on this
# machine's kernel, that the kernel's part keeps exactly the polls the whole
# expression keeps.
. "$(dirname "$0")/../lib/tap.sh"
plan 6
kind golden

explain() { "$NETPMU" trace "$@" --explain 2>&1; echo "status $?"; }
kernel='in the kernel, before the ring buffer (a poll failing it is not emitted)'
row() { printf '  %-40s %s\n' "$1" "$2"; }

check_eq "--per-poll: the && chain's poll comparisons in the kernel (5 < cpu as written), an || in user space" \
	"--where work >= budget && dev == \"eth1\" && 5 < cpu && (irq == 3 || !work) && napi_id != 0
$(row 'work >= budget' "$kernel")
$(row 'dev == "eth1"' "$kernel")
$(row '5 < cpu' "$kernel")
$(row 'irq == 3 || !(work != 0)' "in user space: an '||' or a '!' is tested whole")
$(row 'napi_id != 0' "$kernel")
4 of 5 parts in the kernel; every record is then tested against the whole expression in user space
status 0" \
	"$(explain --per-poll --where 'work >= budget && dev == "eth1" && 5 < cpu && (irq == 3 || !work) && napi_id != 0')"
check_eq "a core event and a field polls lack stay in user space" \
	"--where cycles:k > 1000 && work > 2
$(row 'cycles:k > 1000' 'in user space: a counter, a core event or a field a poll lacks')
$(row 'work > 2' "$kernel")
1 of 2 parts in the kernel; every record is then tested against the whole expression in user space
status 0" "$(explain --per-poll -e cycles:k --where 'cycles:k > 1000 && work > 2')"
check_eq "without --per-poll, all in user space" \
	"--where dev=eth1,queue=0
$(row 'dev == "eth1"' 'in user space: the kernel filters per-poll records only (--per-poll)')
$(row 'queue == 0' 'in user space: the kernel filters per-poll records only (--per-poll)')
0 of 2 parts in the kernel; every record is then tested against the whole expression in user space
status 0" "$(explain --where 'dev=eth1,queue=0')"
check_eq "--no-kernel-filter: all in user space" \
	"--where work >= budget
$(row 'work >= budget' 'in user space: --no-kernel-filter')
0 of 1 parts in the kernel; every record is then tested against the whole expression in user space
status 0" "$(explain --per-poll --no-kernel-filter --where 'work >= budget')"
nine='cpu != 1 && cpu != 2 && cpu != 3 && cpu != 4 && cpu != 5 && cpu != 6 && cpu != 7 && cpu != 8 && cpu != 9'
check_eq "9 comparisons: the kernel takes the first 8" \
	"8 of 9 parts in the kernel|  cpu != 9                                 in user space: the kernel takes 8 comparisons" \
	"$(explain --per-poll --where "$nine" | grep -o '^8 of 9 parts in the kernel')|$(explain --per-poll --where "$nine" | grep 'cpu != 9 ')"
check_eq "a bad expression: its column, status 2, nothing explained" \
	"netpmu trace: --where: column 8: expected a field, a number or a \"string\", got the end
status 2" "$(explain --per-poll --where 'work >=')"
