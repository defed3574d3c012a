#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# user/pmu/core_events.c: perf's legacy hardware event names with its u/k/h
# modifiers, checked against perf's rules (parse_events__modifier_list(): the
# first of u, k, h excludes all three levels, each then includes its own) by
# the attr netpmu trace opens; bad modifiers give one line with the column and
# what is allowed; PMU/NAME/ takes the core PMU's type from a fixture sysfs.
. "$(dirname "$0")/../lib/tap.sh"
plan 26
kind golden

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The loader's flags (Makefile) plus -Werror: the files must build warning-free.
cflags=(-O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE -Werror
	-I"$REPO/user" -I"$REPO/bpf")
if ! out=$(gcc "${cflags[@]}" "$REPO/tests/unit/core_events_dump.c" "$REPO/user/pmu/core_events.c" \
	"$REPO/user/sys/perf_counter.c" "$REPO/user/sys/sysfs_read.c" "$REPO/user/lib/why_line.c" \
	-o "$tmp/dump" 2>&1); then
	fail "user/pmu/core_events.c and the test driver build warning-free" "$(echo "$out" | head -n 5 | tr '\n' ' ')"
	exit 0
fi
pass "user/pmu/core_events.c and the test driver build warning-free"

# A core PMU as arm64 shows it (type and cpus), and an uncore one (no cpus).
devices=$tmp/sys/bus/event_source/devices
mkdir -p "$devices/armv8_pmuv3_0" "$devices/hns3_pmu_sicl_0"
echo 8 >"$devices/armv8_pmuv3_0/type"
echo 0-1 >"$devices/armv8_pmuv3_0/cpus"
echo 42 >"$devices/hns3_pmu_sicl_0/type"

attrs() { # TYPE CONFIG EXCLUDE_USER EXCLUDE_KERNEL EXCLUDE_HV
	echo "type=$1 config=$2 exclude_user=$3 exclude_kernel=$4 exclude_hv=$5 exclude_guest=0 exclude_host=0 read_format=0x3 sample_period=0"
}

while IFS=$'\t' read -r desc event expected; do
	got=$("$tmp/dump" --sysfs-root "$tmp/sys" "$event" | cut -f2-)
	check_eq "$desc" "$expected" "$got"
done <<TABLE
cycles: all levels counted	cycles	$(attrs 0 0 0 0 0)
cpu-cycles is cycles	cpu-cycles	$(attrs 0 0 0 0 0)
instructions: PERF_COUNT_HW_INSTRUCTIONS	instructions	$(attrs 0 0x1 0 0 0)
:u excludes kernel and hypervisor	cycles:u	$(attrs 0 0 0 1 1)
:k excludes user and hypervisor	instructions:k	$(attrs 0 0x1 1 0 1)
:h excludes user and kernel	cycles:h	$(attrs 0 0 1 1 0)
:uk excludes the hypervisor only	cycles:uk	$(attrs 0 0 0 0 1)
:ku is :uk	cycles:ku	$(attrs 0 0 0 0 1)
:kh excludes user only	instructions:kh	$(attrs 0 0x1 1 0 0)
:ukh excludes nothing	cycles:ukh	$(attrs 0 0 0 0 0)
PMU/NAME/: the PMU's type in config's upper 32 bits	armv8_pmuv3_0/cycles/	$(attrs 0 0x800000000 0 0 0)
PMU/NAME/MOD: modifier without a colon, as perf writes it	armv8_pmuv3_0/instructions/u	$(attrs 0 0x800000001 0 1 1)
an uncore PMU's event is left to the uncore parser	hns3_pmu_sicl_0/cycles/	not a core event
a PMU without cpus file is no core PMU	hns3_pmu_sicl_0/bw_ssu_rpu,global=1/	not a core event
a name perf does not know is left to the uncore parser	cyclesx	not a core event
bad modifier: column and what is allowed	cycles:z	error: cycles:z: modifier 'z' at column 8 is not supported: netpmu trace takes u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk
bad modifier after a valid one	instructions:kz	error: instructions:kz: modifier 'z' at column 15 is not supported: netpmu trace takes u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk
perf's sampling modifier p is refused	cycles:p	error: cycles:p: modifier 'p' at column 8 is not supported: netpmu trace takes u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk
a modifier twice, as perf refuses it	cycles:uku	error: cycles:uku: duplicate modifier 'u' at column 10 (perf refuses it too): give each of u, k, h at most once
empty modifier	cycles:	error: 'cycles:' has an empty modifier at column 8: give u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk, or none
bad modifier of PMU/NAME/	armv8_pmuv3_0/cycles/x	error: armv8_pmuv3_0/cycles/x: modifier 'x' at column 22 is not supported: netpmu trace takes u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk
TABLE

# The same errors from netpmu trace itself: one line, usage status, nothing loaded.
if [ ! -x "$NETPMU" ]; then
	fail "netpmu binary exists" "$NETPMU is missing (run: make netpmu)"
	exit 0
fi
"$NETPMU" trace -e instructions:k -e cycles:z >"$tmp/out" 2>"$tmp/err"
check_eq "netpmu trace -e cycles:z exits 2 (usage)" 2 $?
check_eq "netpmu trace -e cycles:z says why in one line on stderr, nothing on stdout" \
	"netpmu trace: cycles:z: modifier 'z' at column 8 is not supported: netpmu trace takes u (user), k (kernel) and h (hypervisor), each at most once, e.g. cycles:uk|" \
	"$(tr '\n' '|' <"$tmp/err")$(cat "$tmp/out")"
"$NETPMU" trace -e cycles -e cycles:u -e cycles:k -e cycles:h -e instructions >"$tmp/out" 2>"$tmp/err"
check_eq "a fifth core event exits 2" 2 $?
check_eq "and says the limit in one line" \
	"netpmu trace: instructions: at most 4 core events (cycles, instructions, ...) are read per poll|" \
	"$(tr '\n' '|' <"$tmp/err")"
