# SPDX-License-Identifier: GPL-2.0
# Unit tests against a fixture sysfs tree (tests/fixtures/make-sysfs-tree).
# Source after tap.sh.

# unit_setup: sets $tmp (a folder removed at exit, readable by others for
# tests that drop privileges); prints one "not ok" line and exits when the
# loader is not built.
unit_setup() {
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	trap 'rm -rf "$tmp"' EXIT
	if [ ! -x "$NETPMU" ]; then
		fail "netpmu binary exists" "$NETPMU is missing (run: make netpmu)"
		exit 0
	fi
}

# fixture_tree [MAKE-SYSFS-TREE OPTION...]: unit_setup, and $root, the
# fixture tree inside $tmp; prints one "not ok" line and exits when the tree
# cannot be made.
fixture_tree() {
	local gen
	unit_setup
	root=$tmp/sys
	if ! gen=$("$REPO/tests/fixtures/make-sysfs-tree" "$@" "$root" 2>&1); then
		fail "fixture sysfs tree built from the ABI tables" "$gen"
		exit 0
	fi
}

# software_backed_hns3 ROOT N CPU: an HNS3-shaped PMU hns3_pmu_sicl_N in the
# tree at ROOT whose type is the kernel's software PMU (1), so that it really
# counts: clock_byte_num is cpu-clock (config 0), dummy_byte_num the dummy
# event (config 9), on CPU.
software_backed_hns3() {
	local root=$1 n=$2 cpu=$3 pmu ev
	pmu=$root/devices/hns3_pmu_sicl_$n
	mkdir -p "$pmu/events" "$pmu/filtermode" "$pmu/format"
	echo 1 >"$pmu/type"
	echo "$cpu" >"$pmu/cpumask"
	echo config:0-7 >"$pmu/format/subevent"
	echo config:8-15 >"$pmu/format/event_type"
	echo config:16 >"$pmu/format/ext_counter_used"
	echo config1:52 >"$pmu/format/global"
	for ev in clock_byte_num:0x0 dummy_byte_num:0x9; do
		echo "config=${ev#*:}" >"$pmu/events/${ev%%:*}"
		echo "filter mode supported: global " >"$pmu/filtermode/${ev%%:*}"
	done
	ln -s "../../../devices/hns3_pmu_sicl_$n" "$root/bus/event_source/devices/hns3_pmu_sicl_$n"
}

# copy_pmu_dirs ROOT DEST: the PMU directories of the tree at ROOT, copied
# into DEST: perf, given DEST as its event_source/devices, cannot follow the
# tree's links out of it.
copy_pmu_dirs() {
	local p
	mkdir "$2"
	for p in "$1"/bus/event_source/devices/*; do
		cp -r "$(readlink -f "$p")" "$2/"
	done
}
