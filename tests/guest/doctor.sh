#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu doctor in the guest: situations made on purpose, each with the
# finding it must give and nothing else, and a quiet balanced run with none.
#   quiet:     eth3's two RX IRQs on CPUs 0 and 1, 64 UDP flows at a gentle rate
#   imbalance: eth3's RSS table sends every flow to queue 0 (ethtool -X weight 1 0)
#   budget:    a flood to eth1 whose polls are deferred 500 ms (napi_defer_hard_irqs,
#              gro_flush_timeout): each poll finds more than its budget waiting,
#              and an interrupt brings many packets (coalescing_loose)
#   shared:    both RX IRQs of eth3 on CPU 0, CPU 1 polls nothing
#   consumer:  eth1's IRQ on CPU 0, its receiver (--pid) on CPU 1; then moved to CPU 0
#   latency and drops: a model instance of eth1 whose frames take lat_base_ns=200000
#              each and which counts a frame dropped before DMA for every frame
#              delivered (rx_drop_every=1), read through a sysfs root that has it
#              instead of hns3_pmu_sicl_0 (one watch for two findings: CI's time)
#   pcie:      netpmu.ko reloaded with a slow PCIe model link (pcie_link_mbps=1: a
#              frame's TLPs take milliseconds) and doctor told the link is that
#              (--threshold pcie_link_mbps=1: QEMU's Root Port says its own speed), a
#              flood to eth3: pcie_bandwidth and pcie_latency on eth3's Root Port
#   channels:  ethtool -L eth3 combined 1 during a watch: one line says so, and the
#              report covers the queues there are, their packets the driver's own
# Packets are exact against the datagrams sent or the driver's own per-queue
# counts (ethtool -S); affinities, the RSS table and the receiver's CPU are put back.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/irqs.sh"
. "$(dirname "$0")/../lib/eth3_channels.sh"
plan 46
kind golden
tmp=$(mktemp -d)
irq_affinity_init "$tmp"
receiver=
latency_id=7
kmod=${NETPMU_KO:?set by tests/vm/run}
channels=$(eth3_combined)
reloaded=
cleanup() {
	[ -z "$receiver" ] || kill "$receiver" 2>/dev/null
	[ -z "$reloaded" ] || { rmmod netpmu && insmod "$kmod"; } || echo "not ok - restore the default load of netpmu.ko"
	ip netns exec peer ethtool -L eth3 combined "$channels" 2>/dev/null
	[ ! -e /sys/bus/event_source/devices/hns3_pmu_sicl_$latency_id ] || echo $latency_id >/sys/bus/netpmu_sim/del_device
	wait 2>/dev/null
	irq_affinity_restore
	ip netns exec peer ethtool -X eth3 default 2>/dev/null
	defer_eth1 $defer_saved
	sysctl -qw net.core.rmem_max="$rmem_saved"
	rm -rf "$tmp"
}
# defer_eth1 HARD_IRQS TIMEOUT_NS: eth1's NAPI deferral (sysfs, in its namespace).
defer_eth1() {
	ip netns exec peer sh -c "echo $1 > /sys/class/net/eth1/napi_defer_hard_irqs &&
		echo $2 > /sys/class/net/eth1/gro_flush_timeout"
}
defer_saved=$(ip netns exec peer cat /sys/class/net/eth1/napi_defer_hard_irqs /sys/class/net/eth1/gro_flush_timeout | tr '\n' ' ')
rmem_saved=$(sysctl -n net.core.rmem_max)
trap cleanup EXIT

flow=$UDP_FLOW
eth3_pci=$(ip netns exec peer readlink -f /sys/class/net/eth3/device | xargs basename)
eth1_pci=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
rx0=$(irqs_of eth3 'rx-0$') rx1=$(irqs_of eth3 'rx-1$') eth1_irq=$(irqs_of "$peer_virtio" 'input.0$')
# eth3's Root Port, its port bit as netpmu.ko's model logs it, and its link's
# capacity a direction from sysfs (8b/10b to 5 GT/s, 128b/130b from 8).
eth3_rp=$(ip netns exec peer readlink -f /sys/class/net/eth3/device/.. | xargs basename)
port_of() { dmesg | sed -n "s/.*Root Port $1 is port bit [0-9]* (port=\(0x[0-9a-f]*\)).*/\1/p" | tail -1; }
eth3_port=$(port_of "$eth3_rp")
read -r link_gts link_width <<<"$(cat /sys/bus/pci/devices/$eth3_rp/current_link_speed \
	/sys/bus/pci/devices/$eth3_rp/current_link_width | awk '{ printf "%s ", $1 }')"
link_mbps=$(awk -v g="$link_gts" -v w="$link_width" 'BEGIN { printf "%.0f", (g <= 5 ? g * 800 : g * 1000 * 128 / 130) * w }')
echo "# eth3's Root Port $eth3_rp, ${eth3_port:-no port bit logged}, link $link_gts GT/s x$link_width: $link_mbps Mbit/s"

# run_doctor NAME DOCTOR-ARG... -- FLOW-COMMAND...: doctor, and once it says it
# watches, the flow; then Ctrl-C ends the watch (TCG's pace varies too much for
# a fixed -d). "$tmp/NAME" is its output, .rc its status, .flow whether it still
# watched when the flow ended (the sums need the whole flow inside).
run_doctor() {
	local name=$1 pid args=()
	shift
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	"$NETPMU" doctor -d 300 "${args[@]}" >"$tmp/$name" 2>"$tmp/$name.err" &
	pid=$!
	wait_line "$tmp/$name.err" 'watching for'
	"$@" >/dev/null
	sleep 1
	if kill -0 $pid 2>/dev/null; then echo inside >"$tmp/$name.flow"; else echo after >"$tmp/$name.flow"; fi
	wait_sigint_handled $pid && kill -INT $pid
	wait $pid
	echo $? >"$tmp/$name.rc"
	sed 's/^/  /' "$tmp/$name" "$tmp/$name.err"
}
findings() { sed -n 's/^finding [0-9]* of [0-9]*: //p' "$tmp/$1" | tr '\n' '|'; }
clear_of() { sed -n "s/^  $2: //p" "$tmp/$1"; }
evidence_of() { grep -A1 -m1 "^finding [0-9]* of [0-9]*: $2: $3\$" "$tmp/$1" | sed -n 's/^  evidence:   //p'; }
ran() { echo "$(cat "$tmp/$1.rc") $(cat "$tmp/$1.flow")"; }
# eth3's RX packets per queue as its driver counts them (ethtool -S).
eth3_rx() { ip netns exec peer ethtool -S eth3 | awk -v q="rx_queue_$1_packets:" '$1 == q { print $2 }'; }
eth3_flow() { # COUNT GAP-US [TIMEOUT-S [SIZE]]
	"$flow" transfer --netns peer --to 203.0.113.2 --port 9800 --count "$1" --size "${4:-200}" --flows 64 \
		--gap-us "$2" --timeout "${3:-20}"
}
# The thresholds of these runs: TCG under load moved as few as 4 packets a second on a queue.
slow=(--threshold busy_pps=1 --threshold min_packets=200)

# quiet: balanced, gentle.
irq_pin "$rx0" 0
irq_pin "$rx1" "$(cpu_other_than 0)"
run_doctor quiet --dev "$eth3_pci" --pcie-port "$eth3_port" "${slow[@]}" -- eth3_flow 300 1000
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "quiet: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran quiet)"
check_eq "quiet: nothing found" "nothing found|" "$(grep -x 'nothing found' "$tmp/quiet" | tr '\n' '|')$(findings quiet)"
TAP_KIND=exact check_cmd "quiet: the imbalance line counts the 300 datagrams sent to eth3 (oracle: datagrams sent)" \
	grep -qE "^  imbalance: eth3: the busiest RX queue, [01], carries [0-9.]+% of 300 packets \(imbalance_pct=75\)$" "$tmp/quiet"
check_eq "quiet: shared_cpu sees one busy queue per CPU" "no CPU polls more than 1 busy queue (busy_pps=1)" \
	"$(clear_of quiet shared_cpu)"
# A received 242-byte frame's TLPs (kmod/hisi_pcie.md), headers included: up, its
# descriptor fetch 16 + 16 and its writes 242 + 16 and 16 + 16 (322 bytes); down,
# the doorbell 4 + 16 and the fetch's completion 16 + 12 (48 bytes).
TAP_KIND=model check_cmd "quiet: the PCIe line: 300 x 322 = 96600 bytes up, 300 x 48 = 14400 down, 600 writes (oracle: datagrams sent, kmod/hisi_pcie.md)" \
	grep -qE "^PCIe: Root Port $eth3_rp \($link_mbps Mbit/s a direction, $link_gts GT/s PCIe x$link_width\), [a-z0-9_]+ port=$eth3_port: 96600 bytes up, 14400 down in [0-9.]+ s, .*; writes 53\.0 cycles a TLP over 600 TLPs$" "$tmp/quiet"
TAP_KIND=exact check_cmd "quiet: pcie_bandwidth's clear line: Root Port $eth3_rp's $link_mbps Mbit/s from sysfs ($link_gts GT/s x$link_width)" \
	grep -qE "^  pcie_bandwidth: the busiest interval used [0-9.]+% of Root Port $eth3_rp's $link_mbps Mbit/s a direction \($link_gts GT/s PCIe x$link_width\): [0-9.]+ Mbit/s up, [0-9.]+ Mbit/s down \(pcie_bandwidth_pct=80\)$" "$tmp/quiet"
# The model's default TLP latency (kmod/hisi_pcie.md): 50 + floor(bytes / 40) cycles, a
# 242-byte frame's write 56 (with its 16-byte header), its descriptor write-back 50.
TAP_KIND=model check_cmd "quiet: pcie_latency's clear line, 53.0 cycles a TLP: (56 + 50) / 2 (oracle: kmod/hisi_pcie.md's formula)" \
	grep -qE "^  pcie_latency: Root Port $eth3_rp's inbound memory writes took 53\.0 cycles a TLP \(0\.53 us\) over [0-9]+ TLPs \(pcie_latency_cycles=1000\)$" "$tmp/quiet"
irq_affinity_restore
irq_affinity_init "$tmp"

# imbalance: the RSS table sends everything to queue 0.
ip netns exec peer ethtool -X eth3 weight 1 0
q0=$(eth3_rx 0) q1=$(eth3_rx 1)
run_doctor imbalance --dev "$eth3_pci" "${slow[@]}" -- eth3_flow 300 1000
ip netns exec peer ethtool -X eth3 default
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "imbalance: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran imbalance)"
TAP_KIND=exact check_eq "imbalance: igb's own counts: all 300 datagrams on queue 0 (the situation made)" "300 0" \
	"$(($(eth3_rx 0) - q0)) $(($(eth3_rx 1) - q1))"
check_eq "imbalance: the one finding is eth3's imbalance" "imbalance: eth3|" "$(findings imbalance)"
TAP_KIND=exact check_eq "imbalance: its evidence, queue 0's 300 of 300 (oracle: datagrams sent)" \
	"eth3 rx 0 carried 300 of 300 RX packets (100.0%) over 2 queues (by queue: 0: 300, 1: 0)" \
	"$(evidence_of imbalance imbalance eth3 | sed 's/; the NIC.*//')"

# budget: virtio-net keeps its interrupt off while a poll is deferred (QEMU's
# igb does not: its polls were not deferred), so a flood waits 500 ms a poll
# (scaled: the situation needs more than a budget of 64 datagrams to arrive in
# a wait, and a slow kernel's sender is slower; the debug cell's sent 35 a
# second, 17 a wait, and 4 of 58 polls used their budget).
# eth1's RX packets as virtio-net counts them (one RX queue: the device's count;
# 6.12's ethtool -S has no per-queue packets for virtio-net).
eth1_rx() { ip netns exec peer cat /sys/class/net/eth1/statistics/rx_packets; }
eth1_flood() {
	"$flow" transfer --netns peer --to 198.51.100.2 --port 9820 --count 1000 --size 200 --timeout 10
}
before=$(eth1_rx)
# The receiver's 4 MiB buffer (udp_flow) takes a deferred poll's datagrams
# whole, so that it needs no timeout to end.
sysctl -qw net.core.rmem_max=4194304
defer_eth1 1000 $(($(scaled 500) * 1000000))
run_doctor budget --dev "$eth1_pci" "${slow[@]}" --threshold min_polls=10 -- eth1_flood
defer_eth1 $defer_saved
sysctl -qw net.core.rmem_max="$rmem_saved"
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "budget: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran budget)"
TAP_KIND=exact check_eq "budget: eth1's RX row's packets are virtio-net's own count (sysfs statistics)" \
	"$(($(eth1_rx) - before))" "$(awk '$1 == "eth1" && $2 == "rx" && $3 == 0 { print $7 }' "$tmp/budget")"
# The deferral also keeps eth1's interrupt off: one brings the flood's polls,
# coalescing too loose (napi_defer_hard_irqs is what its next step names).
check_eq "budget: the findings are eth1's budget_exhausted and coalescing_loose" \
	"budget_exhausted: eth1 rx 0|coalescing_loose: eth1 rx 0|" "$(findings budget)"
check_cmd "budget: coalescing_loose's evidence, IRQ $eth1_irq bringing loose_pkts_per_irq=32 packets or more each" \
	grep -qE "^  evidence:   IRQ $eth1_irq fired once every [0-9]+ us on average while packets came \([0-9.]+ s of intervals with packets\) and brought ([3-9][0-9]|[0-9]{3,})\.[0-9]{2} packets each" "$tmp/budget"
check_cmd "budget: its evidence, a share at or above budget_pct=10" \
	grep -qE "^  evidence:   [0-9]+ of [0-9]+ polls \((1[0-9]|[2-9][0-9]|100)\.[0-9]%\) used their whole budget" "$tmp/budget"

# shared: both RX IRQs on CPU 0.
irq_pin "$rx0" 0
irq_pin "$rx1" 0
run_doctor shared --dev "$eth3_pci" "${slow[@]}" -- eth3_flow 300 1000
irq_affinity_restore
irq_affinity_init "$tmp"
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "shared: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran shared)"
check_eq "shared: the one finding is CPU 0's shared_cpu" "shared_cpu: CPU 0|" "$(findings shared)"
check_cmd "shared: its evidence names both queues with their IRQs and CPU $(cpu_other_than 0) idle" \
	grep -qE "^  evidence:   2 busy queues are polled on CPU 0: eth3 rx 0 \([0-9]+ packets/s, IRQ $rx0\), eth3 rx 1 \([0-9]+ packets/s, IRQ $rx1\); .* of CPU $(cpu_other_than 0), which polls no busy queue$" "$tmp/shared"

# consumer: eth1's IRQ on CPU 0, its receiver on the other CPU, then on CPU 0.
other=$(cpu_other_than 0)
irq_pin "$eth1_irq" 0
ip netns exec peer taskset -c "$other" "$flow" recv --port 9810 --count 600 --timeout 120 >"$tmp/recv" &
receiver=$!
eth1_flow() { "$flow" send --to 198.51.100.2 --port 9810 --count 300 --size 200 --gap-us 1000; }
run_doctor consumer --dev "$eth1_pci" --pid "$receiver" "${slow[@]}" -- eth1_flow
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "consumer: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran consumer)"
check_eq "consumer: the one finding is eth1's queue polled away from its receiver" "consumer_cpu: eth1 rx 0|" \
	"$(findings consumer)"
check_cmd "consumer: its evidence, CPU 0 against the receiver's CPU $other" \
	grep -qE "^  evidence:   its polls ran on CPU 0 \([0-9]+ packets/s, IRQ $eth1_irq, affinity 0\); udp_flow \(pid $receiver\) ran on CPU $other in [0-9]+ of [0-9]+ samples: every packet is handed to another CPU$" "$tmp/consumer"
taskset -pc 0 "$receiver" >/dev/null
run_doctor consumer0 --dev "$eth1_pci" --pid "$receiver" "${slow[@]}" -- eth1_flow
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "consumer moved to CPU 0: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran consumer0)"
check_eq "consumer moved to CPU 0: nothing found" "nothing found|" \
	"$(grep -x 'nothing found' "$tmp/consumer0" | tr '\n' '|')$(findings consumer0)"
check_cmd "consumer moved to CPU 0: its clear line says so" \
	grep -qE "^  consumer_cpu: udp_flow \(pid $receiver\) ran on CPU 0, where each of the 1 busy RX queues is polled \(busy_pps=1\)$" "$tmp/consumer0"
wait "$receiver"
TAP_KIND=exact check_eq "consumer: the receiver got all 600 datagrams (oracle: datagrams sent)" \
	"received 600 datagrams 120000 bytes" "$(cat "$tmp/recv")"
receiver=

# latency and drops: a model instance of eth1 (kmod/README.md's new_device
# keys) whose frames take lat_base_ns=200000 each, and which counts one frame
# the NIC received and dropped before DMA for every frame it delivered
# (rx_drop_every=1). doctor reads it through a sysfs root that is /sys but for
# a copy of the PMUs without hns3_pmu_sicl_0 (which counts eth1 too), as
# stat_vanished.sh stages one. The model's latency of a 242-byte frame at
# 100 MHz and 10000 Mb/s: floor(200000 ns x 100 MHz) = 20000 cycles, plus
# floor(242 x 8 x 100 / 10000) = 19 for its bytes (the bytes' part floored
# over the frames counted together: 19.36 a frame at most), so the mean is
# 200.19 us (kmod/README.md's formula); the latency pair counts delivered
# frames only, the RX packet counter twice as many.
echo "$latency_id netdevs=eth1 lat_base_ns=200000 rx_drop_every=1" >/sys/bus/netpmu_sim/new_device
copy=$tmp/sys/bus/event_source/devices
mkdir -p "$copy"
for e in /sys/*; do [ "$e" = /sys/bus ] || ln -s "$e" "$tmp/sys/"; done
for e in /sys/bus/*; do [ "$e" = /sys/bus/event_source ] || ln -s "$e" "$tmp/sys/bus/"; done
for d in /sys/bus/event_source/devices/*; do cp -r "$d/" "$copy/" 2>/dev/null; done
rm -rf "$copy/hns3_pmu_sicl_0"
before=$(eth1_rx)
eth1_latency_flow() { "$flow" transfer --netns peer --to 198.51.100.2 --port 9830 --count 600 --size 200 --gap-us 3000; }
run_doctor latency --sysfs-root "$tmp/sys" --dev "$eth1_pci" "${slow[@]}" --threshold min_packets=50 -- eth1_latency_flow
echo $latency_id >/sys/bus/netpmu_sim/del_device
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "latency and drops: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran latency)"
TAP_KIND=exact check_eq "latency and drops: eth1's RX row's packets are virtio-net's own count (sysfs statistics)" \
	"$(($(eth1_rx) - before))" "$(awk '$1 == "eth1" && $2 == "rx" && $3 == 0 { print $7 }' "$tmp/latency")"
check_eq "latency and drops: the findings are eth1's hw_sw_mismatch and nic_latency, read from hns3_pmu_sicl_$latency_id" \
	"hw_sw_mismatch: eth1 rx 0|nic_latency: eth1 rx 0|hns3_pmu_sicl_$latency_id" \
	"$(findings latency)$(grep -o "hns3_pmu_sicl_[0-9]*" "$tmp/latency" | head -1)"
TAP_KIND=model check_cmd "latency: its evidence, the model's 200.19 us a frame (oracle: kmod/README.md's formula)" \
	grep -qE "^  evidence:   the NIC measured a mean RX latency of 200\.19 us over [0-9]+ packets" "$tmp/latency"
read -r nic napi pct <<<"$(evidence_of latency hw_sw_mismatch "eth1 rx 0" |
	sed -n 's/.*the NIC counted \([0-9]*\) RX packets and NAPI delivered \([0-9]*\) (\([0-9.]*% [a-z]*\)).*/\1 \2 \3/p')"
# The frames the NIC delivered in the same intervals: its latency pair's packets.
delivered=$(evidence_of latency nic_latency "eth1 rx 0" | sed -n 's/.* us over \([0-9]*\) packets .*/\1/p')
TAP_KIND=model check_eq "drops: hw_sw_mismatch's evidence, the NIC's ${nic:-?} RX packets = 2 x the ${delivered:-?} it delivered in those intervals (its latency pair's packets; oracle: rx_drop_every=1)" \
	"$((2 * ${delivered:-0}))" "${nic:-none}"
# NAPI counts a poll's packets when the poll returns, the model its frames
# when its tap sees them inside the poll: a poll across an interval's end
# puts them in two intervals (585 against 584 once on x86_64 6.12).
TAP_KIND="weak: a poll across an interval's end, at most 2 frames" check_cmd \
	"drops: NAPI's ${napi:-?} packets are the ${delivered:-?} the NIC delivered, within 2 (${pct:-?})" \
	test "${napi:-0}" -ge "$((${delivered:-0} - 2))" -a "${napi:-0}" -le "$((${delivered:-0} + 2))" -a "${delivered:-0}" -gt 0

# pcie: netpmu.ko reloaded with a slow model link and an MPS that takes a
# frame in one write, and a flood of 1442-byte frames: 1522 bytes up each
# (descriptor fetch 16 + 16, writes 1442 + 16 and 16 + 16), so that the
# busiest interval passes 80% of 1 Mbit/s at 66 frames a second (the debug
# kernel moved 238 a second; 242-byte frames reached only 61%). Their TLPs at
# 100 MHz and 1 Mbit/s (kmod/hisi_pcie.md): the write (16-byte header)
# 50 + floor(1458 x 8 x 100) = 1166450 cycles, the descriptor write-back
# 50 + floor(32 x 8 x 100) = 25650: 596050.0 cycles a TLP on average (about
# 5960.50 us: doctor reads the cycles at the time counter's clock, measured).
reload() { rmmod netpmu && insmod "$kmod" "$@"; }
reloaded=1
TAP_KIND="weak: setup step" check_cmd "pcie: netpmu.ko reloads with pcie_link_mbps=1 pcie_mps=2048" reload pcie_link_mbps=1 pcie_mps=2048
eth3_port=$(port_of "$eth3_rp")
q0=$(eth3_rx 0) q1=$(eth3_rx 1)
run_doctor pcie --dev "$eth3_pci" --pcie-port "$eth3_port" "${slow[@]}" --threshold pcie_link_mbps=1 -- eth3_flow 2000 0 60 1400
delivered=$(($(eth3_rx 0) - q0 + $(eth3_rx 1) - q1))
TAP_KIND="weak: setup step" check_cmd "pcie: netpmu.ko reloads with its default parameters" reload
reloaded=
TAP_KIND="weak: setup, the sums need the whole flow inside" check_eq "pcie: doctor exits 0, the flow inside its run" \
	"0 inside" "$(ran pcie)"
# The flood's frames are all the Root Port moved (eth1 is quiet), as igb counted them.
check_eq "pcie: the findings are pcie_bandwidth and pcie_latency on eth3's Root Port $eth3_rp" \
	"pcie_bandwidth: $eth3_rp|pcie_latency: $eth3_rp|" "$(findings pcie | tr '|' '\n' | grep '^pcie' | tr '\n' '|')"
TAP_KIND=model check_cmd "pcie: pcie_bandwidth's evidence: the declared 1 Mbit/s, 1522 bytes up and 48 down for each of the $delivered frames igb counted (oracle: ethtool -S, kmod/hisi_pcie.md)" \
	grep -qE "^  evidence:   the busiest interval moved [0-9.]+ Mbit/s up .*, [0-9.]+% of the link's 1 Mbit/s a direction \(declared: pcie_link_mbps=1; sysfs says $link_gts GT/s PCIe x$link_width\); over [0-9.]+ s, $((1522 * delivered)) bytes up and $((48 * delivered)) down, TLP headers included \([a-z0-9_]+, port=$eth3_port\)$" "$tmp/pcie"
# The microseconds are the cycles at the time counter's rate doctor measured
# and prints to the hertz (TCG's clock has put it 1.25% below the model's
# 100 MHz): either rounding of that half hertz.
clk_hz=$(sed -n "s/.*its cycles read at the \([0-9]*\) Hz of the PMU's time counter.*/\1/p" "$tmp/pcie")
TAP_KIND="weak: the rate is measured under TCG" check_cmd "pcie: doctor measured the time counter at 100 MHz within 5% (the model's clock): ${clk_hz:-none} Hz" \
	test "${clk_hz:-0}" -ge 95000000 -a "${clk_hz:-0}" -le 105000000
latency_us=$(awk -v hz="${clk_hz:-1}" 'BEGIN { printf "%.2f|%.2f", 596050.0 / (hz + 0.5) * 1e6, 596050.0 / (hz - 0.5) * 1e6 }')
TAP_KIND=model check_cmd "pcie: pcie_latency's evidence: 596050.0 cycles a TLP over 2 x $delivered TLPs, ${latency_us%|*} us at ${clk_hz:-none} Hz; the largest delay in PCIe (oracle: kmod/hisi_pcie.md's formula)" \
	grep -qE "^  evidence:   the inbound memory writes \(the NIC's DMA\) through Root Port $eth3_rp took 596050\.0 cycles a TLP on average \((${latency_us//./\\.}) us\) over $((2 * delivered)) TLPs \([a-z0-9_]+, port=$eth3_port\); beside them, .*: the largest delay is in PCIe$" "$tmp/pcie"
check_cmd "pcie: the busiest interval is at least pcie_bandwidth_pct=80 of the declared link" \
	awk '/^  evidence:   the busiest interval moved/ { sub(/.* Mbit\/s down \(read completions, MMIO writes\), /, ""); exit !($1 + 0 >= 80) }' "$tmp/pcie"

# channels: ethtool -L eth3 combined 1 while doctor watches. The flow after the
# change is counted from the change on, over the queues there are now.
"$NETPMU" doctor -d 300 --dev "$eth3_pci" "${slow[@]}" >"$tmp/channels" 2>"$tmp/channels.err" &
pid=$!
wait_line "$tmp/channels.err" 'watching for'
eth3_flow 200 1000 >/dev/null
ip netns exec peer ethtool -L eth3 combined 1
# igb frees and requests its vectors one by one: every change said (2 fewer) before the flow.
wait_until 30 said_changes "$tmp/channels.err" -2
TAP_KIND=golden check_eq "channels: doctor says the change of the vectors, adding up to the 2 freed" -2 \
	"$(said_vector_changes "$tmp/channels.err")"
q0=$(eth3_rx 0)
eth3_flow 300 1000 >/dev/null
sleep 1
wait_sigint_handled $pid && kill -INT $pid
wait $pid
echo $? >"$tmp/channels.rc"
sed 's/^/  /' "$tmp/channels" "$tmp/channels.err"
check_eq "channels: doctor exits 0" 0 "$(cat "$tmp/channels.rc")"
check_cmd "channels: its line says what changed and what it does" \
	grep -qE "^netpmu doctor: the queue vectors changed \([0-9]+ now, [0-9]+ before\): the rotation follows them, the sums start again over the queues there are now$" "$tmp/channels.err"
TAP_KIND=exact check_eq "channels: the report's eth3 rows are the queues /proc/interrupts names now (1 RX, 1 TX)" \
	"rx 0|tx 0|" "$(awk '$1 == "eth3" { print $2, $3 }' "$tmp/channels" | sort | tr '\n' '|')"
TAP_KIND=exact check_eq "channels: eth3 rx 0's packets are igb's own count of the flow after the change (ethtool -S)" \
	"$(($(eth3_rx 0) - q0))" "$(awk '$1 == "eth3" && $2 == "rx" && $3 == 0 { print $7 }' "$tmp/channels")"
check_eq "channels: the imbalance line sees one RX queue" "eth3: one RX queue, nothing to balance" \
	"$(clear_of channels imbalance)"
ip netns exec peer ethtool -L eth3 combined "$channels"
