#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: netpmu stat's output forms against the cell's own perf stat
# (oracle: real perf, 6.1 or 6.12 as the cell has it), field by field, for
# the same events of both model PMUs over the same known flow: -x CSV, -j
# JSON (keys, their order, the form of each value), -I intervals in CSV, JSON
# and plain form, and the plain form. tests/lib/stat_forms.py masks only what
# varies between two runs (times, kept as their form: INT, FLOAT.9); the
# counts of the flow are compared as printed, and equal the datagrams sent x
# frame size. netpmu follows perf 6.12's forms; on a 6.1 cell perf's output
# is first written in 6.12's form (stat_forms.py --as-perf-6.12: the two
# differences between the two perfs). A difference is a product bug.
. "$(dirname "$0")/../lib/tap.sh"
plan 10
kind exact

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
forms="$REPO/tests/lib/stat_forms.py"
n=40 size=300 frame=342
# 2 ms between datagrams; the -I 200 runs use 15 ms, so that their flow spans
# three intervals however fast it starts (at 2 ms it took 80 ms: perf once
# closed no interval before the command's end, arm64 6.12)
gap_us=2000
pcie=$(ls /sys/bus/event_source/devices | grep -m1 '^hisi_pcie')
events=(-e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ -e hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/)
[ -n "$pcie" ] && events+=(-e "$pcie/rx_mwr_flux,port=0xffff/")
port=9600
perf_form=
perf_version=$(perf --version | awk '{ print $3 }')
[ "$(printf '%s\n' "$perf_version" 6.12 | sort -V | head -n 1)" = 6.12 ] || perf_form=--as-perf-6.12

# both NAME ARGS...: perf stat ARGS -a and netpmu stat ARGS -a, each over its
# own flow of the same N datagrams; their stderr in $tmp/NAME.perf, .netpmu.
both() {
	local name=$1 tool
	shift
	for tool in perf "$NETPMU"; do
		port=$((port + 1))
		"$tool" stat "$@" -a "${events[@]}" -- "$UDP_FLOW" transfer --netns peer \
			--to 198.51.100.2 --port $port --count $n --size $size --gap-us $gap_us >/dev/null \
			2>"$tmp/$name.${tool##*/}"
		echo "  ${tool##*/} stat $* -a:"
		sed 's/^/    /' "$tmp/$name.${tool##*/}"
	done
}
# check_form DESC NAME FORM [ARGS]: netpmu's form of NAME equals perf's.
check_form() {
	local desc=$1 name=$2
	shift 2
	check_eq "$desc" "$("$forms" "$@" $perf_form "$tmp/$name.perf" | paste -sd'|')" \
		"$("$forms" "$@" "$tmp/$name.netpmu" | paste -sd'|')"
}
# sums NAME FIELD SEP: each event's count summed over the lines, in order.
sums() {
	awk -F"$3" -v f="$2" '!/^#/ && NF > 3 { if (!($(f + 2) in s)) o[n++] = $(f + 2); s[$(f + 2)] += $f }
		END { for (i = 0; i < n; i++) printf "%s%s=%s", i ? " " : "", o[i], s[o[i]] }' "$tmp/$1.netpmu"
}

both csv -x';'
check_eq "-x';': the flow's HNS3 counts (oracle: $n datagrams x $frame-byte frames)" "$((n * frame)) $n" \
	"$(head -n 2 "$tmp/csv.netpmu" | cut -d';' -f1 | paste -sd' ')"
check_form "-x';': netpmu's columns and values are perf's, line by line" csv csv
both json -j
check_form "-j: netpmu's keys, their order and values are perf's, line by line" json json
check_form "-j: netpmu's separators are perf's" json separators

gap_us=15000
both interval -I 200 -x';'
check_form "-I 200 -x';': the first interval's columns are perf's (time stamp's form included)" interval \
	csv --interval --first --mask-counts
check_form "-I 200: the time stamps are measured times, as perf's" interval stamps --interval-ms 200
check_eq "-I 200 -x';': the intervals of each event add up to the flow (oracle: datagrams sent)" \
	"hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/=$((n * frame)) hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/=$n" \
	"$(sums interval 2 ';' | cut -d' ' -f1-2)"
both interval_json -I 200 -j
check_form "-I 200 -j: the first interval's keys and forms are perf's" interval_json json --first --mask-counts

both plain
check_form "plain: netpmu's lines are perf's, the elapsed time's width included" plain plain
both interval_plain -I 200
check_form "-I 200 plain: the header and first interval are perf's" interval_plain plain --first --mask-counts
