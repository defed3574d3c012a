#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve's -e events as what their pairs mean, scraped from /metrics
# after a known UDP flow to eth1 (queue 0, in namespace 'peer'): the HNS3
# bandwidth event as netpmu_hns3_bytes_total = frames x frame size, the
# packet event as netpmu_hns3_packets_total = datagrams, the func-intr event
# as netpmu_hns3_interrupts_total = /proc/interrupts' delta, the latency pair
# as the summary netpmu_hns3_latency_seconds (_count = frames, _sum = the
# model's latency cycles / hw_clk_freq, and = the raw time counter /
# hw_clk_freq), the PCIe bandwidth events at eth1's endpoint and at its Root
# Port as netpmu_pcie_bytes_total labelled with both addresses (the TLP
# model's bytes, kmod/hisi_pcie.md); netpmu_pmu_event_total as before. Then
# without -e, on eth1's one queue: the rotated PCIe series carries the Root
# Port and the endpoint, and the rotated latency summary converts as -e does.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/irqs.sh"
. "$(dirname "$0")/../lib/eth1.sh"
. "$(dirname "$0")/../lib/serve_labels.sh"
. "$(dirname "$0")/../lib/http.sh"
plan 13
tmp=$(mktemp -d)
serve_pid=
cleanup() {
	[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

port=9715 pmu=hns3_pmu_sicl_0 pcie=hisi_pcie0_core0
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
ep=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
rp=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/../.. | xargs basename)
rx_irq=$(irqs_of "$peer_virtio" input.0)
# The vector's MSI-X entry (func-intr's intr): the low 11 bits of its hwirq (as tests/guest/bpf_join.sh).
rx_entry=$(($(cat "/sys/kernel/irq/$rx_irq/hwirq") % 2048))
param() { cat "/sys/module/netpmu/parameters/$1"; }
clk=$(cat /sys/bus/event_source/devices/$pmu/hw_clk_freq)

# The model's latency cycles of one frame of L bytes (kmod/README.md, "Events").
frame_cycles() { echo $(($(param lat_base_ns) * clk / 1000000000 + $1 * 8 * clk / ($(param link_mbps) * 1000000))); }
# A summary's _sum as netpmu prints it: cycles x (1 / hw_clk_freq), 12 digits.
seconds() { awk -v cycles="$1" -v clk="$clk" 'BEGIN { printf "%.12g\n", cycles * (1.0 / clk) }'; }
# scrape FILE: /metrics into FILE; fails unless the answer is 200.
scrape() { [ "$(http_get "http://127.0.0.1:$port/metrics" "$1")" = 200 ]; }
# scraped_at_least FILE SAMPLE TARGET: a scrape into FILE has SAMPLE at
# TARGET or more.
scraped_at_least() {
	local v
	scrape "$1" && v=$(sample "$1" "$2") && [ -n "$v" ] &&
		awk -v v="$v" -v target="$3" 'BEGIN { exit !(v + 0 >= target + 0) }'
}
# settled_scrape FILE SAMPLE TARGET: scrapes until SAMPLE reaches TARGET (up
# to 30 s, scaled: a slow guest's exporter may be seconds behind), then once
# more three intervals later into FILE, an overcount included.
settled_scrape() {
	wait_until 30 scraped_at_least "$@"
	sleep 0.6
	scrape "$1"
}
# The value of the sample whose name and labels are exactly $2, in scrape $1.
sample() { awk -v s="$2" 'index($0, s " ") == 1 { print substr($0, length(s) + 2) }' "$1"; }
start_serve() {
	"$NETPMU" serve --listen 127.0.0.1:$port -I 200 "$@" >/dev/null 2>"$tmp/serve.err" &
	serve_pid=$!
	wait_line "$tmp/serve.err" serving
}
stop_serve() { kill -TERM "$serve_pid"; wait "$serve_pid"; serve_pid=; }

if [ "$(cat /sys/bus/event_source/devices/$pcie/cpumask 2>/dev/null)" != \
	"$(cat /sys/bus/event_source/devices/$pmu/cpumask)" ]; then
	# One session reads its counters on one CPU (without PMU scopes, the counting CPU).
	skip_checks 13 "serve's pair families" "$pmu and $pcie count on different CPUs"
	exit 0
fi

# ---- -e: every kind of pair, pinned on eth1 ---------------------------------
n=100 size=500
L=$((size + 42))
f="bdf=${ep#0000:}"
events=(
	-e "$pmu/bw_ssu_rpu_byte_num,$f,queue=0/"
	-e "$pmu/pps_ssu_rpu_packet_num,$f,queue=0/"
	-e "$pmu/dly_rpu_time,$f,queue=0/"
	-e "$pmu/dly_rpu_packet_num,$f,queue=0/"
	-e "$pmu/pps_intr_msix_func_intr_num,$f,intr=$rx_entry/"
	-e "$pcie/rx_mwr_flux,$f,len_mode=1/"
	-e "$pcie/tx_mwr_flux,bdf=${rp#0000:}/"
)
irqs_before=$(irq_count "$rx_irq")
if ! start_serve "${events[@]}"; then
	fail "netpmu serve starts with the pair events" "$(tr '\n' ' ' <"$tmp/serve.err")"
	skip_checks 12 "serve's pair families" "netpmu serve did not start"
	exit 0
fi
eth1_flow $n $size
settled_scrape "$tmp/e.txt" "netpmu_hns3_packets_total{pmu=\"$pmu\",event=\"pps_ssu_rpu\",dev=\"$ep\",queue=\"0\"}" $n
irqs=$(($(irq_count "$rx_irq") - irqs_before))
stop_serve
q="pmu=\"$pmu\",event=\"%s\",dev=\"$ep\",queue=\"0\""
kind exact
check_eq "netpmu_pmu_event_total as before: bw_ssu_rpu_byte_num = $n x $L" $((n * L)) \
	"$(sample "$tmp/e.txt" "netpmu_pmu_event_total{pmu=\"$pmu\",event=\"bw_ssu_rpu_byte_num\",bdf=\"${ep#0000:}\",queue=\"0\"}")"
check_eq "netpmu_hns3_bytes_total{$(printf "$q" bw_ssu_rpu)} = $n frames x $L bytes" $((n * L)) \
	"$(sample "$tmp/e.txt" "netpmu_hns3_bytes_total{$(printf "$q" bw_ssu_rpu)}")"
check_eq "netpmu_hns3_packets_total{$(printf "$q" pps_ssu_rpu)} = the $n datagrams" $n \
	"$(sample "$tmp/e.txt" "netpmu_hns3_packets_total{$(printf "$q" pps_ssu_rpu)}")"
check_eq "netpmu_hns3_latency_seconds_count{$(printf "$q" dly_rpu)} = the $n frames (the pair's ext counter)" $n \
	"$(sample "$tmp/e.txt" "netpmu_hns3_latency_seconds_count{$(printf "$q" dly_rpu)}")"
intr="pmu=\"$pmu\",event=\"pps_intr_msix_func\",dev=\"$ep\",intr=\"$rx_entry\""
check_eq "netpmu_hns3_interrupts_total{$intr} = /proc/interrupts' delta of IRQ $rx_irq" $irqs \
	"$(sample "$tmp/e.txt" "netpmu_hns3_interrupts_total{$intr}")"
kind model
cycles=$((n * $(frame_cycles $L)))
check_eq "netpmu_hns3_latency_seconds_sum = $n x the model's cycles of a $L-byte frame / hw_clk_freq $clk" \
	"$(seconds $cycles)" "$(sample "$tmp/e.txt" "netpmu_hns3_latency_seconds_sum{$(printf "$q" dly_rpu)}")"
raw=$(sample "$tmp/e.txt" "netpmu_pmu_event_total{pmu=\"$pmu\",event=\"dly_rpu_time\",bdf=\"${ep#0000:}\",queue=\"0\"}")
TAP_KIND=golden check_eq "netpmu_hns3_latency_seconds_sum = the raw dly_rpu_time ($raw) / hw_clk_freq" \
	"$(seconds "${raw:-0}")" "$(sample "$tmp/e.txt" "netpmu_hns3_latency_seconds_sum{$(printf "$q" dly_rpu)}")"
D=$(param pcie_desc_bytes)
at_ep="pmu=\"$pcie\",event=\"rx_mwr_bw\",target=\"endpoint\",root_port=\"$rp\",endpoint=\"$ep\",dev=\"$ep\",len_mode=\"1\""
check_eq "netpmu_pcie_bytes_total{$at_ep} = $n x (L $L + descriptor $D) (hisi_pcie.md's TLP table)" \
	$((n * (L + D))) "$(sample "$tmp/e.txt" "netpmu_pcie_bytes_total{$at_ep}")"
# Two NICs sit below that Root Port (eth1 and eth3): no one endpoint to name.
at_rp="pmu=\"$pcie\",event=\"tx_mwr_bw\",target=\"root_port\",root_port=\"$rp\""
check_eq "netpmu_pcie_bytes_total{$at_rp} = $n doorbells x (4 + 16 header)" $((n * 20)) \
	"$(sample "$tmp/e.txt" "netpmu_pcie_bytes_total{$at_rp}")"
TAP_KIND=golden check_cmd "promtool check metrics is clean on the scrape" \
	sh -c "promtool check metrics <'$tmp/e.txt'"

# ---- without -e, on eth1's only queue (no rotation) -------------------------
n2=60 size2=1200
L2=$((size2 + 42))
if ! start_serve --dev "$ep"; then
	fail "netpmu serve --dev $ep starts" "$(tr '\n' ' ' <"$tmp/serve.err")"
	skip_checks 2 "rotated pair families" "netpmu serve did not start"
	exit 0
fi
eth1_flow $n2 $size2
settled_scrape "$tmp/r.txt" "netpmu_hns3_queue_rx_latency_seconds_count{pmu=\"$pmu\",dev=\"$ep\",queue=\"0\"}" $n2
stop_serve
MPS=$(param pcie_mps)
w="pmu=\"$pcie\",dev=\"$ep\",root_port=\"$rp\",endpoint=\"$ep\""
kind model
check_eq "rotated netpmu_pcie_func_write_bytes_total{$w} = $n2 x (L + D + (ceil(L/MPS) + 1) x 16)" \
	$((n2 * (L2 + D + ((L2 + MPS - 1) / MPS + 1) * 16))) \
	"$(sample "$tmp/r.txt" "netpmu_pcie_func_write_bytes_total{$w}")"
rq="pmu=\"$pmu\",dev=\"$ep\",queue=\"0\""
check_eq "rotated netpmu_hns3_queue_rx_latency_seconds sum and count, converted as -e's" \
	"$(seconds $((n2 * $(frame_cycles $L2)))) $n2" \
	"$(sample "$tmp/r.txt" "netpmu_hns3_queue_rx_latency_seconds_sum{$rq}") $(sample "$tmp/r.txt" "netpmu_hns3_queue_rx_latency_seconds_count{$rq}")"
cat "$tmp/e.txt" "$tmp/r.txt" >"$tmp/both.txt"
TAP_KIND=golden check_eq "every label name of both scrapes ($(scrape_label_names "$tmp/both.txt" | xargs)) is refused as a config label" \
	"" "$(labels_not_refused "$tmp/both.txt" "$tmp" | xargs)"
