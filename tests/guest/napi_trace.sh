#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the napi_poll BPF program sees every frame of a known flow from
# eth0 to the peer namespace and reads the HNS3 PMU counter on its counting CPU
# with bpf_perf_event_read_value, delivering records through the ring buffer.
. "$(dirname "$0")/../lib/tap.sh"

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
for irq in $irqs; do
	echo "$cpu" > /proc/irq/$irq/smp_affinity_list
done

"$NETPMU" trace --per-poll --json -e "$event" -- "$REPO/tests/lib/udp_flow.py" transfer --netns peer \
	--to 198.51.100.2 --port 9000 --count $count --size $size --gap-us 2000 --report "$tmp/recv.out" \
	>"$tmp/trace.json" 2>"$tmp/trace.err"
check_eq "netpmu trace --per-poll -- COMMAND exits with the command's status" 0 $?
check_cmd "netpmu trace loaded, opened $event and attached in the guest" grep -q tracing "$tmp/trace.err"
check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
[ -s "$tmp/trace.err" ] && sed 's/^/  trace: /' "$tmp/trace.err"

# Every eth1 poll's direct read of the counter against the truth: eth1
# received nothing else, and the model counts a frame when the stack takes it
# inside the poll, so the value read at napi_poll is the frames eth1's polls
# took so far x the frame size (oracle: datagrams sent x frame size, and the
# polls' own work). A snapshot (the tick's last read, for a poll away from
# the counting CPU) can only be an earlier such value: a whole number of
# frames, no more than the polls took so far.
frame=$((size + 42))
python3 - "$tmp/trace.json" "$count" "$cpu" "$frame" <<'PY' > "$tmp/summary"
import json, sys
path, count, cpu, frame = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
work = polls = direct = snapshots = 0
wrong, bad_snap, last = [], [], None
for line in open(path):
    rec = json.loads(line)
    if rec.get("dev") != "eth1":
        continue
    polls += 1
    work += rec["work"]
    c = rec["counters"][0]
    if c["readable"] and not c["snapshot"]:
        direct += 1
        last = c["value"]
        if c["value"] != work * frame:
            wrong.append(f"{c['value']}!={work}x{frame}")
    elif c["snapshot"]:
        snapshots += 1
        if c["value"] % frame or c["value"] > work * frame:
            bad_snap.append(f"{c['value']}@{work}")
print(f"work={work}")
print(f"direct reads on cpu {cpu}: {direct} of {polls} polls")
print("values=frames so far x frame" if not wrong else "values " + " ".join(wrong[:5]))
print(f"last={last}")
print("snapshots ok" if not bad_snap else "snapshots " + " ".join(bad_snap[:5]))
print(f"  {snapshots} snapshot reads", file=sys.stderr)
PY
sed 's/^/  /' "$tmp/summary"
check_eq "eth1's NAPI polls processed exactly the $count frames sent (oracle: datagrams sent)" "work=$count" \
	"$(sed -n 1p "$tmp/summary")"
polls=$(sed -n 2p "$tmp/summary" | awk '{ print $NF == "polls" ? $(NF - 1) : -1 }')
check_eq "bpf_perf_event_read_value read the PMU counter directly in every eth1 poll (IRQs on CPU $cpu)" \
	"direct reads on cpu $cpu: $polls of $polls polls" "$(sed -n 2p "$tmp/summary")"
check_eq "each value read = eth1's frames so far x $frame bytes (oracle: datagrams sent, frame size)" \
	"values=frames so far x frame" "$(sed -n 3p "$tmp/summary")"
check_eq "the last value read = $count x $frame bytes (oracle: datagrams sent x frame size)" \
	"last=$((count * frame))" "$(sed -n 4p "$tmp/summary")"
check_eq "snapshot values, if any, are earlier values: whole frames, no more than taken so far" \
	"snapshots ok" "$(sed -n 5p "$tmp/summary")"
