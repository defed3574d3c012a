#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/fixtures/make-sysfs-tree writes what the upstream drivers write, byte
# for byte, as the upstream ABI tables (tests/fixtures/abi) say.
. "$(dirname "$0")/../lib/tap.sh"
plan 30
kind exact

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

abi=$REPO/tests/fixtures/abi
make_tree=$REPO/tests/fixtures/make-sysfs-tree
root=$tmp/sys
if ! gen=$("$make_tree" "$root" 2>&1); then
	fail "fixture sysfs tree built from the ABI tables" "$gen"
	exit 0
fi
pass "fixture sysfs tree built from the ABI tables"
dev=$root/bus/event_source/devices

# check_bytes DESCRIPTION FILE PRINTF-FORMAT [ARGS...]: FILE holds exactly those bytes.
check_bytes() {
	local desc=$1 file=$2
	shift 2
	# shellcheck disable=SC2059
	if cmp -s <(printf "$@") "$file"; then
		pass "$desc"
	else
		fail "$desc" "expected $(printf "$@" | od -An -c | tr -s ' \n' ' '), got $(od -An -c "$file" 2>&1 | tr -s ' \n' ' ')"
	fi
}
count_files() { find "$1" -maxdepth 1 -type f | wc -l; }

check_eq "devices/ holds the 3 PMUs and 3 unrelated ones, as links" \
	"cpu hisi_pcie0_core1 hisi_sicl2_cpa0 hns3_pmu_0 hns3_pmu_sicl_0 software" \
	"$(find "$dev" -mindepth 1 -maxdepth 1 -type l -printf '%f\n' | sort | paste -sd' ')"

s=$dev/hns3_pmu_sicl_0
check_eq "hns3_pmu_sicl_0 has 110 events, 110 filtermodes, 9 format fields" "110 110 9" \
	"$(count_files "$s/events") $(count_files "$s/filtermode") $(count_files "$s/format")"
check_bytes "hns3 events/bw_ssu_rpu_time is 'config=0x10002\\n'" "$s/events/bw_ssu_rpu_time" 'config=0x10002\n'
check_bytes "hns3 events/dly_tx_normal_to_mac_time is unpadded 'config=0x204\\n'" "$s/events/dly_tx_normal_to_mac_time" 'config=0x204\n'
check_bytes "hns3 filtermode has the driver's trailing space" "$s/filtermode/bw_ssu_rpu_byte_num" \
	'filter mode supported: global port port-tc func func-queue \n'
check_bytes "hns3 format/queue is 'config1:24-39\\n'" "$s/format/queue" 'config1:24-39\n'
check_bytes "hns3 format/ext_counter_used is 'config:16\\n'" "$s/format/ext_counter_used" 'config:16\n'
check_bytes "hns3 cpumask is '%d\\n' of CPU 0" "$s/cpumask" '0\n'
check_bytes "hns3 identifier is '0x%x\\n'" "$s/identifier" '0x21\n'
check_bytes "hns3 bdf_min is '%02x:%02x.%x\\n'" "$s/bdf_min" '35:00.0\n'
check_bytes "hns3 bdf_max is '%02x:%02x.%x\\n'" "$s/bdf_max" '35:01.7\n'
check_bytes "hns3 hw_clk_freq is '%u\\n'" "$s/hw_clk_freq" '100000000\n'
check_bytes "hns3 type" "$s/type" '11\n'

# Every HNS3 event and filter mode against the table, independently of the generator.
bad=0 rows=0
while IFS=$'\t' read -r name config _ modes; do
	rows=$((rows + 1))
	expected_modes=$(tr ',' ' ' <<<"$modes,")
	cmp -s <(printf 'config=0x%x\n' "$config") "$s/events/$name" &&
		cmp -s <(printf 'filter mode supported: %s\n' "$expected_modes") "$s/filtermode/$name" || bad=$((bad + 1))
done < <(grep -v '^#' "$abi/hns3-events.tsv")
check_eq "all 110 hns3 events and filtermodes match hns3-events.tsv" "110 0" "$rows $bad"

e=$dev/hns3_pmu_0
check_bytes "early hns3_pmu_0 filtermode is in the v1 document's slash form" "$e/filtermode/bw_ssu_rpu_byte_num" \
	'filter mode supported: global/port/port-tc/func/func-queue/\n'
check_eq "early hns3_pmu_0 has no bdf_min, bdf_max, hw_clk_freq; has format/event not event_type" "0 0 0 1 0" \
	"$(for f in bdf_min bdf_max hw_clk_freq format/event format/event_type; do [ -e "$e/$f" ] && echo 1 || echo 0; done | paste -sd' ')"
check_eq "early hns3_pmu_0 is at devices/hns3_pmu_0 (no PCI parent)" "../../../devices/hns3_pmu_0" "$(readlink "$dev/hns3_pmu_0")"

p=$dev/hisi_pcie0_core1
check_eq "hisi_pcie0_core1 has 18 events and 8 format fields, no filtermode" "18 8 no" \
	"$(count_files "$p/events") $(count_files "$p/format") $([ -e "$p/filtermode" ] && echo yes || echo no)"
check_bytes "pcie events/rx_mwr_cnt is 'config=0x10010\\n'" "$p/events/rx_mwr_cnt" 'config=0x10010\n'
check_bytes "pcie format/event is 'config:0-16\\n'" "$p/format/event" 'config:0-16\n'
check_bytes "pcie format/bdf is 'config2:16-31\\n'" "$p/format/bdf" 'config2:16-31\n'
check_bytes "pcie bus is '%#04x\\n'" "$p/bus" '0x30\n'
check_bytes "pcie bdf_min is '%#04x\\n'" "$p/bdf_min" '0x3000\n'
check_bytes "pcie bdf_max is '%#04x\\n'" "$p/bdf_max" '0x3010\n'
check_bytes "pcie cpumask is a cpulist" "$p/cpumask" '12\n'
check_bytes "pcie identifier is '%#x\\n'" "$p/identifier" '0x30\n'
bad=0 rows=0
while IFS=$'\t' read -r name config _; do
	rows=$((rows + 1))
	cmp -s <(printf 'config=0x%x\n' "$config") "$p/events/$name" || bad=$((bad + 1))
done < <(grep -v '^#' "$abi/pcie-events.tsv")
check_eq "all 18 pcie events match pcie-events.tsv" "18 0" "$rows $bad"

if "$make_tree" "$root" >/dev/null 2>&1; then
	fail "make-sysfs-tree refuses a directory that already has PMUs" "it exited 0"
else
	pass "make-sysfs-tree refuses a directory that already has PMUs"
fi
out=$("$make_tree" --abi "$tmp/noabi" "$tmp/other" 2>&1)
check_eq "make-sysfs-tree with a wrong --abi fails with one line naming the file, creating nothing" \
	"1 make-sysfs-tree: cannot read the ABI tables: $tmp/noabi/hns3-events.tsv: No such file or directory (give --abi DIR) no" \
	"$? $out $([ -e "$tmp/other" ] && echo yes || echo no)"
exit 0
