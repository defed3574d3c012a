#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# user/queue/ (the queue map) on fixture /proc and /sys trees (tests/fixtures/queue-map/
# make-tree): virtio-net as the guest bench's 6.1 kernel shows it, virtio-net
# with per-device MSI domains, hns3, igb/i40e/mlx5-style names, and the merge
# of netlink answers. Every entry is checked field by field against values
# worked out by hand from the fixture.
. "$(dirname "$0")/../lib/tap.sh"
plan 56
kind golden

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The loader's flags (Makefile) plus -Werror: the files must build warning-free.
cflags=(-O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 -D_GNU_SOURCE -Werror
	-I"$REPO/user" -I"$REPO/bpf")
# The queue map's files and the system readers it uses, as the Makefile's
# QUEUE_MAP_DUMP_OBJS lists them.
build() {
	local src objs=()
	for src in "$REPO"/user/queue/*.c \
		"$REPO"/user/sys/{netdev_netlink,netdev_nl_parse,pci_address,pci_sysfs,sysfs_read}.c \
		"$REPO"/user/lib/{parse_number,why_line}.c; do
		objs+=("$tmp/$(basename "${src%.c}").o")
		gcc "${cflags[@]}" -c "$src" -o "${objs[-1]}" || return 1
	done
	gcc "${cflags[@]}" "$REPO/tests/unit/queue_map_dump.c" "${objs[@]}" -o "$tmp/dump"
}
if ! out=$(build 2>&1); then
	fail "user/queue/, user/sys/netdev_netlink.c and the test driver build warning-free" \
		"$(echo "$out" | head -n 5 | tr '\n' ' ')"
	exit 0
fi
pass "user/queue/, user/sys/netdev_netlink.c and the test driver build warning-free"

# scenario NAME [DUMP ARGS...]: builds the tree once, runs the dump into $out.
scenario() {
	local name=$1
	shift
	if [ ! -d "$tmp/$name" ]; then
		"$REPO/tests/fixtures/queue-map/make-tree" "$name" "$tmp/$name" >"$tmp/gen.err" 2>&1 || {
			fail "fixture '$name' built" "$(cat "$tmp/gen.err")"
			out=
			return 1
		}
	fi
	out=$("$tmp/dump" --proc "$tmp/$name/proc" --sys "$tmp/$name/sys" "$@" 2>&1)
}

# check_vectors SCENARIO: every line of stdin ("vector irq=N ...") is the
# dump's line for that IRQ, and the dump has no other vector.
check_vectors() {
	local sc=$1 line irq got name n=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		irq=${line#vector irq=}
		irq=${irq%% *}
		got=$(grep "^vector irq=$irq " <<<"$out")
		name=${line#*name=}
		check_eq "$sc: IRQ $irq ${name%% *}" "$line" "$got"
		n=$((n + 1))
	done
	check_eq "$sc: exactly $n vectors, no other IRQ taken for a queue" "$n" "$(grep -c '^vector ' <<<"$out")"
}
field() { grep "^$1" <<<"$out" | paste -sd'|'; }

# --- the guest bench, Debian 6.1 (captured there) ---
scenario guest --func eth0 --func 0000:02:00.0 --func 01:00.0 --func eth1 --irq 27 --irq 26
check_vectors guest <<'EOF'
vector irq=27 name=virtio2-input.0 bdf=0000:01:00.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=rx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=virtio-net note=-
vector irq=28 name=virtio2-output.0 bdf=0000:01:00.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=tx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=0 source=irq-name pattern=virtio-net note=-
vector irq=30 name=virtio3-input.0 bdf=0000:02:00.0 func=2 ifname=- ifindex=-1 queue=0 queues=0 dir=rx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=0 source=irq-name pattern=virtio-net note=virtio3 (driver virtio_net) has no netdev in this network namespace
vector irq=31 name=virtio3-output.0 bdf=0000:02:00.0 func=2 ifname=- ifindex=-1 queue=0 queues=0 dir=tx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=virtio-net note=virtio3 (driver virtio_net) has no netdev in this network namespace
EOF
check_eq "guest: functions numbered by bdf" "function 1 0000:01:00.0|function 2 0000:02:00.0" "$(field function)"
check_eq "guest: func_id by ifname, full bdf, short bdf; 0 for a netdev of another netns" \
	"func_id eth0 1|func_id 0000:02:00.0 2|func_id 01:00.0 1|func_id eth1 0" "$(field func_id)"
check_eq "guest: find_irq finds a queue vector, not the config vector" \
	"find_irq 27 virtio2-input.0|find_irq 26 -" "$(field find_irq)"
check_eq "guest: netlink not consulted on fixture roots" \
	"netlink used=0 status=not used: /proc or /sys is not the real one" "$(field netlink)"

# --- per-device MSI domains (x86, Linux >= 6.2), multiqueue virtio-net ---
scenario host618
check_vectors host618 <<'EOF'
vector irq=38 name=virtio2-input.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=rx msix=1 msix_source=hwirq napi=-1 cpu=1 source=irq-name pattern=virtio-net note=-
vector irq=39 name=virtio2-output.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=tx msix=2 msix_source=hwirq napi=-1 cpu=0 source=irq-name pattern=virtio-net note=-
vector irq=40 name=virtio2-input.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=rx msix=3 msix_source=hwirq napi=-1 cpu=0 source=irq-name pattern=virtio-net note=-
vector irq=41 name=virtio2-output.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=tx msix=4 msix_source=hwirq napi=-1 cpu=1 source=irq-name pattern=virtio-net note=-
EOF

# The netdev family as 6.18 answers for virtio-net: RX queues' NAPIs, no IRQ.
scenario host618 --nl "$tmp/host618/nl-virtio.txt"
check_vectors "host618 + netlink (NAPIs without IRQ)" <<'EOF'
vector irq=38 name=virtio2-input.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=rx msix=1 msix_source=hwirq napi=257 cpu=1 source=irq-name pattern=virtio-net note=-
vector irq=39 name=virtio2-output.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=tx msix=2 msix_source=hwirq napi=-1 cpu=0 source=irq-name pattern=virtio-net note=-
vector irq=40 name=virtio2-input.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=rx msix=3 msix_source=hwirq napi=258 cpu=0 source=irq-name pattern=virtio-net note=-
vector irq=41 name=virtio2-output.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=tx msix=4 msix_source=hwirq napi=-1 cpu=1 source=irq-name pattern=virtio-net note=-
EOF
check_eq "host618 + netlink: the queues netlink reported, with names from sysfs" \
	"nlqueue ifindex=1 ifname=lo dir=rx queue=0 napi=-1 irq=-1|nlqueue ifindex=1 ifname=lo dir=tx queue=0 napi=-1 irq=-1|nlqueue ifindex=2 ifname=eth0 dir=rx queue=0 napi=257 irq=-1|nlqueue ifindex=2 ifname=eth0 dir=rx queue=1 napi=258 irq=-1|nlqueue ifindex=2 ifname=eth0 dir=tx queue=0 napi=-1 irq=-1|nlqueue ifindex=2 ifname=eth0 dir=tx queue=1 napi=-1 irq=-1" \
	"$(field nlqueue)"

# A driver that tells NAPI IRQs: netlink decides queue and direction, and
# adds a vector no name rule knows.
scenario host618 --nl "$tmp/host618/nl-irq.txt"
check_vectors "host618 + netlink (NAPIs with IRQ)" <<'EOF'
vector irq=38 name=virtio2-input.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq napi=257 cpu=1 source=netlink pattern=virtio-net note=IRQ name said rx queue 0
vector irq=39 name=virtio2-output.0 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=0 queues=0 dir=tx msix=2 msix_source=hwirq napi=-1 cpu=0 source=irq-name pattern=virtio-net note=netlink: tx queue 0 is served by IRQ 38
vector irq=40 name=virtio2-input.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=rx msix=3 msix_source=hwirq napi=258 cpu=0 source=netlink pattern=virtio-net note=-
vector irq=41 name=virtio2-output.1 bdf=0000:00:03.0 func=1 ifname=eth0 ifindex=2 queue=1 queues=1 dir=tx msix=4 msix_source=hwirq napi=259 cpu=1 source=netlink pattern=virtio-net note=-
vector irq=44 name=acme0-q0 bdf=0000:00:06.0 func=2 ifname=acme0 ifindex=3 queue=0 queues=0 dir=rxtx msix=0 msix_source=hwirq napi=300 cpu=1 source=netlink pattern=- note=-
EOF
check_eq "host618 + netlink: functions" "function 1 0000:00:03.0|function 2 0000:00:06.0" "$(field function)"

# The IRQ -> NAPI link the BPF side learns, against netlink's napi-get irq:
# agreement is silent, a disagreement is one line, once per NAPI.
scenario host618 --nl "$tmp/host618/nl-irq.txt" --learnt 257:38 --learnt 257:39 --learnt 257:41 --learnt 258:40
check_eq "learnt IRQ -> NAPI links cross-checked against netlink: one line for the one disagreement" \
	"netpmu: NAPI 257 of eth0: the kernel says IRQ 38, but IRQ 39 scheduled it; its queue is taken from IRQ 39" \
	"$(echo "$out" | grep '^netpmu: NAPI')"

# --- hns3 on arm64 (ITS-MSI, "Edge" column), IRQs not in entry order ---
scenario hns3 --func eth1 --func 7d:01.0
check_vectors hns3 <<'EOF'
vector irq=141 name=hns3-0000:7d:00.0-TxRx-6 bdf=0000:7d:00.0 func=1 ifname=eth0 ifindex=3 queue=3 queues=3 dir=rxtx msix=4 msix_source=hwirq-pci-msi napi=-1 cpu=3 source=irq-name pattern=hns3 note=-
vector irq=142 name=hns3-0000:7d:00.0-TxRx-2 bdf=0000:7d:00.0 func=1 ifname=eth0 ifindex=3 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=hns3 note=-
vector irq=143 name=hns3-0000:7d:00.0-TxRx-4 bdf=0000:7d:00.0 func=1 ifname=eth0 ifindex=3 queue=2 queues=2 dir=rxtx msix=3 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=hns3 note=-
vector irq=145 name=hns3-0000:7d:00.0-TxRx-0 bdf=0000:7d:00.0 func=1 ifname=eth0 ifindex=3 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=0 source=irq-name pattern=hns3 note=-
vector irq=151 name=hns3-0000:7d:00.1-TxRx-0 bdf=0000:7d:00.1 func=2 ifname=eth1 ifindex=4 queue=0 queues=0,4 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=0 source=irq-name pattern=hns3 note=-
vector irq=152 name=hns3-0000:7d:00.1-TxRx-2 bdf=0000:7d:00.1 func=2 ifname=eth1 ifindex=4 queue=1 queues=1,5 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=hns3 note=-
vector irq=153 name=hns3-0000:7d:00.1-TxRx-4 bdf=0000:7d:00.1 func=2 ifname=eth1 ifindex=4 queue=2 queues=2,6 dir=rxtx msix=3 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=hns3 note=-
vector irq=154 name=hns3-0000:7d:00.1-TxRx-6 bdf=0000:7d:00.1 func=2 ifname=eth1 ifindex=4 queue=3 queues=3,7 dir=rxtx msix=4 msix_source=hwirq-pci-msi napi=-1 cpu=3 source=irq-name pattern=hns3 note=-
vector irq=161 name=hns3-0000:7d:01.0-TxRx-0 bdf=0000:7d:01.0 func=3 ifname=- ifindex=-1 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=hns3 note=0000:7d:01.0 (driver hns3) has no netdev in this network namespace; netdev queue count unknown: queues 0+2k beyond 0 not listed
vector irq=162 name=hns3-0000:7d:01.0-TxRx-2 bdf=0000:7d:01.0 func=3 ifname=- ifindex=-1 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=hns3 note=0000:7d:01.0 (driver hns3) has no netdev in this network namespace; netdev queue count unknown: queues 1+2k beyond 1 not listed
vector irq=171 name=eth2-TxRx-0 bdf=0000:bd:00.0 func=4 ifname=eth2 ifindex=5 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=hns3 note=-
vector irq=172 name=eth2-TxRx-2 bdf=0000:bd:00.0 func=4 ifname=eth2 ifindex=5 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=3 source=irq-name pattern=hns3 note=-
EOF
check_eq "hns3: PFs and the VF numbered" \
	"function 1 0000:7d:00.0|function 2 0000:7d:00.1|function 3 0000:7d:01.0|function 4 0000:bd:00.0" \
	"$(field function)"
check_eq "hns3: func_id by ifname and by short bdf" "func_id eth1 2|func_id 7d:01.0 3" "$(field func_id)"

# --- Intel/Mellanox-style names, x86 interrupt remapping, no /sys/kernel/irq ---
scenario intel
check_vectors intel <<'EOF'
vector irq=16 name=enp3s0-TxRx-9 bdf=- func=0 ifname=enp3s0 ifindex=5 queue=9 queues=9 dir=rxtx msix=-1 msix_source=- napi=-1 cpu=-1 source=irq-name pattern=ifname note=PCI function unknown; MSI-X entry unknown: no hwirq
vector irq=43 name=enp3s0-TxRx-0 bdf=0000:03:00.0 func=1 ifname=enp3s0 ifindex=5 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=ifname note=-
vector irq=44 name=enp3s0-TxRx-1 bdf=0000:03:00.0 func=1 ifname=enp3s0 ifindex=5 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=ifname note=-
vector irq=45 name=eth7-rx-0 bdf=0000:04:00.0 func=2 ifname=- ifindex=-1 queue=0 queues=0 dir=rx msix=0 msix_source=hwirq-pci-msi napi=-1 cpu=3 source=irq-name pattern=ifname note=IRQ name says netdev eth7, not in this network namespace
vector irq=46 name=eth7-tx-0 bdf=0000:04:00.0 func=2 ifname=- ifindex=-1 queue=0 queues=0 dir=tx msix=-1 msix_source=- napi=-1 cpu=-1 source=irq-name pattern=ifname note=IRQ name says netdev eth7, not in this network namespace; MSI-X entry unknown: hwirq 4718593 of chip IR-PCI-MSI does not encode 0000:04:00.0
vector irq=48 name=i40e-0000:3b:00.0-TxRx-0 bdf=0000:3b:00.0 func=3 ifname=ens1f0 ifindex=6 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=drv-bdf note=-
vector irq=49 name=i40e-0000:3b:00.0-TxRx-1 bdf=0000:3b:00.0 func=3 ifname=ens1f0 ifindex=6 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=2 source=irq-name pattern=drv-bdf note=-
vector irq=51 name=mlx5_comp0@pci:0000:5e:00.0 bdf=0000:5e:00.0 func=4 ifname=ens2f0np0 ifindex=7 queue=0 queues=0 dir=rxtx msix=1 msix_source=hwirq-pci-msi napi=-1 cpu=0 source=irq-name pattern=mlx5 note=-
vector irq=52 name=mlx5_comp1@pci:0000:5e:00.0 bdf=0000:5e:00.0 func=4 ifname=ens2f0np0 ifindex=7 queue=1 queues=1 dir=rxtx msix=2 msix_source=hwirq-pci-msi napi=-1 cpu=1 source=irq-name pattern=mlx5 note=-
EOF

# --- failures ---
out=$("$tmp/dump" --proc "$tmp/nonexistent" --sys "$tmp/nonexistent" 2>&1)
rc=$?
check_eq "an unreadable /proc/interrupts fails discovery, naming the file" \
	"1 queue_map_discover: $tmp/nonexistent/interrupts: No such file or directory" "$rc $out"
mkdir -p "$tmp/empty/proc" "$tmp/empty/sys"
: >"$tmp/empty/proc/interrupts"
out=$("$tmp/dump" --proc "$tmp/empty/proc" --sys "$tmp/empty/sys" 2>&1)
check_eq "an empty /proc/interrupts and /sys give an empty map" \
	"netlink used=0 status=not used: /proc or /sys is not the real one" "$out"
