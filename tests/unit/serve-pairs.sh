#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve's -e events as what their pairs mean (user/serve/serve_pairs.c),
# through the test driver tests/unit/serve_pairs_dump.c on the fixture sysfs
# tree with its PCI topology: which family each counter joins (bandwidth,
# packet and interrupt counters; a latency pair only whole, on the same
# filter, once, with the PMU's hw_clk_freq; PCIe bandwidth; the rest raw), its
# labels (dev and queue by the HNS3 driver's filter mode; a PCIe filter's
# Root Port and endpoint), the latency pair's grouping, and the series after
# intervals of known deltas (an interval whose partner read failed adds
# nothing to the summary). Every expected value worked out by hand.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/test_driver.sh"
. "$(dirname "$0")/../lib/sysfs_fixture.sh"
plan 9

fixture_tree --topology

build_test_driver serve_pairs_dump
dump=$DRIVER

kind golden
# The queue map's NICs: eth1 (35:00.1) is in another namespace: no name.
nics=0000:35:00.0=eth0,0000:35:00.1=,0000:36:00.0=eth2
h=hns3_pmu_sicl_0 p=hisi_pcie0_core1
run() { "$dump" "$root" "$nics" "$@" >"$tmp/out" 2>&1; }
counters() { grep '^counter ' "$tmp/out"; }
series() { grep "^$1" "$tmp/out"; }

# The ext counter given first: the time counter joins its group.
printf '100 1000 70000 7 9 3\nerr 24 5000 1 1 1\n' | run "$h/dly_rpu_packet_num,bdf=35:00.1,queue=1/" \
	"$h/bw_ssu_rpu_byte_num,bdf=35:00.1,queue=0xffff/" "$h/dly_rpu_time,bdf=35:00.1,queue=1/" \
	"$h/pps_intr_msix_nic_intr_num,global=1/" "$h/pps_intr_msix_nic_time,global=1/" \
	"$h/pps_ssu_rpu_packet_num,port=1,tc=0xf/"
check_eq "HNS3: the counter of each rate pair and the latency pair (grouped), the ext counters raw only" \
	"counter 0 group_with -1 meaning - partner -1 labels {}
counter 1 group_with -1 meaning netpmu_hns3_bytes partner -1 labels {pmu=\"$h\",event=\"bw_ssu_rpu\",dev=\"0000:35:00.1\"}
counter 2 group_with 0 meaning netpmu_hns3_latency_seconds partner 0 labels {pmu=\"$h\",event=\"dly_rpu\",dev=\"0000:35:00.1\",queue=\"1\"}
counter 3 group_with -1 meaning netpmu_hns3_interrupts partner -1 labels {pmu=\"$h\",event=\"pps_intr_msix_nic\",global=\"1\"}
counter 4 group_with -1 meaning - partner -1 labels {}
counter 5 group_with -1 meaning netpmu_hns3_packets partner -1 labels {pmu=\"$h\",event=\"pps_ssu_rpu\",port=\"1\",tc=\"0xf\"}" \
	"$(counters)"
check_eq "HNS3 series: sums of the deltas; the summary's 2nd interval (partner unread) left out; sum = 70000 / 1e8 Hz" \
	"netpmu_hns3_bytes_total{pmu=\"$h\",event=\"bw_ssu_rpu\",dev=\"0000:35:00.1\"} 1024
netpmu_hns3_packets_total{pmu=\"$h\",event=\"pps_ssu_rpu\",port=\"1\",tc=\"0xf\"} 4
netpmu_hns3_interrupts_total{pmu=\"$h\",event=\"pps_intr_msix_nic\",global=\"1\"} 8
netpmu_hns3_latency_seconds_sum{pmu=\"$h\",event=\"dly_rpu\",dev=\"0000:35:00.1\",queue=\"1\"} 0.0007
netpmu_hns3_latency_seconds_count{pmu=\"$h\",event=\"dly_rpu\",dev=\"0000:35:00.1\",queue=\"1\"} 100" \
	"$(series netpmu_hns3_)"
check_eq "netpmu_pmu_event_total: every counter raw, with its filter terms as written" \
	"netpmu_pmu_event_total{pmu=\"$h\",event=\"dly_rpu_packet_num\",bdf=\"35:00.1\",queue=\"1\"} 100
netpmu_pmu_event_total{pmu=\"$h\",event=\"bw_ssu_rpu_byte_num\",bdf=\"35:00.1\",queue=\"0xffff\"} 1024
netpmu_pmu_event_total{pmu=\"$h\",event=\"dly_rpu_time\",bdf=\"35:00.1\",queue=\"1\"} 75000
netpmu_pmu_event_total{pmu=\"$h\",event=\"pps_intr_msix_nic_intr_num\",global=\"1\"} 8
netpmu_pmu_event_total{pmu=\"$h\",event=\"pps_intr_msix_nic_time\",global=\"1\"} 10
netpmu_pmu_event_total{pmu=\"$h\",event=\"pps_ssu_rpu_packet_num\",port=\"1\",tc=\"0xf\"} 4" \
	"$(series netpmu_pmu_event_total)"

# Latency pairs that are not whole: another filter, the partner taken, no clock.
run "$h/dly_rpu_time,bdf=35:00.1,queue=1/" "$h/dly_rpu_packet_num,bdf=35:00.1,queue=0/" \
	"$h/dly_rpu_time,bdf=35:00.0,queue=1/" "$h/dly_rpu_packet_num,bdf=35:00.0,queue=1/" \
	"$h/dly_rpu_time,bdf=35:00.0,queue=1/" "hns3_pmu_0/dly_rpu_time,bdf=35:00.1,queue=1/" \
	"hns3_pmu_0/dly_rpu_packet_num,bdf=35:00.1,queue=1/" </dev/null
check_eq "a latency pair only whole: same filter, each ext counter once, a PMU with hw_clk_freq (hns3_pmu_0 has none)" \
	"counter 0 group_with -1 meaning - partner -1 labels {}
counter 1 group_with -1 meaning - partner -1 labels {}
counter 2 group_with -1 meaning netpmu_hns3_latency_seconds partner 3 labels {pmu=\"$h\",event=\"dly_rpu\",dev=\"eth0\",queue=\"1\"}
counter 3 group_with 2 meaning - partner -1 labels {}
counter 4 group_with -1 meaning - partner -1 labels {}
counter 5 group_with -1 meaning - partner -1 labels {}
counter 6 group_with -1 meaning - partner -1 labels {}" "$(counters)"

# PCIe: at an endpoint, at a Root Port with one NIC below (30:02.0: eth2) and
# with several (30:00.0: eth0 and 35:00.1), by a port bitmap; latency and time raw.
printf '1000 200 30 40 5 6 7\n1 2 3 4 5 6 7\n' | run "$p/rx_mwr_flux,bdf=36:00.0/" \
	"$p/rx_mwr_flux,bdf=30:02.0,len_mode=2/" "$p/tx_mwr_flux,bdf=30:00.0/" \
	"$p/rx_mrd_flux,port=0x1,thr_len=3/" "$p/rx_mwr_latency,port=0x1/" "$p/rx_mwr_cnt,port=0x1/" \
	"$p/rx_mwr_time,bdf=36:00.0/"
check_eq "PCIe: bandwidth counters placed at their Root Port and endpoint; latency and time raw only" \
	"counter 0 group_with -1 meaning netpmu_pcie_bytes partner -1 labels {pmu=\"$p\",event=\"rx_mwr_bw\",target=\"endpoint\",root_port=\"0000:30:02.0\",endpoint=\"0000:36:00.0\",dev=\"eth2\"}
counter 1 group_with -1 meaning netpmu_pcie_bytes partner -1 labels {pmu=\"$p\",event=\"rx_mwr_bw\",target=\"root_port\",root_port=\"0000:30:02.0\",endpoint=\"0000:36:00.0\",dev=\"eth2\",len_mode=\"2\"}
counter 2 group_with -1 meaning netpmu_pcie_bytes partner -1 labels {pmu=\"$p\",event=\"tx_mwr_bw\",target=\"root_port\",root_port=\"0000:30:00.0\"}
counter 3 group_with -1 meaning netpmu_pcie_bytes partner -1 labels {pmu=\"$p\",event=\"rx_mrd_bw\",port=\"0x1\",thr_len=\"3\"}
counter 4 group_with -1 meaning - partner -1 labels {}
counter 5 group_with -1 meaning - partner -1 labels {}
counter 6 group_with -1 meaning - partner -1 labels {}" "$(counters)"
check_eq "PCIe series: the bandwidth counters' sums" \
	"netpmu_pcie_bytes_total{pmu=\"$p\",event=\"rx_mwr_bw\",target=\"endpoint\",root_port=\"0000:30:02.0\",endpoint=\"0000:36:00.0\",dev=\"eth2\"} 1001
netpmu_pcie_bytes_total{pmu=\"$p\",event=\"rx_mwr_bw\",target=\"root_port\",root_port=\"0000:30:02.0\",endpoint=\"0000:36:00.0\",dev=\"eth2\",len_mode=\"2\"} 202
netpmu_pcie_bytes_total{pmu=\"$p\",event=\"tx_mwr_bw\",target=\"root_port\",root_port=\"0000:30:00.0\"} 33
netpmu_pcie_bytes_total{pmu=\"$p\",event=\"rx_mrd_bw\",port=\"0x1\",thr_len=\"3\"} 44" \
	"$(series netpmu_pcie_)"

# A merged name: one counter per instance, each with its pair's meaning.
run "hns3_pmu_sicl/pps_ssu_rpu_packet_num,global=1/" </dev/null
check_eq "a merged PMU name: its instance's counter in the packets family" \
	"counter 0 group_with -1 meaning netpmu_hns3_packets partner -1 labels {pmu=\"$h\",event=\"pps_ssu_rpu\",global=\"1\"}" \
	"$(counters)"
run "$h/bw_ssu_rpu_byte_num,bdf=35:00.1/" </dev/null
check_eq "an event serve refuses: the parser's line, status 1" \
	"$h/bw_ssu_rpu_byte_num,bdf=35:00.1/: bdf without queue: the driver would count queue 0 of PCI function 0000:35:00.1 (eth1) in func-queue mode; add queue=0xffff for the whole function (func mode) or queue=Q for one queue (func-queue mode) (status 1)" \
	"$(cat "$tmp/out") (status $("$dump" "$root" "$nics" "$h/bw_ssu_rpu_byte_num,bdf=35:00.1/" >/dev/null 2>&1; echo $?))"
