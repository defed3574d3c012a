#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the napi_poll BPF program sees every frame of a known flow from
# eth0 to the peer namespace and reads the HNS3 PMU counter on its counting CPU
# with bpf_perf_event_read_value, delivering records through the ring buffer.
. "$(dirname "$0")/../lib/tap.sh"
plan 12
kind exact

count=50 size=200
event=hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/
cpu=$(cat /sys/bus/event_source/devices/hns3_pmu_sicl_0/cpumask)
tmp=$(mktemp -d)
# Polls run where the NIC interrupts land: put them on the counting CPU, where
# a CPU-bound uncore counter is readable; the affinities are restored at exit.
irqs=$(awk -F: '/virtio[0-9]+-(input|output)/ { gsub(/ /, "", $1); print $1 }' /proc/interrupts)
for irq in $irqs; do
	echo "$irq $(cat /proc/irq/$irq/smp_affinity_list)"
done >"$tmp/affinity"
trap 'while read -r irq aff; do echo "$aff" > /proc/irq/$irq/smp_affinity_list; done <"$tmp/affinity"; rm -rf "$tmp"' EXIT

frame=$((size + 42))
# trace_flow IRQ_CPU OUT: netpmu trace --per-poll over the flow, eth0's and
# eth1's interrupts on IRQ_CPU.
# x86 moves an MSI to its new CPU at its next interrupt, so two datagrams
# before the trace let eth1's interrupt reach IRQ_CPU (a test run before may
# have left it elsewhere).
trace_flow() {
	for irq in $irqs; do echo "$1" > /proc/irq/$irq/smp_affinity_list; done
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count 2 --size $size \
		--gap-us 2000 >/dev/null
	"$NETPMU" trace --per-poll --json -e "$event" -- "$UDP_FLOW" transfer --netns peer \
		--to 198.51.100.2 --port 9000 --count $count --size $size --gap-us 2000 --report "$tmp/recv.out" \
		>"$2" 2>"$tmp/trace.err"
}

# reads JSON CPU here|away: eth1's polls against the truth. eth1 received nothing
# else, and the model counts a frame when the stack takes it inside the
# poll, so a direct read at napi_poll is the frames eth1's polls took so far
# x the frame size (oracle: datagrams sent x frame size, and the polls' own
# work). A snapshot (the tick's last read, for a poll away from the counting
# CPU where the PMU's scope forbids a direct read) can only be an earlier
# such value: whole frames, no more than taken so far, never going back, and
# one value per tick read (same running_ns, same value). A poll away from
# the counting CPU before the tick's first read (100 ms) has no value at all:
# only such polls, at the start, may be unreadable.
reads() {
	python3 - "$1" "$count" "$2" "$frame" "$3" <<'PY'
import json, sys
path, count, cpu, frame, where = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
work = polls = direct = snapshots = on_cpu = before_first_tick = unreadable_later = 0
wrong, bad_snap, last, last_snap, ticks = [], [], None, 0, {}
for line in open(path):
    rec = json.loads(line)
    if rec.get("dev") != "eth1":
        continue
    polls += 1
    work += rec["work"]
    on_cpu += rec["cpu"] == cpu
    c = rec["counters"][0]
    if c["readable"] and not c["snapshot"]:
        direct += 1
        last = c["value"]
        if c["value"] != work * frame:
            wrong.append(f"{c['value']}!={work}x{frame}")
    elif c["snapshot"]:
        snapshots += 1
        v = c["value"]
        if v % frame or v > work * frame or v < last_snap or ticks.setdefault(c["running_ns"], v) != v:
            bad_snap.append(f"{v}@{work}")
        last_snap = v
    elif direct + snapshots == 0:
        before_first_tick += 1
    else:
        unreadable_later += 1
print(f"work={work}")
seen = (f"{polls} polls, {on_cpu} on cpu {cpu}, {direct} direct, {snapshots} snapshots, "
        f"{before_first_tick} unreadable before the first tick, {unreadable_later} after")
if where == "here":
    print("all on the counting cpu, all direct" if polls and on_cpu == polls == direct else seen)
else:
    # The first poll may still run on the old CPU if the warm-up's
    # interrupts came before the move took.
    print(f"each read, {polls - on_cpu} away" if polls and on_cpu <= 1 and direct + snapshots > 0
          and not unreadable_later else seen)
print("values=frames so far x frame" if not wrong else "values " + " ".join(wrong[:5]))
print(f"last={last}")
print("snapshots ok" if not bad_snap else "snapshots " + " ".join(bad_snap[:5]))
print(f"  {seen}", file=sys.stderr)
PY
}

trace_flow "$cpu" "$tmp/trace.json"
TAP_KIND=golden check_eq "netpmu trace --per-poll -- COMMAND exits with the command's status" 0 $?
TAP_KIND="weak: setup, its only output is the 'tracing' line; the values read are the evidence" check_cmd "netpmu trace loaded, opened the PMU event and attached in the guest" grep -q tracing "$tmp/trace.err"
check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
[ -s "$tmp/trace.err" ] && sed 's/^/  trace: /' "$tmp/trace.err"
reads "$tmp/trace.json" "$cpu" here >"$tmp/summary"
sed 's/^/  /' "$tmp/summary"
check_eq "eth1's NAPI polls processed exactly the $count frames sent (oracle: datagrams sent)" "work=$count" \
	"$(sed -n 1p "$tmp/summary")"
check_eq "bpf_perf_event_read_value read the PMU counter directly in every eth1 poll (IRQs on CPU $cpu)" \
	"all on the counting cpu, all direct" "$(sed -n 2p "$tmp/summary")"
check_eq "each value read = eth1's frames so far x $frame bytes (oracle: datagrams sent, frame size)" \
	"values=frames so far x frame" "$(sed -n 3p "$tmp/summary")"
check_eq "the last value read = $count x $frame bytes (oracle: datagrams sent x frame size)" \
	"last=$((count * frame))" "$(sed -n 4p "$tmp/summary")"

# The same flow with the interrupts on the other CPU: each read is direct
# (and exact) or the tick's snapshot.
other=$(awk -v c="$cpu" -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) if (i != c) { print i; exit } }' \
	/sys/devices/system/cpu/online | tr ',' '\n' | head -n 1)
if [ -z "$other" ]; then
	skip_checks 5 "reads away from the counting CPU: direct and exact, or the tick's snapshot" "one CPU online"
else
	trace_flow "$other" "$tmp/away.json"
	TAP_KIND=golden check_eq "netpmu trace with eth1's polls on the other CPU exits 0" 0 $?
	reads "$tmp/away.json" "$cpu" away >"$tmp/away"
	sed 's/^/  /' "$tmp/away"
	away=$(sed -n 2p "$tmp/away" | awk '/^each read/ { print $3 }')
	check_eq "with IRQs on the other CPU: eth1's polls ran there (all but the first at most) and each read the counter (but those before the tick's first read)" \
		"each read, ${away:-?} away" "$(sed -n 2p "$tmp/away")"
	TAP_KIND="weak: where the scheduler runs the first polls is not known; the values read are checked exactly next" \
		check_cmd "with IRQs on the other CPU: some eth1 polls ran there" test "${away:-0}" -gt 0
	check_eq "with IRQs on the other CPU: direct reads = frames so far x $frame (oracle: datagrams sent x frame size)" \
		"values=frames so far x frame" "$(sed -n 3p "$tmp/away")"
	check_eq "with IRQs on the other CPU: snapshots are earlier values, one per tick read (oracle: frames so far)" \
		"snapshots ok" "$(sed -n 5p "$tmp/away")"
fi
