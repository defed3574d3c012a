#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# PMU discovery on damaged and unusual fixture trees: both cpumask forms,
# absent files, malformed files reported with their path, split format fields,
# names that only look like HNS3/PCIe PMUs.
. "$(dirname "$0")/../lib/tap.sh"
plan 23
kind golden

. "$REPO/tests/lib/sysfs_fixture.sh"
unit_setup

# fresh_tree: a new fixture tree in $root; $dev is its devices directory.
n=0
fresh_tree() {
	n=$((n + 1))
	root=$tmp/sys$n
	dev=$root/bus/event_source/devices
	if ! gen=$("$REPO/tests/fixtures/make-sysfs-tree" "$root" 2>&1); then
		fail "fixture sysfs tree built from the spec" "$gen"
		exit 0
	fi
}
run() {
	"$NETPMU" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
flat() { printf '%s' "$1" | tr '\n' '|'; }
# row PMU: the table row of PMU in $out, columns separated by single spaces.
row() { awk -v pmu="$1" '$1 == pmu { $1 = $1; print }' <<<"$out"; }
# json_key PMU KEY: the JSON value of KEY for PMU, from list --json.
json_key() {
	"$NETPMU" list --json "$1" --sysfs-root "$root" 2>/dev/null |
		python3 -c 'import json, sys; print(json.dumps(json.loads(sys.stdin.readline())[0][sys.argv[1]]))' "$2"
}

fresh_tree
printf '4-7,9\n' >"$dev/hisi_pcie0_core1/cpumask"
printf -- '-1\n' >"$dev/hns3_pmu_sicl_0/cpumask"
printf '0-3,8\n' >"$dev/hns3_pmu_0/cpumask"
run list --sysfs-root "$root"
check_eq "cpulist '4-7,9': the counting CPU is the first, 4" "hisi_pcie0_core1 pcie 13 0x30 4 30:00.0-30:02.0 18" "$(row hisi_pcie0_core1)"
check_eq "cpulist '0-3,8': the counting CPU is 0" "hns3_pmu_0 hns3 12 0x20 0 - 110" "$(row hns3_pmu_0)"
check_eq "cpumask '-1' (no CPU picked yet) shows CPU 'none'" "hns3_pmu_sicl_0 hns3 11 0x21 none 35:00.0-35:01.7 110" "$(row hns3_pmu_sicl_0)"
check_eq "valid cpumask forms raise no warning" "0 " "$rc $err"
check_eq "--json keeps the raw cpumask '4-7,9' and cpu 4" '"4-7,9" 4' \
	"$(json_key hisi_pcie0_core1 cpumask) $(json_key hisi_pcie0_core1 cpu)"
check_eq "--json cpu is null for cpumask '-1'" "null" "$(json_key hns3_pmu_sicl_0 cpu)"

fresh_tree
printf 'zero\n' >"$dev/hns3_pmu_sicl_0/cpumask"
rm "$dev/hns3_pmu_0/type" "$dev/hns3_pmu_0/identifier"
printf 'config1:8-99\n' >"$dev/hns3_pmu_sicl_0/format/bdf"
printf 'filter mode supported: global bogus \n' >"$dev/hns3_pmu_sicl_0/filtermode/bw_ssu_rpu_time"
printf 'zz:00.0\n' >"$dev/hisi_pcie0_core1/bdf_max"
printf '0x3000\n' >"$dev/hisi_pcie0_core1/bus"
run list --sysfs-root "$root"
check_eq "damaged files: list still exits 0" 0 "$rc"
check_eq "damaged files: every PMU is still listed, unknown fields as '-'" \
	"hns3_pmu_0 hns3 - - 3 - 110|hns3_pmu_sicl_0 hns3 11 0x21 - 35:00.0-35:01.7 110|hisi_pcie0_core1 pcie 13 0x30 12 30:00.0-? 18" \
	"$(flat "$(row hns3_pmu_0)
$(row hns3_pmu_sicl_0)
$(row hisi_pcie0_core1)")"
check_eq "damaged files: one warning per bad file, naming the file, its content and the reason" \
	"netpmu list: warning: $dev/hns3_pmu_0/type: missing|netpmu list: warning: $dev/hns3_pmu_sicl_0/cpumask: \"zero\": expected a CPU number or a cpulist such as 0-3,8|netpmu list: warning: $dev/hns3_pmu_sicl_0/format/bdf: \"config1:8-99\": bit number above 63|netpmu list: warning: $dev/hns3_pmu_sicl_0/filtermode/bw_ssu_rpu_time: \"filter mode supported: global bogus \": unknown filter mode (valid: global, port, port-tc, func, func-queue, func-intr)|netpmu list: warning: $dev/hisi_pcie0_core1/bdf_max: \"zz:00.0\": expected hex digits in BB:DD.F|netpmu list: warning: $dev/hisi_pcie0_core1/bus: \"0x3000\": PCI bus above 0xff" \
	"$(flat "$err")"
check_eq "damaged files: --json lists the problems of the PMU" \
	"[\"$dev/hns3_pmu_0/type: missing\"]" "$(json_key hns3_pmu_0 problems)"
check_eq "damaged files: --json shows 109 valid filtermodes of 110" 109 "$(json_key hns3_pmu_sicl_0 filtermodes)"
run list 'hisi*' --sysfs-root "$root"
check_eq "warnings are limited to the PMUs listed" 2 "$(grep -c warning <<<"$err")"

fresh_tree
printf 'config2:0-3,8-11\n' >"$dev/hisi_pcie0_core1/format/port"
printf 'config3:63\n' >"$dev/hisi_pcie0_core1/format/thr_mode"
check_eq "a split format field 'config2:0-3,8-11' is parsed into its two ranges" \
	'{"word": "config2", "bits": [[0, 3], [8, 11]]}' "$(json_key hisi_pcie0_core1 format | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["port"]))')"
check_eq "a format field in config3 at bit 63 is parsed" \
	'{"word": "config3", "bits": [[63, 63]]}' "$(json_key hisi_pcie0_core1 format | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["thr_mode"]))')"
for bad in 'config:7-3' 'config:0-7,4-5' 'config4:0' 'cfg:0-7' 'config:' 'config:1-2x'; do
	printf '%s\n' "$bad" >"$dev/hisi_pcie0_core1/format/trig_len"
	run list hisi_pcie0_core1 --sysfs-root "$root"
	if grep -q "^netpmu list: warning: $dev/hisi_pcie0_core1/format/trig_len: \"$bad\": " <<<"$err"; then
		pass "malformed format '$bad' is reported with its file"
	else
		fail "malformed format '$bad' is reported with its file" "stderr: $(flat "$err")"
	fi
done

fresh_tree
# Names that only look like ours; and a dangling link.
for decoy in hns3_pmu_sicl_x hns3_pmu_ hns3_pmu_sicl_ hns3_pmu_sicl_2a hisi_pcie0_core hisi_pcie_core1 hisi_pcie0_core1x hns3_pmu_sicl_0_extra; do
	ln -s ../../../devices/hns3_pmu_0 "$dev/$decoy"
done
ln -s ../../../devices/nowhere "$dev/hns3_pmu_sicl_9"
# The early driver's PMU as a plain directory rather than a link; hidden files.
mv "$dev/hns3_pmu_0" "$tmp/link" && cp -r "$root/devices/hns3_pmu_0" "$dev/hns3_pmu_0"
printf 'B\n' >"$dev/hns3_pmu_sicl_0/events/bw_ssu_rpu_byte_num.unit"
printf '1e-6\n' >"$dev/hns3_pmu_sicl_0/events/bw_ssu_rpu_byte_num.scale"
printf 'x\n' >"$dev/hns3_pmu_sicl_0/events/.hidden"
mkdir "$dev/hisi_pcie0_core1/events/subdir"
run list --sysfs-root "$root"
check_eq "look-alike names, dangling links, .unit/.scale/hidden files and subdirectories are ignored" \
	"0 hns3_pmu_0 hns3_pmu_sicl_0 hisi_pcie0_core1 | 110 110 18" \
	"$rc $(tail -n +2 <<<"$out" | awk '{ print $1 }' | paste -sd' ') | $(tail -n +2 <<<"$out" | awk '{ print $NF }' | paste -sd' ')$err"

fresh_tree
rm -r "$dev/hisi_pcie0_core1/events" "$dev/hisi_pcie0_core1/format" "$dev/hisi_pcie0_core1/identifier" \
	"$dev/hisi_pcie0_core1/bdf_min" "$dev/hisi_pcie0_core1/bdf_max" "$dev/hisi_pcie0_core1/bus"
run list --sysfs-root "$root"
check_eq "a PMU with only type and cpumask is listed with '-' and 0 events, no warning" \
	"0 hisi_pcie0_core1 pcie 13 - 12 - 0 " "$rc $(row hisi_pcie0_core1) $err"

fresh_tree
rm -r "$root/devices/pci0000:30"
run list --sysfs-root "$root"
check_eq "a PMU whose link dangles is not listed" "0 hns3_pmu_0 hns3_pmu_sicl_0" \
	"$rc $(tail -n +2 <<<"$out" | awk '{ print $1 }' | paste -sd' ')"
exit 0
