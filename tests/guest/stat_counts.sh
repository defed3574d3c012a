#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: netpmu stat over known UDP flows between eth0 and the peer
# namespace. Exact frame and byte counts in global, port, port-tc, func and
# func-queue modes, both directions (oracle: datagrams sent x frame size);
# the derived values: the upstream formulas over the counts shown, the time
# counter against perf's running time (tolerance: tests/lib/time_counter.py),
# latency equal to the device model's documented per-frame latency; interval
# deltas that add up to the total; multiplexed counts scaled as perf scales
# them, their raw counts adding up to 8 counters x the datagrams sent, in
# total and interval by interval;
# counters exhausted by another perf.
. "$(dirname "$0")/../lib/tap.sh"
plan 27
kind exact

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
	$rx_ns "$UDP_FLOW" recv --port 9200 --count "$n" --timeout 20 --ready "$tmp/ready" \
		>"$tmp/recv.out" &
	local recv=$!
	wait_until 10 test -e "$tmp/ready"
	$tx_ns ${TX_PIN:+taskset -c "$TX_PIN"} "$UDP_FLOW" send --to $to --port 9200 --count "$n" --size "$size" \
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

# Metrics. The counts behind them are exact (oracle: datagrams sent x frame
# size); each metric is the upstream formula over the two counts shown
# (bytes x hw_clk_freq / time, frames x hw_clk_freq / time, time / frames /
# hw_clk_freq), compared to netpmu's 3 printed decimals; the latency is the
# model's documented per-frame latency (kmod/README.md "Events"). The time
# counter against perf's running time: see tests/lib/time_counter.py.
n=200 size=1000 frame=1042
GAP_US=2000 stat_flow $n $size root -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/ \
	-e hns3_pmu_sicl_0/pps_ssu_rpu,global=1/ -e hns3_pmu_sicl_0/dly_rpu,global=1/
TAP_KIND=golden check_eq "metrics: 6 counters, the metric on each pair's counter 0" \
	"bytes/s bw_ssu_rpu||packets/s pps_ssu_rpu||ns dly_rpu|" "$(cut -d';' -f7 "$tmp/csv" | paste -sd'|')"
python3 - "$tmp/csv" $n $frame "$clk" "$REPO/tests/lib" >"$tmp/check" <<'PY'
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
n, frame, clk = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bw, bw_time, pps, pps_time, lat, lat_pkts = rows
print("bytes", int(bw[0]), "frames", int(pps[0]), "latency frames", int(lat_pkts[0]))
# The time counter against perf's running time: 1 cycle per fold (3 reads)
# plus the add/del path (tests/lib/time_counter.py says why). 2% of the
# flow's 0.4 s or more was 8 ms or more.
sys.path.insert(0, sys.argv[5])
from time_counter import check_time
ok, dev, tol = check_time(int(bw_time[0]), clk, int(bw[3]), folds=3)
print("time counter vs running time:", "ok" if ok else f"{dev} ns off (> {tol})")
print("  deviation ns:", dev, file=sys.stderr)
def metric(c0, c1, formula):
    return "%.3f" % formula(int(c0), int(c1)) if int(c1) else ""
checks = [
    ("bandwidth = bytes x clk / time", bw, bw_time, lambda b, t: b * clk / t),
    ("packet rate = frames x clk / time", pps, pps_time, lambda f, t: f * clk / t),
    ("latency = time / frames / clk x 1e9", lat, lat_pkts, lambda t, f: t / f / clk * 1e9),
]
for what, c0, c1, formula in checks:
    want = metric(c0[0], c1[0], formula)
    print(what + ":", "ok" if c0[5] == want else f"{c0[5]} is not {want}")
cycles = clk * 1000 // 10**9 + frame * 8 * clk // (10000 * 10**6)
print("latency ns:", lat[5], "model:", "%.3f" % (cycles * 1e9 / clk))
PY
check_eq "metrics: the counts behind them (oracle: $n datagrams x $frame-byte frames)" \
	"bytes $((n * frame)) frames $n latency frames $n" "$(sed -n 1p "$tmp/check")"
TAP_KIND="weak: a tolerance, the clock's resolution and the add/del path derived in tests/lib/time_counter.py" \
	check_eq "bw_ssu_rpu_time / hw_clk_freq equals the counter's running time (oracle: perf's time; 3 cycles + add/del path)" \
	"time counter vs running time: ok" "$(sed -n 2p "$tmp/check")"
check_eq "derived bandwidth = bytes x hw_clk_freq / time of the counts shown (oracle: upstream formula)" \
	"bandwidth = bytes x clk / time: ok" "$(sed -n 3p "$tmp/check")"
check_eq "derived packet rate = frames x hw_clk_freq / time of the counts shown (oracle: upstream formula)" \
	"packet rate = frames x clk / time: ok" "$(sed -n 4p "$tmp/check")"
check_eq "derived latency = time / frames / hw_clk_freq of the counts shown (oracle: upstream formula)" \
	"latency = time / frames / clk x 1e9: ok" "$(sed -n 5p "$tmp/check")"
latency=$(sed -n 6p "$tmp/check" | awk '{ print $5 }')
TAP_KIND=model check_eq "derived latency equals the model's latency of a $frame-byte frame (oracle: kmod/README.md formula)" \
	"latency ns: $latency model: $latency" "$(sed -n 6p "$tmp/check")"
TAP_KIND=model check_eq "the model's latency of a $frame-byte frame is 1830 ns (100 + 83 cycles at 100 MHz)" "1830.000" "$latency"

# Human form with the metric comment; JSON lines with it.
"$NETPMU" stat -e hns3_pmu_sicl_0/dly_rpu,global=1/ -- bash -c "flow 10 300 root" 2>"$tmp/std"
TAP_KIND=golden check_eq "human form: the latency metric after its counter 0" \
	"# 1270.000 ns dly_rpu" "$(grep -o '# .*' "$tmp/std" | head -n 1 | tr -s ' ')"
"$NETPMU" stat -j -e hns3_pmu_sicl_0/dly_rpu,global=1/ -- bash -c "flow 10 300 root" 2>"$tmp/json"
TAP_KIND=golden check_eq "JSON: metric-value, metric-unit, metric-name on counter 0's line; counter 1 has perf's no-metric value" "1270.0 ns dly_rpu 0.000000" \
	"$(python3 -c '
import json, sys
a, b = [json.loads(l) for l in open(sys.argv[1])]
print(round(a["metric-value"], 1), a["metric-unit"], a["metric-name"], b.get("metric-value"))' "$tmp/json")"

# Intervals: the deltas add up to the flow.
n=100 size=500 frame=542
GAP_US=5000 "$NETPMU" stat -I 100 -x';' -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ \
	-- bash -c "flow $n $size root" 2>"$tmp/iv"
intervals=$(wc -l <"$tmp/iv")
check_eq "-I 100: interval deltas add up to the $n frames sent" "$((n * frame))" \
	"$(awk -F';' '{ sum += $2 } END { print sum }' "$tmp/iv")"
TAP_KIND="weak: how many intervals a flow spans depends on scheduling; their sum is checked exactly above" \
	check_cmd "-I 100 over a flow of >= 0.5 s printed several intervals" test "$intervals" -ge 3

# Multiplexing: 9 events in 9 groups share the 8 counters, all counting
# eth0's transmitted frames. perf rotates the groups with interrupts off on
# the counting CPU, and the sender runs on that CPU too (the model counts a
# frame where it is sent), so every frame is counted by exactly 8 of the 9
# events: the raw counts add up to 8 x the datagrams sent (oracle). netpmu
# prints only scaled counts, so each raw count is recovered as the whole
# number k of frames (raw = k x 342 bytes, or k frames) whose scaling,
# raw x enabled / running, gives the printed count, with enabled / running
# from the printed running share (2 decimals: +-0.005 points).
# mux_check N FRAME RULE: RULE "either" accepts the scaled value truncated
# (perf) or rounded; "trunc" only libperf's perf_counts_values__scale,
# (u64)(val * ena / run).
mux_check() {
	python3 - "$tmp/csv" "$@" <<'PY'
import itertools, math, sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
n, frame, rule = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cands, unscaled_out = [], 0
for r in rows:
    s, pct, unit = int(r[0]), float(r[4]), frame if "byte_num" in r[2] else 1
    lo = lambda k: math.floor(k * unit * 100 / (pct + 0.005))
    hi = lambda k: math.floor(k * unit * 100 / (pct - 0.005)) + (rule == "either")
    ks = [k for k in range(n + 1) if lo(k) <= s <= hi(k)]
    cands.append(ks)
    # Unscaled, the printed count would be raw = k x unit: outside the window.
    unscaled_out += bool(ks) and all(k * unit < lo(k) for k in ks)
    print(f"  {r[2]}: printed {s} at {pct}% running: raw frames {ks}", file=sys.stderr)
print("scaled" if all(cands) else
      "no whole frames scale to " + " ".join(f"{r[0]}@{r[4]}%" for r, k in zip(rows, cands) if not k))
sums = sorted(set(sum(c) for c in itertools.product(*cands))) if all(cands) else []
print(f"raw sum {8 * n}" if 8 * n in sums else f"raw sums {sums}")
print(f"unscaled outside {unscaled_out}")
PY
}
n=200 size=300 frame=342
# Nine byte events, each counting every frame eth0 transmits, for 8 counters.
byte_events=()
for e in bw_ssu_egu_byte_num,global=1 bw_ssu_egu_byte_num,port=0,tc=0xf bw_ssu_egu_byte_num,port=0,tc=0 \
	bw_tpu_ssu_byte_num,global=1 bw_tpu_ssu_byte_num,port=0,tc=0xf bw_tpu_ssu_byte_num,dev=eth0,queue=0xffff \
	bw_tpu_ssu_byte_num,dev=eth0,queue=0 bw_rcbtx_txsch_byte_num,global=1 bw_rcbtx_txsch_byte_num,dev=eth0,queue=0; do
	byte_events+=(-e "hns3_pmu_sicl_0/$e/")
done
TX_PIN=$(cat $pmu/cpumask) GAP_US=2000 stat_flow $n $size root "${byte_events[@]}"
# The 8 counters run all the time, so the running percentages add up to 800,
# but each over its own enabled time: the events are enabled one ioctl after
# another and disabled so (as perf does), so that a later one's percentage is
# of a slightly different time (801 once on x86_64 6.12 beside another guest).
TAP_KIND="weak: a tolerance of 1% (8 points): the events' enabled times differ by the ioctls between them" \
	check_eq "9 events on 8 counters: each ran part of the time, 800% in all within 1% (pcnt-running; oracle: 8 counters)" \
	"9 800+-8" "$(awk -F';' '$5 < 100 && $5 > 0 { n++ } { p += $5 }
		END { printf "%d %s", n, (p >= 792 && p <= 808 ? "800+-8" : sprintf("%.2f", p)) }' "$tmp/csv")"
mux_check $n $frame either >"$tmp/check"
check_eq "9 byte counts: each printed count is raw x enabled / running of whole $frame-byte frames" \
	"scaled" "$(sed -n 1p "$tmp/check")"
check_eq "9 byte counts: the raw counts add up to 8 counters x $n frames (oracle: datagrams sent x 8 counters running)" \
	"raw sum $((8 * n))" "$(sed -n 2p "$tmp/check")"
check_eq "an unscaled count (raw = k x $frame) would fail: it is below the scaled window of all 9 (running < enabled)" \
	"unscaled outside 9" "$(sed -n 3p "$tmp/check")"

# The same in frames: 6 of the 9 count 1 per frame, where truncating and
# rounding differ (a count 200.6 is 200 for perf, 201 rounded). Oracle: the
# raw counts that libperf's truncation maps to the printed counts add up to
# 8 x the datagrams sent.
args=()
for e in bw_ssu_egu_byte_num bw_tpu_ssu_byte_num bw_rcbtx_txsch_byte_num pps_ssu_egu_packet_num \
	pps_tpu_ssu_packet_num pps_rcbtx_tpu_packet_num pps_rcbtx_txsch_packet_num dly_tpu_packet_num \
	dly_ssu_tx_th_nic_packet_num; do
	args+=(-e "hns3_pmu_sicl_0/$e,global=1/")
done
TX_PIN=$(cat $pmu/cpumask) GAP_US=2000 stat_flow $n $size root "${args[@]}"
mux_check $n $frame trunc >"$tmp/check"
check_eq "multiplexed frame counts are perf's (u64)(raw x enabled / running), raw adding up to 8 x $n frames (oracle: libperf's scaling, datagrams sent)" \
	"scaled|raw sum $((8 * n))" "$(sed -n 1,2p "$tmp/check" | paste -sd'|')"
# Intervals under multiplexing: each -I row is the interval's own delta,
# scaled by the interval's own enabled / running (perf computes the deltas of
# count, enabled and running, then scales). So every row's printed count is
# whole frames scaled by its printed running share, and the raw deltas of
# all rows and events add up to 8 counters x the datagrams sent.
# mux_interval_check N FRAME: over $tmp/iv (-I -x';': time;count;unit;event;run;pct;...).
mux_interval_check() {
	python3 - "$tmp/iv" "$@" <<'PY'
import math, sys
n, frame = int(sys.argv[2]), int(sys.argv[3])
sums, unscaled_in, rows, bad = {0}, 0, 0, []
for line in open(sys.argv[1]):
    r = line.rstrip("\n").split(";")
    if r[1] in ("<not counted>", ""):
        continue  # ran no time in that interval: no raw count to recover
    rows += 1
    s, pct = int(r[1]), float(r[5])
    lo = lambda k: math.floor(k * frame * 100 / (pct + 0.005))
    hi = lambda k: math.floor(k * frame * 100 / (pct - 0.005)) + 1
    ks = [k for k in range(n + 1) if lo(k) <= s <= hi(k)]
    if not ks:
        bad.append(f"{r[0]}:{s}@{pct}%")
    unscaled_in += pct < 100 and s % frame == 0 and s > 0
    sums = {a + k for a in sums for k in ks if a + k <= 8 * n}
print("scaled" if not bad else "no whole frames scale to " + " ".join(bad[:5]))
print(f"raw sum {8 * n}" if 8 * n in sums else f"raw sums {sorted(sums)[-5:]}")
print(f"rows {rows}, multiplexed rows printed unscaled {unscaled_in}")
PY
}
n=200 size=300 frame=342
TX_PIN=$(cat $pmu/cpumask) GAP_US=2000 "$NETPMU" stat -I 200 -x';' "${byte_events[@]}" \
	-- bash -c "flow $n $size root" 2>"$tmp/iv"
mux_interval_check $n $frame >"$tmp/check"
sed 's/^/# /' "$tmp/check" | tail -n 1
check_eq "-I 200, 9 events on 8 counters: every row is whole $frame-byte frames x its own interval's enabled / running" \
	"scaled" "$(sed -n 1p "$tmp/check")"
check_eq "-I 200: the rows' raw deltas add up to 8 counters x $n frames (oracle: datagrams sent x 8 counters running)" \
	"raw sum $((8 * n))" "$(sed -n 2p "$tmp/check")"
"$NETPMU" stat "${args[@]}" -- sleep 0.3 2>"$tmp/std"
TAP_KIND=golden check_eq "human form marks multiplexed counts with their running share, as perf" 9 \
	"$(grep -cE '\([0-9]+\.[0-9]{2}%\)$' "$tmp/std")"

# PCIe PMU: its metrics are the documented ratios of the counts shown.
pcie=$(ls /sys/bus/event_source/devices | grep -m1 '^hisi_pcie')
if [ -z "$pcie" ]; then
	skip_checks 2 "PCIe metrics and the counts behind them" "no hisi_pcie PMU registered in this guest"
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
	TAP_KIND=golden check_eq "PCIe metrics: flux / time and latency / cnt of the counts shown, units as undocumented" \
		"bytes/time-unit rx_mrd_bw ok|bytes/time-unit rx_mwr_bw ok|cycles/TLP rx_mwr_lat ok" "$(paste -sd'|' "$tmp/check")"
	# The counts behind them, from kmod/hisi_pcie.md's TLP table (oracle):
	# eth0 sends N frames of L = 1042 bytes; per frame it reads its descriptor
	# (D) and the frame (MRRS pieces), 16-byte request headers, and writes
	# back one descriptor; eth1 writes the frame (MPS pieces) and a
	# descriptor. Latency per TLP: floor(base x clk / 1e9) + floor((header +
	# payload) x 8 x clk / (link Mb/s x 1e6)). Parameters: the module's.
	python3 - "$tmp/csv" 100 1042 >"$tmp/check" <<'PY'
import sys
rows = [l.rstrip("\n").split(";") for l in open(sys.argv[1])]
N, L = int(sys.argv[2]), int(sys.argv[3])
p = {k: int(open(f"/sys/module/netpmu/parameters/pcie_{k}").read())
     for k in ("desc_bytes", "mps", "mrrs", "clk_freq", "lat_base_ns", "link_mbps")}
D, MPS, MRRS, clk = p["desc_bytes"], p["mps"], p["mrrs"], p["clk_freq"]
ceil = lambda a, b: -(-a // b)
lat = lambda nbytes: p["lat_base_ns"] * clk // 10**9 + nbytes * 8 * clk // (p["link_mbps"] * 10**6)
pieces = [MPS] * (L // MPS) + ([L % MPS] if L % MPS else [])
want = [N * (D + L + 16 * (1 + ceil(L, MRRS))),                  # eth0's reads, payload + headers
        N * (D + 16),                                             # eth0's descriptor write-backs
        N * (lat(D + 16) + sum(lat(b + 16) for b in pieces) + lat(D + 16)),  # every rx_mwr's latency
        N * (1 + len(pieces) + 1)]                                # every rx_mwr TLP
got = [int(rows[0][0]), int(rows[2][0]), int(rows[4][0]), int(rows[5][0])]
print(" ".join(map(str, want)))
print(" ".join(map(str, got)))
PY
	TAP_KIND=model check_eq "PCIe: eth0's read flux, write-back flux, all rx_mwr latency and TLPs of 100 x 1042-byte frames (oracle: hisi_pcie.md TLP table)" \
		"$(sed -n 1p "$tmp/check")" "$(sed -n 2p "$tmp/check")"
fi

# Counters exhausted: another perf holds all 8 counters.
args=()
for e in bw_ssu_egu bw_ssu_rpu bw_ssu_roce bw_roce_ssu bw_tpu_ssu bw_rpu_rcbrx bw_rcbtx_txsch bw_wr_fbd; do
	args+=(-e "hns3_pmu_sicl_0/${e}_byte_num,global=1/")
done
perf stat -a "${args[@]}" -- sleep 60 2>/dev/null &
holder=$!
# Synchronised on the PMU's state, not on time (3 s was too short for perf
# to start under TCG on arm64): until an event opened directly is refused
# with EBUSY, the holder's 8 counters are not all in place.
PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import errno, time
from hns3_lib import *
for _ in range(600):
    if open_errno(attr(0x102, G)) == errno.EBUSY:
        break
    time.sleep(0.1)
PY
"$NETPMU" stat -e hns3_pmu_sicl_0/pps_ssu_rpu,global=1/ -- true 2>"$tmp/err"
TAP_KIND=golden check_eq "counters exhausted: status 1 and one line saying so" \
	"1 netpmu stat: cannot open hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/: counters exhausted: hns3_pmu_sicl_0's 8 hardware counters are taken (by other perf users or this command's events); close other counters or count fewer events" \
	"$? $(cat "$tmp/err")"
kill $(pgrep -P $holder) $holder 2>/dev/null
wait $holder 2>/dev/null
true
