#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Which hardirqs netpmu's IRQ hooks count and time, on this machine's kernel:
# only those that serve a NAPI (a clock read at each end of every handler
# was most of their cost, and no record reports any other IRQ). While
# netpmu trace runs, direct writes to a file make this machine's disk
# interrupt; then netpmu's per-IRQ map is read with bpftool.
# Oracle: the queue map's own list of queue IRQs (tests/queue_map_dump, the
# loader's code) for the IRQs marked; /proc/interrupts for the disk's.
. "$(dirname "$0")/../lib/tap.sh"
plan 3
kind exact

if [ "$(id -u)" -ne 0 ]; then
	skip_checks 3 "netpmu's IRQ hooks on this machine's kernel" "needs root for BPF"
	exit 0
fi
out=${OUTPUT:-$REPO/.output}
arch=$(uname -m)
[ "$arch" = aarch64 ] && arch=arm64
dump=$out/$arch/tests/queue_map_dump
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -INT "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# irq_counts: "IRQ COUNT" for every numbered line of /proc/interrupts.
irq_counts() {
	awk -v ncpu="$(nproc)" '$1 ~ /^[0-9]+:$/ {
		n = 0; for (i = 2; i <= ncpu + 1; i++) n += $i; print substr($1, 1, length($1) - 1), n }' /proc/interrupts
}

"$NETPMU" trace -I 200 -d 30 >"$tmp/trace" 2>"$tmp/err" &
pid=$!
wait_line "$tmp/trace" '^[0-9]'
# map_named NAME: the ID of netpmu's map NAME (as the kernel truncates it).
map_named() {
	local f id
	for f in /proc/$pid/fdinfo/*; do
		id=$(sed -n 's/^map_id:\t*//p' "$f" 2>/dev/null)
		[ -n "$id" ] || continue
		[ "$(bpftool -j map show id "$id" 2>/dev/null |
			python3 -c 'import json, sys; print(json.load(sys.stdin)["name"])')" = "$1" ] && { echo "$id"; return; }
	done
}
activity_map=$(map_named irq_activity_lo)
bss_map=$(map_named netpmu_b.bss)
if [ -z "$activity_map" ] || [ -z "$bss_map" ]; then
	fail "netpmu trace holds its per-IRQ map and its globals" \
		"irq_activity_lo '$activity_map', netpmu_b.bss '$bss_map' among PID $pid's maps ($(head -c 300 "$tmp/err"))"
	exit 0
fi

irq_counts >"$tmp/before"
dd if=/dev/zero of="$tmp/disk" bs=64k count=200 oflag=direct,sync 2>/dev/null
irq_counts >"$tmp/after"
bpftool -j map dump id "$activity_map" | python3 -c '
import json, sys
for e in json.load(sys.stdin):
    v = e["formatted"]["value"]
    print(e["formatted"]["key"], v["count"], v["ns"])' >"$tmp/map"
marked=$(bpftool -j map dump id "$bss_map" | python3 -c '
import json, sys
bss = json.load(sys.stdin)[0]["formatted"]["value"][".bss"]
words = next((v["irq_serves_napi_bits"] for v in bss if "irq_serves_napi_bits" in v), [])
print(" ".join(str(64 * w + b) for w, word in enumerate(words) for b in range(64) if word >> b & 1))')

queue_irqs=$("$dump" | sed -n 's/^vector irq=\([0-9]*\) .* queue=\([0-9-]*\) .*/\1 \2/p' | awk '$2 >= 0 { print $1 }' | sort -n | xargs)
check_eq "the IRQs marked as serving a NAPI are the queue map's queue IRQs" \
	"$queue_irqs" "$marked"

# The IRQ that fired most during the writes and serves no queue: the disk's.
busiest=$(join "$tmp/before" "$tmp/after" | awk '{ print $1, $3 - $2 }' | sort -k2 -rn |
	while read -r irq n; do [[ " $queue_irqs " == *" $irq "* ]] || { echo "$irq $n"; break; }; done)
read -r disk_irq disk_n <<<"$busiest"
if [ -z "$disk_irq" ] || [ "$disk_n" -lt 50 ]; then
	skip_checks 2 "an IRQ that serves no NAPI is not counted" \
		"no IRQ of this machine fired 50 times during 200 direct writes (busiest: ${busiest:-none})"
	exit 0
fi
name=$(awk -v irq="$disk_irq:" '$1 == irq { print $NF }' /proc/interrupts)
check_eq "IRQ $disk_irq ($name) fired $disk_n times during the writes (over 50)" yes \
	"$([ "$disk_n" -ge 50 ] && echo yes)"
check_eq "IRQ $disk_irq ($name), which serves no NAPI, is neither counted nor timed" \
	"$disk_irq 0 0" "$(awk -v irq="$disk_irq" '$1 == irq' "$tmp/map")"
