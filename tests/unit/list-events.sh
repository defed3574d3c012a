#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu list --events on fixture trees built from the upstream ABI tables: events grouped by
# kind, each metric once with its pair, the unit of its derived value and its
# filter modes; PCIe pairs with their undocumented units said; a PMU without
# hw_clk_freq in per-cycle units; events without a pair listed apart; JSON lines.
. "$(dirname "$0")/../lib/tap.sh"
plan 15
kind golden

. "$REPO/tests/lib/sysfs_fixture.sh"
fixture_tree
abi=$REPO/tests/fixtures/abi

"$NETPMU" list --events --sysfs-root "$root" hns3_pmu_sicl_0 >"$tmp/out" 2>"$tmp/err"
check_eq "list --events PMU exits 0 and writes nothing on stderr" "0 " "$? $(cat "$tmp/err")"
check_eq "the heading names the PMU, its type, counting CPU, clock and functions" \
	"hns3_pmu_sicl_0 (hns3, type 11, counting CPU 0, hw_clk_freq 100000000 Hz, functions 35:00.0-35:01.7)" \
	"$(head -n 1 "$tmp/out")"
check_eq "one section per kind, with the unit and formula of its derived value" \
	"  bandwidth in bytes/s = byte_num x hw_clk_freq / time|  packet rate in packets/s = packet_num x hw_clk_freq / time|  latency in ns = time / packet_num / hw_clk_freq|  interrupt rate in interrupts/s = intr_num x hw_clk_freq / time" \
	"$(grep '^  [a-z]' "$tmp/out" | paste -sd'|')"
rows=$(grep '^    [a-z]' "$tmp/out")
check_eq "the 110 upstream events are 55 metrics, each shown once" "55 55" \
	"$(wc -l <<<"$rows") $(awk '{ print $1 }' <<<"$rows" | sort -u | wc -l)"
# Each metric's pair and modes, from the upstream event table: counter 0 is
# the event with config bit 16 clear, counter 1 the one with it set.
expected=$(python3 - "$abi/hns3-events.tsv" <<'PY'
import re, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if not l.startswith("#")]
by_config = {int(r[1], 16): r for r in rows}
for name, config, kind, modes in rows:
    c = int(config, 16)
    if c & 0x10000:
        continue
    other = by_config[c | 0x10000][0]
    stem = re.sub(r"_(byte_num|packet_num|intr_num|time)$", "", name)
    print(stem, name, other, modes.replace(",", " "))
PY
)
check_eq "every metric row: name, counter 0, counter 1, filter modes as the upstream table says" \
	"$(sort <<<"$expected")" "$(awk '{ $1 = $1; print }' <<<"$rows" | sort)"
check_eq "counters per kind: 15 bandwidth, 19 packet rate, 20 latency, 1 interrupt rate" \
	"15 19 20 1" "$(awk '/^  [a-z]/ { if (n) printf "%d ", n; n = 0; next } /^    [a-z]/ { n++ } END { print n }' "$tmp/out")"

"$NETPMU" list --events --sysfs-root "$root" hisi_pcie0_core1 >"$tmp/out"
check_eq "PCIe: latency and bandwidth sections say what the documentation leaves open" \
	"  latency in cycles/TLP = latency / cnt (the clock of the delay cycles is not documented: not converted to ns)|  bandwidth in bytes/time-unit = flux / time (the unit of the time counter is not documented: not converted to bytes/s)" \
	"$(grep '^  [a-z]' "$tmp/out" | paste -sd'|')"
check_eq "PCIe: the 18 events are 3 latency and 6 bandwidth metrics, named _lat and _bw" \
	"rx_mrd_lat rx_mwr_lat tx_mrd_lat rx_cpl_bw rx_mrd_bw rx_mwr_bw tx_cpl_bw tx_mrd_bw tx_mwr_bw" \
	"$(awk '/^    [a-z]/ { print $1 }' "$tmp/out" | paste -sd' ')"
check_eq "PCIe: a latency pair takes a port filter, a bandwidth pair all of them" \
	"rx_mwr_lat rx_mwr_latency rx_mwr_cnt port|rx_mwr_bw rx_mwr_flux rx_mwr_time port bdf trig_len thr_len len_mode" \
	"$(awk '/^    rx_mwr_(lat|bw) / { $1 = $1; print }' "$tmp/out" | paste -sd'|')"

"$NETPMU" list --events --sysfs-root "$root" hns3_pmu_0 >"$tmp/out"
check_eq "no hw_clk_freq (v1 naming): values per cycle, formulas without the clock" \
	"  bandwidth in bytes/cycle = byte_num / time|  packet rate in packets/cycle = packet_num / time|  latency in cycles/packet = time / packet_num|  interrupt rate in interrupts/cycle = intr_num / time" \
	"$(grep '^  [a-z]' "$tmp/out" | paste -sd'|')"

# An event without a partner, and one whose events/ file is more than a config.
pmu=$(readlink -f "$root/bus/event_source/devices/hns3_pmu_sicl_0")
rm "$pmu/events/bw_ssu_egu_time" "$pmu/filtermode/bw_ssu_egu_time"
echo "config=0x7,ext_counter_used=1" >"$pmu/events/odd_event"
"$NETPMU" list --events --sysfs-root "$root" hns3_pmu_sicl_0 >"$tmp/out"
check_eq "events without a pair are listed apart, with their events/ file" \
	"  events without a pair|    bw_ssu_egu_byte_num                      config=0x1|    odd_event                                config=0x7,ext_counter_used=1" \
	"$(sed -n '/events without a pair/,$p' "$tmp/out" | paste -sd'|')"

"$NETPMU" list --events --json --sysfs-root "$root" 'hns3_pmu_sicl_0' >"$tmp/json"
check_eq "--events --json: one line, one JSON array: 54 metric objects and 2 unpaired event objects" "1 54 2" \
	"$(python3 -c '
import json, sys
text = open(sys.argv[1]).read()
docs = json.loads(text)
print(text.count("\n"), sum(1 for d in docs if d["kind"]), sum(1 for d in docs if d["kind"] is None))' "$tmp/json")"
# one_object TEXT: the object of the array holding TEXT, as written.
one_object() { python3 -c '
import json, sys
for d in json.load(open(sys.argv[1])):
    text = json.dumps(d, separators=(",", ":"))
    if sys.argv[2] in text: print(text)' "$tmp/json" "$1"; }
check_eq "--events --json: a metric object" \
	'{"pmu":"hns3_pmu_sicl_0","kind":"bandwidth","metric":"bw_ssu_rpu","counters":[{"event":"bw_ssu_rpu_byte_num","spec":"config=0x2","counts":"bytes"},{"event":"bw_ssu_rpu_time","spec":"config=0x10002","counts":"cycles"}],"unit":"bytes/s","formula":"byte_num x hw_clk_freq / time","filter_modes":["global","port","port-tc","func","func-queue"],"undocumented":null}' \
	"$(one_object '"metric":"bw_ssu_rpu"')"
check_eq "--events --json: an unpaired event object" \
	'{"pmu":"hns3_pmu_sicl_0","kind":null,"event":"odd_event","spec":"config=0x7,ext_counter_used=1"}' \
	"$(one_object odd_event)"
"$NETPMU" list --events --sysfs-root "$root" 'hisi*' >"$tmp/out"
check_eq "--events with a pattern: each matching PMU" "hisi_pcie0_core1" "$(grep '^[a-z]' "$tmp/out" | cut -d' ' -f1)"
