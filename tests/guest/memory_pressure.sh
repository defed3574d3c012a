#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: memory pressure (issue 16's faults). A hog takes the guest's
# memory until at most 72 MiB is available (no swap: the kernel reclaims
# page cache for everything else), and keeps it there while netpmu trace starts,
# loads its programs, maps and ring buffer, and traces a known flow to eth1.
# What must hold: trace starts, counts the flow exactly (the frames its
# programs saw in eth1's RX polls and the HNS3 func-queue packets of queue 0
# both equal the datagrams the peer received), drops nothing and exits 0.
# The hog stops short of the OOM killer, whose report would fail the run.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth1.sh"
plan 6
kind exact
tmp=$(mktemp -d)
hog_pid=
cleanup() {
	[ -z "$hog_pid" ] || kill "$hog_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

peer_pci=$(eth1_pci)
bdf=$(hns3_bdf "$peer_pci")
pps="hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=$bdf,queue=0/"
mem_available_mib() { awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo; }

# Keeps MemAvailable between 56 and 72 MiB for as long as it runs: takes
# memory in 8 MiB pieces (each page written, so really held) whenever more
# than 72 MiB is available, since the kernel can free more later (kswapd
# reclaiming to its high watermark, other tests' leftovers exiting). Says
# "held N MiB" once it has stayed under 72 MiB for a second, then writes the
# highest MemAvailable it saw since then to hog.max until it is killed.
python3 - "$tmp/hog.ready" "$tmp/hog.max" <<'PY' &
import os, sys, time
open("/proc/self/oom_score_adj", "w").write("1000")  # if it comes to that, the hog goes first
ready_path, max_path = sys.argv[1], sys.argv[2]
piece_bytes = 8 << 20
pieces = []
def available_mib():
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) // 1024
def take_piece():
    piece = bytearray(piece_bytes)
    piece[::4096] = b"\x5a" * len(range(0, piece_bytes, 4096))
    pieces.append(piece)
calm_samples, highest = 0, None
while True:
    available = available_mib()
    if available > 72:
        take_piece()
        calm_samples = 0
        continue
    if highest is None:
        calm_samples += 1
        if calm_samples == 10:
            highest = available
            open(ready_path, "w").write("held %d MiB\n" % (8 * len(pieces)))
    elif available > highest:
        highest = available
    if highest is not None:
        open(max_path + ".new", "w").write("%d\n" % highest)
        os.rename(max_path + ".new", max_path)
    time.sleep(0.1)
PY
hog_pid=$!
wait_until 90 test -s "$tmp/hog.ready"
available=$(mem_available_mib)
echo "# hog: $(cat "$tmp/hog.ready" 2>/dev/null); MemAvailable now $available MiB"
TAP_KIND="weak: setup, how much the kernel can still reclaim is its own" check_eq \
	"the guest is under pressure: the hog holds its memory, MemAvailable under 96 MiB" yes \
	"$([ -s "$tmp/hog.ready" ] && [ "$available" -lt 96 ] && echo yes || echo "no: $available MiB")"

n=200 size=400
"$NETPMU" trace --json -I 300 -e "$pps" -- "$UDP_FLOW" transfer --netns peer \
	--to 198.51.100.2 --port 9000 --count $n --size $size --gap-us 2000 --report "$tmp/recv.out" \
	>"$tmp/trace.json" 2>"$tmp/trace.err"
check_eq "trace under pressure exits with the flow's status 0" 0 $?
echo "# MemAvailable after the trace: $(mem_available_mib) MiB"
check_eq "the peer received the $n datagrams" "received $n datagrams $((n * size)) bytes" "$(cat "$tmp/recv.out")"
sums=$(python3 - "$tmp/trace.json" <<'PY'
import json, sys
packets = hw = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "queue" and r["dev"] == "eth1" and r["queue"] == 0 and r["dir"] == 1:
        packets += r["packets"]
        hw += sum(c.get("delta", 0) for c in r["counters"])
print(packets, hw)
PY
)
check_eq "eth1 queue 0: frames in its RX polls (BPF) and HNS3 func-queue packets = $n" "$n $n" "$sums"
TAP_KIND=golden check_eq "trace's closing line: nothing dropped, nothing untracked" \
	"0 dropped (ring buffer full), 0 NAPI and 0 IRQ not tracked (tables full)" \
	"$(grep -o '0 dropped.*(tables full)' "$tmp/trace.err")"
highest=$(cat "$tmp/hog.max" 2>/dev/null)
hog_state=$(kill -0 "$hog_pid" 2>/dev/null && echo alive || echo gone)
echo "# the hog is $hog_state; the highest MemAvailable it saw since its ready line: ${highest:-none} MiB"
TAP_KIND="weak: setup, the pressure lasted the whole trace" check_eq \
	"the hog held the pressure through the trace: alive, MemAvailable never above 96 MiB" yes \
	"$([ "$hog_state" = alive ] && [ -n "$highest" ] && [ "$highest" -lt 96 ] && echo yes ||
		echo "no: hog $hog_state, highest ${highest:-none} MiB")"
