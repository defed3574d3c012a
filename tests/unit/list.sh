#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu list on fixture sysfs trees built from the upstream ABI tables: the
# table, pattern filtering, no PMU at all, a missing sysfs root.
. "$(dirname "$0")/../lib/tap.sh"
plan 21
kind golden

. "$REPO/tests/lib/sysfs_fixture.sh"
fixture_tree

run() {
	"$NETPMU" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
flat() { printf '%s' "$1" | tr '\n' '|'; }
# names: the PMU column of the table in $out, without the header, one line.
names() { tail -n +2 <<<"$out" | awk '{ print $1 }' | paste -sd' '; }

expected_table='PMU               KIND  TYPE  IDENTIFIER  CPU  BDF RANGE        EVENTS
hns3_pmu_0        hns3  12    0x20        3    -                110
hns3_pmu_sicl_0   hns3  11    0x21        0    35:00.0-35:01.7  110
hisi_pcie0_core1  pcie  13    0x30        12   30:00.0-30:02.0  18'

run list --sysfs-root "$root"
check_eq "list exits 0" 0 "$rc"
check_eq "list shows exactly the 3 PMUs with type, identifier, counting CPU, BDF range, events" \
	"$(flat "$expected_table")" "$(flat "$out")"
check_eq "list writes nothing on stderr for a clean tree" "" "$err"
check_eq "list ignores the unrelated PMUs software, cpu, hisi_sicl2_cpa0" 0 \
	"$(grep -cE '^(software|cpu|hisi_sicl2_cpa0) ' <<<"$out")"

run list --sysfs-root="$root/"
check_eq "--sysfs-root=DIR/ (with '=' and a trailing slash) gives the same table" \
	"$(flat "$expected_table")" "$(flat "$out")"

check_pattern() {
	local pattern=$1 expected=$2
	run list "$pattern" --sysfs-root "$root"
	check_eq "list '$pattern' shows only [$expected]" "0 $expected" "$rc $(names)"
}
check_pattern 'hns3*' "hns3_pmu_0 hns3_pmu_sicl_0"
check_pattern 'hns3_pmu_sicl_*' "hns3_pmu_sicl_0"
check_pattern 'hns3_pmu_[0-9]*' "hns3_pmu_0"
check_pattern 'hisi_pcie0_core1' "hisi_pcie0_core1"
check_pattern '*_core?' "hisi_pcie0_core1"

run list 'hisi_pcie*' --sysfs-root "$root"
check_eq "list PATTERN keeps the table header and the exact row" \
	"PMU               KIND  TYPE  IDENTIFIER  CPU  BDF RANGE        EVENTS|hisi_pcie0_core1  pcie  13    0x30        12   30:00.0-30:02.0  18" \
	"$(flat "$out")"

run list nomatch --sysfs-root "$root"
check_eq "list PATTERN matching nothing exits 1" 1 "$rc"
check_eq "list PATTERN matching nothing prints nothing on stdout" "" "$out"
check_eq "list PATTERN matching nothing names the PMUs present" \
	"netpmu list: no PMU matches 'nomatch' (present: hns3_pmu_0, hns3_pmu_sicl_0, hisi_pcie0_core1)" \
	"$(flat "$err")"

run list software --sysfs-root "$root"
check_eq "list 'software' (an unrelated PMU) matches nothing" 1 "$rc"

# A machine without these PMUs: only unrelated ones.
bare=$tmp/bare
mkdir -p "$bare/bus/event_source/devices"
cp -r "$root/devices/software" "$bare/bus/event_source/devices/software"
hint="netpmu list: no HNS3 or PCIe PMU in $bare/bus/event_source/devices; load netpmu's module (insmod .output/kmod/ARCH-KVER/netpmu.ko) or, on Hip09, the upstream drivers (modprobe hns3_pmu; modprobe hisi_pcie_pmu)"
run list --sysfs-root "$bare"
check_eq "list without any HNS3/PCIe PMU exits 0 (like perf list)" 0 "$rc"
check_eq "list without any HNS3/PCIe PMU prints nothing on stdout" "" "$out"
check_eq "list without any HNS3/PCIe PMU says how to get one" "$hint" "$(flat "$err")"
run list 'hns3*' --sysfs-root "$bare"
check_eq "list PATTERN without any HNS3/PCIe PMU exits 1 with the same hint" "1 $hint" "$rc $(flat "$err")"

run list --sysfs-root "$tmp/nonexistent"
check_eq "list with a missing sysfs root exits 1" 1 "$rc"
check_eq "list with a missing sysfs root: one line naming the directory" \
	"netpmu list: cannot read the PMUs: $tmp/nonexistent/bus/event_source/devices: No such file or directory" \
	"$(flat "$err")"
exit 0
