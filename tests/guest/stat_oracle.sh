#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, the real perf as oracle for netpmu stat: for every event string
# of the documented perf stat lines (tests/fixtures/abi/doc-commands.tsv; their
# placeholder BDFs replaced by the guest NIC's, the v1 document's
# hns3_pmu_<id>/event=0,subevent=0 by hns3_pmu_sicl_0 and a published event)
# and 60 generated valid ones, the attr netpmu opens
# (--dry-run) equals the attr perf stat -vv opens successfully; and over the
# same known UDP flow, netpmu and perf count the same frames and bytes.
. "$(dirname "$0")/../lib/tap.sh"
plan 6
kind exact

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dev=/sys/bus/event_source/devices
if [ ! -d $dev/hns3_pmu_sicl_0 ]; then
	fail "hns3_pmu_sicl_0 is registered" "no $dev/hns3_pmu_sicl_0 (is netpmu.ko loaded?)"
	exit 0
fi
# eth0's PCI function, as the documents' 0x3500 and 0x3900 stand for a NIC's.
addr=$(basename "$(readlink -f /sys/class/net/eth0 | sed -E 's|(/virtio[0-9]+)?/net/eth0$||')")
bus=$((16#${addr:5:2})) slot=$((16#${addr:8:2})) fn=${addr:11:1}
nic=$(printf '0x%x' $((bus << 8 | slot << 3 | fn)))

# Only the -e strings: each perf stat below has its own options, so what the
# documented ones mean to this perf (perf 6.12 has no -g) does not matter here.
PYTHONPATH=$REPO/tests/lib python3 - "$nic" >"$tmp/strings" <<'PY'
import sys
from doc_commands import rows, event_strings
nic = sys.argv[1]
for _, _, outcome, line in rows():
    if outcome == "no-event" or not line.startswith("perf stat "):
        continue    # no published event of that name (bw_igu_ssu, dropped upstream)
    for e in event_strings(line):
        e = e.replace("hns3_pmu_0/event=0,subevent=0,bdf=0x3500,intr=0",
                      "hns3_pmu_sicl_0/event=3,subevent=1,bdf=0x3500,intr=0")
        e = e.replace("hns3_pmu_0/event=0,subevent=0", "hns3_pmu_sicl_0/event=0,subevent=2")
        print(e.replace("0x3500", nic).replace("0x3900", nic))
PY
if ls $dev | grep -q '^hisi_pcie'; then
	pcie=1
else
	pcie=0
	grep -v '^{*hisi_pcie' "$tmp/strings" >"$tmp/s" && mv "$tmp/s" "$tmp/strings"
fi
nr_documented=$(wc -l <"$tmp/strings")
"$REPO/tests/fixtures/gen-event-strings" --sysfs-root /sys --count 60 --seed 7 --perf-only >>"$tmp/strings"

# netpmu's attr of each counter: CPU<tab>TEXT<tab>type=.. config=.. config1=.. config2=..
# All strings in one netpmu run (one -e each); one by one only to name a refused one.
args=()
while IFS= read -r s; do args+=(-e "$s"); done <"$tmp/strings"
refused=0
if ! "$NETPMU" stat --dry-run "${args[@]}" >"$tmp/dry" 2>"$tmp/err"; then
	while IFS= read -r s; do
		if ! "$NETPMU" stat --dry-run -e "$s" >/dev/null 2>"$tmp/err"; then
			refused=$((refused + 1))
			echo "  refused: $(cat "$tmp/err")"
		fi
	done <"$tmp/strings"
fi
awk '/^# event / { text = $4; c = "0"; c1 = "0"; c2 = "0"; next }
     /^  type / { t = $2 } /^  config / { c = $2 } /^  config1 / { c1 = $2 } /^  config2 / { c2 = $2 }
     /^sys_perf_event_open/ { printf "%s\t%s\ttype=%s config=%s config1=%s config2=%s\n", $5, text, t, c, c1, c2 }' \
	"$tmp/dry" >"$tmp/netpmu"
check_eq "netpmu accepts all $(wc -l <"$tmp/strings") strings ($nr_documented documented, PCIe ones: $pcie)" 0 "$refused"

# perf's: one perf stat -vv per counting CPU with every counter of that CPU;
# perf opens them in the order given, so its Nth successful perf_event_open
# is the Nth counter (failed attempts before a fallback do not count).
sort -u "$tmp/netpmu" >"$tmp/netpmu.sorted"
: >"$tmp/perf"
for cpu in $(cut -f1 "$tmp/netpmu.sorted" | sort -u); do
	awk -F'\t' -v cpu="$cpu" '$1 == cpu { print $2 }' "$tmp/netpmu.sorted" >"$tmp/texts"
	args=()
	while IFS= read -r text; do args+=(-e "$text"); done <"$tmp/texts"
	perf stat -vv -a "${args[@]}" -- true >"$tmp/perf.out" 2>&1
	awk -f "$REPO/tests/lib/perf_vv_attrs.awk" "$tmp/perf.out" >"$tmp/perf.attrs"
	awk -v cpu="$cpu" 'NR == FNR { text[++n] = $0; next }
		$6 != "fd=failed" { printf "%s\t%s\t%s %s %s %s\n", cpu, text[++i], $1, $2, $3, $4 }' \
		"$tmp/texts" "$tmp/perf.attrs" >>"$tmp/perf"
done
nr=$(wc -l <"$tmp/netpmu.sorted")
TAP_KIND="weak: setup, enough strings for the comparison below" check_cmd "at least 60 distinct counters to compare" test "$nr" -ge 60
sort -u "$tmp/perf" >"$tmp/perf.sorted"
check_eq "perf stat -vv opens the attr netpmu opens, for all $nr counters" "" \
	"$(diff "$tmp/netpmu.sorted" "$tmp/perf.sorted" | grep '^[<>]')"
check_eq "the two lists compared have a line per counter" "$nr $nr" \
	"$(wc -l <"$tmp/netpmu.sorted") $(wc -l <"$tmp/perf.sorted")"

# The same known flow counted by both: frames and bytes must agree exactly.
count=40 size=300
flow() {
	ip netns exec peer "$UDP_FLOW" recv --port 9100 --count $count --timeout 10 \
		--ready "$tmp/ready" >/dev/null &
	local recv=$!
	wait_until 10 test -e "$tmp/ready"
	rm -f "$tmp/ready"
	"$UDP_FLOW" send --to 198.51.100.2 --port 9100 --count $count --size $size >/dev/null
	wait $recv
}
events="hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ hns3_pmu_sicl_0/bw_ssu_egu_byte_num,global=1/
hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/ hns3_pmu_sicl_0/bw_tpu_ssu_byte_num,bdf=$nic,queue=0xffff/
hns3_pmu_sicl_0/pps_tpu_ssu_packet_num,port=0,tc=0xf/ hns3_pmu_sicl_0/dly_tpu_time,bdf=$nic,queue=0xffff/"
args=()
for e in $events; do args+=(-e "$e"); done
export -f flow
export REPO count size tmp
perf stat -x';' -a "${args[@]}" -- bash -c flow 2>"$tmp/perf.csv"
"$NETPMU" stat -x';' "${args[@]}" -- bash -c flow 2>"$tmp/netpmu.csv"
frame=$((size + 42))
expected="$((count * frame)) $((count * frame)) $count $((count * frame)) $count $((count * (100 + frame * 8 / 100)))"
check_eq "netpmu counts the flow exactly ($count frames of $frame bytes; latency cycles)" \
	"$expected" "$(cut -d';' -f1 "$tmp/netpmu.csv" | paste -sd' ')"
check_eq "perf counts the same flow the same" "$(cut -d';' -f1 "$tmp/netpmu.csv" | paste -sd' ')" \
	"$(cut -d';' -f1 "$tmp/perf.csv" | paste -sd' ')"
