#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on every cell: what netpmu trace --per-poll reads on a CPU
# that is not the HNS3 PMU's counting CPU. eth1's RX interrupt (hence its
# NAPI polls) is pinned to the other CPU, eth0's to the counting CPU, and a
# known flow of N datagrams goes eth0 -> eth1 while the func-queue bytes
# counter of eth1's RX queue 0 is open.
#
# Kernel with PMU scopes (its BTF names PERF_PMU_SCOPE_SYS_WIDE; netpmu.ko then
# declares the system-wide scope): bpf_perf_event_read_value reads the counter
# on any CPU, so every eth1 poll record is a direct read (readable, not a
# snapshot), each poll's delta is its frames' bytes (work x frame) and the
# deltas sum to N x frame exactly.
# Kernel without them: the counter is readable only on its counting CPU, so
# every eth1 poll record is the interval tick's snapshot, marked as such, and
# its value is the counter as the last tick read it (the sum of the interval
# deltas up to that tick). Either way the interval deltas sum to N x frame,
# and records on the counting CPU are direct reads.
. "$(dirname "$0")/../lib/tap.sh"
kind exact
. "$(dirname "$0")/../lib/irqs.sh"

count=40 size=300
frame=$((size + 8 + 20 + 14))	# UDP + IPv4 + Ethernet headers
pmu=hns3_pmu_sicl_0
tmp=$(mktemp -d)
trap 'irq_affinity_restore; rm -rf "$tmp"' EXIT
irq_affinity_init "$tmp"

counting=$(cat /sys/bus/event_source/devices/$pmu/cpumask)
other=$(cpu_other_than "$counting")
if grep -qa PERF_PMU_SCOPE_SYS_WIDE /sys/kernel/btf/vmlinux; then scoped=1; else scoped=0; fi
# 8 checks, one more with PMU scopes.
plan $((8 + scoped))
echo "  counting CPU $counting, eth1's polls on CPU $other, PMU scopes: $scoped"

# eth1's RX vector (virtio<N>-input.0 of its virtio device) to the other CPU,
# eth0's vectors to the counting CPU.
rx_irq=$(irqs_of "$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)" 'input[.]0')
for irq in $rx_irq; do irq_pin "$irq" "$other"; done
for irq in $(irqs_of "$(readlink -f /sys/class/net/eth0/device | xargs basename)" '(input|output)'); do
	irq_pin "$irq" "$counting"
done

# An interrupt moves on its next arrival: one datagram first, outside the trace.
"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9299 --count 1 --size $size \
	--report "$tmp/warm.out" >/dev/null

peer_bdf=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
event="$pmu/bw_ssu_rpu_byte_num,bdf=${peer_bdf#0000:},queue=0/"
"$NETPMU" trace --per-poll --json -I 100 -e "$event" -- "$UDP_FLOW" transfer --netns peer \
	--to 198.51.100.2 --port 9300 --count $count --size $size --gap-us 5000 --report "$tmp/recv.out" \
	>"$tmp/trace.json" 2>"$tmp/trace.err"
check_eq "netpmu trace --per-poll -I 100 -- COMMAND exits with the command's status" 0 $?
check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"

python3 - "$tmp/trace.json" "$event" "$rx_irq" "$counting" "$other" "$frame" > "$tmp/sums" <<'PY'
import json, sys
path, event, rx_irq, counting, other, frame = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
polls, ticks, on_counting = [], [], []
for line in open(path):
    r = json.loads(line)
    c = [c for c in r.get("counters", []) if c["event"] == event]
    if r["type"] == "counters" and c:
        ticks.append((r["ts_ns"], c[0]["delta"] if c[0]["readable"] else None))
    elif r["type"] == "poll" and c:
        if r["dev"] == "eth1" and r["irq"] == rx_irq:
            polls.append((r["ts_ns"], r["cpu"], r["work"], c[0]))
        elif r["cpu"] == counting:
            on_counting.append(c[0])
# A poll away from the counting CPU before the tick's first read has no
# value at all (unreadable): counted apart, at the start only.
kinds, before_first_tick = {}, 0
for _, cpu, _, c in polls:
    k = (cpu, "snapshot" if c["snapshot"] else "direct" if c["readable"] else "unreadable")
    if k[1] == "unreadable" and not kinds:
        before_first_tick += 1
        continue
    kinds[k] = kinds.get(k, 0) + 1
print("polls", len(polls))
print("work", sum(w for _, _, w, _ in polls))
print("kinds", " ".join(f"cpu{cpu}:{k}" for cpu, k in sorted(kinds)))
print("kind_counts", " ".join(f"cpu{cpu}:{k}={n}" for (cpu, k), n in sorted(kinds.items())))
print("before_first_tick", before_first_tick)
print("counting_cpu_direct", sum(1 for c in on_counting if c["readable"] and not c["snapshot"]), len(on_counting))
print("interval_sum", sum(d for _, d in ticks) if all(d is not None for _, d in ticks) else None)

# Per-poll deltas of the value read at each poll (the counter starts at 0).
prev, deltas, bad = 0, 0, []
for ts, cpu, work, c in polls:
    d = c.get("value", 0) - prev
    prev = c.get("value", 0)
    deltas += d
    if d != work * frame:
        bad.append(f"{ts}:work={work},delta={d}")
print("delta_sum", deltas)
print("per_poll_delta_mismatch", len(bad), " ".join(bad[:3]))

# The tick's snapshot when the poll read: the interval deltas summed up to
# the last tick that started before the poll; within 5 ms of a tick start,
# that tick may still have been writing (the one before) or already have
# written (the one after).
cum, total = [], 0
for ts, d in ticks:
    total += d or 0
    cum.append((ts, total))
mismatch, in_window = [], 0
for ts, cpu, work, c in polls:
    if not c["snapshot"]:
        continue
    k = max((i for i, (t, _) in enumerate(cum) if t <= ts), default=-1)
    last = cum[k][1] if k >= 0 else 0
    ok = {last}
    if k >= 0 and ts - cum[k][0] < 5_000_000:
        ok.add(cum[k - 1][1] if k >= 1 else 0)
    if k + 1 < len(cum) and cum[k + 1][0] - ts < 5_000_000:
        ok.add(cum[k + 1][1])
    if c["value"] not in ok:
        mismatch.append(f"{ts}:value={c['value']},tick={sorted(ok)}")
    in_window += c["value"] != last and c["value"] in ok
print("snapshot_mismatch", len(mismatch), " ".join(mismatch[:3]))
print("snapshot_of_a_tick_in_progress", in_window)
PY
sed 's/^/  /' "$tmp/sums"
get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tmp/sums"; }

check_eq "eth1's RX NAPI polled the $count datagrams, all on CPU $other" $count "$(get work)"
check_eq "the interval records' deltas sum to $count x $frame = $((count * frame))" $((count * frame)) \
	"$(get interval_sum)"
read -r direct all <<<"$(get counting_cpu_direct)"
TAP_KIND="weak: presence; their values are checked exactly" check_cmd "there are poll records on the counting CPU (eth0's)" test "$all" -gt 0
check_eq "every poll record on the counting CPU $counting read the counter directly" "$all" "$direct"
if [ "$scoped" = 1 ]; then
	check_eq "PMU scope: every eth1 poll record on CPU $other read the counter directly (readable, not a snapshot)" \
		"cpu$other:direct, 0 unreadable" "$(get kinds), $(get before_first_tick) unreadable"
	check_eq "PMU scope: each eth1 poll's delta of $event is its work x $frame bytes" \
		"0" "$(get per_poll_delta_mismatch | cut -d' ' -f1)"
	check_eq "PMU scope: the per-poll deltas on CPU $other sum to $count x $frame = $((count * frame))" \
		$((count * frame)) "$(get delta_sum)"
else
	check_eq "no PMU scope: every eth1 poll record on CPU $other is the tick's snapshot, marked as such (those before the tick's first read: unreadable, $(get before_first_tick) here)" \
		"cpu$other:snapshot" "$(get kinds)"
	check_eq "no PMU scope: each snapshot's value is the counter as the last interval tick read it" \
		"0" "$(get snapshot_mismatch | cut -d' ' -f1)"
fi
