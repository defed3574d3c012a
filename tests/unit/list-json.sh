#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu list --json on a fixture sysfs tree: one JSON document on one line
# (an array of PMUs) that python3 parses, with the exact values of every key.
. "$(dirname "$0")/../lib/tap.sh"
plan 10
kind golden

. "$REPO/tests/lib/sysfs_fixture.sh"
unit_setup
if ! command -v python3 >/dev/null; then
	fail "python3 present to parse JSON" "python3 is missing (run: make deps)"
	exit 0
fi
root=$tmp/sys
if ! gen=$("$REPO/tests/fixtures/make-sysfs-tree" "$root" 2>&1); then
	fail "fixture sysfs tree built from the spec" "$gen"
	exit 0
fi

"$NETPMU" list --json --sysfs-root "$root" >"$tmp/all.json" 2>"$tmp/all.err"
check_eq "list --json exits 0" 0 $?
check_eq "list --json writes nothing on stderr for a clean tree" "" "$(cat "$tmp/all.err")"
"$NETPMU" list --json 'hns3_pmu_s*' --sysfs-root "$root" >"$tmp/one.json" 2>&1
check_eq "list --json PATTERN exits 0" 0 $?
"$NETPMU" list --json nomatch --sysfs-root "$root" >"$tmp/none.json" 2>/dev/null
check_eq "list --json PATTERN matching nothing exits 1 with empty stdout" "1 0" "$? $(wc -c <"$tmp/none.json")"

python3 - "$tmp/all.json" "$tmp/one.json" "$REPO/tests/lib" <<'PY'
import json
import sys

sys.path.insert(0, sys.argv[3])
from tap import check as report

def parse_lines(path):
    text = open(path).read()
    if text.count("\n") != 1 or not text.endswith("\n"):
        report(False, f"{path} is one line", f"{text.count(chr(10))} newlines")
        return None
    try:
        doc = json.loads(text)
    except ValueError as e:
        report(False, f"{path} is one JSON document", str(e))
        return None
    if not isinstance(doc, list):
        report(False, f"{path} is a JSON array", type(doc).__name__)
        return None
    return doc

def fmt(word, *ranges):
    return {"word": word, "bits": [list(r) for r in ranges]}

hns3_format = {
    "subevent": fmt("config", (0, 7)),
    "event_type": fmt("config", (8, 15)),
    "ext_counter_used": fmt("config", (16, 16)),
    "port": fmt("config1", (0, 3)),
    "tc": fmt("config1", (4, 7)),
    "bdf": fmt("config1", (8, 23)),
    "queue": fmt("config1", (24, 39)),
    "intr": fmt("config1", (40, 51)),
    "global": fmt("config1", (52, 52)),
}
early_format = dict(hns3_format)
early_format["event"] = early_format.pop("event_type")
pcie_format = {
    "event": fmt("config", (0, 16)),
    "thr_len": fmt("config1", (0, 3)),
    "thr_mode": fmt("config1", (4, 4)),
    "trig_len": fmt("config1", (5, 8)),
    "trig_mode": fmt("config1", (9, 9)),
    "len_mode": fmt("config1", (10, 11)),
    "port": fmt("config2", (0, 15)),
    "bdf": fmt("config2", (16, 31)),
}
expected = [
    {"name": "hns3_pmu_0", "kind": "hns3", "sicl_id": None, "core_id": None, "device_id": 0,
     "type": 12, "identifier": "0x20", "cpu": 3, "cpumask": "3", "bdf_min": None, "bdf_max": None,
     "bus": None, "hw_clk_freq": None, "events": 110, "filtermodes": 110, "format": early_format,
     "problems": []},
    {"name": "hns3_pmu_sicl_0", "kind": "hns3", "sicl_id": 0, "core_id": None, "device_id": None,
     "type": 11, "identifier": "0x21", "cpu": 0, "cpumask": "0", "bdf_min": "35:00.0",
     "bdf_max": "35:01.7", "bus": None, "hw_clk_freq": 100000000, "events": 110,
     "filtermodes": 110, "format": hns3_format, "problems": []},
    {"name": "hisi_pcie0_core1", "kind": "pcie", "sicl_id": 0, "core_id": 1, "device_id": None,
     "type": 13, "identifier": "0x30", "cpu": 12, "cpumask": "12", "bdf_min": "30:00.0",
     "bdf_max": "30:02.0", "bus": 0x30, "hw_clk_freq": None, "events": 18, "filtermodes": 0,
     "format": pcie_format, "problems": []},
]

objs = parse_lines(sys.argv[1])
if objs is not None:
    report(len(objs) == 3, "list --json prints one array of one object per PMU, 3 objects",
           f"got {len(objs)}: {[o.get('name') for o in objs]}")
    for exp in expected:
        got = next((o for o in objs if o.get("name") == exp["name"]), None)
        if got is None:
            report(False, f"list --json has {exp['name']}", "absent")
            continue
        diffs = [f"{k}: expected {exp.get(k)!r}, got {got.get(k)!r}"
                 for k in sorted(set(exp) | set(got)) if exp.get(k) != got.get(k) or k not in got]
        report(not diffs, f"list --json {exp['name']}: every key has its exact value", "; ".join(diffs))
    report([o.get("name") for o in objs] == [e["name"] for e in expected],
           "list --json order: HNS3 PMUs first, then PCIe, by name",
           str([o.get("name") for o in objs]))

one = parse_lines(sys.argv[2])
if one is not None:
    report([o.get("name") for o in one] == ["hns3_pmu_sicl_0"],
           "list --json 'hns3_pmu_s*' prints only hns3_pmu_sicl_0", str([o.get("name") for o in one]))
PY
status=$?
[ $status -eq 0 ] || fail "the JSON checks ran to the end" "python3 exited with status $status"
exit 0
