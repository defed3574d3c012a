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
trap 'rm -rf "$tmp"' EXIT

# Polls run where the NIC interrupts land: put them on the counting CPU, where
# a CPU-bound uncore counter is readable.
for irq in $(awk -F: '/virtio[0-9]+-(input|output)/ { print $1 }' /proc/interrupts); do
	echo "$cpu" > /proc/irq/$irq/smp_affinity_list
done

"$NETPMU" trace --per-poll --json -e "$event" -- "$REPO/tests/lib/udp_flow.py" transfer --netns peer \
	--to 198.51.100.2 --port 9000 --count $count --size $size --gap-us 2000 --report "$tmp/recv.out" \
	>"$tmp/trace.json" 2>"$tmp/trace.err"
check_eq "netpmu trace --per-poll -- COMMAND exits with the command's status" 0 $?
check_cmd "netpmu trace loaded, opened $event and attached in the guest" grep -q tracing "$tmp/trace.err"
check_eq "peer received the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
[ -s "$tmp/trace.err" ] && sed 's/^/  trace: /' "$tmp/trace.err"

python3 - "$tmp/trace.json" "$count" "$cpu" <<'PY' > "$tmp/summary"
import json, sys
path, count, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
work = polls = readable = 0
values = []
for line in open(path):
    rec = json.loads(line)
    if rec["dev"] != "eth1":
        continue
    polls += 1
    work += rec["work"]
    c = rec["counters"][0]
    if c["readable"] and not c["snapshot"] and rec["cpu"] == cpu:
        readable += 1
        values.append(c["value"])
print(f"work={work}")
print(f"readable={'yes' if readable else 'no'} polls={polls} readable_polls={readable}")
print(f"monotonic={'yes' if values == sorted(values) else 'no'}")
PY
cat "$tmp/summary" | sed 's/^/  /'
check_eq "eth1's NAPI polls processed exactly the $count frames sent" "work=$count" "$(sed -n 1p "$tmp/summary")"
check_eq "bpf_perf_event_read_value read the PMU counter in polls on CPU $cpu" "readable=yes" \
	"$(sed -n 2p "$tmp/summary" | cut -d' ' -f1)"
check_eq "counter values read at successive polls never go backwards" "monotonic=yes" "$(sed -n 3p "$tmp/summary")"
