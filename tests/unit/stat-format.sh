#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Packing event strings into config words: split format fields (configN:A-B,C-D,
# which the ABI's PMUs do not use but perf allows), perf's rules (config terms
# assigned, format fields OR'ed, bare fields 1, decimal with leading 0), the
# value limits of split fields; and perf itself agreeing on the split fields.
. "$(dirname "$0")/../lib/tap.sh"
plan 15
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions
# Split fields: PCIe port and bdf interleaved in config2, HNS3 queue in two
# pieces of config1 (intr moved to config2 to make room).
pcie=$(readlink -f "$root/bus/event_source/devices/hisi_pcie0_core1")
hns3=$(readlink -f "$root/bus/event_source/devices/hns3_pmu_sicl_0")
echo "config2:0-7,16-23" >"$pcie/format/port"
echo "config2:8-15,24-31" >"$pcie/format/bdf"
echo "config1:24-31,44-51" >"$hns3/format/queue"
echo "config2:0-11" >"$hns3/format/intr"

# attrs EVENTS: "config=.. config1=.. config2=.." of each counter, or the error.
attrs() {
	local out
	out=$("$NETPMU" stat --sysfs-root "$root" --dry-run -e "$1" 2>&1) || { echo "$out"; return; }
	awk '/^# event / { c = "0"; c1 = "0"; c2 = "0"; next }
	     /^  config / { c = $2 } /^  config1 / { c1 = $2 } /^  config2 / { c2 = $2 }
	     /^sys_perf_event_open/ { print "config=" c " config1=" c1 " config2=" c2 }' <<<"$out" | paste -sd'|'
}

check_eq "split field: port=0x1ff packs bits 0-7 and 16-23" "config=0x104 config1=0 config2=0x100ff" \
	"$(attrs hisi_pcie0_core1/rx_mwr_flux,port=0x1ff/)"
check_eq "split field: bdf=0x3501 packs its low byte in 8-15, its high byte in 24-31" \
	"config=0x104 config1=0 config2=0x35000100" "$(attrs hisi_pcie0_core1/rx_mwr_flux,bdf=0x3501/)"
check_eq "split field read back: the requester check sees bdf 0x3501 (eth1) and accepts it" \
	"  counts:    traffic of requester 0000:35:00.1 (eth1) below Root Port 0000:30:00.0" \
	"$("$NETPMU" stat --sysfs-root "$root" --explain -e hisi_pcie0_core1/rx_mwr_flux,bdf=0x3501/ | grep counts:)"
check_eq "split field: queue=0x1234 packs 0x34 in 24-31 and 0x12 in 44-51" \
	"config=0x102 config1=0x1200034350800 config2=0" \
	"$(attrs hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=0x3508,queue=0x1234/)"
check_eq "split field read back: the queue check sees queue 4660, not a piece of it" \
	"netpmu stat: hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=0x3500,queue=0x1234/: queue 4660: 0000:35:00.0 (eth0) has queues 0-3 (the driver's queue probe would refuse it: ENOENT)" \
	"$(attrs hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=0x3500,queue=0x1234/)"
check_eq "split field: the largest value is the width of all pieces (0xffff)" \
	"netpmu stat: hisi_pcie0_core1/rx_mwr_flux,port=0x10000/: port=0x10000 is wider than the field port (config2:0-7,16-23: at most 0xffff)" \
	"$(attrs hisi_pcie0_core1/rx_mwr_flux,port=0x10000/)"
check_eq "a field in config2 (intr moved there)" "config=0x301 config1=0x350000 config2=0x2" \
	"$(attrs hns3_pmu_sicl_0/pps_intr_msix_func_intr_num,bdf=0x3500,intr=2/)"
check_eq "metric: both counters get the same filter words" \
	"config=0x2 config1=0x10000000000000 config2=0|config=0x10002 config1=0x10000000000000 config2=0" \
	"$(attrs hns3_pmu_sicl_0/bw_ssu_rpu,global=1/)"
check_eq "perf's rule: format fields are OR'ed into config (ext_counter_used=0 keeps bit 16)" \
	"config=0x10002 config1=0x10000000000000 config2=0" \
	"$(attrs hns3_pmu_sicl_0/config=0x10002,ext_counter_used=0,global=1/)"
check_eq "an event name and a config term naming another event: refused (perf lets the last win)" \
	"netpmu stat: hns3_pmu_sicl_0/config=0x2,bw_ssu_rpu_time,global=1/: the terms change the event bw_ssu_rpu_time names (config 0x10002) into config 0x2: drop the event name or the terms that set config bits 0-16" \
	"$(attrs hns3_pmu_sicl_0/config=0x2,bw_ssu_rpu_time,global=1/)"
check_eq "perf's rule: a bare field is 1" "config=0x10002 config1=0x10000000000000 config2=0" \
	"$(attrs hns3_pmu_sicl_0/config=2,ext_counter_used,global/)"
check_eq "perf's rule: a leading 0 is decimal (010 = 10 = bw_wr_ebd_byte_num)" \
	"config=0xa config1=0x10000000000000 config2=0" "$(attrs hns3_pmu_sicl_0/config=010,global=1/)"
check_eq "event_type= stands for event= on an HNS3 PMU that has only event (v1 naming)" \
	"config=0x20f config1=0x10000000000000 config2=0" "$(attrs hns3_pmu_0/event_type=2,subevent=15,global=1/)"
rm "$hns3/format/event"
check_eq "event= stands for event_type= on an HNS3 PMU that has only event_type (upstream)" \
	"config=0x20f config1=0x10000000000000 config2=0" "$(attrs hns3_pmu_sicl_0/event=2,subevent=15,global=1/)"

# perf packs the split fields the same way (see stat-perf-oracle.sh for the method).
kind exact
if ! command -v perf >/dev/null || ! unshare -Urm true 2>/dev/null; then
	skip "perf packs split fields as netpmu does" "no perf or no user namespaces on this machine"
	exit 0
fi
copy_pmu_dirs "$root" "$tmp/pmus"
strings="hisi_pcie0_core1/rx_mwr_flux,port=0x1ff/ hisi_pcie0_core1/rx_mwr_flux,bdf=0x3501/ hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=0x3508,queue=0x1234/ hns3_pmu_sicl_0/pps_intr_msix_func_intr_num,bdf=0x3500,intr=2/"
expected=$(for s in $strings; do attrs "$s"; done)
perf_says=$(unshare -Urm sh -c 'mount --bind "$1" /sys/bus/event_source/devices && vv=$2 && shift 2 &&
	for s; do perf stat -vv -a -e "$s" -- true 2>&1 | awk -f "$vv" | head -n 1 | cut -d" " -f2-4; done' \
	sh "$tmp/pmus" "$REPO/tests/lib/perf_vv_attrs.awk" $strings)
check_eq "perf stat -vv packs the 4 split-field strings as netpmu does" "$expected" "$perf_says"
