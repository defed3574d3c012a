#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: netpmu stat over known UDP flows between eth0 and the peer
# namespace. Exact frame and byte counts in global, port, port-tc, func and
# func-queue modes, both directions; the derived values: bandwidth and packet
# rate equal to what was sent over the counted time (within 2%), latency equal
# to the device model's per-frame latency; interval deltas that add up to the
# total; multiplexing shown and scaled; counters exhausted by another perf.
. "$(dirname "$0")/../lib/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pmu=/sys/bus/event_source/devices/hns3_pmu_sicl_0
if [ ! -d $pmu ]; then
	fail "hns3_pmu_sicl_0 is registered" "no $pmu (is netpmu.ko loaded?)"
	exit 0
fi
clk=$(cat $pmu/hw_clk_freq)
export REPO tmp

# flow N SIZE FROM: N datagrams of SIZE bytes, from "root" (eth0) or "peer" (eth1).
flow() {
	local n=$1 size=$2 from=$3 to=198.51.100.2 rx_ns="ip netns exec peer" tx_ns=""
	if [ "$from" = peer ]; then to=198.51.100.1 rx_ns="" tx_ns="ip netns exec peer"; fi
	rm -f "$tmp/ready"
	$rx_ns "$REPO/tests/lib/udp_flow.py" recv --port 9200 --count "$n" --timeout 20 --ready "$tmp/ready" \
		>"$tmp/recv.out" &
	local recv=$!
	for _ in $(seq 100); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
	$tx_ns "$REPO/tests/lib/udp_flow.py" send --to $to --port 9200 --count "$n" --size "$size" \
		--gap-us "${GAP_US:-0}" >/dev/null
	wait $recv
}
export -f flow

# stat_flow N SIZE FROM NETPMU-ARGS...: netpmu stat -x';' over the flow; CSV in $tmp/csv.
stat_flow() {
	local n=$1 size=$2 from=$3
	shift 3
	"$NETPMU" stat -x';' "$@" -- bash -c "flow $n $size $from" 2>"$tmp/csv"
}
col() { cut -d';' -f"$1" "$tmp/csv" | paste -sd' '; }

# Exact counts, eth0 -> peer: eth0 transmits (TX events), eth1 receives (RX events).
n=50 size=300 frame=342
stat_flow $n $size root -e hns3_pmu_sicl_0/bw_ssu_egu_byte_num,global=1/ \
	-e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ -e hns3_pmu_sicl_0/pps_ssu_egu_packet_num,global=1/ \
	-e hns3_pmu_sicl_0/bw_tpu_ssu_byte_num,port=0,tc=0xf/ -e hns3_pmu_sicl_0/bw_tpu_ssu_byte_num,port=0,tc=0/ \
	-e hns3_pmu_sicl_0/bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff/ \
	-e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,dev=eth0,queue=0xffff/
check_eq "eth0 -> peer, $n x $frame-byte frames: TX/RX global, TX port, port-tc, func; eth0's RX 0" \
	"$((n * frame)) $((n * frame)) $n $((n * frame)) $((n * frame)) $((n * frame)) 0" "$(col 1)"

# func-queue: one counter per queue of eth0 (RSS/XPS pick the queue); they add up.
queues=$(ls -d /sys/class/net/eth0/queues/tx-* | wc -l)
per_queue() {
	local event=$1 q
	for q in $(seq 0 $((queues - 1))); do
		printf -- '-e hns3_pmu_sicl_0/%s,dev=eth0,queue=%d/ ' "$event" "$q"
	done
}
stat_flow $n $size root $(per_queue pps_tpu_ssu_packet_num) $(per_queue bw_tpu_ssu_byte_num)
check_eq "func-queue: eth0's $queues TX queues add up to the $n frames and their bytes" \
	"$n $((n * frame))" "$(awk -F';' -v q=$queues 'NR <= q { f += $1; next } { b += $1 } END { print f, b }' "$tmp/csv")"

# And back: the peer sends, eth0 receives.
n=30 size=1000 frame=1042
stat_flow $n $size peer -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,dev=eth0,queue=0xffff/ \
	-e hns3_pmu_sicl_0/bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff/ \
	-e hns3_pmu_sicl_0/pps_igu_ssu_packet_num,port=0,tc=0xf/ $(per_queue pps_rpu_rcbrx_packet_num)
check_eq "peer -> eth0, $n x $frame-byte frames: eth0's RX bytes (func) and frames (port), its TX 0" \
	"$((n * frame)) 0 $n" "$(head -n 3 "$tmp/csv" | cut -d';' -f1 | paste -sd' ')"
check_eq "func-queue: eth0's RX queues add up to the $n frames" "$n" \
	"$(awk -F';' 'NR > 3 { f += $1 } END { print f }' "$tmp/csv")"

# Metrics. Bandwidth and packet rate: what was sent over the time counted
# (the counter's running time), within 2%; latency: exactly the model's
# per-frame latency, 1000 ns + the frame's serialization at 10 Gb/s, in cycles.
n=200 size=1000 frame=1042
GAP_US=2000 stat_flow $n $size root -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/ \
	-e hns3_pmu_sicl_0/pps_ssu_rpu,global=1/ -e hns3_pmu_sicl_0/dly_rpu,global=1/
check_eq "metrics: 6 counters, the metric on each pair's counter 0" \
	"bytes/s bw_ssu_rpu||packets/s pps_ssu_rpu||ns dly_rpu|" "$(cut -d';' -f7 "$tmp/csv" | paste -sd'|')"
python3 - "$tmp/csv" $n $frame "$clk" >"$tmp/check" <<'PY'
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
n, frame, clk = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bw, bw_time, pps, pps_time, lat, lat_pkts = rows
def near(value, want):
    return "ok" if abs(value - want) <= 0.02 * want else f"{value:.1f} is not within 2% of {want:.1f}"
seconds = int(bw[3]) / 1e9
print("bytes", int(bw[0]), "frames", int(pps[0]), "latency frames", int(lat_pkts[0]))
print("time counter vs running time:", near(int(bw_time[0]) / clk, seconds))
print("bandwidth vs bytes / time counted:", near(float(bw[5]), n * frame / seconds))
print("packet rate vs frames / time counted:", near(float(pps[5]), n / int(pps[3]) * 1e9))
cycles = clk * 1000 // 10**9 + frame * 8 * clk // (10000 * 10**6)
print("latency ns:", lat[5], "model:", "%.3f" % (cycles * 1e9 / clk))
PY
check_eq "metrics: the counts behind them" "bytes $((n * frame)) frames $n latency frames $n" "$(sed -n 1p "$tmp/check")"
check_eq "bw_ssu_rpu_time / hw_clk_freq equals the counter's running time (2%)" \
	"time counter vs running time: ok" "$(sed -n 2p "$tmp/check")"
check_eq "derived bandwidth equals the bytes sent / the time counted (2%)" \
	"bandwidth vs bytes / time counted: ok" "$(sed -n 3p "$tmp/check")"
check_eq "derived packet rate equals the frames sent / the time counted (2%)" \
	"packet rate vs frames / time counted: ok" "$(sed -n 4p "$tmp/check")"
latency=$(sed -n 5p "$tmp/check" | awk '{ print $5 }')
check_eq "derived latency equals the model's latency of a $frame-byte frame" \
	"latency ns: $latency model: $latency" "$(sed -n 5p "$tmp/check")"
check_eq "the model's latency of a $frame-byte frame is 1830 ns (100 + 83 cycles at 100 MHz)" "1830.000" "$latency"

# Human form with the metric comment; JSON lines with it.
"$NETPMU" stat -e hns3_pmu_sicl_0/dly_rpu,global=1/ -- bash -c "flow 10 300 root" 2>"$tmp/std"
check_eq "human form: the latency metric after its counter 0" \
	"# 1270.000 ns dly_rpu" "$(grep -o '# .*' "$tmp/std" | head -n 1 | tr -s ' ')"
"$NETPMU" stat -j -e hns3_pmu_sicl_0/dly_rpu,global=1/ -- bash -c "flow 10 300 root" 2>"$tmp/json"
check_eq "JSON: metric-value, metric-unit, metric-name on counter 0's line" "1270.0 ns dly_rpu None" \
	"$(python3 -c '
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
print(round(a["metric-value"], 1), a["metric-unit"], a["metric-name"], b.get("metric-value"))' "$tmp/json")"

# Intervals: the deltas add up to the flow.
n=100 size=500 frame=542
GAP_US=5000 "$NETPMU" stat -I 100 -x';' -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ \
	-- bash -c "flow $n $size root" 2>"$tmp/iv"
intervals=$(wc -l <"$tmp/iv")
check_eq "-I 100: interval deltas add up to the $n frames sent ($intervals intervals)" "$((n * frame))" \
	"$(awk -F';' '{ sum += $2 } END { print sum }' "$tmp/iv")"
if [ "$intervals" -ge 3 ]; then pass "-I 100 over a flow of >= 0.5 s printed $intervals intervals"
else fail "-I 100 over a flow of >= 0.5 s printed several intervals" "$intervals"; fi

# Multiplexing: 9 distinct events in 9 groups share the 8 counters.
args=()
for e in bw_ssu_egu bw_ssu_rpu bw_ssu_roce bw_roce_ssu bw_tpu_ssu bw_rpu_rcbrx bw_rcbtx_txsch bw_wr_fbd bw_wr_ebd; do
	args+=(-e "hns3_pmu_sicl_0/${e}_byte_num,global=1/")
done
GAP_US=2000 stat_flow 200 300 root "${args[@]}"
check_eq "9 events on 8 counters: each ran part of the time (pcnt-running below 100)" "9" \
	"$(awk -F';' '$5 < 100 && $5 > 0' "$tmp/csv" | wc -l)"
python3 - "$tmp/csv" $((200 * 342)) >"$tmp/check" <<'PY'
import sys
rows = [l.split(";") for l in open(sys.argv[1])]
rpu = rows[1]
# Scaled: raw x enabled / running, as perf does; near the true count, not equal.
print("scaled" if abs(int(rpu[0]) - int(sys.argv[2])) <= 0.5 * int(sys.argv[2]) else f"{rpu[0]} far from {sys.argv[2]}")
PY
check_eq "a multiplexed count is scaled to the whole time (within 50% of the true count)" scaled "$(cat "$tmp/check")"
"$NETPMU" stat "${args[@]}" -- sleep 0.3 2>"$tmp/std"
check_eq "human form marks multiplexed counts with their running share, as perf" 9 \
	"$(grep -cE '\([0-9]+\.[0-9]{2}%\)$' "$tmp/std")"

# PCIe PMU: its metrics are the documented ratios of the counts shown.
pcie=$(ls /sys/bus/event_source/devices | grep -m1 '^hisi_pcie')
if [ -z "$pcie" ]; then
	skip "PCIe metrics: flux / time and latency / cnt of the counts shown" "no hisi_pcie PMU registered in this guest"
else
	GAP_US=1000 stat_flow 100 1000 root -e "$pcie/rx_mrd_bw,dev=eth0/" -e "$pcie/rx_mwr_bw,dev=eth0/" \
		-e "$pcie/rx_mwr_lat,port=0xffff/"
	python3 - "$tmp/csv" >"$tmp/check" <<'PY'
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
for c0, c1 in zip(rows[0::2], rows[1::2]):
    want = "%.3f" % (int(c0[0]) / int(c1[0])) if int(c1[0]) else ""
    print(c0[6], "ok" if c0[5] == want else f"{c0[5]} is not {c0[0]} / {c1[0]}")
PY
	check_eq "PCIe metrics: flux / time and latency / cnt of the counts shown, units as undocumented" \
		"bytes/time-unit rx_mrd_bw ok|bytes/time-unit rx_mwr_bw ok|cycles/TLP rx_mwr_lat ok" "$(paste -sd'|' "$tmp/check")"
	check_eq "PCIe: eth0's DMA of 100 frames counted (some flux)" yes \
		"$(awk -F';' 'NR % 2 && NR < 5 { sum += $1 } END { print (sum > 0 ? "yes" : "no: " sum) }' "$tmp/csv")"
fi

# Counters exhausted: another perf holds all 8 counters.
args=()
for e in bw_ssu_egu bw_ssu_rpu bw_ssu_roce bw_roce_ssu bw_tpu_ssu bw_rpu_rcbrx bw_rcbtx_txsch bw_wr_fbd; do
	args+=(-e "hns3_pmu_sicl_0/${e}_byte_num,global=1/")
done
perf stat -a "${args[@]}" -- sleep 8 2>/dev/null &
holder=$!
sleep 3
"$NETPMU" stat -e hns3_pmu_sicl_0/pps_ssu_rpu,global=1/ -- true 2>"$tmp/err"
check_eq "counters exhausted: status 1 and one line saying so" \
	"1 netpmu stat: cannot open hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/: counters exhausted: hns3_pmu_sicl_0's 8 hardware counters are taken (by other perf users or this command's events); close other counters or count fewer events" \
	"$? $(cat "$tmp/err")"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
true
