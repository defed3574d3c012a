#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu.ko is loaded, registers hns3_pmu_sicl_0, and the real perf opens it.
. "$(dirname "$0")/../lib/tap.sh"
plan 4
kind exact
pmu=/sys/bus/event_source/devices/hns3_pmu_sicl_0

TAP_KIND="weak: presence; the counts are stat_counts.sh's and hns3_counts.sh's" check_cmd "netpmu.ko is loaded" test -d /sys/module/netpmu
type=$(cat $pmu/type 2>/dev/null)
case "$type" in
''|*[!0-9]*) TAP_KIND="weak: presence; its value is checked against perf's attr by stat_oracle.sh" fail "hns3_pmu_sicl_0 has a numeric type file" "got '$type'" ;;
*) TAP_KIND="weak: presence; its value is checked against perf's attr by stat_oracle.sh" pass "hns3_pmu_sicl_0 has a numeric type file" ;;
esac
out=$(perf stat -x, -a -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ -- sleep 0.2 2>&1)
status=$?
value=$(echo "$out" | grep 'hns3_pmu_sicl_0/bw_ssu_rpu_byte_num' | cut -d, -f1)
case "$status:$value" in
0:[0-9]*) TAP_KIND="weak: any count, no flow; the counts are stat_counts.sh's and hns3_counts.sh's" pass "perf stat opens hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ and counts" ;;
*) TAP_KIND="weak: any count, no flow; the counts are stat_counts.sh's and hns3_counts.sh's" fail "perf stat opens hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ and counts" "status $status: $(echo "$out" | tr '\n' ' ')" ;;
esac
check_eq "netpmu list shows the PMU with its counting CPU" \
	"hns3_pmu_sicl_0 $(cat $pmu/cpumask)" \
	"$("$NETPMU" list --json | python3 -c '
import json, sys
for line in sys.stdin:
    line = line.strip()
    if not line: continue
    doc = json.loads(line)
    for p in (doc if isinstance(doc, list) else doc.get("pmus", [doc])):
        if p.get("name") == "hns3_pmu_sicl_0": print(p["name"], p["cpu"])
')"
