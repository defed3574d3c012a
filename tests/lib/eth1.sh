# SPDX-License-Identifier: GPL-2.0
# eth1, the peer namespace's end of eth0's link (tests/vm/guest-run), for
# guest tests:
#   eth1_pci: eth1's PCI function, as /sys/bus/pci/devices names it
#   hns3_bdf PCI-ADDRESS: the HNS3 PMU's bdf term of a function,
#   bus << 8 | device << 3 | function (0x201 for 0000:02:00.1)
#   eth1_name: the interface holding eth1's MAC address now (after a rescan)
#   eth1_restore NETPMU_KO: rescans PCI, puts the new eth1 back in 'peer' as
#   guest-run made it, and reloads netpmu.ko so that its models bind it
#   eth1_flow COUNT SIZE: COUNT datagrams of SIZE bytes from eth0 to eth1,
#   2 ms apart (one poll each), all received before it returns
eth1_mac=52:54:00:12:34:02
eth0_mac=52:54:00:12:34:01

eth1_flow() {
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count "$1" \
		--size "$2" --gap-us 2000 >/dev/null
}

eth1_pci() { ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename; }

hns3_bdf() {
	local bus slot fn
	IFS=':.' read -r _ bus slot fn <<<"$1"
	printf '0x%x\n' $(((16#$bus << 8) | (16#$slot << 3) | fn))
}

# eth1_name: the interface holding eth1's MAC address now; fails when none does.
eth1_name() {
	local d
	for d in /sys/class/net/*; do
		[ "$(cat "$d/address" 2>/dev/null)" = $eth1_mac ] && { basename "$d"; return 0; }
	done
	return 1
}

eth1_restore() {
	local new
	echo 1 >/sys/bus/pci/rescan
	wait_until 5 eth1_name >/dev/null && new=$(eth1_name) || return 1
	ip link set "$new" name tmp-eth1 && ip link set tmp-eth1 netns peer name eth1 &&
		ip netns exec peer sysctl -qw net.ipv6.conf.eth1.disable_ipv6=1 &&
		ip -n peer addr add 198.51.100.2/24 dev eth1 &&
		ip -n peer neigh replace 198.51.100.1 lladdr $eth0_mac dev eth1 nud permanent &&
		ip -n peer link set eth1 up && rmmod netpmu && insmod "$1"
}
