#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu trace's --where expressions and --agg/--hist/--by aggregations
# (user/trace/), through the test driver tests/unit/trace_query_dump.c over
# records written here: which records each expression keeps, worked out by
# hand from the records (a field a record lacks makes a comparison unknown,
# and its negation too); each refused expression's exact line and column;
# every aggregation's exact text and JSON, in bpftrace's forms, per interval
# with -I; a field or key the run's record kinds lack refused with the kinds
# that have it. tests/host/trace_query.sh holds the histograms to bpftrace's
# own over real traffic.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/test_driver.sh"
plan 37

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

build_test_driver trace_query_dump
dump=$DRIVER
counter='hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/'

# Polls of two devices, then one interval tick's records (a queue per
# device, a CPU, the counters); c0 is the one counter's read or delta.
cat >mixed.txt <<'RECORDS'
poll ts=10 dev=eth1 cpu=0 work=64 budget=64 c0=1000
poll ts=20 dev=eth1 cpu=1 work=3 budget=64 c0=2000000
poll ts=30 dev=eth2 cpu=0 work=0 budget=64
queue ts=100 dev=eth1 queue=0 packets=67 c0=5000
queue ts=100 dev=eth2 queue=1 packets=0
cpu ts=100 cpu=0 net_rx=2
counters ts=100 c0=7
RECORDS

kind golden
# keeps EXPR LINES: --where EXPR keeps exactly the records of those lines.
keeps() {
	local got
	got=$("$dump" --per-poll -I --counter "$counter" --where "$1" <mixed.txt | sed 's/^match //' | tr '\n' ' ')
	check_eq "--where '$1' keeps records ${2:-none}" "$2" "${got% }"
}
keeps 'work == budget' 1
keeps 'dev == "eth1" || queue == 1' '1 2 4 5'
keeps 'dev=eth1,queue=0' 4
keeps 'bw_ssu_rpu_byte_num > 1e6' 2
keeps "\"$counter\" >= 0x1388" '2 4'
keeps '!(work > 0)' 3
keeps 'work' '1 2'
keeps 'cpu == 0 && !(dev == "eth2")' '1 4'
keeps '(work < 10 || packets > 50) && dev != "eth2"' '2 4'
keeps 'queue == -1 || net_rx >= 2.0e0' 6

# refuses OPTION ARG EXPECTED: the driver refuses ARG with EXPECTED (status 2).
refuses() {
	local got rc
	got=$("$dump" --per-poll -I --counter "$counter" "$1" "$2" <mixed.txt)
	rc=$?
	check_eq "$1 '$2' is refused with its column" "$3 (status 2)" "$got (status $rc)"
}
fields='dev, cpu, ifindex, napi_id, irq, queue, dir, work, budget, polls, packets, budget_exhausted, poll_ns, irqs, irq_ns, interval_ns, net_rx, net_rx_ns, net_tx, net_tx_ns'
refuses --where 'work ==' 'error: --where: column 8: expected a field, a number or a "string", got the end'
refuses --where 'work == budget)' "error: --where: column 15: expected '&&', '||' or the end, got ')'"
refuses --where '(work == 1' "error: --where: column 11: expected ')', got the end"
refuses --where 'dev > "a"' "error: --where: column 5: a device name compares by '==' or '!=' only"
refuses --where 'dev == 3' 'error: --where: column 8: dev compares with a device name ("eth0"), not a number'
refuses --where 'colour == 1' "error: --where: column 1: unknown field 'colour' (valid: $fields, or an -e event)"
refuses --where 'work == 1x' 'error: --where: column 9: expected a field, a number or a "string", got a number followed by letters'
refuses --where 'work == 2.5' 'error: --where: column 9: expected a field, a number or a "string", got a number that is not whole'
refuses --where 'dev == "eth1' "error: --where: column 8: expected a field, a number or a \"string\", got a string without its closing '\"'"
refuses --where "$(printf '(%.0s' $(seq 65))work" 'error: --where: column 65: nested too deep'
refuses --agg 'count(x)' "error: --agg: column 7: expected ')' (count takes no field), got 'x'"
refuses --agg 'lhist(work, 0, 64)' "error: --agg: column 18: expected ',' (lhist(FIELD, MIN, MAX, STEP)), got ')'"
refuses --agg 'hist(dev)' 'error: --agg: column 6: dev is no number: use it as a key'
refuses --agg '@x[dev = count()' "error: --agg: column 8: expected ',' or ']', got '='"
refuses --agg 'lhist(work, 0, 64, 7)' "error: --agg: column 13: lhist needs MIN < MAX, STEP > 0 and MAX - MIN a multiple of STEP"
refuses --agg 'sum(nope)' "error: --agg: @sum_nope: column 5: unknown field 'nope' (valid: $fields, or an -e event)"

# A field no record of the run has, and a counter name two counters share.
got=$("$dump" --agg 'sum(work) by dev' <mixed.txt)
check_eq "sum(work) without --per-poll is refused with the kinds that have it" \
	"error: --agg: column 5: work is a field of poll records, and this run's are queue, cpu, counters: --per-poll gives poll records" "$got"
got=$("$dump" --per-poll --by queue <mixed.txt)
check_eq "--by queue with --per-poll alone is refused with the kinds that have it" \
	"error: --by: queue is a field of queue records, and this run's are poll: -I gives the interval records too" "$got"
got=$("$dump" --counter 'a/x,k=1/' --counter 'a/x,k=2/' --where 'x > 1' <mixed.txt)
check_eq "an event name two counters share is refused" \
	"error: --where: column 1: 'x' names 2 counters: give one's -e text in full in double quotes" "$got"

# Polls of known work: each aggregation worked out by hand (bpftrace's
# integer average; sorted by value, then by key).
cat >polls.txt <<'RECORDS'
poll ts=10 dev=eth1 cpu=0 work=64 budget=64
poll ts=20 dev=eth1 cpu=1 work=3 budget=64
poll ts=30 dev=eth2 cpu=0 work=0 budget=64
poll ts=40 dev=eth1 cpu=0 work=64 budget=64
poll ts=50 dev=eth1 cpu=0 work=17 budget=64
poll ts=60 dev=eth2 cpu=1 work=-1 budget=64
poll ts=70 dev=eth1 cpu=1 work=1 budget=64
poll ts=80 dev=eth1 cpu=0 work=2048 budget=64
RECORDS
check_eq "@exhausted[dev, cpu] = count() of the polls that used their budget" "@exhausted[eth1, 0]: 2" \
	"$("$dump" --per-poll --where 'work == budget' --agg '@exhausted[dev, cpu] = count()' <polls.txt)"
check_eq "count, sum, avg, min, max and stats keyed by dev or cpu" "@count[eth2]: 2
@count[eth1]: 6

@sum_work[eth2]: -1
@sum_work[eth1]: 2197

@avg_work[eth2]: 0
@avg_work[eth1]: 366

@min_work[1]: -1
@min_work[0]: 0

@max_work[1]: 3
@max_work[0]: 2048

@stats_work[eth2]: count 2, average 0, total -1
@stats_work[eth1]: count 6, average 366, total 2197" \
	"$("$dump" --per-poll --agg 'count() by dev' --agg 'sum(work) by dev' --agg 'avg(work) by dev' \
		--agg 'min(work) by cpu' --agg 'max(work) by cpu' --agg 'stats(work) by dev' <polls.txt)"
bar() { printf '%*s' "$1" '' | tr ' ' @; printf '%*s|' $((52 - $1)) ''; }
check_eq "--hist work: bpftrace's log2 buckets from (..., 0) to [2K, 4K), bars of 52 for the largest" "@work:
(..., 0)               1 |$(bar 26)
[0]                    1 |$(bar 26)
[1]                    1 |$(bar 26)
[2, 4)                 1 |$(bar 26)
[4, 8)                 0 |$(bar 0)
[8, 16)                0 |$(bar 0)
[16, 32)               1 |$(bar 26)
[32, 64)               0 |$(bar 0)
[64, 128)              2 |$(bar 52)
[128, 256)             0 |$(bar 0)
[256, 512)             0 |$(bar 0)
[512, 1K)              0 |$(bar 0)
[1K, 2K)               0 |$(bar 0)
[2K, 4K)               1 |$(bar 26)" "$("$dump" --per-poll --hist work <polls.txt)"
check_eq "lhist(work, 0, 64, 8) per dev: the first to the last non-empty bucket, maps by their count" "@w[eth2]:
(..., 0)               1 |$(bar 52)
[0, 8)                 1 |$(bar 52)

@w[eth1]:
[0, 8)                 2 |$(bar 34)
[8, 16)                0 |$(bar 0)
[16, 24)               1 |$(bar 17)
[24, 32)               0 |$(bar 0)
[32, 40)               0 |$(bar 0)
[40, 48)               0 |$(bar 0)
[48, 56)               0 |$(bar 0)
[56, 64)               0 |$(bar 0)
[64, ...)              3 |$(bar 52)" "$("$dump" --per-poll --agg '@w[dev] = lhist(work, 0, 64, 8)' <polls.txt)"

# JSON, as bpftrace -f json prints maps; the time line of -I masked.
check_eq "--json: bpftrace's map, stats and hist messages" '{"type": "time", "data": "T"}
{"type": "map", "data": {"@sum_work": {"eth2": 0, "eth1": 67}}}
{"type": "stats", "data": {"@stats_work": {"count": 3, "average": 22, "total": 67}}}
{"type": "hist", "data": {"@h": {"eth2": [{"min": 0, "max": 0, "count": 1}], "eth1": [{"min": 2, "max": 3, "count": 1}, {"min": 4, "max": 7, "count": 0}, {"min": 8, "max": 15, "count": 0}, {"min": 16, "max": 31, "count": 0}, {"min": 32, "max": 63, "count": 0}, {"min": 64, "max": 127, "count": 1}]}}}
{"type": "hist", "data": {"@l": [{"max": 0, "count": 1}, {"min": 1, "max": 32, "count": 0}, {"min": 33, "max": 64, "count": 0}, {"min": 65, "count": 1}]}}
{"type": "stats", "data": {"@avg_work": 22}}
{"type": "map", "data": {"@count": 7}}' \
	"$("$dump" --per-poll -I --json --agg 'sum(work) by dev' --agg 'stats(work)' --agg '@h = hist(work) by dev' \
		--agg '@l = lhist(packets, 1, 65, 32)' --agg 'avg(work)' --agg 'count()' <mixed.txt |
		sed 's/"data": "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\n"/"data": "T"/')"

# -I: each interval printed at the next tick with its time, polls after a
# tick counted in the interval that tick's successor closes.
cat >intervals.txt <<'RECORDS'
poll ts=10 dev=eth1 work=5
queue ts=100 dev=eth1 packets=5
poll ts=110 dev=eth1 work=7
poll ts=120 dev=eth1 work=1
queue ts=200 dev=eth1 packets=8
poll ts=210 dev=eth1 work=9
RECORDS
check_eq "-I: per interval, the polls up to each tick with its own queue records" "T
@sum_work[eth1]: 5

@sum_packets[eth1]: 5

T
@sum_work[eth1]: 8

@sum_packets[eth1]: 8" \
	"$("$dump" --per-poll -I --agg 'sum(work) by dev' --agg 'sum(packets) by dev' <intervals.txt |
		sed 's/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/T/')"
check_eq "a counter by its event's name: the poll's reads and the queue's delta" "@bytes[eth2]: 0
@bytes[eth1]: 2006000" \
	"$("$dump" --per-poll -I --counter "$counter" --agg '@bytes[dev] = sum(bw_ssu_rpu_byte_num)' <mixed.txt |
		sed '/^[0-9:]*$/d')"
