#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: merged PMU names over two HNS3 instances. A second instance,
# hns3_pmu_sicl_5, is created on eth1 through /sys/bus/netpmu_sim beside
# hns3_pmu_sicl_0 (which counts every NIC); over a known UDP flow eth0 ->
# eth1, netpmu stat -e hns3_pmu_sicl/... prints exactly the sum of the two
# instances' counts, which it also shows one by one with --no-merge, and
# which the same run's explicit per-instance counters and perf stat agree
# with; a merged metric adds the instances' bandwidths and averages their
# latency; a bdf filter counts on the instances whose range holds it.
. "$(dirname "$0")/../lib/tap.sh"
plan 11
kind exact

tmp=$(mktemp -d)
sim=/sys/bus/netpmu_sim
cleanup() {
	[ -d /sys/bus/event_source/devices/hns3_pmu_sicl_5 ] && echo 5 >$sim/del_device
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ ! -d /sys/bus/event_source/devices/hns3_pmu_sicl_0 ] || [ ! -w $sim/new_device ]; then
	fail "hns3_pmu_sicl_0 and $sim are there" "is netpmu.ko loaded?"
	exit 0
fi
if ! echo "5 netdevs=eth1" >$sim/new_device; then
	fail "new_device '5 netdevs=eth1'" "the write failed"
	exit 0
fi
export REPO tmp

# flow N SIZE: N datagrams of SIZE bytes from eth0 to eth1 (in namespace peer).
flow() {
	rm -f "$tmp/ready"
	ip netns exec peer "$UDP_FLOW" recv --port 9500 --count "$1" --timeout 20 \
		--ready "$tmp/ready" >"$tmp/recv.out" &
	local recv=$!
	wait_until 10 test -e "$tmp/ready"
	"$UDP_FLOW" send --to 198.51.100.2 --port 9500 --count "$1" --size "$2" \
		--gap-us "${GAP_US:-0}" >/dev/null
	wait $recv
}
export -f flow

n=40 size=300 frame=342
rx=hns3_pmu_sicl/bw_ssu_rpu_byte_num,global=1/
pkts=hns3_pmu_sicl/pps_ssu_rpu_packet_num,global=1/
# Both instances count eth1's received frames: hns3_pmu_sicl_0 all NICs', hns3_pmu_sicl_5 eth1's.
"$NETPMU" stat -x';' -e "$rx" -e "$pkts" -- bash -c "flow $n $size" 2>"$tmp/csv"
check_eq "merged: one line each, the sum of both instances: 2 x $n x $frame bytes, 2 x $n frames" \
	"$((2 * n * frame));;$rx|$((2 * n));;$pkts" "$(cut -d';' -f1-3 "$tmp/csv" | paste -sd'|')"
cpu0=$(cat /sys/bus/event_source/devices/hns3_pmu_sicl_0/cpumask)
cpu5=$(cat /sys/bus/event_source/devices/hns3_pmu_sicl_5/cpumask)
"$NETPMU" stat -x';' --no-merge -e "$rx" -e "$pkts" -- bash -c "flow $n $size" 2>"$tmp/csv"
check_eq "--no-merge: a line per instance, led by its CPU, with its own count" \
	"CPU$cpu0;$((n * frame));;hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/|CPU$cpu5;$((n * frame));;hns3_pmu_sicl_5/bw_ssu_rpu_byte_num,global=1/|CPU$cpu0;$n;;hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/|CPU$cpu5;$n;;hns3_pmu_sicl_5/pps_ssu_rpu_packet_num,global=1/" \
	"$(cut -d';' -f1-4 "$tmp/csv" | paste -sd'|')"

# One run: the merged line equals the sum of the same run's explicit per-instance counters.
"$NETPMU" stat -x';' -e "$rx" -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ \
	-e hns3_pmu_sicl_5/bw_ssu_rpu_byte_num,global=1/ -- bash -c "flow 25 1000" 2>"$tmp/csv"
check_eq "one run: merged = hns3_pmu_sicl_0 + hns3_pmu_sicl_5 (25 x 1042 bytes each)" \
	"$((2 * 25 * 1042)) = $((25 * 1042)) + $((25 * 1042))" \
	"$(cut -d';' -f1 "$tmp/csv" | paste -sd' ' | awk '{ print $1, "=", $2, "+", $3 }')"

# perf stat as oracle: its merged line and its per-instance lines.
if command -v perf >/dev/null; then
	perf stat -a -x';' -o "$tmp/perf" -e "$rx" -- bash -c "flow $n $size"
	check_eq "perf stat -e $rx: the same sum" "$((2 * n * frame))" "$(grep -v '^#' "$tmp/perf" | grep . | cut -d';' -f1)"
	perf stat -a -x';' --no-merge -o "$tmp/perf" -e "$rx" -- bash -c "flow $n $size"
	check_eq "perf stat --no-merge: the same count on each instance" "$((n * frame)) $((n * frame))" \
		"$(grep -v '^#' "$tmp/perf" | grep . | awk -F';' '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+$/) { print $i; break } }' | paste -sd' ')"
else
	skip "perf stat as oracle of the merged sum" "perf is not installed"
fi

# Metrics: bandwidth adds up over the instances, latency is the mean over all frames.
n=200 size=1000 frame=1042
GAP_US=2000 "$NETPMU" stat -x';' -e hns3_pmu_sicl/bw_ssu_rpu,global=1/ \
	-e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/ -e hns3_pmu_sicl_5/bw_ssu_rpu,global=1/ \
	-e hns3_pmu_sicl/dly_rpu,global=1/ -- bash -c "flow $n $size" 2>"$tmp/csv"
python3 - "$tmp/csv" >"$tmp/check" <<'PY'
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
merged, _, one, _, five, _, lat, lat_pkts = rows
print("rows", len(rows), merged[2], merged[6], lat[2], lat[6])
total, parts = float(merged[5]), float(one[5]) + float(five[5])
print("bandwidth", "ok" if abs(total - parts) <= 0.01 * parts else f"{total} is not {one[5]} + {five[5]}")
print("latency", lat[5], "frames", lat_pkts[0])
PY
check_eq "merged metric lines: named as written, the metric on counter 0's line" \
	"rows 8 hns3_pmu_sicl/bw_ssu_rpu_byte_num,global=1/ bytes/s bw_ssu_rpu hns3_pmu_sicl/dly_rpu_time,global=1/ ns dly_rpu" \
	"$(sed -n 1p "$tmp/check")"
TAP_KIND="weak: a 1% tolerance, the instances' running times differ by their add paths" \
	check_eq "merged bandwidth = hns3_pmu_sicl_0's + hns3_pmu_sicl_5's of the same run (1%)" "bandwidth ok" \
	"$(sed -n 2p "$tmp/check")"
# The model's latency of a 1042-byte frame at 100 MHz: 100 + 83 cycles (stat_counts.sh).
check_eq "merged latency = the model's per-frame latency over all $((2 * n)) frames of both instances" \
	"latency 1830.000 frames $((2 * n))" "$(sed -n 3p "$tmp/check")"

# Filters per instance: eth0 (01:00.0) is outside hns3_pmu_sicl_5's range, eth1 (02:00.1) inside both.
n=30 size=300 frame=342
"$NETPMU" stat -x';' -e hns3_pmu_sicl/bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff/ \
	-e hns3_pmu_sicl/bw_ssu_rpu_byte_num,bdf=02:00.1,queue=0xffff/ -- bash -c "flow $n $size" 2>"$tmp/csv"
check_eq "dev=eth0: counted on hns3_pmu_sicl_0 alone; bdf=02:00.1 (eth1): on both" \
	"$((n * frame)) $((2 * n * frame))" "$(cut -d';' -f1 "$tmp/csv" | paste -sd' ')"
"$NETPMU" stat --explain -e hns3_pmu_sicl/bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff/ >"$tmp/explain"
check_eq "--explain names hns3_pmu_sicl_5 as left out, with the driver's reason" \
	"hns3_pmu_sicl_5/bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff/|  left out:  bdf: 0000:01:00.0 is outside the functions hns3_pmu_sicl_5 counts (bdf_min 02:00.1, bdf_max 02:00.1): the driver refuses it (ENOENT)" \
	"$(grep -B1 'left out:' "$tmp/explain" | paste -sd'|')"
if command -v perf >/dev/null; then
	perf stat -a -x';' -o "$tmp/perf" -e hns3_pmu_sicl/bw_tpu_ssu_byte_num,bdf=0x100,queue=0xffff/ \
		-- bash -c "flow $n $size"
	check_eq "perf (opening both, hns3_pmu_sicl_5's driver refusing eth0's bdf) counts what netpmu counts" \
		"$((n * frame))" "$(grep -v '^#' "$tmp/perf" | grep . | cut -d';' -f1)"
fi
