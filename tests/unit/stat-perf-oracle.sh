#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The real perf as oracle, on this machine: for every event string of the
# documented perf stat lines (tests/fixtures/abi/doc-commands.tsv) and 60
# generated valid ones, the attr (type, config, config1,
# config2) netpmu stat --dry-run would open equals the first one perf stat -vv
# builds for the same string. perf reads the fixture tree through a bind mount
# over /sys/bus/event_source/devices in a private user and mount namespace
# (its perf_event_open then fails: only the attr it built is compared).
. "$(dirname "$0")/../lib/tap.sh"
plan 3
kind exact
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions
if ! command -v perf >/dev/null; then
	skip_checks 3 "perf stat -vv as oracle on fixture trees" "perf is not installed (scripts/install-deps installs linux-perf)"
	exit 0
fi
if ! unshare -Urm true 2>/dev/null; then
	skip_checks 3 "perf stat -vv as oracle on fixture trees" "this machine allows no user namespaces (unshare -Urm)"
	exit 0
fi
copy_pmu_dirs "$root" "$tmp/pmus"

# Event strings: every -e of the documented perf stat lines, the v1 syntax
# with published events, and generated ones.
"$REPO/tests/lib/doc_commands.py" strings >"$tmp/strings"
for f in global=1 port=0,tc=0xF port=1,tc=3 bdf=0x3500,queue=0xFFFF bdf=0x3501,queue=1; do
	echo "hns3_pmu_0/event=2,subevent=0xf,$f/"
done >>"$tmp/strings"
echo "hns3_pmu_sicl_0/event=3,subevent=1,bdf=0x3501,intr=2/" >>"$tmp/strings"
# Where perf's rules are easy to get wrong: format fields are OR'ed into the
# config terms, whatever their order; a bare field is 1; numbers with a
# leading 0 are decimal. (Repeated terms and an event name contradicted by a
# config term, which perf resolves silently, netpmu refuses: bad-input.sh.)
cat >>"$tmp/strings" <<'STRINGS'
hns3_pmu_sicl_0/config=0x10002,ext_counter_used=0,global=1/
hns3_pmu_sicl_0/ext_counter_used,config=0x2,global/
hns3_pmu_sicl_0/config=010,global=1/
hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,config1=0x10000000000000/
hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1,name=rx_bytes/
hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,port=3,tc=0xF,config1=0x0/
hisi_pcie0_core1/rx_mwr_flux,config2=0x1,len_mode=2/
hisi_pcie0_core1/config=0x104,bdf=13568,thr_len=10,thr_mode=0/
STRINGS
"$REPO/tests/fixtures/gen-event-strings" --sysfs-root "$root" --count 60 --seed 5 --perf-only \
	>>"$tmp/strings"

# netpmu's attrs, one counter per line: TEXT<tab>type=.. config=.. config1=.. config2=..
: >"$tmp/netpmu"
accepted=0 refused=0 total=0
while IFS= read -r s; do
	total=$((total + 1))
	if ! out=$("$NETPMU" stat --sysfs-root "$root" --dry-run -e "$s" 2>"$tmp/err"); then
		refused=$((refused + 1))
		echo "REFUSED $s: $(cat "$tmp/err")" >>"$tmp/refusals"
		continue
	fi
	accepted=$((accepted + 1))
	awk '/^# event / { text = $4; c = "0"; c1 = "0"; c2 = "0"; next }
	     /^  type / { t = $2 } /^  config / { c = $2 } /^  config1 / { c1 = $2 } /^  config2 / { c2 = $2 }
	     /^sys_perf_event_open/ { printf "%s\ttype=%s config=%s config1=%s config2=%s\n", text, t, c, c1, c2 }' \
		<<<"$out" >>"$tmp/netpmu"
done <"$tmp/strings"
# The documented lines of hns3_pmu_0 with event=0,subevent=0 and bw_igu_ssu: 8
# refusals (stat-seeds.sh checks their messages); every other string is accepted.
check_eq "netpmu accepts every string but the 8 documented ones the current ABI cannot count" \
	"$((total - 8)) accepted, 8 refused" "$accepted accepted, $refused refused"
[ "$refused" != 8 ] && sed 's/^/  /' "$tmp/refusals"

cut -f1 "$tmp/netpmu" | sort -u >"$tmp/texts"
cat >"$tmp/oracle" <<'SH'
#!/bin/sh
# In a private mount namespace: perf sees the fixture's PMUs.
mount --bind "$1" /sys/bus/event_source/devices || exit 1
while IFS= read -r text; do
	attr=$(perf stat -vv -a -e "$text" -- true 2>&1 | awk -f "$3" | head -n 1 | cut -d' ' -f1-4)
	printf '%s\t%s\n' "$text" "${attr:-no attr from perf}"
done <"$2"
SH
chmod +x "$tmp/oracle"
unshare -Urm "$tmp/oracle" "$tmp/pmus" "$tmp/texts" "$REPO/tests/lib/perf_vv_attrs.awk" >"$tmp/perf" 2>"$tmp/perf.err"
sort -u "$tmp/netpmu" >"$tmp/netpmu.sorted"
sort -u "$tmp/perf" >"$tmp/perf.sorted"
nr=$(wc -l <"$tmp/texts")
if [ "$nr" -ge 90 ]; then
	pass "$nr distinct counters to compare (documented and generated)"
else
	fail "at least 90 distinct counters to compare" "got $nr"
fi
mismatches=$(diff "$tmp/netpmu.sorted" "$tmp/perf.sorted" | grep '^[<>]')
check_eq "perf stat -vv builds the same attr as netpmu for all $nr counters" "" "$mismatches"
