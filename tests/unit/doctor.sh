#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu doctor's diagnosis (user/doctor/) through the test driver
# tests/unit/doctor_dump.c, over totals written here by hand: each check fires
# exactly at its threshold and not one step below, with the figures its clear
# line gives; the confidence and its reason; the per-interval sums of the
# NIC's counters (an interval the counters were opened in is not compared);
# queues that never polled still count for balance; --threshold's refusals;
# the JSON form. tests/guest/doctor.sh makes the situations on purpose.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/test_driver.sh"
plan 65

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

build_test_driver doctor_dump
dump=$DRIVER
kind golden

# findings [OPTION...] < FIXTURE: "check: subject" of each finding, '|' after each.
findings() { "$dump" "$@" | sed -n 's/^finding [0-9]* of [0-9]*: //p' | tr '\n' '|'; }
# clear CHECK [OPTION...] < FIXTURE: the check's line under "checked:" or "no finding from:".
clear_of() { local c=$1; shift; "$dump" "$@" | sed -n "s/^  $c: //p"; }
# line PATTERN [OPTION...] < FIXTURE: the report's first line matching PATTERN.
line() { local p=$1; shift; "$dump" "$@" | grep -m1 -- "$p"; }

run='run duration=10 cpus=2'

# budget_exhausted: budget_pct=10 of min_polls=50 polls; high at 10 x min_polls.
printf '%s\nqueue dev=eth1 queue=0 dir=rx polls=100 packets=1000 budget_exhausted=10 cpu=1\ncpu cpu=1 net_rx_ns=2500000000\n' "$run" >b10
printf '%s\nqueue dev=eth1 queue=0 dir=rx polls=100 packets=1000 budget_exhausted=9 cpu=1\n' "$run" >b9
printf '%s\nqueue dev=eth1 queue=0 dir=rx polls=49 packets=1000 budget_exhausted=49\n' "$run" >b49
printf '%s\nqueue dev=eth1 queue=0 dir=rx polls=500 packets=9000 budget_exhausted=60\n' "$run" >b500
check_eq "budget: 10 of 100 polls exhausted (10.0%, budget_pct=10) is a finding" "budget_exhausted: eth1 rx 0|" "$(findings <b10)"
check_eq "budget: its evidence" \
	"  evidence:   10 of 100 polls (10.0%) used their whole budget, 10.0 packets per poll; its CPU 1 spent 25.0% of the run in NET_RX softirqs" \
	"$(line evidence <b10)"
check_eq "budget: 100 polls are under 10 x min_polls: medium" \
	"  confidence: medium: every poll counted by the kernel, 100 polls (under 10 x min_polls=50)" "$(line confidence <b10)"
check_eq "budget: 500 polls: high" \
	"  confidence: high: every poll counted by the kernel, 500 polls (at least 10 x min_polls=50)" "$(line confidence <b500)"
check_eq "budget: 9 of 100 (9.0%) is none, and the clear line says the highest share" \
	"|the highest share, eth1 rx 0's, is 9.0% of 100 polls (budget_pct=10)" "$(findings <b9)|$(clear_of budget_exhausted <b9)"
check_eq "budget: 49 polls (under min_polls=50) are not judged" \
	"|no queue polled min_polls=50 times" "$(findings <b49)|$(clear_of budget_exhausted <b49)"
check_eq "budget: --threshold budget_pct=9 makes 9 of 100 a finding" "budget_exhausted: eth1 rx 0|" \
	"$(findings --threshold budget_pct=9 <b9)"

# imbalance: the busiest RX queue's share, imbalance_pct=75 of min_packets=1000.
imb() { # Q0 Q1 [HW0 HW1]: eth3's two RX queues' packets, the NIC's counts over 2 s of each
	echo "$run pmu=hns3_pmu_sicl_0"
	for q in 0 1; do
		local p=$1 hw=${3:-}
		[ $q = 1 ] && p=$2 hw=${4:-}
		echo "queue dev=eth3 queue=$q dir=rx func=2 polls=100 packets=$p cpu=$q" \
			${hw:+hw_intervals=4 hw_ns=2000000000 hw_rx_packets=$hw hw_napi_packets=$hw}
	done
	echo "queue dev=eth3 queue=0 dir=tx func=2 polls=100 packets=0"
}
imb 750 250 >i75; imb 749 251 >i74; imb 749 250 >i999; imb 750 250 160 40 >ihw; imb 750 250 100 100 >ihwno
imb 750 250 0 0 >ihw0
check_eq "imbalance: queue 0 with 750 of 1000 (75.0%) is a finding" "imbalance: eth3|" "$(findings <i75)"
check_eq "imbalance: its evidence" \
	"  evidence:   eth3 rx 0 carried 750 of 1000 RX packets (75.0%) over 2 queues (by queue: 0: 750, 1: 250)" \
	"$(line evidence <i75)"
check_eq "imbalance: NAPI's counts only: medium" \
	"  confidence: medium: from NAPI's counts only: the NIC's counters measured 0 of its 2 queues" "$(line confidence <i75)"
check_eq "imbalance: the NIC's counters measured both queues but no packet in those intervals: medium" \
	"  confidence: medium: from NAPI's counts only: the NIC's counters counted no packet in the intervals they measured its queues" \
	"$(line confidence <ihw0)"
check_eq "imbalance: the NIC's counters agree (80.0%): high" \
	"  confidence: high: NAPI's counts and the NIC's own counters agree on queue 0" "$(line confidence <ihw)"
check_eq "imbalance: the NIC's counters see 50.0%: low" \
	"  confidence: low: the NIC's counters disagree (queue 0, 50.0%): they measured each queue a part of the run only" \
	"$(line confidence <ihwno)"
check_eq "imbalance: 749 of 1000 (74.9%) is none" \
	"|eth3: the busiest RX queue, 0, carries 74.9% of 1000 packets (imbalance_pct=75)" "$(findings <i74)|$(clear_of imbalance <i74)"
check_eq "imbalance: 999 packets (under min_packets=1000) are not judged" \
	"|eth3: 999 RX packets, under min_packets=1000" "$(findings <i999)|$(clear_of imbalance <i999)"
printf '%s\nqueue dev=eth1 queue=0 dir=rx func=1 polls=100 packets=5000\n' "$run" >one
check_eq "imbalance: a device with one RX queue has nothing to balance" \
	"|eth1: one RX queue, nothing to balance" "$(findings <one)|$(clear_of imbalance <one)"
printf '%s\nidle func=1 queue=1 dir=rx irq=45\nidle func=9 queue=0 dir=rx\n' "$(cat one)" >idle
check_eq "imbalance: a queue that never polled counts (all 5000 on queue 0 of 2); a function never seen does not" \
	"imbalance: eth1|  evidence:   eth1 rx 0 carried 5000 of 5000 RX packets (100.0%) over 2 queues (by queue: 0: 5000, 1: 0)" \
	"$(findings <idle)$(line evidence <idle)"

# shared_cpu: busy_pps=1000 x 10 s; another CPU polls no busy queue.
shared() { # PACKETS_Q1 CPUS
	echo "run duration=10 cpus=$2"
	echo "queue dev=eth3 queue=0 dir=rx irq=44 polls=100 packets=10000 cpu=0"
	echo "queue dev=eth3 queue=1 dir=rx irq=45 polls=100 packets=$1 on=0:90:$(($1 - 10)) on=1:10:10"
	echo "cpu cpu=0 net_rx_ns=5000000000"
}
shared 10000 2 >s; shared 9999 2 >s9; shared 10000 1 >s1
check_eq "shared_cpu: two queues of 1000 packets/s polled on CPU 0, none on CPU 1, is a finding" "shared_cpu: CPU 0|" "$(findings <s)"
check_eq "shared_cpu: its evidence and confidence (queue 1 polled on CPU 1 too: medium)" \
	"  evidence:   2 busy queues are polled on CPU 0: eth3 rx 0 (1000 packets/s, IRQ 44), eth3 rx 1 (1000 packets/s, IRQ 45); NET_RX softirqs took 50.0% of CPU 0 and 0.0% of CPU 1, which polls no busy queue|  confidence: medium: some of their intervals' polls ended elsewhere: the CPU is where most were" \
	"$(line evidence <s)|$(line confidence <s)"
check_eq "shared_cpu: 999.9 packets/s is not busy" "|no CPU polls more than 1 busy queue (busy_pps=1000)" \
	"$(findings <s9)|$(clear_of shared_cpu <s9)"
check_eq "shared_cpu: one CPU online: nowhere to move them" "|every one of the 1 CPUs polls a busy queue (busy_pps=1000)" \
	"$(findings <s1)|$(clear_of shared_cpu <s1)"

# irq_affinity: polled outside the IRQ's smp_affinity_list.
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 affinity=1,3-5 polls=100 packets=20000 cpu=0\n' "$run" >a
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 affinity=0-1 polls=100 packets=20000 cpu=0\n' "$run" >a0
check_eq "irq_affinity: polled on CPU 0, IRQ allowed on 1,3-5 only" \
	"irq_affinity: eth1 rx 0|  evidence:   its polls ran on CPU 0 (2000 packets/s), its IRQ 30 may run on CPUs 1,3-5 only" \
	"$(findings <a)$(line evidence <a)"
check_eq "irq_affinity: CPU 0 in 0-1 is none" "|1 busy queue with a known IRQ affinity, each polled inside it (busy_pps=1000)" \
	"$(findings <a0)|$(clear_of irq_affinity <a0)"

# consumer_cpu: the --pid process on one CPU consumer_pct=90 of its samples.
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 affinity=0 polls=100 packets=20000 cpu=0\nconsumer pid=77 comm=recv on=1:9 on=0:1\n' "$run" >c
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 affinity=0 polls=100 packets=20000 cpu=0\nconsumer pid=77 comm=recv on=1:8 on=0:2\n' "$run" >c8
check_eq "consumer_cpu: polled on CPU 0, the consumer on CPU 1 in 9 of 10 samples" \
	"consumer_cpu: eth1 rx 0|  evidence:   its polls ran on CPU 0 (2000 packets/s, IRQ 30, affinity 0); recv (pid 77) ran on CPU 1 in 9 of 10 samples: every packet is handed to another CPU" \
	"$(findings <c)$(line evidence <c)"
check_eq "consumer_cpu: 8 of 10 samples on CPU 1: it moves, not judged" \
	"|recv (pid 77) ran on CPU 1 in 8 of 10 samples (80.0%, consumer_pct=90): it moves between CPUs, no CPU to compare with" \
	"$(findings <c8)|$(clear_of consumer_cpu <c8)"

# coalescing: irq_rate=20000/s with fewer than pkts_per_irq=2 packets each.
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 polls=200000 packets=399999 irqs=200000 irq_ns=1000000000\n' "$run" >k
printf '%s\nqueue dev=eth1 queue=0 dir=rx irq=30 polls=200000 packets=400000 irqs=200000\n' "$run" >k2
check_eq "coalescing: 20000 interrupts/s of 1.99 packets each" \
	"coalescing: eth1 rx 0|  evidence:   IRQ 30 fired 20000 times a second and brought 2.00 packets each (200000 interrupts, 399999 packets, 1.00 polls each), its handlers took 10.0% of a CPU" \
	"$(findings <k)$(line evidence <k)"
check_eq "coalescing: 2 packets each is none" "|the highest interrupt rate, eth1 rx 0's, is 20000/s with 2.00 packets each (irq_rate=20000, pkts_per_irq=2)" \
	"$(findings <k2)|$(clear_of coalescing <k2)"

# coalescing_loose: loose_pkts_per_irq=32 packets an interrupt, one every
# irq_gap_us=500 us or more of the intervals with packets, over min_packets=1000.
loose() { # BUSY_NS PACKETS [HW...]: 2000 interrupts of eth1 rx 0 in a 10 s run
	echo "run duration=10 cpus=2 pmu=hns3_pmu_sicl_0 clk=100000000"
	echo "queue dev=eth1 queue=0 dir=rx irq=30 polls=2000 packets=$2 irqs=2000 busy_ns=$1 ${3:-}"
}
loose 1000000000 64000 >o; loose 1000000000 63980 >o31; loose 998000000 64000 >o499; loose 1000000000 999 >o999
loose 1000000000 64000 "hw_intervals=4 hw_ns=2000000000 hw_rx_packets=30000 hw_napi_packets=30000 hw_lat_packets=30000 hw_lat_cycles=3600000" >olat
check_eq "coalescing_loose: 32.00 packets an interrupt, one every 500 us of the 1 s with packets (of 10 s)" \
	"coalescing_loose: eth1 rx 0|  evidence:   IRQ 30 fired once every 500 us on average while packets came (1.000 s of intervals with packets) and brought 32.00 packets each (2000 interrupts, 64000 packets): arriving steadily, a batch's first packet waited about 500 us for its interrupt|  confidence: medium: the wait is inferred from the interrupt and packet rates: packets arriving steadily waited up to the gap, a burst that arrived at once did not" \
	"$(findings <o)$(line evidence <o)|$(line confidence <o)"
check_eq "coalescing_loose: with the NIC's latency pair, its mean beside" \
	"  evidence:   IRQ 30 fired once every 500 us on average while packets came (1.000 s of intervals with packets) and brought 32.00 packets each (2000 interrupts, 64000 packets): arriving steadily, a batch's first packet waited about 500 us for its interrupt; the NIC's own mean RX latency: 1.20 us" \
	"$(line evidence <olat)"
check_eq "coalescing_loose: 31.99 packets an interrupt is none" \
	"|the most packets per interrupt, eth1 rx 0's, is 31.99, one interrupt every 500 us while packets came (loose_pkts_per_irq=32, irq_gap_us=500)" \
	"$(findings <o31)|$(clear_of coalescing_loose <o31)"
check_eq "coalescing_loose: one interrupt every 499 us is none; --threshold irq_gap_us=499 makes it one" \
	"|the most packets per interrupt, eth1 rx 0's, is 32.00, one interrupt every 499 us while packets came (loose_pkts_per_irq=32, irq_gap_us=500)|coalescing_loose: eth1 rx 0|" \
	"$(findings <o499)|$(clear_of coalescing_loose <o499)|$(findings --threshold irq_gap_us=499 <o499)"
check_eq "coalescing_loose: 999 packets (under min_packets=1000) are not judged" \
	"|no RX queue's interrupts were counted over min_packets=1000 packets" "$(findings <o999)|$(clear_of coalescing_loose <o999)"

# hw_sw_mismatch: hw_sw_pct=5 of the larger count over the measured intervals.
hw() { echo "$run pmu=hns3_pmu_sicl_0"; echo "queue dev=eth1 queue=0 dir=rx polls=100 packets=5000 hw_intervals=$1 hw_ns=2000000000 hw_rx_packets=$2 hw_napi_packets=$3"; }
hw 4 1000 950 >h5; hw 4 1000 951 >h4; hw 3 900 1000 >hmore
check_eq "hw_sw_mismatch: NIC 1000, NAPI 950 (5.0% fewer)" \
	"hw_sw_mismatch: eth1 rx 0|  evidence:   over the 4 intervals (2.000 s) the NIC's counters measured the queue whole, the NIC counted 1000 RX packets and NAPI delivered 950 (5.0% fewer)|  confidence: high: both counted over the same 4 intervals (at least 4)" \
	"$(findings <h5)$(line evidence <h5)|$(line confidence <h5)"
check_eq "hw_sw_mismatch: NAPI 1000, NIC 900 over 3 intervals: medium" \
	"hw_sw_mismatch: eth1 rx 0|  confidence: medium: both counted over the same 3 intervals (under 4)" \
	"$(findings <hmore)$(line confidence <hmore)"
check_eq "hw_sw_mismatch: 4.9% is none" \
	"|the largest difference, eth1 rx 0's, is 4.9%: NIC 1000, NAPI 951 RX packets over 4 measured intervals (hw_sw_pct=5)" \
	"$(findings <h4)|$(clear_of hw_sw_mismatch <h4)"

# nic_latency: the NIC's mean RX latency, nic_latency_us=50 over min_packets=1000
# (clk=100 MHz: 5000 cycles a packet are 50 us), beside the kernel's poll time.
lat() { echo "run duration=10 cpus=2 pmu=hns3_pmu_sicl_0 clk=100000000"; echo "queue dev=eth1 queue=0 dir=rx polls=100 packets=2000 $3 hw_intervals=4 hw_ns=2000000000 hw_rx_packets=$2 hw_napi_packets=$2 hw_lat_packets=$2 hw_lat_cycles=$1"; }
lat 5000000 1000 poll_ns=3000000 >l50; lat 4999000 1000 poll_ns=3000000 >l49; lat 5000000 999 >l999; lat 5000000 1000 >lnopoll
check_eq "nic_latency: 50.00 us over 1000 packets, polls 1.50 us a packet" \
	"nic_latency: eth1 rx 0|  evidence:   the NIC measured a mean RX latency of 50.00 us over 1000 packets (2.000 s of counting); the kernel's poll time a packet: 1.50 us" \
	"$(findings <l50)$(line evidence <l50)"
check_eq "nic_latency: without poll time, said so" \
	"  evidence:   the NIC measured a mean RX latency of 50.00 us over 1000 packets (2.000 s of counting); the kernel's poll time a packet: not measured (no __napi_poll hook)" \
	"$(line evidence <lnopoll)"
check_eq "nic_latency: 49.99 us is none" "|the highest, eth1 rx 0's, is 49.99 us over 1000 packets (nic_latency_us=50)" \
	"$(findings <l49)|$(clear_of nic_latency <l49)"
check_eq "nic_latency: 999 packets (under min_packets=1000) are not judged" \
	"|the NIC's latency pair measured no RX queue over min_packets=1000 packets" "$(findings <l999)|$(clear_of nic_latency <l999)"

# Interval records as a run sums them: the first interval of a generation (the
# counters opened in it) is not compared; the next ones are.
cat >rec <<'R'
run duration=2 cpus=2 pmu=hns3_pmu_sicl_0
record napi=7 dev=eth1 queue=0 dir=rx cpu=1 interval_ns=500000000 polls=10 packets=100 gen=1 rx_packets=40
record napi=7 dev=eth1 queue=0 dir=rx cpu=1 interval_ns=500000000 polls=10 packets=100 gen=1 rx_packets=100
record napi=7 dev=eth1 queue=0 dir=rx cpu=0 interval_ns=500000000 polls=20 packets=300 gen=2 rx_packets=7
record napi=7 dev=eth1 queue=0 dir=rx cpu=0 interval_ns=500000000 polls=20 packets=300 gen=2 rx_packets=290
R
check_eq "records: 4 intervals sum to 60 polls, 800 packets, mostly on CPU 0; the NIC's 2 whole intervals 390 against NAPI's 400" \
	"eth1 rx 0           0     - -               800       60     0.0        0       -  390/400 in 1.000 s" \
	"$(line '^eth1 rx 0' <rec)"

# pcie_bandwidth: the busiest interval's bytes one way, pcie_bandwidth_pct=80 of the link's
# capacity (sysfs's speed x width, or pcie_link_mbps). 1000 Mbit/s: 100000000 bytes/s is 80.0%.
bw() { # PEAK-UP-BYTES/S [PCIE-WORDS...]
	local up=$1
	shift
	echo "$run"
	echo "queue dev=eth1 queue=0 dir=rx polls=100 packets=2000 cpu=1"
	echo "pcie pmu=hisi_pcie0_core0 rp=0000:00:02.0 link=2.5_GT/s_PCIe_x1 link_mbps=1000 up_bytes=300000000 down_bytes=2000 ns=3000000000 peak_up_bps=$up peak_down_bps=1000 $*"
}
bw 100000000 'target=bdf=0x201_(02:00.1_only)' >p80; bw 99999999 'target=bdf=0x201_(02:00.1_only)' >p79
bw 100000000 target=port=0x2 lat_cycles=50000 lat_tlps=1000 >p80port
check_eq "pcie_bandwidth: 800.000 Mbit/s of 1000 (80.0%, pcie_bandwidth_pct=80) is a finding, with its evidence" \
	"pcie_bandwidth: 0000:00:02.0|  evidence:   the busiest interval moved 800.000 Mbit/s up (from the NIC: DMA writes, read requests) and 0.008 Mbit/s down (read completions, MMIO writes), 80.0% of the link's 1000 Mbit/s a direction (2.5 GT/s PCIe x1); over 3.000 s, 300000000 bytes up and 2000 down, TLP headers included (hisi_pcie0_core0, bdf=0x201 (02:00.1 only))" \
	"$(findings <p80)$(line evidence <p80)"
check_eq "pcie_bandwidth: by the function's bdf: medium, other functions not counted" \
	"  confidence: medium: the NIC function's own TLPs only (bdf=0x201 (02:00.1 only)): other functions below the Root Port add to the link's load (--pcie-port counts them all)" \
	"$(line confidence <p80)"
check_eq "pcie_bandwidth: by the Root Port's port bit: high" \
	"  confidence: high: the Root Port's own count of every TLP through it (port=0x2)" "$(line 'confidence: high' <p80port)"
check_eq "pcie_bandwidth: 99999999 bytes/s (79.99...%) is none, and the clear line gives the figures" \
	"|the busiest interval used 80.0% of Root Port 0000:00:02.0's 1000 Mbit/s a direction (2.5 GT/s PCIe x1): 800.000 Mbit/s up, 0.008 Mbit/s down (pcie_bandwidth_pct=80)" \
	"$(findings <p79)|$(clear_of pcie_bandwidth <p79)"
check_eq "pcie_bandwidth: --threshold pcie_bandwidth_pct=79.9 makes it a finding" "pcie_bandwidth: 0000:00:02.0|" \
	"$(findings --threshold pcie_bandwidth_pct=79.9 <p79)"
bw 100000000 target=bdf=0x201 link_mbps=0 >pnolink
check_eq "pcie_bandwidth: no link speed in sysfs: not judged, said how to declare it" \
	"|the busiest interval moved 800.000 Mbit/s up and 0.008 Mbit/s down through Root Port 0000:00:02.0, but sysfs gives no link speed and width: declare the link with --threshold pcie_link_mbps=N" \
	"$(findings <pnolink)|$(clear_of pcie_bandwidth <pnolink)"
bw 100000000 target=bdf=0x201 link_mbps=125 declared=1 >pdeclared
check_eq "pcie_bandwidth: a declared link (pcie_link_mbps) is named as declared" \
	"800.000 Mbit/s up, 640.0% of the link's 125 Mbit/s a direction (declared: pcie_link_mbps=125; sysfs says 2.5 GT/s PCIe x1)" \
	"$(line evidence <pdeclared | sed 's/^.*moved \([0-9.]* Mbit\/s up\).*, \([0-9.]*% of.*)\); over.*/\1, \2/')"
check_eq "pcie: not measured: both checks say why, the PCIe line too" \
	"PCIe: not measured: no PCIe PMU counts Root Port 0000:00:02.0|not measured: no PCIe PMU counts Root Port 0000:00:02.0|not measured: no PCIe PMU counts Root Port 0000:00:02.0" \
	"$(printf '%s\npcie not_measured=no_PCIe_PMU_counts_Root_Port_0000:00:02.0\n' "$run" >pnone
	   line '^PCIe' <pnone)|$(clear_of pcie_bandwidth <pnone)|$(clear_of pcie_latency <pnone)"

# pcie_latency: the Root Port's inbound writes, pcie_latency_cycles=1000 a TLP over
# min_packets=1000 TLPs; beside the NIC's latency and the kernel's poll time.
pl() { # CYCLES TLPS [CLK]
	echo "run duration=10 cpus=2 pmu=hns3_pmu_sicl_0 clk=100000000"
	echo "queue dev=eth1 queue=0 dir=rx polls=100 packets=2000 poll_ns=3000000 hw_intervals=4 hw_ns=2000000000 hw_rx_packets=2000 hw_napi_packets=2000 hw_lat_packets=2000 hw_lat_cycles=200000 cpu=1"
	echo "pcie pmu=hisi_pcie0_core0 rp=0000:00:02.0 target=port=0x2 link_mbps=1000 up_bytes=1000 ns=3000000000 lat_cycles=$1 lat_tlps=$2 ${3:+clk=$3}"
}
pl 1000000 1000 100000000 >pl1000; pl 999999 1000 100000000 >pl999; pl 1000000 999 100000000 >pltlps; pl 1000000 1000 >plnoclk
check_eq "pcie_latency: 1000.0 cycles a TLP (10.00 us at the time counter's 100 MHz) is a finding: the largest delay is in PCIe" \
	"pcie_latency: 0000:00:02.0|  evidence:   the inbound memory writes (the NIC's DMA) through Root Port 0000:00:02.0 took 1000.0 cycles a TLP on average (10.00 us) over 1000 TLPs (hisi_pcie0_core0, port=0x2); beside them, the NIC's own mean RX latency: 1.00 us, the kernel's poll time a packet: 1.50 us: the largest delay is in PCIe" \
	"$(findings <pl1000)$(line evidence <pl1000)"
check_eq "pcie_latency: medium, the clock named" \
	"  confidence: medium: every write TLP counted by the Root Port; its cycles read at the 100000000 Hz of the PMU's time counter, which the documentation does not name as the latency's clock" \
	"$(line confidence <pl1000)"
check_eq "pcie_latency: 999.999 cycles a TLP is none, the clear line gives it" \
	"|Root Port 0000:00:02.0's inbound memory writes took 1000.0 cycles a TLP (10.00 us) over 1000 TLPs (pcie_latency_cycles=1000)" \
	"$(findings <pl999)|$(clear_of pcie_latency <pl999)"
check_eq "pcie_latency: 999 TLPs (under min_packets=1000) are not judged" \
	"|999 inbound memory writes through Root Port 0000:00:02.0, under min_packets=1000" \
	"$(findings <pltlps)|$(clear_of pcie_latency <pltlps)"
check_eq "pcie_latency: without the PMU's clock: low, in cycles only, no attribution" \
	"pcie_latency: 0000:00:02.0|the inbound memory writes (the NIC's DMA) through Root Port 0000:00:02.0 took 1000.0 cycles a TLP on average over 1000 TLPs (hisi_pcie0_core0, port=0x2); beside them, the NIC's own mean RX latency: 1.00 us, the kernel's poll time a packet: 1.50 us|low" \
	"$(findings <plnoclk)$(line evidence <plnoclk | sed 's/^  evidence:   //')|$(line confidence <plnoclk | sed 's/^  confidence: \([a-z]*\):.*/\1/')"
check_eq "pcie_latency: without a port bitmap, not counted, said how" \
	"not counted: the PCIe PMU's latency events take a port bitmap only, which sysfs cannot give (on a Hip09 the Root Port's lane offset): --pcie-port BITMAP" \
	"$(clear_of pcie_latency <p80)"
# nic_latency with PCIe beside: 50.00 us in the NIC, PCIe's writes 10.00 us: the NIC.
{ echo "run duration=10 cpus=2 pmu=hns3_pmu_sicl_0 clk=100000000"
  echo "queue dev=eth1 queue=0 dir=rx polls=100 packets=2000 poll_ns=3000000 hw_intervals=4 hw_ns=2000000000 hw_rx_packets=1000 hw_napi_packets=1000 hw_lat_packets=1000 hw_lat_cycles=5000000"
  echo "pcie pmu=hisi_pcie0_core0 rp=0000:00:02.0 target=port=0x2 ns=1 lat_cycles=1000000 lat_tlps=1000 clk=100000000"; } >lpcie
check_eq "nic_latency: PCIe's writes beside it; 10.00 us of 50.00: the delay is in the NIC" \
	"  evidence:   the NIC measured a mean RX latency of 50.00 us over 1000 packets (2.000 s of counting); the kernel's poll time a packet: 1.50 us; PCIe's writes through Root Port 0000:00:02.0: 10.00 us a TLP|  next:       the delay is in the NIC, not in PCIe (its writes took 10.00 us): look at its buffers and pause frames (ethtool -S eth1, ethtool -a eth1)" \
	"$(grep -A3 '^finding.*nic_latency' <("$dump" <lpcie) | grep -E '^  (evidence|next):' | tr '\n' '|' | sed 's/|$//')"

# A NIC's queues changed (ethtool -L): the sums start again; a NAPI known before
# is left out while idle (a freed vector's stays in the kernel's table, and its
# IRQ may serve another queue now), counted again once it polls.
cat >restart <<'R'
run duration=2 cpus=2
record napi=1 dev=eth3 queue=0 dir=rx polls=10 packets=100
record napi=2 dev=eth3 queue=1 dir=rx polls=10 packets=100
restart
record napi=2 dev=eth3 queue=0 dir=rx polls=0 packets=0
record napi=3 dev=eth3 queue=0 dir=tx polls=0 packets=0
record napi=1 dev=eth3 queue=0 dir=rx polls=5 packets=50
R
check_eq "restart: only what came after it, the idle NAPI of before left out, the one that polled again counted" \
	"eth3 rx 0           0     - -                50        5     0.0        0       -  -|eth3 tx 0           0     - -                 0        0     0.0        0       -  -|" \
	"$("$dump" <restart | grep '^eth3' | tr '\n' '|')"

# --threshold: refusals.
check_eq "--threshold with an unknown name is refused with the names" \
	"error: --threshold nope=1: unknown name 'nope' (names: min_polls, budget_pct, min_packets, imbalance_pct, busy_pps, consumer_pct, irq_rate, pkts_per_irq, loose_pkts_per_irq, irq_gap_us, hw_sw_pct, nic_latency_us, pcie_bandwidth_pct, pcie_link_mbps, pcie_latency_cycles)" \
	"$("$dump" --threshold nope=1 </dev/null)"
check_eq "--threshold with a percentage above 100 is refused" \
	"error: --threshold imbalance_pct=101: imbalance_pct wants a number from 0 to 100, not '101' (status 2)" \
	"$("$dump" --threshold imbalance_pct=101 </dev/null) (status $?)"
check_eq "--threshold with no number is refused" \
	"error: --threshold busy_pps=fast: busy_pps wants a number from 0 to 1e15, not 'fast'" \
	"$("$dump" --threshold busy_pps=fast </dev/null)"

# Nothing found, and JSON.
check_eq "an empty run: nothing found, every check's clear line" \
	"nothing found|checked:|  budget_exhausted: no queue polled min_polls=50 times|  imbalance: no device received packets|  shared_cpu: no CPU polls more than 0 busy queues (busy_pps=1000)|  irq_affinity: 0 busy queues with a known IRQ affinity, each polled inside it (busy_pps=1000)|  consumer_cpu: no --pid named the consuming process|  coalescing: no RX queue's interrupts were counted|  coalescing_loose: no RX queue's interrupts were counted over min_packets=1000 packets|  hw_sw_mismatch: the NIC's counters measured no RX queue whole for an interval|  nic_latency: the NIC's latency pair measured no RX queue over min_packets=1000 packets|  pcie_bandwidth: not measured: give --dev to measure the PCIe link above a NIC|  pcie_latency: not measured: give --dev to measure the PCIe link above a NIC|" \
	"$(echo "$run" | "$dump" | sed -n '/^nothing found/,$p' | tr '\n' '|')"
check_eq "--json: the finding's check, subject, figures and confidence; the clear checks by name" \
	"budget_exhausted eth1 rx 0 {'polls': 100.0, 'budget_exhausted': 10.0, 'budget_pct': 10.0, 'packets_per_poll': 10.0, 'net_rx_pct': 25.0} medium ['imbalance', 'shared_cpu', 'irq_affinity', 'consumer_cpu', 'coalescing', 'coalescing_loose', 'hw_sw_mismatch', 'nic_latency', 'pcie_bandwidth', 'pcie_latency'] 1000" \
	"$("$dump" --json <b10 | python3 -c 'import json, sys
d = json.load(sys.stdin)
f = d["findings"][0]
print(f["check"], f["subject"], f["figures"], f["confidence"], list(d["nothing_found"]), d["queues"][0]["packets"])')"
check_eq "--json: the PCIe link's counts in \"pcie\", the finding's figures" \
	"hisi_pcie0_core0 0000:00:02.0 port=0x2 1000.0 False 300000000 2000 3.0 800.0 50000 1000|{'link_mbps': 1000.0, 'peak_pct': 80.0, 'peak_up_mbps': 800.0, 'peak_down_mbps': 0.008, 'up_bytes': 300000000.0, 'down_bytes': 2000.0}" \
	"$("$dump" --json <p80port | python3 -c 'import json, sys
d = json.load(sys.stdin)
p = d["pcie"]
f = [f for f in d["findings"] if f["check"] == "pcie_bandwidth"][0]
print(p["pmu"], p["root_port"], p["target"], p["link_mbps"], p["link_declared"], p["up_bytes"], p["down_bytes"],
      p["measured_s"], p["peak_up_mbps"], p["latency_cycles"], p["latency_tlps"], end="|")
print(f["figures"])')"

# The command's own refusals, before any BPF: one line, status 2.
check_eq "netpmu doctor --threshold refuses a bad value in one line, status 2" \
	"netpmu doctor: --threshold min_polls=-1: min_polls wants a number from 0 to 1e15, not '-1' (status 2)" \
	"$("$NETPMU" doctor --threshold min_polls=-1 2>&1) (status $?)"
check_eq "netpmu doctor --help names every threshold with its default" \
	"min_polls=50 budget_pct=10 min_packets=1000 imbalance_pct=75 busy_pps=1000 consumer_pct=90 irq_rate=20000 pkts_per_irq=2 loose_pkts_per_irq=32 irq_gap_us=500 hw_sw_pct=5 nic_latency_us=50 pcie_bandwidth_pct=80 pcie_link_mbps=0 pcie_latency_cycles=1000 " \
	"$("$NETPMU" doctor --help | awk '$1 ~ /^[a-z_]+=[0-9]+$/ { printf "%s ", $1 }')"
