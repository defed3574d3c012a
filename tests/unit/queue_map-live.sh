#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# user/queue/ (the queue map) on this machine's own kernel: its virtio-net vectors
# against /proc/interrupts and sysfs read independently here, and the netdev
# netlink family (queue-get, napi-get) on a veth pair in two network
# namespaces (root only).
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/netns.sh"
kind exact
# The plan depends on this machine (its virtio-net vectors, netdev netlink,
# root): planned counts the checks the machine calls for as they become
# known, and is declared at the end (tap_run fails a missing one).
planned=0

tmp=$(mktemp -d)
a=qmap-a-$$ b=qmap-b-$$
netns_made=0
cleanup() {
	[ $netns_made = 1 ] && netns_pair_down $a $b
	rm -rf "$tmp"
}
trap 'cleanup; plan $planned' EXIT

# The test driver, built by make beside the loader for each arch: the arm64
# guest has no compiler.
dump=$(dirname "$(readlink -f "$NETPMU")")/tests/queue_map_dump
if [ ! -x "$dump" ]; then
	planned=1
	fail "queue_map test driver is built" "no $dump (run: make)"
	exit 0
fi

# pick LINE KEY...: "KEY=VALUE ..." of those keys from a dump line.
pick() {
	local line=$1 k
	shift
	for k; do
		sed -n "s/.* $k=\([^ ]*\).*/$k=\1/p" <<<" $line"
	done | paste -sd' '
}

# --- virtio-net vectors of this machine, interrupt names and sysfs only ---
out=$("$dump" --no-netlink 2>&1)
# One check per virtio-net vector /proc/interrupts names, and one for all.
vectors=$(awk '$1 ~ /^[0-9]+:$/ { for (i = 2; i <= NF; i++) { f = $i; sub(/,$/, "", f)
	if (f ~ /^virtio[0-9]+-(input|output)\.[0-9]+$/) { print $1, f; break } } }' /proc/interrupts)
planned=$((planned + $(grep -c . <<<"$vectors") + 1))
n=0
while read -r irq name; do
	[ -n "$irq" ] || continue
	irq=${irq%:}
	dev=${name%%-*}
	kind=${name#*-}
	queue=${kind#*.}
	case "$kind" in input.*) dir=rx ;; *) dir=tx ;; esac
	vdir=$(readlink -f "/sys/bus/virtio/devices/$dev")
	bdf=$(basename "$(dirname "$vdir")")
	ifname=$(ls "$vdir/net" 2>/dev/null | head -n 1)
	chip=$(cat "/sys/kernel/irq/$irq/chip_name" 2>/dev/null)
	hw=$(cat "/sys/kernel/irq/$irq/hwirq" 2>/dev/null)
	case "$chip" in
	*MSI*-"$bdf") msix=$hw ;;
	*MSI*) msix=$((hw & 0x7ff)) ;;
	*) msix=-1 ;;
	esac
	cpu=$(cut -d, -f1 "/proc/irq/$irq/effective_affinity_list" 2>/dev/null)
	cpu=${cpu%%-*}
	expected="irq=$irq name=$name bdf=$bdf ifname=${ifname:--} queue=$queue dir=$dir msix=$msix cpu=${cpu:--1}"
	line=$(grep "^vector irq=$irq " <<<"$out")
	check_eq "this machine: IRQ $irq $name is $dir queue $queue of ${ifname:-a netdev in another netns} on $bdf, MSI-X entry $msix" \
		"$expected" "$(pick "$line" irq name bdf ifname queue dir msix cpu)"
	n=$((n + 1))
done <<<"$vectors"
if [ $n = 0 ]; then
	skip "this machine's virtio-net vectors" "no virtio<N>-input/output interrupt on $(uname -r)"
else
	check_eq "this machine: every virtio-net vector and no other" "$n" "$(grep -c '^vector .*pattern=virtio-net' <<<"$out")"
fi

# --- the netdev netlink family ---
out=$("$dump" 2>&1)
planned=$((planned + 1))
status=$(sed -n 's/^netlink used=\([01]\) status=\(.*\)/\1 \2/p' <<<"$out")
if [ "${status%% *}" != 1 ]; then
	skip "netdev netlink queue-get/napi-get on $(uname -r)" "${status#* }"
	exit 0
fi
pass "netdev netlink family answers queue-get and napi-get on $(uname -r)"

# A virtio-net RX vector takes the NAPI netlink gives its queue.
rx_vectors=$(grep '^vector .* dir=rx .*pattern=virtio-net' <<<"$out" | grep -v 'ifindex=-1')
planned=$((planned + $(grep -c . <<<"$rx_vectors")))
while read -r line; do
	[ -n "$line" ] || continue
	ifindex=$(pick "$line" ifindex) queue=$(pick "$line" queue) napi=$(pick "$line" napi)
	irq=$(pick "$line" irq)
	nl=$(awk -v i="${ifindex#ifindex=}" -v q="${queue#queue=}" \
		'$1 == "nlqueue" && $2 == "ifindex=" i && $4 == "dir=rx" && $5 == "queue=" q { print $6 }' <<<"$out")
	check_eq "this machine: IRQ ${irq#irq=} takes the NAPI netlink reports for its RX queue" "${nl:-napi=-1}" "$napi"
done <<<"$rx_vectors"

planned=$((planned + 1))
if [ "$(id -u)" -ne 0 ]; then
	skip "netlink on a veth pair in network namespaces" "needs root for network namespaces"
	exit 0
fi
if ! netns_pair_up $a $b >/dev/null 2>&1; then
	fail "veth pair between namespaces" "setup failed"
	exit 0
fi
netns_made=1
planned=$((planned + 3))
va=$(ip netns exec $a cat /sys/class/net/va/ifindex)
vb=$(ip netns exec $b cat /sys/class/net/vb/ifindex)

out=$(ip netns exec $a "$dump" 2>&1)
check_eq "netns a: queue-get lists va's RX and TX queue 0 with its ifindex $va, and nothing else" \
	"nlqueue ifindex=$va ifname=va dir=rx queue=0 napi=-1 irq=-1|nlqueue ifindex=$va ifname=va dir=tx queue=0 napi=-1 irq=-1" \
	"$(grep '^nlqueue' <<<"$out" | grep -v 'ifname=lo ' | paste -sd'|')"
check_eq "netns a: va (GRO off) has no NAPI" "" "$(grep '^nlnapi' <<<"$out" | grep -v 'ifname=lo ')"
virtio=$(grep -c '^vector .*pattern=virtio-net' <<<"$out")
if [ "$virtio" -gt 0 ]; then
	planned=$((planned + 1))
	check_eq "netns a: virtio-net vectors are still mapped, their netdev said to be elsewhere" \
		"$virtio" "$(grep '^vector .*pattern=virtio-net' <<<"$out" |
			grep -c 'ifname=- ifindex=-1 .*has no netdev in this network namespace')"
fi

out=$(ip netns exec $b "$dump" 2>&1)
check_eq "netns b: queue-get lists vb's queues with its ifindex $vb" \
	"nlqueue ifindex=$vb ifname=vb dir=rx queue=0|nlqueue ifindex=$vb ifname=vb dir=tx queue=0" \
	"$(grep '^nlqueue' <<<"$out" | grep -v 'ifname=lo ' | cut -d' ' -f1-5 | paste -sd'|')"
check_eq "netns b: napi-get lists one NAPI of vb (GRO on), without IRQ" "1" \
	"$(grep -c "^nlnapi napi=[0-9]* ifindex=$vb ifname=vb irq=-1\$" <<<"$out")"
