#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu trace while what it traces goes away (issue 16's faults: "a traced
# NIC unbound or its PCI function removed mid-trace: the trace goes on for
# the others and says in one line what disappeared"). trace -I counts a flow
# to eth1 with the HNS3 func-queue counter of eth1's queue 0; the PMU then
# goes (staged as in serve_removal.sh: trace reads the PMUs from a
# --sysfs-root copy of their links, and the link goes, since the model
# refuses del_device under open events), then eth1's PCI function is really
# removed. Each removal is said once, in one line; a flow to eth3 (igb, the
# other link) is traced exactly after both; SIGINT ends the trace with
# status 0. eth1 and netpmu.ko are restored at the end.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth1.sh"
plan 7
kind exact
tmp=$(mktemp -d)
kmod=${NETPMU_KO:?netpmu.ko of the cell, set by tests/vm/run}
trace_pid= removed=
cleanup() {
	[ -z "$trace_pid" ] || kill "$trace_pid" 2>/dev/null
	wait 2>/dev/null
	[ -z "$removed" ] || eth1_restore "$kmod" || echo "# trace_removal: eth1 could not be restored" >&2
	rm -rf "$tmp"
}
trap cleanup EXIT

peer_pci=$(eth1_pci)
bdf=$(hns3_bdf "$peer_pci")
pmu=hns3_pmu_sicl_0
mkdir -p "$tmp/sys/bus/event_source/devices"
for d in /sys/bus/event_source/devices/*; do
	ln -s "$(readlink -f "$d")" "$tmp/sys/bus/event_source/devices/${d##*/}"
done

# rx_packets DEV [QUEUE]: the RX packets of DEV's (or its QUEUE's) queue
# records so far, then the func-queue counter's packets.
rx_packets() {
	python3 - "$tmp/trace.json" "$@" <<'PY'
import json, sys
packets = hw = 0
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue  # the line being written
    if r.get("type") != "queue" or r["dev"] != sys.argv[2] or r["dir"] != 1:
        continue
    if len(sys.argv) > 3 and r["queue"] != int(sys.argv[3]):
        continue
    packets += r["packets"]
    hw += sum(c.get("delta", 0) for c in r["counters"])
print(packets, hw)
PY
}
# rx_packets_only ARGS...: rx_packets' first field, the packets.
rx_packets_only() { rx_packets "$@" | cut -d' ' -f1; }

"$NETPMU" trace --json -I 300 --sysfs-root "$tmp/sys" -e "$pmu/pps_ssu_rpu_packet_num,bdf=$bdf,queue=0/" \
	>"$tmp/trace.json" 2>"$tmp/trace.err" &
trace_pid=$!
wait_line "$tmp/trace.err" "tracing NAPI polls"

n=100 n3=150
"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count $n --size 300 \
	--gap-us 2000 >/dev/null
check_eq "eth1 queue 0 before the removals: $n frames in its RX polls (BPF), $n func-queue packets" \
	"$n $n" "$(wait_output 30 "$n $n" rx_packets eth1 0)"

rm "$tmp/sys/bus/event_source/devices/$pmu"
wait_line "$tmp/trace.err" "PMU $pmu removed"
removed=1
echo 1 >"/sys/bus/pci/devices/$peer_pci/remove"
wait_line "$tmp/trace.err" "NIC .* removed"

"$UDP_FLOW" transfer --netns peer --to 203.0.113.2 --port 9001 --count $n3 --size 200 \
	--flows 4 --gap-us 2000 >/dev/null
check_eq "the trace goes on: eth3's RX queues, after both removals, $n3 frames in their polls" \
	$n3 "$(wait_output 30 $n3 rx_packets_only eth3)"

kill -INT $trace_pid
wait $trace_pid
check_eq "SIGINT: trace exits 0" 0 $?
trace_pid=
kind golden
check_eq "each removal said once, in one line" \
	"netpmu trace: PMU $pmu removed: its counters read nothing more, tracing goes on|netpmu trace: NIC eth1 ($peer_pci) removed: tracing goes on for the others|" \
	"$(grep ' removed: ' "$tmp/trace.err" | tr '\n' '|')"
check_eq "no other warning or error line" "" \
	"$(grep '^netpmu trace:' "$tmp/trace.err" | grep -v -e 'tracing NAPI polls' -e ' removed: ' -e ' records, ' | head -3)"
kind exact
check_eq "eth1 queue 0 over the whole trace: still the $n frames and $n packets" "$n $n" "$(rx_packets eth1 0)"
removed=
TAP_KIND="weak: setup, restoring what the test changed" check_cmd "eth1 back in 'peer', netpmu.ko reloaded" \
	eth1_restore "$kmod"
