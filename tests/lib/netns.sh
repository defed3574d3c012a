# SPDX-License-Identifier: GPL-2.0
# A quiet veth link between two network namespaces on this machine: no IPv6,
# static neighbours, so the only frames are the ones a test sends.
#   netns_pair_up NS_A NS_B [DEV_A DEV_B]: veth DEV_A (default "va") 198.18.0.1/24
#   in NS_A, DEV_B (default "vb") 198.18.0.2/24 in NS_B. BPF sees every
#   namespace: tests that select by device name pass names of their own.
#   netns_pair_down NS_A NS_B

netns_pair_up() {
	local a=$1 b=$2 va=${3:-va} vb=${4:-vb} ns
	ip netns add "$a" && ip netns add "$b" || return 1
	for ns in "$a" "$b"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
	done
	ip link add "$va" netns "$a" address 02:00:00:00:00:0a type veth peer name "$vb" netns "$b" address 02:00:00:00:00:0b || return 1
	ip -n "$a" addr add 198.18.0.1/24 dev "$va"
	ip -n "$b" addr add 198.18.0.2/24 dev "$vb"
	ip -n "$a" neigh replace 198.18.0.2 lladdr 02:00:00:00:00:0b dev "$va" nud permanent
	ip -n "$b" neigh replace 198.18.0.1 lladdr 02:00:00:00:00:0a dev "$vb" nud permanent
	# veth delivers through NAPI when the receiver has GRO on and the sender
	# does not do TSO (veth_skb_is_eligible_for_gro).
	ip netns exec "$b" ethtool -K "$vb" gro on >/dev/null
	ip netns exec "$a" ethtool -K "$va" tso off >/dev/null
	ip -n "$a" link set "$va" up && ip -n "$b" link set "$vb" up
}

netns_pair_down() {
	ip netns del "$1" 2>/dev/null
	ip netns del "$2" 2>/dev/null
	true
}
