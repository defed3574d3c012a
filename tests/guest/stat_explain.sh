#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on real sysfs: netpmu stat --explain resolves dev=eth0 to the
# NIC's PCI function (virtio-net sits on virtioN below it), names the netdev,
# checks the queue against the netdev's queues, and for the PCIe PMU finds the
# NIC's Root Port; what the drivers would refuse is refused before opening.
. "$(dirname "$0")/../lib/tap.sh"
plan 4
kind golden

pmus=/sys/bus/event_source/devices
if [ ! -d $pmus/hns3_pmu_sicl_0 ]; then
	fail "hns3_pmu_sicl_0 is registered" "no $pmus/hns3_pmu_sicl_0 (is netpmu.ko loaded?)"
	exit 0
fi
# eth0's PCI function: .../0000:01:00.0/net/eth0 (igb) or .../0000:01:00.0/virtio2/net/eth0.
fn=$(readlink -f /sys/class/net/eth0 | sed -E 's|(/virtio[0-9]+)?/net/eth0$||')
addr=$(basename "$fn")
rp=$(basename "$(dirname "$fn")")
queues=$(ls -d /sys/class/net/eth0/queues/rx-* | wc -l)

out=$("$NETPMU" stat --explain -e hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth0,queue=0xffff/ 2>&1)
check_eq "dev=eth0 is eth0's PCI function $addr, func mode" \
	"  counts:    PCI function $addr (eth0) in func mode" "$(grep -m1 counts: <<<"$out")"
out=$("$NETPMU" stat --dry-run -e hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth0,queue=$queues/ 2>&1)
check_eq "a queue eth0 does not have is refused before the driver's queue probe" \
	"netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth0,queue=$queues/: queue $queues: $addr (eth0) has queues 0-$((queues - 1)) (the driver's queue probe would refuse it: ENOENT)" \
	"$out"
out=$("$NETPMU" stat --dry-run -e hns3_pmu_sicl_0/bw_ssu_rpu,dev=lo,queue=0/ 2>&1)
check_eq "dev=lo is refused: no PCI function" \
	"netpmu stat: hns3_pmu_sicl_0/bw_ssu_rpu,dev=lo,queue=0/: dev=lo: lo is not on a PCI function (use a PCI NIC's netdev)" "$out"

pcie=$(ls $pmus | grep -m1 '^hisi_pcie')
if [ -z "$pcie" ]; then
	skip "PCIe PMU: dev=eth0 is a requester below its Root Port" "no hisi_pcie PMU registered in this guest"
	exit 0
fi
out=$("$NETPMU" stat --explain -e "$pcie/rx_mwr_bw,dev=eth0/" 2>&1)
check_eq "PCIe PMU: dev=eth0 is the requester $addr below Root Port $rp" \
	"  counts:    traffic of requester $addr (eth0) below Root Port $rp" "$(grep -m1 counts: <<<"$out")"
