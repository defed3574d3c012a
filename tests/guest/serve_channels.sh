#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: ethtool -L changes a NIC's channels while netpmu serve runs
# (issue 16's faults). igb's eth3 goes from 2 combined channels to 1 and
# back: the driver frees its vectors and requests them anew, and an IRQ may
# come back serving another queue. serve must say each change in one line,
# count the datagrams of a flow after each change exactly on eth3's RX queue
# series (none on a "napiN" series of an unknown queue), label each queue
# IRQ's series with the queue and direction /proc/interrupts names it by
# (eth3-rx-N, eth3-tx-N), and keep its rotation over the queues there are,
# with no session error. The channels are restored at the end.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth3_channels.sh"
. "$(dirname "$0")/../lib/http.sh"
plan 11
kind exact
tmp=$(mktemp -d)
serve_pid=
port=9717
channels=$(eth3_combined)
eth3_pci=$(eth3_pci)
cleanup() {
	[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null
	wait 2>/dev/null
	ip netns exec peer ethtool -L eth3 combined "$channels" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# scrape FILE: /metrics into FILE; fails unless the answer is 200.
scrape() { [ "$(http_get "http://127.0.0.1:$port/metrics" "$1")" = 200 ]; }
# eth3's queue IRQs as the kernel names them: "IRQ DIR QUEUE COUNT" a line, sorted.
kernel_vectors() {
	awk '$NF ~ /^eth3-(rx|tx)-[0-9]+$/ {
		split($NF, n, "-"); sub(":", "", $1); s = 0
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i
		print $1, n[2], n[3], s
	}' /proc/interrupts | sort -n
}
# Whether every vector of $1 (kernel_vectors' lines) has interrupted since.
all_fired_since() {
	local irq dir queue count
	while read -r irq dir queue count; do
		[ "$(kernel_vectors | awk -v i="$irq" '$1 == i { print $4 }')" -gt "$count" ] || return 1
	done <"$1"
}
# The eth3 series of family $3 that grew from scrape $1 to scrape $2, as
# "LABEL=VALUE,... DELTA" a line, sorted; label "dev" left out.
cat >"$tmp/growth.py" <<'PY'
import re, sys
sample = re.compile(r'^(\w+)\{(.*)\} (\d+)$')
def series(path, family):
    out = {}
    for line in open(path):
        m = sample.match(line.strip())
        if not m or m.group(1) != family:
            continue
        labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
        if labels.pop("dev", None) == "eth3":
            out[",".join("%s=%s" % kv for kv in labels.items())] = int(m.group(3))
    return out
before, after = series(sys.argv[1], sys.argv[3]), series(sys.argv[2], sys.argv[3])
for key in sorted(after):
    if after[key] != before.get(key, 0):
        print(key, after[key] - before.get(key, 0))
PY
grown() { python3 "$tmp/growth.py" "$tmp/$1.before" "$tmp/$1.after" "$2"; }
# RX queues whose netpmu_napi_packets_total grew over flow $1: "QUEUE DELTA|...".
rx_growth() {
	grown "$1" netpmu_napi_packets_total | sed -n 's/^queue=\([0-9]*\),dir=rx \([0-9]*\)$/\1 \2/p' | tr '\n' '|'
}
# eth3's packet series that grew over flow $1 but are no RX queue: "napiN" ones, say.
other_growth() { grown "$1" netpmu_napi_packets_total | grep -v '^queue=[0-9]*,dir=rx ' | tr '\n' '|'; }
# Per queue IRQ of the kernel's names: "IRQ: LABELS |" of its series that
# grew over flow $1 (igb's watchdog interrupts every vector every 2 s, so
# the counts are not the flow's: the labels are what is checked).
irq_labels() {
	local irq dir queue count
	while read -r irq dir queue count; do
		echo "$irq: $(grown "$1" netpmu_irq_handled_total | sed -n "s/^irq=$irq,\([^ ]*\) [0-9]*$/\1/p" |
			tr '\n' ' ')"
	done <"$tmp/$1.vectors" | tr '\n' '|'
}
kernel_irq_labels() { awk '{ printf "%s: queue=%s,dir=%s |", $1, $3, $2 }' "$tmp/$1.vectors"; }
# Waits until serve has said changes adding up to $1 (igb frees and requests
# its vectors one by one: serve may see a state between), up to 30 s, scaled.
wait_changes() { wait_until 30 said_changes "$tmp/serve.err" "$1"; }
# A flow of 200 datagrams to eth3 from 16 UDP ports (RSS spreads them over
# the queues there are), a scrape before and after into $1.before and
# $1.after: the after one once every queue vector has interrupted (the
# watchdog's, up to 10 s), each a second (three -I 300 intervals) after the
# interrupts it is to hold.
flow_scraped() {
	sleep 1
	scrape "$tmp/$1.before"
	kernel_vectors >"$tmp/$1.vectors"
	"$UDP_FLOW" transfer --netns peer --to 203.0.113.2 --port 9400 --count 200 --size 200 \
		--flows 16 --gap-us 2000 --report "$tmp/$1.recv" >/dev/null
	wait_until 10 all_fired_since "$tmp/$1.vectors"
	sleep 1
	scrape "$tmp/$1.after"
}

TAP_KIND="weak: setup, the guest's igb has 2 channels" check_eq "eth3 starts with 2 combined channels" 2 "$channels"
"$NETPMU" serve --listen 127.0.0.1:$port -I 300 >/dev/null 2>"$tmp/serve.err" &
serve_pid=$!
wait_line "$tmp/serve.err" serving

ip netns exec peer ethtool -L eth3 combined 1
TAP_KIND=golden check_cmd "serve says the change of the vectors, adding up to the 2 freed" wait_changes -2
echo "# /proc/interrupts after combined 1: $(kernel_vectors | cut -d' ' -f1-3 | tr '\n' '|')"
flow_scraped one
check_eq "combined 1: the peer received the 200 datagrams" "received 200 datagrams 40000 bytes" \
	"$(cat "$tmp/one.recv")"
check_eq "combined 1: the 200 datagrams grew eth3's RX queue 0 series only" "0 200|" "$(rx_growth one)"
check_eq "combined 1: each queue IRQ's series that grew carry the queue and direction /proc/interrupts names" \
	"$(kernel_irq_labels one)" "$(irq_labels one)"

ip netns exec peer ethtool -L eth3 combined "$channels"
TAP_KIND=golden check_cmd "serve says the change back, adding up to none" wait_changes 0
echo "# /proc/interrupts after combined $channels: $(kernel_vectors | cut -d' ' -f1-3 | tr '\n' '|')"
flow_scraped two
growth=$(rx_growth two)
echo "# combined $channels: RX series grown: $growth"
# RSS may put all 16 flows on one queue: which queues is the kernel's, the sum is exact.
check_eq "combined $channels: the 200 datagrams, on RX queues 0 and 1 only" "200 within 0,1" \
	"$(echo "$growth" | tr '|' '\n' | awk 'NF { s += $2; if ($1 != "0" && $1 != "1") bad = bad " " $1 }
		END { print s + 0, bad ? "also on" bad : "within 0,1" }')"
check_eq "combined $channels: each queue IRQ's series that grew carry the queue and direction /proc/interrupts names" \
	"$(kernel_irq_labels two)" "$(irq_labels two)"
check_eq "no eth3 packet series of an unknown queue (napiN) or of TX grew over the two flows" "|" \
	"$(other_growth one)|$(other_growth two)"

kill -TERM $serve_pid
wait $serve_pid
check_eq "SIGTERM: serve exits 0" 0 $?
serve_pid=
# A rotation may reach queue 1 before serve has read the vectors again: it
# is dropped then, the one failed open allowed; no session error follows.
TAP_KIND=golden check_eq "no other line: the rotation follows the queues there are (at most queue 1 of eth3 dropped)" \
	"" "$(grep -v -e 'queue vectors changed' -e 'serving http' \
		-e "dropping queue 1 of $eth3_pci from the rotation" "$tmp/serve.err" | head -3)"
