#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The join per queue on a multi-queue NIC (igb, RSS over UDP ports): for each
# RX queue of eth3, the packets its NAPI polled (BPF) and the HNS3 func-queue
# packets of that queue both equal the driver's own per-queue count, and the
# queues add up to what was sent.
. "$(dirname "$0")/../lib/tap.sh"
plan 7
kind exact

count=600 size=200 flows=16
pmu=hns3_pmu_sicl_0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bdf=$(ip netns exec peer readlink -f /sys/class/net/eth3/device | xargs basename)
short=${bdf#0000:}
queues=$(ip netns exec peer sh -c 'ls -d /sys/class/net/eth3/queues/rx-*' | wc -l)
TAP_KIND="weak: setup step" check_cmd "eth3 has at least 2 RX queues" test "$queues" -ge 2
rxq() { ip netns exec peer ethtool -S eth3 | awk -v k="rx_queue_$1_packets:" '$1 == k { print $2 }'; }

events=()
for q in 0 1; do
	events+=(-e "$pmu/pps_ssu_rpu_packet_num,bdf=$short,queue=$q/")
done
before0=$(rxq 0) before1=$(rxq 1)
# The run is the transfer's life: trace attaches, runs it (it returns once the
# peer has every datagram), then waits for the tick closing the last interval.
"$NETPMU" trace --json -I 300 "${events[@]}" -- "$UDP_FLOW" transfer --netns peer \
	--to 203.0.113.2 --port 9000 --count $count --size $size --flows $flows --gap-us 2000 \
	--report "$tmp/recv.out" >"$tmp/trace.json" 2>"$tmp/trace.err"
TAP_KIND=golden check_eq "netpmu trace -- COMMAND exits with the command's status" 0 $?
check_eq "eth3 received the $flows flows" "received $count datagrams $((count * size)) bytes" \
	"$(cat "$tmp/recv.out")"
driver0=$(($(rxq 0) - before0)) driver1=$(($(rxq 1) - before1))
echo "  igb per-queue counts: queue 0 $driver0, queue 1 $driver1"
TAP_KIND="weak: setup, how RSS hashes the ports is igb's; the counts per queue are checked exactly next" check_cmd "RSS spread the flows over both queues" test "$driver0" -gt 0 -a "$driver1" -gt 0

python3 - "$tmp/trace.json" <<'PY' > "$tmp/sums"
import json, sys
sums = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    # RX and TX NAPIs of a queue both join its func-queue counters: take RX (dir 1).
    if r.get("type") != "queue" or r["dev"] != "eth3" or r["queue"] < 0 or r["dir"] != 1:
        continue
    q = sums.setdefault(r["queue"], [0, 0])
    q[0] += r["packets"]
    q[1] += sum(c.get("delta", 0) for c in r["counters"])
for q in sorted(sums):
    print(q, *sums[q])
PY
sed 's/^/  queue packets hw: /' "$tmp/sums"
for q in 0 1; do
	driver=$([ $q = 0 ] && echo "$driver0" || echo "$driver1")
	check_eq "queue $q: BPF-polled packets and HNS3 func-queue packets = the driver's count" \
		"$q $driver $driver" "$(awk -v q=$q '$1 == q' "$tmp/sums")"
done
check_eq "the queues add up to the $count sent" $count $((driver0 + driver1))
