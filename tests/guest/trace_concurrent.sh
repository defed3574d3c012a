#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Three counters of the same events at once on one HNS3 PMU: real perf stat,
# netpmu stat and netpmu trace (its counters read by BPF at each tick), each
# exact against one known flow; rmmod netpmu is refused while they hold the
# counters, and changes nothing.
# Oracles: datagrams sent x frame size; the module still loaded (lsmod).
. "$(dirname "$0")/../lib/tap.sh"
plan 8

count=40 size=300
frame=$((size + 8 + 20 + 14))	# UDP + IPv4 + Ethernet headers
bytes=hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/
packets=hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export tmp REPO count size

"$NETPMU" trace --json -I 200 -e $bytes -e $packets -d 120 >"$tmp/trace.json" 2>"$tmp/trace.err" &
trace_pid=$!
wait_line "$tmp/trace.err" tracing
# perf opens its counters, then runs netpmu stat, which opens its own, then
# runs the flow: rmmod is tried while all six are open.
perf stat -x, -a -e $bytes -e $packets -o "$tmp/perf.csv" -- \
	"$NETPMU" stat -x';' -e $bytes -e $packets -o "$tmp/stat.csv" -- bash -c '
		rmmod netpmu 2>"$tmp/rmmod.err"
		echo $? >"$tmp/rmmod.rc"
		lsmod | awk '\''$1 == "netpmu" { print "loaded" }'\'' >"$tmp/lsmod"
		"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 \
			--count $count --size $size --gap-us 2000 --report "$tmp/recv.out"'
TAP_KIND=golden check_eq "perf stat -- netpmu stat -- the flow exits 0" 0 $?
wait_sigint_handled $trace_pid && kill -INT $trace_pid
wait $trace_pid
TAP_KIND=golden check_eq "netpmu trace, stopped by Ctrl-C, exits 0" 0 $?
sed 's/^/  trace: /' "$tmp/trace.err"

kind exact
check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
check_eq "rmmod netpmu while perf, netpmu stat and netpmu trace hold counters fails; the module stays" \
	"1 loaded" "$(cat "$tmp/rmmod.rc") $(cat "$tmp/lsmod")"
TAP_KIND=golden check_eq "rmmod says the module is in use" "rmmod: ERROR: Module netpmu is in use" \
	"$(cat "$tmp/rmmod.err")"
expected="$((count * frame)) $count"
check_eq "perf stat's counts = $count x $frame bytes, $count frames" "$expected" \
	"$(grep -v '^#' "$tmp/perf.csv" | grep -E 'bw_ssu_rpu|pps_ssu_rpu' | cut -d, -f1 | paste -sd' ')"
check_eq "netpmu stat's counts at the same time = $count x $frame bytes, $count frames" "$expected" \
	"$(grep -v '^#' "$tmp/stat.csv" | grep -E 'bw_ssu_rpu|pps_ssu_rpu' | cut -d';' -f1 | paste -sd' ')"
check_eq "netpmu trace's counter deltas summed over the run = $count x $frame bytes, $count frames" "$expected" \
	"$(python3 -c '
import json, sys
sums = [0, 0]
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "counters":
        for i, c in enumerate(r["counters"]):
            sums[i] += c["delta"]
print(*sums)' "$tmp/trace.json")"
