# SPDX-License-Identifier: GPL-2.0
# IRQ affinity for guest tests that steer a NIC's polls to a CPU, sourced
# after tap.sh. Every change is put back by irq_affinity_restore (call it
# from the test's EXIT trap), for the tests that follow in the same boot.
#   irq_affinity_init DIR   where the old affinities are kept
#   irq_pin IRQ CPUS        pins IRQ (its old affinity kept)
#   irq_affinity_restore    puts every pinned IRQ back
#   irqs_of DEVICE REGEX    IRQ numbers of /proc/interrupts lines naming DEVICE-REGEX
#   cpu_other_than CPU      the first online CPU that is not CPU
irq_affinity_init() { irq_affinity_saved=$1/affinity; : > "$irq_affinity_saved"; }
irq_pin() {
	echo "$1 $(cat /proc/irq/$1/smp_affinity_list)" >> "$irq_affinity_saved"
	echo "$2" > /proc/irq/$1/smp_affinity_list
}
irq_affinity_restore() {
	local irq cpus
	[ -e "${irq_affinity_saved:-}" ] || return 0
	while read -r irq cpus; do echo "$cpus" > /proc/irq/$irq/smp_affinity_list; done < "$irq_affinity_saved"
}
irqs_of() { awk -F: -v n="$1-$2" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts; }
cpu_other_than() {
	awk -F- -v c="$1" '{ for (i = $1; i <= $NF; i++) if (i != c) { print i; exit } }' /sys/devices/system/cpu/online
}
