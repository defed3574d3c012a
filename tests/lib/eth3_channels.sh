# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest tests that change igb's eth3 channels (ethtool -L)
# under a running top or serve, in namespace peer.

# eth3_combined: eth3's combined channels now.
eth3_combined() { ip netns exec peer ethtool -l eth3 | awk '/^Combined:/ { n = $2 } END { print n }'; }

# eth3_pci: eth3's PCI function, as the rotation's "dropping queue" lines name it.
eth3_pci() { ip netns exec peer readlink -f /sys/class/net/eth3/device | xargs basename; }

# said_vector_changes FILE: the changes a loader said in FILE added up,
# vectors now - before over its "queue vectors changed (N now, M before)" lines.
said_vector_changes() {
	sed -n 's/.*queue vectors changed (\([0-9]*\) now, \([0-9]*\) before).*/\1 \2/p' "$1" |
		awk '{ s += $1 - $2 } END { print s + 0 }'
}
# said_changes FILE N: the changes said in FILE add up to N.
said_changes() { [ "$(said_vector_changes "$1")" = "$2" ]; }
