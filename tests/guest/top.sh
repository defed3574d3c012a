#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu top in the guest, not on a terminal: plain tables, the real IRQ of
# each queue, the HNS3 counters rotating over every function's queues, and
# --dev narrowing both the rows and the rotation.
. "$(dirname "$0")/../lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
peer_bdf=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
rx_irq=$(awk -F: -v n="$peer_virtio-input.0" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts)

# run_top OUTPUT ARGS...: top for 12 intervals while 400 datagrams flow to eth1.
run_top() {
	local out=$1 pid
	shift
	"$NETPMU" top -I 500 --count 12 "$@" >"$out" 2>"$out.err" &
	pid=$!
	# The flow starts once top printed its first table (it is attached by then).
	for _ in $(seq 100); do grep -q '^netpmu top ' "$out" && break; sleep 0.1; done
	"$REPO/tests/lib/udp_flow.py" transfer --netns peer --to 198.51.100.2 --port 9000 --count 400 \
		--size 500 --gap-us 4000 >/dev/null
	wait $pid
}

run_top "$tmp/top.txt"
check_eq "netpmu top --count 12 exits 0" 0 $?
check_eq "prints 12 tables" 12 "$(grep -c '^netpmu top ' "$tmp/top.txt")"
check_cmd "eth1's RX queue 0 row carries its real IRQ ($rx_irq)" \
	grep -qE "^eth1 +0 +rx +[0-9]+ +$rx_irq " "$tmp/top.txt"
check_cmd "the HNS3 counters rotate over the functions' queues" \
	sh -c "grep -q 'queue 0 of 0000:01:00.0' $tmp/top.txt && grep -q 'queue 0 of 0000:02:00.1' $tmp/top.txt"

run_top "$tmp/dev.txt" --dev "$peer_bdf"
check_eq "netpmu top --dev $peer_bdf (eth1 lives in another namespace) exits 0" 0 $?
check_cmd "--dev by PCI address: only that function's rows, its queue counted every interval" \
	sh -c "! grep -qE '^eth0 ' $tmp/dev.txt && grep -q 'queue 0 of $peer_bdf (1 of 1 queues' $tmp/dev.txt"
check_cmd "the header names both PMUs" grep -q 'hw: hns3_pmu_sicl_0 + hisi_pcie0_core0' "$tmp/dev.txt"
pcie=$(awk '$1 == "eth1" && $3 == "rx" && $(NF) != "0" && $(NF) != "-" { print $(NF) }' "$tmp/dev.txt" | head -n 1)
case "$pcie" in
''|0) fail "eth1's PCIe DMA write bandwidth is shown while traffic flows" "$(cat "$tmp/dev.txt")" ;;
*) pass "eth1's PCIe DMA write bandwidth is shown while traffic flows ($pcie B/s)" ;;
esac
rx_pps=$(awk '$1 == "eth1" && $3 == "rx" && $13 != "0" && $13 != "-" { print $13 }' "$tmp/dev.txt" | head -n 1)
case "$rx_pps" in
''|0) fail "eth1's hardware RX packet rate is shown while traffic flows" "$(cat "$tmp/dev.txt" "$tmp/dev.txt.err")" ;;
*) pass "eth1's hardware RX packet rate is shown while traffic flows ($rx_pps/s)" ;;
esac
