#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: ethtool -L changes a NIC's channels while netpmu top runs
# (issue 16's faults: "the queue map refreshes"). igb's eth3 goes from 2
# combined channels to 1 and back: the driver frees its vectors and requests
# them anew, so an IRQ that served RX queue 1 may now serve TX queue 0. top
# must say the change in one line, label every eth3 row with the queue and
# direction the kernel's own name of its IRQ gives (/proc/interrupts:
# eth3-rx-N, eth3-tx-N), and rotate over the queues there are, with no
# failed open. The channels are restored at the end.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth3_channels.sh"
plan 10
kind exact
tmp=$(mktemp -d)
top_pid=
eth3_pci=$(eth3_pci)
channels=$(eth3_combined)
cleanup() {
	[ -z "$top_pid" ] || kill "$top_pid" 2>/dev/null
	wait 2>/dev/null
	ip netns exec peer ethtool -L eth3 combined "$channels" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# eth3's queue IRQs as the kernel names them: "IRQ DIR QUEUE" a line, sorted.
kernel_vectors() {
	awk '$NF ~ /^eth3-(rx|tx)-[0-9]+$/ { split($NF, n, "-"); sub(":", "", $1); print $1, n[2], n[3] }' \
		/proc/interrupts | sort -n
}
# eth3's rows of top's last table: "IRQ DIR QUEUE" a line, sorted.
top_vectors() {
	awk '/^netpmu top / { n = 0; delete rows } $1 == "eth3" { rows[++n] = $5 " " $3 " " $2 }
		END { for (i = 1; i <= n; i++) print rows[i] }' "$tmp/top.out" | sort -n
}
# A flow to eth3 over 4 UDP ports, so RSS has every queue there is poll.
flow() {
	"$UDP_FLOW" transfer --netns peer --to 203.0.113.2 --port 9400 --count 200 --size 200 \
		--flows 4 --gap-us 2000 >/dev/null
}
# Waits for two more tables, so that the last one shows the flow's NAPIs.
two_tables() {
	local n=$(grep -c '^netpmu top ' "$tmp/top.out")
	wait_until 30 lines_at_least "$tmp/top.out" '^netpmu top ' $((n + 2))
}
# Flows until top's last table has the rows /proc/interrupts gives, up to 10
# rounds; then prints top's rows. The flow sends nothing out of eth3, so its
# TX rows wait for igb's watchdog, which polls every queue every 2 s (a table
# 1.5 s after top started once had only the RX rows); after a change of the
# channels the driver may take a while to settle, and top reads the vectors
# every 2 s.
settled_rows() {
	for _ in $(seq 10); do
		flow
		two_tables
		[ "$(top_vectors)" = "$(kernel_vectors)" ] && break
	done
	top_vectors | tr '\n' '|'
}

TAP_KIND="weak: setup, the guest's igb has 2 channels" check_eq "eth3 starts with 2 combined channels" 2 "$channels"
"$NETPMU" top -I 300 >"$tmp/top.out" 2>"$tmp/top.err" &
top_pid=$!
wait_until 30 lines_at_least "$tmp/top.out" '^netpmu top ' 1
rows=$(settled_rows)
check_eq "before: top's eth3 rows are the IRQs /proc/interrupts names eth3-rx/tx-N" \
	"$(kernel_vectors | tr '\n' '|')" "$rows"

ip netns exec peer ethtool -L eth3 combined 1
TAP_KIND=golden check_cmd "top says the change of the vectors" wait_until 30 lines_at_least "$tmp/top.err" 'queue vectors changed' 1
rows=$(settled_rows)
echo "# /proc/interrupts after combined 1: $(kernel_vectors | tr '\n' '|')"
check_eq "combined 1: top's eth3 rows are the IRQs /proc/interrupts names (1 RX, 1 TX queue)" \
	"$(kernel_vectors | tr '\n' '|')" "$rows"
check_eq "combined 1: /proc/interrupts has 1 RX and 1 TX queue of eth3" "rx 0|tx 0|" \
	"$(kernel_vectors | cut -d' ' -f2- | tr '\n' '|')"
# igb frees and requests its vectors one by one: top may see a state between.
TAP_KIND=golden check_eq "the changes top said add up to the 2 vectors freed" -2 "$(said_vector_changes "$tmp/top.err")"

ip netns exec peer ethtool -L eth3 combined "$channels"
rows=$(settled_rows)
check_eq "combined $channels again: top's eth3 rows are the IRQs /proc/interrupts names" \
	"$(kernel_vectors | tr '\n' '|')" "$rows"

kill -INT $top_pid
wait $top_pid
check_eq "SIGINT: top exits 0" 0 $?
top_pid=
kind golden
check_eq "the changes top said add up to none, back at $channels channels" 0 "$(said_vector_changes "$tmp/top.err")"
# A rotation may reach queue 1 before top has read the vectors again: it is
# dropped then, the one failed open allowed.
check_eq "no other line: the rotation follows the queues there are (at most queue 1 of eth3 dropped)" "" \
	"$(grep -v -e 'queue vectors changed' -e "dropping queue 1 of $eth3_pci from the rotation" "$tmp/top.err" | head -3)"
