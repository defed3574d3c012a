#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: a PMU that vanishes between netpmu's discovery and its
# perf_event_open. A model instance on eth1 is copied out of sysfs (what
# discovery reads, through --sysfs-root), counts a flow exactly through that
# copy, then is removed (del_device): stat, trace and top, still reading the
# copy, are refused by the kernel at open and say so in one line, exit 1.
# Oracles: datagrams sent x frame size; the type the copy names, which the
# kernel no longer has (/sys/bus/event_source/devices).
. "$(dirname "$0")/../lib/tap.sh"
plan 7
kind exact

id=7 pmu=hns3_pmu_sicl_7 n=30 size=400
frame=$((size + 42))	# UDP + IPv4 + Ethernet headers
event=$pmu/bw_ssu_rpu_byte_num,global=1/
sim=/sys/bus/netpmu_sim
tmp=$(mktemp -d)
trap '[ -d /sys/bus/event_source/devices/$pmu ] && echo $id >$sim/del_device; rm -rf "$tmp"' EXIT

TAP_KIND="weak: setup; the counts through the copy check the instance" \
	check_cmd "new_device '$id netdevs=eth1' adds $pmu" sh -c "echo '$id netdevs=eth1' >$sim/new_device"
# The sysfs root: /sys but for a copy of every PMU as discovery finds it
# (sysfs files that cannot be read, such as power/, are not discovery's).
copy=$tmp/sys/bus/event_source/devices
mkdir -p "$copy"
for e in /sys/*; do [ "$e" = /sys/bus ] || ln -s "$e" "$tmp/sys/"; done
for e in /sys/bus/*; do [ "$e" = /sys/bus/event_source ] || ln -s "$e" "$tmp/sys/bus/"; done
for d in /sys/bus/event_source/devices/*; do
	cp -r "$d/" "$copy/" 2>/dev/null
done
# Without hns3_pmu_sicl_0, which counts eth1 too, top picks the instance.
rm -rf "$copy/hns3_pmu_sicl_0"
type=$(cat "$copy/$pmu/type")

"$NETPMU" stat --sysfs-root "$tmp/sys" -x';' -e "$event" -o "$tmp/csv" -- \
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 \
	--count $n --size $size --gap-us 2000 >/dev/null 2>"$tmp/stat.err"
check_eq "through the copy, while $pmu lives: stat counts eth1's $n x $frame bytes" \
	"$((n * frame))" "$(grep -v '^#' "$tmp/csv" | grep . | cut -d';' -f1)"

echo $id >$sim/del_device
check_eq "del_device $id: the kernel has no PMU of type $type any more" "" \
	"$(grep -lx "$type" /sys/bus/event_source/devices/*/type)"

why="this kernel has no PMU of perf type $type, $pmu's type in sysfs (is its driver or netpmu.ko loaded? 'netpmu list' shows the PMUs)"
kind golden
"$NETPMU" stat --sysfs-root "$tmp/sys" -x';' -e "$event" -- true 2>"$tmp/stat.err"
check_eq "stat, after the PMU went: exit 1, one line" \
	"1|netpmu stat: cannot open $event: $why" "$?|$(cat "$tmp/stat.err")"
"$NETPMU" trace --sysfs-root "$tmp/sys" -e "$event" -d 1 >/dev/null 2>"$tmp/trace.err"
check_eq "trace, after the PMU went: exit 1, one line" \
	"1|netpmu trace: cannot open $event: $why" "$?|$(cat "$tmp/trace.err")"
# top names the queue event it opens for eth1.
ip netns exec peer "$NETPMU" top --sysfs-root "$tmp/sys" --dev eth1 --count 1 >/dev/null 2>"$tmp/top.err"
check_eq "top --dev eth1, after the PMU went: exit 1, one line" \
	"1|1|netpmu top: cannot open $pmu/...: $why" \
	"$?|$(wc -l <"$tmp/top.err")|$(sed -E "s|^(netpmu top: cannot open $pmu/)[^:]*/:|\1...:|" "$tmp/top.err")"
check_eq "nothing of netpmu's is left attached" "" "$(bpftool prog show 2>/dev/null | grep -E 'netpmu|napi_poll')"
