#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu top in the guest, not on a terminal: plain tables, the real IRQ of
# each queue, the HNS3 counters rotating over both functions' queues.
. "$(dirname "$0")/../lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
rx_irq=$(awk -F: -v n="$peer_virtio-input.0" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts)

"$NETPMU" top -I 500 --count 6 >"$tmp/top.txt" 2>"$tmp/top.err" &
top_pid=$!
sleep 0.7
ip netns exec peer "$REPO/tests/lib/udp_flow.py" recv --port 9000 --count 400 --timeout 6 >/dev/null &
"$REPO/tests/lib/udp_flow.py" send --to 198.51.100.2 --port 9000 --count 400 --size 500 --gap-us 4000 >/dev/null
wait $top_pid
check_eq "netpmu top --count 6 exits 0" 0 $?
check_eq "prints 6 tables" 6 "$(grep -c '^netpmu top ' "$tmp/top.txt")"
check_cmd "eth1's RX queue 0 row carries its real IRQ ($rx_irq)" \
	grep -qE "^eth1 +0 +rx +[0-9]+ +$rx_irq " "$tmp/top.txt"
check_cmd "the HNS3 counters rotate over 01:00.0 and 02:00.1" \
	sh -c "grep -q 'queue 0 of 0000:01:00.0' $tmp/top.txt && grep -q 'queue 0 of 0000:02:00.1' $tmp/top.txt"
rx_pps=$(awk '$1 == "eth1" && $3 == "rx" && $13 != "0" && $13 != "-" { print $13 }' "$tmp/top.txt" | head -n 1)
case "$rx_pps" in
''|0) fail "eth1's hardware RX packet rate is shown while traffic flows" "$(cat "$tmp/top.txt" "$tmp/top.err")" ;;
*) pass "eth1's hardware RX packet rate is shown while traffic flows ($rx_pps/s)" ;;
esac
