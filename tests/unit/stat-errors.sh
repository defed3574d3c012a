#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every error of netpmu stat's event strings and options, on a fixture tree:
# one line on stderr naming the bad part and the valid choices (or the fix),
# nothing on stdout, exit status 1 (2 for usage errors). The refusals of
# strings the drivers would silently count as something else are here too.
. "$(dirname "$0")/../lib/tap.sh"
plan 89
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions

# check_error DESCRIPTION STATUS EXPECTED-STDERR ARGS...
check_error() {
	local desc=$1 status=$2 expected=$3 rc
	shift 3
	"$NETPMU" stat "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$status" ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$expected" ]; then
		pass "$desc"
	else
		fail "$desc" "exit $rc (want $status), stdout '$(head -c 200 "$tmp/out")', stderr '$(cat "$tmp/err")', want '$expected'"
	fi
}

# DESCRIPTION<tab>EVENTS<tab>ERROR: each with netpmu stat --dry-run -e EVENTS.
while IFS=$'\t' read -r desc events expected; do
	check_error "$desc" 1 "$expected" --sysfs-root "$root" --dry-run -e "$events"
	# Counting checks the same way before anything is opened.
	[ "$desc" = "pair in a group with different filters" ] &&
		check_error "$desc (when counting)" 1 "$expected" --sysfs-root "$root" -e "$events"
done <<'TABLE'
unknown PMU, the PMUs present listed	nope/bw/	netpmu stat: nope/bw/: no PMU named 'nope' (present: hns3_pmu_0, hns3_pmu_sicl_0, hisi_pcie0_core0, hisi_pcie0_core1)
unknown event: the closest names	hns3_pmu_sicl_0/bw_ssu_rpu_bytes,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu_bytes,global=1/: unknown event 'bw_ssu_rpu_bytes' (closest: bw_ssu_rpu_byte_num, bw_ssu_rpu_time, bw_ssu_rpu; 'netpmu list --events hns3_pmu_sicl_0' shows all)
unknown event: a PCIe prefix names two pairs	hisi_pcie0_core1/rx_mwr,port=1/	netpmu stat: hisi_pcie0_core1/rx_mwr,port=1/: unknown event 'rx_mwr' (closest: rx_mwr_bw, rx_mwr_lat, rx_mwr_cnt; 'netpmu list --events hisi_pcie0_core1' shows all)
an event without its PMU	bw_ssu_rpu	netpmu stat: 'bw_ssu_rpu' has no PMU: write PMU/bw_ssu_rpu/ with its filter terms (PMUs that have bw_ssu_rpu: hns3_pmu_0, hns3_pmu_sicl_0)
unknown term: the valid terms	hns3_pmu_sicl_0/bw_ssu_rpu,globl=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,globl=1/: unknown term 'globl' (valid: bdf, event, event_type, ext_counter_used, global, intr, port, queue, subevent, tc, config, config1, config2, name, dev)
config3 is no term of perf 6.1	hns3_pmu_sicl_0/bw_ssu_rpu,config3=1,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,config3=1,global=1/: unknown term 'config3' (valid: bdf, event, event_type, ext_counter_used, global, intr, port, queue, subevent, tc, config, config1, config2, name, dev)
value wider than its field (tc)	hns3_pmu_sicl_0/bw_ssu_rpu,tc=0x10/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,tc=0x10/: tc=0x10 is wider than the field tc (config1:4-7: at most 0xf)
value wider than its field (queue)	hns3_pmu_sicl_0/bw_ssu_rpu,queue=0x10000,bdf=0x3500/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,queue=0x10000,bdf=0x3500/: queue=0x10000 is wider than the field queue (config1:24-39: at most 0xffff)
value wider than its field (bdf)	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0x10000,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0x10000,queue=0xffff/: bdf=0x10000 is wider than the field bdf (config1:8-23: at most 0xffff)
not a number	hns3_pmu_sicl_0/bw_ssu_rpu,global=0x/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=0x/: global=0x: '0x' is not a number (decimal, or hex with 0x)
0X is not perf's hex	hns3_pmu_sicl_0/bw_ssu_rpu,global=0X1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=0X1/: global=0X1: '0X1' is not a number (decimal, or hex with 0x)
not a bdf	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=zz,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=zz,queue=0xffff/: bdf=zz: 'zz' is not a number (decimal, or hex with 0x, or BB:DD.F such as 35:00.0)
bdf with device above 1f	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=35:20.0,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=35:20.0,queue=0xffff/: bdf=35:20.0: PCI device above 1f or function above 7
above 64 bits	hns3_pmu_sicl_0/config=0x10000000000000000,global=1/	netpmu stat: hns3_pmu_sicl_0/config=0x10000000000000000,global=1/: config=0x10000000000000000: above 64 bits
mode not supported: port	hns3_pmu_sicl_0/bw_rd_fbd,port=1,tc=0xf/	netpmu stat: hns3_pmu_sicl_0/bw_rd_fbd,port=1,tc=0xf/: port mode is not supported by bw_rd_fbd_byte_num (supported: global)
mode not supported: port-tc	hns3_pmu_sicl_0/bw_wr_ebd,port=1,tc=2/	netpmu stat: hns3_pmu_sicl_0/bw_wr_ebd,port=1,tc=2/: port-tc mode is not supported by bw_wr_ebd_byte_num (supported: global func-queue)
mode not supported: func	hns3_pmu_sicl_0/bw_ssu_egu,bdf=0x3500,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_egu,bdf=0x3500,queue=0xffff/: func mode is not supported by bw_ssu_egu_byte_num (supported: global port port-tc)
func-queue event with queue=0xffff but no func mode	hns3_pmu_sicl_0/bw_rpu_rcbrx,bdf=0x3500,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_rpu_rcbrx,bdf=0x3500,queue=0xffff/: func mode is not supported by bw_rpu_rcbrx_byte_num (supported: global func-queue)
no filter: counted as port 0 tc 0	hns3_pmu_sicl_0/bw_ssu_rpu/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu/: no filter given: the driver would count tc 0 of port 0 in port-tc mode; choose one of bw_ssu_rpu_byte_num's filters: global=1 | port=N,tc=0xf | port=N,tc=0-7 | bdf=BB:DD.F,queue=0xffff | bdf=BB:DD.F,queue=Q
no filter on a global-only event: ENOENT	hns3_pmu_sicl_0/bw_rd_fbd/	netpmu stat: hns3_pmu_sicl_0/bw_rd_fbd/: no filter given: the driver would refuse it (ENOENT); choose one of bw_rd_fbd_byte_num's filters: global=1
bdf without queue on an event without func-queue: port 0 tc 0, bdf ignored (ABI 1.6)	hns3_pmu_sicl_0/bw_ssu_roce,bdf=0x3500/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_roce,bdf=0x3500/: bdf without queue: the driver would count tc 0 of port 0 in port-tc mode; add queue=0xffff for the whole function (func mode)
bdf without queue: queue 0 only	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0x3500/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0x3500/: bdf without queue: the driver would count queue 0 of PCI function 0000:35:00.0 (eth0) in func-queue mode; add queue=0xffff for the whole function (func mode) or queue=Q for one queue (func-queue mode)
port without tc: tc 0 only	hns3_pmu_sicl_0/bw_ssu_rpu,port=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,port=1/: port without tc: the driver would count tc 0 of port 1 in port-tc mode; add tc=0xf for the whole port (port mode) or tc=T for one traffic class (port-tc mode)
queue without bdf	hns3_pmu_sicl_0/bw_ssu_rpu,queue=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,queue=1/: queue= needs bdf=BB:DD.F or dev=IFNAME: the function whose queue it is
global with bdf	hns3_pmu_sicl_0/bw_ssu_rpu,global=1,bdf=0x3500/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=1,bdf=0x3500/: global=1 counts everything, so the driver ignores bdf/queue/intr: keep global=1 or the other filter
port side with function side	hns3_pmu_sicl_0/bw_ssu_rpu,tc=2,queue=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,tc=2,queue=1/: port/tc (port modes) and bdf/queue/intr (function modes) select different filter modes: keep one side
queue with intr	hns3_pmu_sicl_0/config=0x301,bdf=0x3500,queue=1,intr=1/	netpmu stat: hns3_pmu_sicl_0/config=0x301,bdf=0x3500,queue=1,intr=1/: queue (func-queue mode) and intr (func-intr mode) select different filter modes: keep one
bdf=0	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0,queue=0xffff/: bdf=0 names no function: the driver takes bdf 0 as "no function" (the driver would count tc 0 of port 0 in port-tc mode)
port above 7 in port mode	hns3_pmu_sicl_0/bw_ssu_rpu,port=8,tc=0xf/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,port=8,tc=0xf/: port=8: the driver writes 1 << port into an 8-bit field, so ports above 7 count nothing (ports 0-7)
tc 8-14 in port-tc mode	hns3_pmu_sicl_0/bw_ssu_rpu,port=1,tc=8/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,port=1,tc=8/: tc=8: traffic classes are 0-7 and the driver keeps tc & 7, so it would count tc 0 (tc=0xf is the whole port, port mode)
config bits above 16	hns3_pmu_sicl_0/config=0x20002,global=1/	netpmu stat: hns3_pmu_sicl_0/config=0x20002,global=1/: config=0x20002: the driver ignores config bits above 16 (it would count config=0x2): drop them
config not published	hns3_pmu_sicl_0/config=0x11,global=1/	netpmu stat: hns3_pmu_sicl_0/config=0x11,global=1/: config=0x11 is not an event of hns3_pmu_sicl_0: the driver refuses it (ENOENT); 'netpmu list --events hns3_pmu_sicl_0' shows its 112 events
bdf outside bdf_min..bdf_max	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=36:00.0,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=36:00.0,queue=0xffff/: bdf: 0000:36:00.0 is outside the functions hns3_pmu_sicl_0 counts (bdf_min 35:00.0, bdf_max 35:01.7): the driver refuses it (ENOENT)
bdf of no PCI function	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=35:00.3,queue=0xffff/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=35:00.3,queue=0xffff/: bdf: there is no PCI function 0000:35:00.3 (functions of hns3_pmu_sicl_0: 0000:35:00.0 (eth0), 0000:35:00.1 (eth1), 0000:35:01.0): the driver refuses it (ENOENT)
queue the function does not have	hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth1,queue=2/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth1,queue=2/: queue 2: 0000:35:00.1 (eth1) has queues 0-1 (the driver's queue probe would refuse it: ENOENT)
intr the function does not have	hns3_pmu_sicl_0/pps_intr_msix_func,dev=eth1,intr=3/	netpmu stat: hns3_pmu_sicl_0/pps_intr_msix_func,dev=eth1,intr=3/: intr 3: 0000:35:00.1 (eth1) has 3 MSI-X vectors (0-2)
dev: no such netdev	hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth5,queue=0/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth5,queue=0/: dev=eth5: no network device 'eth5' in this network namespace (present: eth0, eth1, eth2, eth3, eth9, lo)
dev: not on a PCI function	hns3_pmu_sicl_0/bw_ssu_rpu,dev=lo,queue=0/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=lo,queue=0/: dev=lo: lo is not on a PCI function (use a PCI NIC's netdev)
dev: another PCI domain	hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth9,queue=0/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth9,queue=0/: dev=eth9: eth9 is in PCI domain 0001, hns3_pmu_sicl_0 sees domain 0000 only
bdf: another PCI domain	hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0001:35:00.0,queue=0/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,bdf=0001:35:00.0,queue=0/: bdf=0001:35:00.0: hns3_pmu_sicl_0 sees PCI domain 0000 only
dev without a name	hns3_pmu_sicl_0/bw_ssu_rpu,dev,queue=0/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev,queue=0/: dev needs a network device name, e.g. dev=eth0
PCIe thr_len above 10	hisi_pcie0_core1/rx_mwr_bw,port=1,thr_len=11/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,thr_len=11/: thr_len=11: at most 10 (2^N DW); the driver refuses it (EINVAL)
PCIe trig_len above 10	hisi_pcie0_core1/rx_mwr_bw,port=1,trig_len=11/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,trig_len=11/: trig_len=11: at most 10 (2^N DW); the driver refuses it (EINVAL)
PCIe trig_mode without trig_len	hisi_pcie0_core1/rx_mwr_bw,port=1,trig_mode=1/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,trig_mode=1/: trig_mode=1 without trig_len: the driver ignores it; add trig_len=N (2^N DW, 1-10)
PCIe thr_mode without thr_len	hisi_pcie0_core1/rx_mwr_bw,port=1,thr_mode=1/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,thr_mode=1/: thr_mode=1 without thr_len: the driver ignores it; add thr_len=N (2^N DW, 1-10)
PCIe len_mode=0	hisi_pcie0_core1/rx_mwr_bw,port=1,len_mode=0/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,len_mode=0/: len_mode=0 is reserved: the driver counts len_mode 3 (header and payload) instead; valid: 1 (payload), 2 (header), 3 (both)
PCIe port and bdf	hisi_pcie0_core1/rx_mwr_bw,port=1,bdf=0x3500/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,port=1,bdf=0x3500/: port and bdf given: the driver counts the port bitmap and ignores the bdf; keep port=BITMAP (Root Ports) or bdf=BB:DD.F (one endpoint)
PCIe no target	hisi_pcie0_core1/rx_mwr_bw/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw/: no target: the driver would count requester 0000:00:00.0 only (bdf 0); give port=BITMAP (bit i = Root Port i) or bdf=BB:DD.F (one endpoint)
PCIe bdf on a latency event	hisi_pcie0_core1/rx_mwr_lat,bdf=0x3500/	netpmu stat: hisi_pcie0_core1/rx_mwr_lat,bdf=0x3500/: rx_mwr_latency is a latency event: the documentation defines the bdf, trig_len, thr_len and len_mode filters for bandwidth (flux/time) events only; use port=BITMAP
PCIe threshold on a latency event	hisi_pcie0_core1/rx_mwr_lat,port=1,thr_len=2/	netpmu stat: hisi_pcie0_core1/rx_mwr_lat,port=1,thr_len=2/: rx_mwr_latency is a latency event: the documentation defines the bdf, trig_len, thr_len and len_mode filters for bandwidth (flux/time) events only; use port=BITMAP
PCIe requester without a Root Port	hisi_pcie0_core1/rx_mwr_bw,bdf=0x3006/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,bdf=0x3006/: bdf: 0000:30:00.6 has no PCIe Root Port above it: the driver refuses it (EINVAL)
PCIe requester below another PMU's Root Port	hisi_pcie0_core1/rx_mwr_bw,bdf=0x3900/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,bdf=0x3900/: bdf: the Root Port of 0000:39:00.0 (eth3) is 0000:38:00.0, not one of hisi_pcie0_core1's Root Ports (30:00.0-30:02.0): the driver refuses it (EINVAL)
PCIe requester that does not exist	hisi_pcie0_core1/rx_mwr_bw,bdf=0x3502/	netpmu stat: hisi_pcie0_core1/rx_mwr_bw,bdf=0x3502/: bdf: there is no PCI device 0000:35:00.2: the driver refuses it (EINVAL)
PCIe config bits above 16	hisi_pcie0_core1/config=0x20010,port=1/	netpmu stat: hisi_pcie0_core1/config=0x20010,port=1/: config=0x20010: the driver ignores config bits above 16 (it would count config=0x10): drop them
group over two PMUs	{hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/,hisi_pcie0_core1/rx_mwr_flux,port=1/}	netpmu stat: the group of hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ mixes hns3_pmu_sicl_0 and hisi_pcie0_core1: a group counts on one PMU (put the events in separate groups)
pair in a group with different filters	{hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/,hns3_pmu_sicl_0/bw_ssu_rpu_time,port=0,tc=0xf/}	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ and hns3_pmu_sicl_0/bw_ssu_rpu_time,port=0,tc=0xf/ share one hardware slot in their group (same event bits 0-15), so the driver counts both with one filter: give them the same filter terms
same event twice in a group with different filters	{hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/,hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,port=0,tc=0xf/}	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ and hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,port=0,tc=0xf/ share one hardware slot in their group (same event bits 0-15), so the driver counts both with one filter: give them the same filter terms
group of 9 HNS3 counters: counters exhausted	{hns3_pmu_sicl_0/bw_ssu_egu,global=1/,hns3_pmu_sicl_0/bw_ssu_rpu,global=1/,hns3_pmu_sicl_0/bw_ssu_roce,global=1/,hns3_pmu_sicl_0/bw_roce_ssu,global=1/,hns3_pmu_sicl_0/bw_tpu_ssu,global=1/,hns3_pmu_sicl_0/bw_rpu_rcbrx,global=1/,hns3_pmu_sicl_0/bw_rcbtx_txsch,global=1/,hns3_pmu_sicl_0/bw_wr_fbd,global=1/,hns3_pmu_sicl_0/bw_wr_ebd,global=1/}	netpmu stat: the group of hns3_pmu_sicl_0/bw_ssu_egu_byte_num,global=1/ needs 9 hardware counters, hns3_pmu_sicl_0 has 8 (counters exhausted): split it into groups of at most 8
group of 9 PCIe control values: counters exhausted	{hisi_pcie0_core1/rx_mwr_lat,port=1/,hisi_pcie0_core1/rx_mwr_lat,port=2/,hisi_pcie0_core1/rx_mwr_lat,port=3/,hisi_pcie0_core1/rx_mwr_lat,port=4/,hisi_pcie0_core1/rx_mwr_lat,port=5/,hisi_pcie0_core1/rx_mwr_lat,port=6/,hisi_pcie0_core1/rx_mwr_lat,port=7/,hisi_pcie0_core1/rx_mwr_lat,port=8/,hisi_pcie0_core1/rx_mwr_lat,port=9/}	netpmu stat: the group of hisi_pcie0_core1/rx_mwr_latency,port=1/ needs 9 hardware counters, hisi_pcie0_core1 has 8 (counters exhausted): split it into groups of at most 8
no closing slash	hns3_pmu_sicl_0/bw_ssu_rpu,global=1	netpmu stat: 'hns3_pmu_sicl_0/bw_ssu_rpu,global=1' has no closing '/': write PMU/EVENT[,TERM=VALUE].../ (e.g. hns3_pmu_sicl_0/bw_ssu_rpu,global=1/)
event modifier	hns3_pmu_sicl_0/bw_ssu_rpu,global=1/k	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=1/: modifier 'k' is not supported: an uncore PMU counts everything, it cannot exclude user, kernel, hypervisor or guest
group modifier	{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}:u	netpmu stat: '{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}': modifier ':u' is not supported: an uncore PMU counts everything, it cannot exclude user, kernel, hypervisor or guest
group not closed	{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/	netpmu stat: '{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/': the group is not closed with '}'
nested groups	{{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}}	netpmu stat: '{{hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}}': groups do not nest
trailing comma	hns3_pmu_sicl_0/bw_ssu_rpu,global=1/,	netpmu stat: 'hns3_pmu_sicl_0/bw_ssu_rpu,global=1/,': unexpected ',' after an event
stray brace	hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}	netpmu stat: 'hns3_pmu_sicl_0/bw_ssu_rpu,global=1/}': unexpected '}' after an event
two event names in one string	hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,bw_ssu_rpu_time,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,bw_ssu_rpu_time,global=1/: names two events, 'bw_ssu_rpu_byte_num' and 'bw_ssu_rpu_time': write one event per PMU/.../
empty term	hns3_pmu_sicl_0/bw_ssu_rpu,,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,,global=1/: empty term (write TERM=VALUE or an event name)
term without value	hns3_pmu_sicl_0/bw_ssu_rpu,global=/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=/: global= has no value
metric name with a value	hns3_pmu_sicl_0/bw_ssu_rpu=2,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu=2,global=1/: bw_ssu_rpu=2: a metric name takes no value
event name with a value	hns3_pmu_sicl_0/bw_ssu_rpu_time=2,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu_time=2,global=1/: bw_ssu_rpu_time=2: an event name takes no value
name= on a metric	hns3_pmu_sicl_0/bw_ssu_rpu,name=x,global=1/	netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,name=x,global=1/: name= cannot name both counters of the metric bw_ssu_rpu: drop it, or name bw_ssu_rpu_byte_num and bw_ssu_rpu_time one by one
name without value	hns3_pmu_sicl_0/name,bw_ssu_rpu_time,global=1/	netpmu stat: hns3_pmu_sicl_0/name,bw_ssu_rpu_time,global=1/: name needs a value, e.g. name=rx_bytes
no event at all	hns3_pmu_sicl_0//	netpmu stat: hns3_pmu_sicl_0//: no event: name an event or a metric ('netpmu list --events hns3_pmu_sicl_0' shows them)
TABLE

# The refusal in --explain is part of the explanation, on stdout.
"$NETPMU" stat --sysfs-root "$root" --explain -e hns3_pmu_sicl_0/bw_ssu_roce_byte_num,bdf=0x3500/ >"$tmp/out" 2>&1
check_eq "--explain shows the refusal of a bdf without queue, with the driver's reading" \
	"hns3_pmu_sicl_0/bw_ssu_roce_byte_num,bdf=0x3500/|  event:     bw_ssu_roce_byte_num (config 0x3: counter 0 of the bandwidth pair bw_ssu_roce, counts bytes)|  modes:     global port port-tc func|  refused:   bdf without queue: the driver would count tc 0 of port 0 in port-tc mode; add queue=0xffff for the whole function (func mode)" \
	"$(tr '\n' '|' <"$tmp/out" | sed 's/|$//')"

check_error "empty event list" 1 \
	"netpmu stat: empty event list: give an event (e.g. hns3_pmu_sicl_0/bw_ssu_rpu,global=1/)" \
	--sysfs-root "$root" --dry-run -e ""

# No PMU at all: how to get one.
mkdir -p "$tmp/bare/bus/event_source/devices"
check_error "no HNS3 or PCIe PMU present: how to load one" 1 \
	"netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,global=1/: no PMU named 'hns3_pmu_sicl_0' (no HNS3 or PCIe PMU is present: load netpmu's module with 'insmod .output/kmod/ARCH-KVER/netpmu.ko' or, on Hip09, the drivers with 'modprobe hns3_pmu; modprobe hisi_pcie_pmu')" \
	--sysfs-root "$tmp/bare" -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/
check_error "unreadable sysfs root" 1 \
	"netpmu stat: cannot read the PMUs: $tmp/none/bus/event_source/devices: No such file or directory" \
	--sysfs-root "$tmp/none" -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/

# Options: usage errors, exit status 2.
ev=hns3_pmu_sicl_0/bw_ssu_rpu,global=1/
check_error "no -e" 2 \
	"netpmu stat: no event: give -e EVENT, e.g. -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/ ('netpmu list --events' shows them)" \
	--sysfs-root "$root"
check_error "-e without a value" 2 "netpmu stat: -e needs a value (see netpmu stat --help)" -e
check_error "-I below 10 ms" 2 "netpmu stat: -I wants a whole number from 10 to 86400000, not '5'" -I 5 -e "$ev"
check_error "-I not a number" 2 "netpmu stat: -I wants a whole number from 10 to 86400000, not '1s'" -I 1s -e "$ev"
check_error "--count 0" 2 "netpmu stat: --count wants a whole number from 1 to 4294967295, not '0'" -I 100 --count 0 -e "$ev"
check_error "--count without -I" 2 "netpmu stat: --count N counts N intervals: give -I MS too" --count 3 -e "$ev"
check_error "-x with -j" 2 "netpmu stat: -x and -j choose different output forms: give one" -x, -j -e "$ev"
check_error "unknown option: the valid ones" 2 \
	"netpmu stat: unknown option '--frob' (valid: -e, -g, -a, --no-merge, -A, -I, --count, -x, -j, -o, --dry-run, --explain, --sysfs-root, --help)" \
	--frob -e "$ev"
check_error "-o into a directory that does not exist" 1 \
	"netpmu stat: cannot write $tmp/no/such: No such file or directory" \
	--sysfs-root "$root" -o "$tmp/no/such" -e "$ev"

# Every message above is one line.
"$NETPMU" stat --sysfs-root "$root" --dry-run -e hns3_pmu_sicl_0/bw_ssu_roce,bdf=0x3500/ 2>"$tmp/err"
check_eq "an error is one line" 1 "$(wc -l <"$tmp/err")"
