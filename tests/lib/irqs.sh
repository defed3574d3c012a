# SPDX-License-Identifier: GPL-2.0
# IRQs for guest tests, sourced after tap.sh: their counts, and the
# affinity of those that steer a NIC's polls to a CPU. Every affinity change
# is put back by irq_affinity_restore (call it from the test's EXIT trap),
# for the tests that follow in the same boot.
#   irq_count IRQ           IRQ's interrupts so far, summed over every CPU
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
irq_count() {
	awk -v irq="$1:" '$1 == irq { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts
}
irqs_of() { awk -F: -v n="$1-$2" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts; }
cpu_other_than() {
	awk -F- -v c="$1" '{ for (i = $1; i <= $NF; i++) if (i != c) { print i; exit } }' /sys/devices/system/cpu/online
}
