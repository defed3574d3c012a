#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every perf stat command line of the HNS3 and PCIe PMU documentation
# (tests/fixtures/abi/doc-commands.tsv), given to netpmu stat --dry-run on a
# fixture tree built from the upstream ABI tables: the exact attrs it would
# open (type, config, config1, config2, group role), or the exact error for
# the lines the current ABI cannot count (the v1 document's bw_igu_ssu and
# event=0,subevent=0); the v1 syntax with a published event.
. "$(dirname "$0")/../lib/tap.sh"
plan 34
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions
doc_commands=$REPO/tests/fixtures/abi/doc-commands.tsv

# The attrs of netpmu stat --dry-run, one line per counter, or "error: MESSAGE".
summary() {
	local out
	if ! out=$("$NETPMU" stat --sysfs-root "$root" --dry-run "$@" 2>"$tmp/err"); then
		echo "error: $(cat "$tmp/err")"
		return
	fi
	awk '
	/^# event / { if (n) print line; n++; text = $4; role = ($0 ~ /leader\)$/) ? "leader" : "member"
		      t = ""; c = "0"; c1 = "0"; c2 = "0"; next }
	/^  type / { t = $2 } /^  config / { c = $2 } /^  config1 / { c1 = $2 } /^  config2 / { c2 = $2 }
	/^sys_perf_event_open/ { line = text " type=" t " config=" c " config1=" c1 " config2=" c2 " " role }
	END { if (n) print line }' <<<"$out" | paste -sd'|'
}

# Each "perf stat ..." of the documents, and what the upstream ABI does with it.
mapfile -t lines < <(awk -F'\t' '!/^#/ && $4 ~ /^perf stat / { print $4 }' "$doc_commands")
mapfile -t outcomes < <(awk -F'\t' '!/^#/ && $4 ~ /^perf stat / { print $3 }' "$doc_commands")
check_eq "the documentation holds 26 perf stat command lines with events" 26 "${#lines[@]}"

hns3_0='error: netpmu stat: hns3_pmu_0/event=0,subevent=0,FILTER/: config=0x0 is not an event of hns3_pmu_0: the driver refuses it (ENOENT); '"'netpmu list --events hns3_pmu_0'"' shows its 110 events'
declare -A expect=(
	['perf stat -e hisi_pcie0_core0/rx_mwr_latency,port=0x1/']='hisi_pcie0_core0/rx_mwr_latency,port=0x1/ type=15 config=0x10 config1=0 config2=0x1 leader'
	['perf stat -e hisi_pcie0_core0/rx_mwr_latency,port=0xffff/']='hisi_pcie0_core0/rx_mwr_latency,port=0xffff/ type=15 config=0x10 config1=0 config2=0xffff leader'
	['perf stat -e hisi_pcie0_core0/rx_mwr_cnt,port=0xffff/']='hisi_pcie0_core0/rx_mwr_cnt,port=0xffff/ type=15 config=0x10010 config1=0 config2=0xffff leader'
	['perf stat -e "{hisi_pcie0_core0/rx_mwr_latency,port=0xffff/,hisi_pcie0_core0/rx_mwr_cnt,port=0xffff/}"']='hisi_pcie0_core0/rx_mwr_latency,port=0xffff/ type=15 config=0x10 config1=0 config2=0xffff leader|hisi_pcie0_core0/rx_mwr_cnt,port=0xffff/ type=15 config=0x10010 config1=0 config2=0xffff member'
	['perf stat -e hisi_pcie0_core0/rx_mwr_latency,port=0x1/ sleep 5']='hisi_pcie0_core0/rx_mwr_latency,port=0x1/ type=15 config=0x10 config1=0 config2=0x1 leader'
	['perf stat -e hisi_pcie0_core0/rx_mrd_flux,bdf=0x3900/ sleep 5']='hisi_pcie0_core0/rx_mrd_flux,bdf=0x3900/ type=15 config=0x804 config1=0 config2=0x39000000 leader'
	['perf stat -e hisi_pcie0_core0/rx_mrd_flux,port=0xffff,trig_len=0x4,trig_mode=1/ sleep 5']='hisi_pcie0_core0/rx_mrd_flux,port=0xffff,trig_len=0x4,trig_mode=1/ type=15 config=0x804 config1=0x280 config2=0xffff leader'
	['perf stat -e hisi_pcie0_core0/rx_mrd_flux,port=0xffff,thr_len=0x4,thr_mode=1/ sleep 5']='hisi_pcie0_core0/rx_mrd_flux,port=0xffff,thr_len=0x4,thr_mode=1/ type=15 config=0x804 config1=0x14 config2=0xffff leader'
	['perf stat -e hisi_pcie0_core0/rx_mrd_flux,port=0xffff,len_mode=0x1/ sleep 5']='hisi_pcie0_core0/rx_mrd_flux,port=0xffff,len_mode=0x1/ type=15 config=0x804 config1=0x400 config2=0xffff leader'
	['perf stat -a -e hns3_pmu_0/bw_igu_ssu,global=1/ -I 1000']="error: netpmu stat: hns3_pmu_0/bw_igu_ssu,global=1/: unknown event 'bw_igu_ssu' (closest: bw_tpu_ssu, pps_igu_ssu, bw_roce_ssu; 'netpmu list --events hns3_pmu_0' shows all)"
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,global=1/ -I 1000']=${hns3_0/FILTER/global=1}
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,port=0,tc=0xF/ -I 1000']=${hns3_0/FILTER/port=0,tc=0xF}
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,port=0,tc=0/ -I 1000']=${hns3_0/FILTER/port=0,tc=0}
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,bdf=0x3500,queue=0xFFFF/ -I 1000']=${hns3_0/FILTER/bdf=0x3500,queue=0xFFFF}
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,bdf=0x3500,queue=0/ -I 1000']=${hns3_0/FILTER/bdf=0x3500,queue=0}
	['perf stat -a -e hns3_pmu_0/event=0,subevent=0,bdf=0x3500,intr=0/ -I 1000']=${hns3_0/FILTER/bdf=0x3500,intr=0}
	['perf stat -g -e hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ -e hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/ -I 1000']='hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ type=11 config=0x2 config1=0x10000000000000 config2=0 leader|hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/ type=11 config=0x10002 config1=0x10000000000000 config2=0 member'
	['perf stat -g -e hns3_pmu_sicl_0/config=0x00002,global=1/ -e hns3_pmu_sicl_0/config=0x10002,global=1/ -I 1000']='hns3_pmu_sicl_0/config=0x00002,global=1/ type=11 config=0x2 config1=0x10000000000000 config2=0 leader|hns3_pmu_sicl_0/config=0x10002,global=1/ type=11 config=0x10002 config1=0x10000000000000 config2=0 member'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x1020F,global=1/ -I 1000']='hns3_pmu_sicl_0/config=0x1020F,global=1/ type=11 config=0x1020f config1=0x10000000000000 config2=0 leader'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x1020F,port=0,tc=0xF/ -I 1000']='hns3_pmu_sicl_0/config=0x1020F,port=0,tc=0xF/ type=11 config=0x1020f config1=0xf0 config2=0 leader'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x1020F,port=0,tc=0/ -I 1000']='hns3_pmu_sicl_0/config=0x1020F,port=0,tc=0/ type=11 config=0x1020f config1=0 config2=0 leader'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x1020F,bdf=0x3500,queue=0xFFFF/ -I 1000']='hns3_pmu_sicl_0/config=0x1020F,bdf=0x3500,queue=0xFFFF/ type=11 config=0x1020f config1=0xffff350000 config2=0 leader'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x1020F,bdf=0x3500,queue=0/ -I 1000']='hns3_pmu_sicl_0/config=0x1020F,bdf=0x3500,queue=0/ type=11 config=0x1020f config1=0x350000 config2=0 leader'
	['perf stat -a -e hns3_pmu_sicl_0/config=0x00301,bdf=0x3500,intr=0/ -I 1000']='hns3_pmu_sicl_0/config=0x00301,bdf=0x3500,intr=0/ type=11 config=0x301 config1=0x350000 config2=0 leader'
)

disagree=()
for i in "${!lines[@]}"; do
	line=${lines[$i]}
	if [ -z "${expect[$line]+set}" ]; then
		fail "documented line has an expected result here: $line" "none (a new line in doc-commands.tsv?)"
		continue
	fi
	# Lines the ABI counts give attrs, the others an error.
	case "${outcomes[$i]}:${expect[$line]}" in
	counts:error:* | extension:error:* | ENOENT:[!e]* | no-event:[!e]*) disagree+=("${outcomes[$i]}: $line") ;;
	esac
	eval "set -- ${line#perf stat }"
	check_eq "doc: netpmu stat --dry-run ${line#perf stat }" "${expect[$line]}" "$(summary "$@")"
done
check_eq "every expectation here agrees with the outcome doc-commands.tsv gives its line" "" \
	"$(IFS='|'; echo "${disagree[*]}")"

# The v1 document's syntax (event=,subevent= on hns3_pmu_<device_id>) in every
# filter mode, with an event the current ABI publishes (0x20f, dly_tpu_time).
for filter in global=1:0x10000000000000 port=0,tc=0xF:0xf0 port=0,tc=0:0 \
	      bdf=0x3500,queue=0xFFFF:0xffff350000 bdf=0x3500,queue=0:0x350000; do
	ev="hns3_pmu_0/event=2,subevent=0xf,${filter%%:*}/"
	check_eq "v1 syntax: $ev" "$ev type=12 config=0x20f config1=${filter#*:} config2=0 leader" \
		"$(summary -a -e "$ev" -I 1000)"
done
ev=hns3_pmu_sicl_0/event=3,subevent=1,bdf=0x3500,intr=0/
check_eq "v1 syntax in func-intr mode (netpmu.ko's 0x301 pair): $ev" \
	"$ev type=11 config=0x301 config1=0x350000 config2=0 leader" "$(summary -a -e "$ev" -I 1000)"
