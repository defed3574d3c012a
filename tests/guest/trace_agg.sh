#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: trace's bpftrace-style aggregations over a known flow to eth1
# (the HNS3 model's NIC, queue 0, in namespace peer), with the NIC's own
# counters beside the kernel's: per poll, sum(work) per device and the
# kernel-filtered polls of eth1; per interval, over eth1's RX queue records
# (dir == 1), sum(packets) and the sums of the func-queue packet and byte
# counters per queue. Oracles: the datagrams
# the peer received and the frames they make on the wire (size + 42 bytes).
# Three tracers run over the same flow: per-poll with the --where tested in
# the kernel, the same with --no-kernel-filter, and -I with the counters.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth1.sh"
plan 8
kind exact
tmp=$(mktemp -d)
pids=()
cleanup() {
	interrupt_and_reap "${pids[@]}"
	rm -rf "$tmp"
}
trap cleanup EXIT

n=150 size=400 frame=442
bdf=$(hns3_bdf "$(eth1_pci)")
pps="hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=$bdf,queue=0/"
bytes="hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,bdf=$bdf,queue=0/"
where='dev == "eth1" && work >= 1'

"$NETPMU" trace --per-poll -d 120 --where "$where" --agg '@work[dev] = sum(work)' --agg '@polls = count()' \
	--agg '@w = lhist(work, 0, 64, 8)' >"$tmp/kernel.txt" 2>"$tmp/kernel.err" &
pids+=($!)
"$NETPMU" trace --per-poll -d 120 --where "$where" --no-kernel-filter --agg '@work[dev] = sum(work)' \
	--agg '@polls = count()' --agg '@w = lhist(work, 0, 64, 8)' >"$tmp/user.txt" 2>"$tmp/user.err" &
pids+=($!)
"$NETPMU" trace -I 300 -d 120 -e "$pps" -e "$bytes" --where 'dev == "eth1" && dir == 1' \
	--agg '@packets[queue] = sum(packets)' --agg '@hw_packets[queue] = sum(pps_ssu_rpu_packet_num)' \
	--agg '@hw_bytes[queue] = sum(bw_ssu_rpu_byte_num)' >"$tmp/intervals.txt" 2>"$tmp/intervals.err" &
pids+=($!)
attached() { grep -q tracing "$tmp/kernel.err" && grep -q tracing "$tmp/user.err" && grep -q tracing "$tmp/intervals.err"; }
wait_until 30 attached
TAP_KIND="weak: setup, the 'tracing' lines; the sums below are the evidence" \
	check_cmd "three netpmu traces attached" attached
for pid in "${pids[@]}"; do wait_sigint_handled "$pid"; done

"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count $n --size $size \
	--gap-us 2000 --report "$tmp/recv.out" >/dev/null
check_eq "the peer received the $n datagrams" "received $n datagrams $((n * size)) bytes" "$(cat "$tmp/recv.out")"
# -I 300: two more intervals, so that the flow's last polls are in one.
sleep 0.7
for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null; done
wait "${pids[@]}"
pids=()

map_value() { sed -n "s/^$2: //p" "$1"; }
sum_intervals() { awk -v key="$2: " 'index($0, key) == 1 { n += substr($0, length(key) + 1) } END { print n + 0 }' "$1"; }
check_eq "per poll, '$where' in the kernel: @work[eth1] = sum(work) = the $n datagrams" $n \
	"$(map_value "$tmp/kernel.txt" '@work\[eth1\]')"
check_eq "the same with --no-kernel-filter: the $n datagrams" $n "$(map_value "$tmp/user.txt" '@work\[eth1\]')"
check_eq "both kept the same polls: count() and the lhist(work) lines are the same" \
	"$(sed -n '/^@polls:/p; /^@w:$/,/^$/p' "$tmp/user.txt")" "$(sed -n '/^@polls:/p; /^@w:$/,/^$/p' "$tmp/kernel.txt")"
TAP_KIND=golden check_cmd "the kernel filter left polls out (eth1's idle ones and the other NICs'); --no-kernel-filter none" \
	sh -c "grep -qE ': [1-9][0-9]* polls left out in the kernel by 2 of' '$tmp/kernel.err' &&
		! grep -q 'left out in the kernel' '$tmp/user.err'"
echo "# $(grep -o '[0-9]* polls left out.*' "$tmp/kernel.err")"
check_eq "-I 300, summed over the intervals: @packets[0] = sum(packets) of eth1's RX queue 0 = the $n datagrams" \
	$n "$(sum_intervals "$tmp/intervals.txt" '@packets[0]')"
check_eq "the NIC's own counters beside it: sum(pps_ssu_rpu_packet_num) = $n frames, sum(bw_ssu_rpu_byte_num) = $n x $frame bytes" \
	"$n $((n * frame))" \
	"$(sum_intervals "$tmp/intervals.txt" '@hw_packets[0]') $(sum_intervals "$tmp/intervals.txt" '@hw_bytes[0]')"
