#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on every cell: netpmu trace --per-poll reads eth1's func-queue
# bytes counter on the CPU eth1's polls run on (not the HNS3 PMU's counting
# CPU) while another process churns the PMU's 8 slots: eight pinned events of
# distinct codes, which take every slot from the traced one while they are
# on, opened, enabled and closed over and over on the counting CPU. Every add() there may hand a slot
# to another event (start() zeroes it) while a remote read is under way
# (kernels with PMU scopes read on the polling CPU without perf's context
# lock). What must hold, poll by poll: the value never goes backwards, no
# poll's delta exceeds its own frames' bytes (work x frame), and no value
# exceeds the bytes sent (oracle: the datagrams the peer received).
. "$(dirname "$0")/../lib/tap.sh"
plan 8
kind weak 'a slot taken away mid-read has no exact value: bounds by the bytes sent, never backwards'
. "$(dirname "$0")/../lib/irqs.sh"

count=150 size=300
frame=$((size + 8 + 20 + 14))	# UDP + IPv4 + Ethernet headers
pmu=hns3_pmu_sicl_0
tmp=$(mktemp -d)
restore() {
	rm -f "$tmp/churn.run"
	wait
	irq_affinity_restore
	rm -rf "$tmp"
}
trap restore EXIT
irq_affinity_init "$tmp"

counting=$(cat /sys/bus/event_source/devices/$pmu/cpumask)
other=$(cpu_other_than "$counting")
echo "  counting CPU $counting, eth1's polls on CPU $other"
rx_irq=$(irqs_of "$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)" 'input[.]0')
for irq in $rx_irq; do irq_pin "$irq" "$other"; done
"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9399 --count 1 --size $size \
	--report "$tmp/warm.out" >/dev/null

# The churn: eight pinned global events of distinct codes, opened disabled
# (an HNS3 event_init needs a free slot, as upstream's), enabled together for
# ~15 ms and closed, from when the run file appears (the traced event is
# open) until it goes. Pinned events are scheduled first: while they are on,
# they hold all 8 slots and the traced event is taken off its slot (del),
# and put back (add) when they close. The number of rounds is its report.
RUN=$tmp/churn.run PYTHONPATH=$REPO/tests/guest python3 - > "$tmp/churn.out" 2>&1 <<'PY' &
from hns3_lib import *
while not os.path.exists(os.environ["RUN"]):
    time.sleep(0.01)
codes = {}
for name, config, modes in spec_events():
    if "global" in modes and not config >> 16:
        codes.setdefault(config & 0xffff, config)
configs = list(codes.values())[:8]
rounds = failed = 0
while os.path.exists(os.environ["RUN"]):
    fds = [open_fd(attr(c, G, flags=F_DISABLED | F_PINNED)) for c in configs]
    failed += sum(fd < 0 for fd in fds)
    fds = [fd for fd in fds if fd >= 0]
    for fd in fds:
        enable(fd)
    time.sleep(0.015)
    close_all(fds)
    rounds += 1
print(f"rounds {rounds} events {len(configs)} failed opens {failed}")
PY
churn=$!

peer_bdf=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
event="$pmu/bw_ssu_rpu_byte_num,bdf=${peer_bdf#0000:},queue=0/"
"$NETPMU" trace --per-poll --json -I 100 -e "$event" -- sh -c "touch $tmp/churn.run; sleep 0.2;
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9400 --count $count \
	--size $size --gap-us 3000 --report $tmp/recv.out" >"$tmp/trace.json" 2>"$tmp/trace.err"
TAP_KIND=golden check_eq "netpmu trace --per-poll under churn exits with the command's status" 0 $?
sed 's/^/  trace: /' "$tmp/trace.err"
rm -f "$tmp/churn.run"
wait $churn
TAP_KIND=golden check_eq "the churn process ended cleanly" 0 $?
echo "  churn: $(cat "$tmp/churn.out")"
TAP_KIND=exact check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"

python3 - "$tmp/trace.json" "$event" "$rx_irq" "$frame" "$count" > "$tmp/sums" <<'PY'
import json, sys
path, event, rx_irq, frame, count = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
polls, muxed = [], 0
for line in open(path):
    r = json.loads(line)
    c = [c for c in r.get("counters", []) if c["event"] == event]
    if r["type"] == "counters" and c and c[0].get("running_ns", 0) < c[0].get("enabled_ns", 0):
        muxed += 1
    if r["type"] == "poll" and c and r["dev"] == "eth1" and r["irq"] == rx_irq and c[0]["readable"]:
        polls.append((r["ts_ns"], r["work"], c[0]["value"], c[0]["snapshot"]))
# A poll's own bytes bound its delta only between two direct reads (kernels
# with PMU scopes); a snapshot is the counter as the last tick read it.
prev, prev_direct, back, jump, over, pairs = 0, False, [], [], [], 0
for ts, work, value, snapshot in polls:
    d = value - prev
    if d < 0:
        back.append(f"{ts}:{prev}->{value}")
    elif prev_direct and not snapshot:
        pairs += 1
        if d > work * frame:
            jump.append(f"{ts}:work={work},delta={d}")
    if value > count * frame:
        over.append(f"{ts}:{value}")
    prev, prev_direct = max(prev, value), not snapshot
print("polls", len(polls))
print("direct_pairs", pairs)
print("muxed_intervals", muxed)
print("backwards", len(back), " ".join(back[:3]))
print("jumps", len(jump), " ".join(jump[:3]))
print("over_total", len(over), " ".join(over[:3]))
PY
sed 's/^/  /' "$tmp/sums"
get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tmp/sums"; }
check_cmd "eth1's polls on the other CPU read the counter" test "$(get polls)" -gt 0
check_cmd "the churn took the traced event off its slot (intervals with running < enabled)" \
	test "$(get muxed_intervals)" -gt 0
check_eq "no poll's value goes backwards" 0 "$(get backwards | cut -d' ' -f1)"
check_eq "no poll's delta from the direct read before it exceeds its own work x $frame bytes" \
	0 "$(get jumps | cut -d' ' -f1)"
check_eq "no value exceeds the $count x $frame = $((count * frame)) bytes sent" 0 "$(get over_total | cut -d' ' -f1)"
