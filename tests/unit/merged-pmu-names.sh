#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Merged PMU names, as perf 6.12 takes them (hns3_pmu_sicl for hns3_pmu_sicl_0,
# hns3_pmu_sicl_1, ...; hisi_pcie0_core for hisi_pcie0_core0, ...), on fixture
# trees with a second HNS3 instance: perf's matching rule (exact name wins,
# suffix [_]digits, the hex-suffix guard, '*'), the exact attr and group of
# every counter opened per instance (--dry-run), metrics and braces regrouped
# per instance, filters left out where an instance cannot count them
# (--explain), errors, list PATTERN, trace; then counting for real on
# software-backed instances: one summed line, or a line per instance with its
# CPU (--no-merge, -A); and perf stat -vv as oracle of the attrs per instance.
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/stat_stamps.sh"
plan 45
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions

# add_instance ROOT NAME TYPE CPU BDF_MIN BDF_MAX: a copy of hns3_pmu_sicl_0 as
# another instance, at its own PCI device, with its own type, CPU and range.
add_instance() {
	local root=$1 name=$2 src dir
	src=$(readlink -f "$root/bus/event_source/devices/hns3_pmu_sicl_0")
	dir=$root/devices/pci0000:bc/0000:bc:00.$((${name##*_} % 8))/$name
	mkdir -p "${dir%/*}"
	cp -r "$src" "$dir"
	echo "$3" >"$dir/type"
	echo "$4" >"$dir/cpumask"
	echo "$5" >"$dir/bdf_min"
	echo "$6" >"$dir/bdf_max"
	ln -s "../../../${dir#"$root"/}" "$root/bus/event_source/devices/$name"
}
# The tree has hns3_pmu_0 (early naming), hns3_pmu_sicl_0 (35:00.0-35:01.7:
# eth0, eth1), hisi_pcie0_core0 and hisi_pcie0_core1; hns3_pmu_sicl_1 counts 36:xx (eth2).
add_instance "$root" hns3_pmu_sicl_1 16 1 36:00.0 36:00.7
root10=$tmp/sys10
cp -a "$root" "$root10"
add_instance "$root10" hns3_pmu_sicl_10 17 2 39:00.0 39:00.7

# opened [-r ROOT] EVENTS...: per counter --dry-run would open, "TEXT type cpu group[*leader]".
opened() {
	local r=$root
	if [ "$1" = -r ]; then r=$2; shift 2; fi
	"$NETPMU" stat --sysfs-root "$r" --dry-run "${@/#/-e}" 2>&1 |
		awk '/^# event / { text = $4; g = $6; sub(/[,)]/, "", g); lead = ($0 ~ /leader/) ? "*" : ""; next }
		     /^  type / { t = $2 }
		     /^sys_perf_event_open/ { printf "%s%s t%s cpu%s g%s%s", sep, text, t, $5, g, lead; sep = "|" }
		     /^netpmu stat: / { printf "%s%s", sep, $0; sep = "|" }'
}

G=bw_ssu_rpu_byte_num,global=1
while IFS=$'\t' read -r desc event expected; do
	check_eq "$desc" "$expected" "$(opened "$event")"
done <<TABLE
hns3_pmu_sicl: both sicl instances, not hns3_pmu_0, each its own group	hns3_pmu_sicl/$G/	hns3_pmu_sicl_0/$G/ t11 cpu0 g0*|hns3_pmu_sicl_1/$G/ t16 cpu1 g1*
hns3_pmu_sicl_ (suffix without its '_'): the same two	hns3_pmu_sicl_/$G/	hns3_pmu_sicl_0/$G/ t11 cpu0 g0*|hns3_pmu_sicl_1/$G/ t16 cpu1 g1*
hns3_pmu: the early-named hns3_pmu_0 only ('_sicl_0' is no suffix)	hns3_pmu/$G/	hns3_pmu_0/$G/ t12 cpu3 g0*
an exact name opens that PMU alone	hns3_pmu_sicl_1/$G/	hns3_pmu_sicl_1/$G/ t16 cpu1 g0*
hisi_pcie0_core: both cores (suffix digits right after the name)	hisi_pcie0_core/rx_mwr_flux,port=1/	hisi_pcie0_core0/rx_mwr_flux,port=1/ t15 cpu1 g0*|hisi_pcie0_core1/rx_mwr_flux,port=1/ t13 cpu12 g1*
hisi_pcie0_cor: 'e0' is a hex suffix of 2 digits, perf's guard refuses it	hisi_pcie0_cor/rx_mwr_flux,port=1/	netpmu stat: hisi_pcie0_cor/rx_mwr_flux,port=1/: no PMU named 'hisi_pcie0_cor' (present: hns3_pmu_0, hns3_pmu_sicl_0, hns3_pmu_sicl_1, hisi_pcie0_core0, hisi_pcie0_core1)
hns3_pmu_sic: 'l_0' is no suffix	hns3_pmu_sic/$G/	netpmu stat: hns3_pmu_sic/$G/: no PMU named 'hns3_pmu_sic' (present: hns3_pmu_0, hns3_pmu_sicl_0, hns3_pmu_sicl_1, hisi_pcie0_core0, hisi_pcie0_core1)
a metric: both counters on each instance, a group per instance	hns3_pmu_sicl/bw_ssu_rpu,global=1/	hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ t11 cpu0 g0*|hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/ t11 cpu0 g0|hns3_pmu_sicl_1/bw_ssu_rpu_byte_num,global=1/ t16 cpu1 g1*|hns3_pmu_sicl_1/bw_ssu_rpu_time,global=1/ t16 cpu1 g1
braces: one group per instance, as perf regroups by PMU	{hns3_pmu_sicl/$G/,hns3_pmu_sicl/pps_ssu_rpu_packet_num,global=1/}	hns3_pmu_sicl_0/$G/ t11 cpu0 g0*|hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,global=1/ t11 cpu0 g0|hns3_pmu_sicl_1/$G/ t16 cpu1 g1*|hns3_pmu_sicl_1/pps_ssu_rpu_packet_num,global=1/ t16 cpu1 g1
braces: an exact name joins its instance's group	{hns3_pmu_sicl/$G/,hns3_pmu_sicl_1/pps_ssu_rpu_packet_num,global=1/}	hns3_pmu_sicl_0/$G/ t11 cpu0 g0*|hns3_pmu_sicl_1/$G/ t16 cpu1 g1*|hns3_pmu_sicl_1/pps_ssu_rpu_packet_num,global=1/ t16 cpu1 g1
braces naming two PMUs exactly: still refused	{hns3_pmu_sicl_0/$G/,hns3_pmu_sicl_1/$G/}	netpmu stat: the group of hns3_pmu_sicl_0/$G/ mixes hns3_pmu_sicl_0 and hns3_pmu_sicl_1: a group counts on one PMU (put the events in separate groups)
'*' is a shell pattern over whole names; PCIe cores lack the event and are left out	*/$G/	hns3_pmu_0/$G/ t12 cpu3 g0*|hns3_pmu_sicl_0/$G/ t11 cpu0 g1*|hns3_pmu_sicl_1/$G/ t16 cpu1 g2*
TABLE
check_eq "with hns3_pmu_sicl_10 present: hns3_pmu_sicl_1 is still that PMU alone (an exact name wins)" \
	"hns3_pmu_sicl_1/$G/ t16 cpu1 g0*" "$(opened -r "$root10" "hns3_pmu_sicl_1/$G/")"
check_eq "with hns3_pmu_sicl_10 present: hns3_pmu_sicl stands for all three, in version order" \
	"hns3_pmu_sicl_0/$G/ t11 cpu0 g0*|hns3_pmu_sicl_1/$G/ t16 cpu1 g1*|hns3_pmu_sicl_10/$G/ t17 cpu2 g2*" \
	"$(opened -r "$root10" "hns3_pmu_sicl/$G/")"

# The exact attr of each instance's counter, in perf stat -vv's layout.
"$NETPMU" stat --sysfs-root "$root" --dry-run -e "hns3_pmu_sicl/bw_ssu_rpu,global=1/" >"$tmp/dry" 2>&1
check_eq "--dry-run of a merged metric: each counter names its instance and the summed line it is part of" \
	"# event 0: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ (group 0, leader, instance of hns3_pmu_sicl/bw_ssu_rpu_byte_num,global=1/)|# event 1: hns3_pmu_sicl_0/bw_ssu_rpu_time,global=1/ (group 0, instance of hns3_pmu_sicl/bw_ssu_rpu_time,global=1/)|# event 2: hns3_pmu_sicl_1/bw_ssu_rpu_byte_num,global=1/ (group 1, leader, instance of hns3_pmu_sicl/bw_ssu_rpu_byte_num,global=1/)|# event 3: hns3_pmu_sicl_1/bw_ssu_rpu_time,global=1/ (group 1, instance of hns3_pmu_sicl/bw_ssu_rpu_time,global=1/)" \
	"$(grep '^# ' "$tmp/dry" | paste -sd'|')"
check_eq "--dry-run: the attrs of hns3_pmu_sicl_1's pair, its group led by counter 0 on CPU 1" \
	"type 16 config 0x2 config1 0x10000000000000 disabled 1 cpu 1 group_fd -1|type 16 config 0x10002 config1 0x10000000000000 cpu 1 group_fd <event 2>" \
	"$(awk '/^# event / { n++ } n >= 3 && /^  (type|config|config1|disabled) / { printf "%s %s ", $1, $2 }
		n >= 3 && /^sys_perf/ { printf "cpu %s group_fd %s%s\n", $5, $7, ($8 == "flags" ? "" : " " $8) }' "$tmp/dry" |
		sed 's/ $//; s/ cpu/ cpu/' | paste -sd'|' | sed 's/ |/|/g')"

# Filters: each instance takes bdf/dev on its own; one that cannot count it is left out.
e2="hns3_pmu_sicl/bw_ssu_rpu_byte_num,dev=eth2,queue=0xffff/"
check_eq "dev=eth2 (36:00.0): opened on hns3_pmu_sicl_1 only, whose range holds it" \
	"hns3_pmu_sicl_1/bw_ssu_rpu_byte_num,dev=eth2,queue=0xffff/ t16 cpu1 g0*" "$(opened "$e2")"
"$NETPMU" stat --sysfs-root "$root" --dry-run -e "$e2" >"$tmp/dry" 2>&1
check_eq "--dry-run names what it left out and why" \
	"# left out: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,dev=eth2,queue=0xffff/: bdf: 0000:36:00.0 is outside the functions hns3_pmu_sicl_0 counts (bdf_min 35:00.0, bdf_max 35:01.7): the driver refuses it (ENOENT)" \
	"$(grep '^# left out' "$tmp/dry")"
"$NETPMU" stat --sysfs-root "$root" --explain -e "$e2" >"$tmp/explain" 2>&1
check_eq "--explain: exit 0, the counted instance's mode and target, then the left-out one" \
	"0|hns3_pmu_sicl_1/bw_ssu_rpu_byte_num,dev=eth2,queue=0xffff/|  mode:      func (rule 2: bdf is set, queue=0xffff and the event supports func)|  counts:    PCI function 0000:36:00.0 (eth2) in func mode|hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,dev=eth2,queue=0xffff/|  left out:  bdf: 0000:36:00.0 is outside the functions hns3_pmu_sicl_0 counts (bdf_min 35:00.0, bdf_max 35:01.7): the driver refuses it (ENOENT)" \
	"$("$NETPMU" stat --sysfs-root "$root" --explain -e "$e2" >/dev/null 2>&1; echo $?)|$(grep -E '^[a-z]|mode:|counts:|left out:' "$tmp/explain" | paste -sd'|')"
check_eq "PCIe dev=eth2 (below Root Port 30:02.0): hisi_pcie0_core1 only" \
	"hisi_pcie0_core1/rx_mwr_flux,dev=eth2/ t13 cpu12 g0*" "$(opened "hisi_pcie0_core/rx_mwr_flux,dev=eth2/")"

# Errors: one line; one reason when every instance gives the same, else each instance's.
while IFS=$'\t' read -r desc event expected; do
	err=$("$NETPMU" stat --sysfs-root "$root" --dry-run -e "$event" 2>&1 >/dev/null)
	check_eq "$desc" "1 $expected" "$? $err"
done <<'TABLE'
no instance holds the bdf: each instance's reason	hns3_pmu_sicl/bw_ssu_rpu_byte_num,bdf=0x3700,queue=0xffff/	netpmu stat: hns3_pmu_sicl/bw_ssu_rpu_byte_num,bdf=0x3700,queue=0xffff/: no instance of hns3_pmu_sicl can count it: hns3_pmu_sicl_0: bdf: 0000:37:00.0 is outside the functions hns3_pmu_sicl_0 counts (bdf_min 35:00.0, bdf_max 35:01.7): the driver refuses it (ENOENT); hns3_pmu_sicl_1: bdf: 0000:37:00.0 is outside the functions hns3_pmu_sicl_1 counts (bdf_min 36:00.0, bdf_max 36:00.7): the driver refuses it (ENOENT)
a misspelt event: one reason, naming the merged name	hns3_pmu_sicl/bw_ssu_rpx_byte_num,global=1/	netpmu stat: hns3_pmu_sicl/bw_ssu_rpx_byte_num,global=1/: unknown event 'bw_ssu_rpx_byte_num' (closest: bw_ssu_rpu_byte_num, bw_ssu_egu_byte_num, bw_ssu_roce_byte_num; 'netpmu list --events hns3_pmu_sicl' shows all)
name= on a merged metric: one reason	hns3_pmu_sicl/bw_ssu_rpu,global=1,name=rx/	netpmu stat: hns3_pmu_sicl/bw_ssu_rpu,global=1,name=rx/: name= cannot name both counters of the metric bw_ssu_rpu: drop it, or name bw_ssu_rpu_byte_num and bw_ssu_rpu_time one by one
TABLE
check_eq "-g over a merged name: refused, a group counts on one PMU" \
	"netpmu stat: the group of hns3_pmu_sicl_0/$G/ mixes hns3_pmu_sicl_0 and hns3_pmu_sicl_1: a group counts on one PMU (put the events in separate groups)" \
	"$("$NETPMU" stat --sysfs-root "$root" --dry-run -g -e "hns3_pmu_sicl/$G/" 2>&1)"

# list PATTERN: a merged name lists the instances it stands for; an exact name its PMU.
names() { "$NETPMU" list --sysfs-root "$1" "$2" 2>&1 | awk 'NR > 1 { print $1 }' | paste -sd' '; }
check_eq "list hns3_pmu_sicl: its instances" "hns3_pmu_sicl_0 hns3_pmu_sicl_1" "$(names "$root" hns3_pmu_sicl)"
check_eq "list hisi_pcie0_core: its instances" "hisi_pcie0_core0 hisi_pcie0_core1" "$(names "$root" hisi_pcie0_core)"
check_eq "list hns3_pmu_sicl_1 with hns3_pmu_sicl_10 present: that PMU alone" "hns3_pmu_sicl_1" \
	"$(names "$root10" hns3_pmu_sicl_1)"
check_eq "list --events hns3_pmu_sicl (the hint of the error above) shows the instances' events" 2 \
	"$("$NETPMU" list --sysfs-root "$root" --events hns3_pmu_sicl | grep -c '^hns3_pmu_sicl_[01] (hns3')"

# trace: a counter per instance; a merged metric is two counters per instance.
check_eq "trace -e merged metric: one counter per PMU is read" \
	"netpmu trace: hns3_pmu_sicl/bw_ssu_rpu,global=1/: names 4 counters, one per PMU is read here (name each counter with its own -e)" \
	"$("$NETPMU" trace --sysfs-root "$root" -e hns3_pmu_sicl/bw_ssu_rpu,global=1/ 2>&1 | grep -v warning)"

# Counting for real: instances backed by the kernel's software PMU (type 1;
# config 0 is cpu-clock, 9 dummy), hns3_pmu_sicl_8 on CPU 0 and _9 on CPU 1.
sroot=$tmp/soft
"$REPO/tests/fixtures/make-sysfs-tree" "$sroot" >/dev/null 2>&1
software_backed_hns3 "$sroot" 8 0
software_backed_hns3 "$sroot" 9 1
clock=hns3_pmu_sicl/clock_byte_num,global=1/
dummy=hns3_pmu_sicl/dummy_byte_num,global=1/
sstat() { "$NETPMU" stat --sysfs-root "$sroot" "$@"; }
if [ "$(nproc)" -lt 2 ]; then
	skip_checks 10 "counting on two software-backed instances" "needs 2 CPUs, this machine has $(nproc)"
elif ! sstat -e "$dummy" -- true 2>"$tmp/err"; then
	if grep -q "no permission" "$tmp/err"; then
		skip_checks 10 "counting on two software-backed instances" "system-wide counting needs root or CAP_PERFMON here"
	else
		fail "netpmu stat counts on two software-backed instances" "$(cat "$tmp/err")"
		skip_checks 9 "counting on two software-backed instances" "netpmu stat does not count here"
	fi
else
	sstat -x';' -e "$clock" -e "$dummy" -- sleep 0.3 2>"$tmp/csv"
	check_eq "-x';' merged: one line per event string, named as written" \
		"2 $clock $dummy" "$(wc -l <"$tmp/csv") $(cut -d';' -f3 "$tmp/csv" | paste -sd' ')"
	check_eq "-x';' merged: the dummy instances sum to 0, both ran all the time" "0;100.00" \
		"$(sed -n 2p "$tmp/csv" | cut -d';' -f1,5)"
	value=$(sed -n 1p "$tmp/csv" | cut -d';' -f1)
	runtime=$(sed -n 1p "$tmp/csv" | cut -d';' -f4)
	kind weak 'cpu-clock and its running time are two reads of one clock: no independent truth of CPU time, 1% apart at most'
	# Two cpu-clocks of 0.3 s: the sum is twice the elapsed time, and the running times add up too.
	if [ "$runtime" -ge 580000000 ] && [ "$runtime" -le 4000000000 ] &&
	   [ $(((value - runtime) * 100 / runtime)) -eq 0 ]; then
		pass "-x';' merged: cpu-clock summed over both instances (2 x 0.3 s), running times summed alike"
	else
		fail "-x';' merged: cpu-clock summed over both instances, running times summed alike" "value $value, runtime $runtime"
	fi
	kind golden
	sstat -x';' --no-merge -e "$clock" -e "$dummy" -- sleep 0.3 2>"$tmp/csv"
	check_eq "--no-merge -x';': a line per instance, CPU first, the instance's own name (perf 6.12's -A)" \
		"CPU0;hns3_pmu_sicl_8/clock_byte_num,global=1/|CPU1;hns3_pmu_sicl_9/clock_byte_num,global=1/|CPU0;0;hns3_pmu_sicl_8/dummy_byte_num,global=1/|CPU1;0;hns3_pmu_sicl_9/dummy_byte_num,global=1/" \
		"$(awk -F';' 'NR <= 2 { print $1 ";" $4; next } { print $1 ";" $2 ";" $4 }' "$tmp/csv" | paste -sd'|')"
	kind weak 'cpu-clock and its running time are two reads of one clock: no independent truth of CPU time, 1% apart at most'
	check_eq "--no-merge: each cpu-clock counted its own 0.3 s (within 1% of its running time)" "ok ok" \
		"$(awk -F';' 'NR <= 2 { d = $2 - $5; if (d < 0) d = -d; printf "%s%s", (NR > 1 ? " " : ""), ($5 >= 290000000 && $5 <= 2000000000 && d * 100 < $5) ? "ok" : "bad " $2 "/" $5 }' "$tmp/csv")"
	kind golden
	sstat -A -x';' -e "$dummy" -- true 2>"$tmp/csv"
	check_eq "-A is --no-merge (as in perf 6.12)" "CPU0 CPU1" "$(cut -d';' -f1 "$tmp/csv" | paste -sd' ')"
	sstat -e "$dummy" -- true 2>"$tmp/std"
	check_eq "human form merged: one line, the name as written" "0 $dummy" \
		"$(sed -n 4p "$tmp/std" | awk '{ print $1, $2 }')"
	sstat --no-merge -I 100 --count 1 -e "$dummy" 2>"$tmp/std"
	check_eq "human form --no-merge -I: perf's -A header with its cpu column, CPU-led lines" \
		"#           time cpu                counts unit events|     0.1 CPU0                    0      hns3_pmu_sicl_8/dummy_byte_num,global=1/|     0.1 CPU1                    0      hns3_pmu_sicl_9/dummy_byte_num,global=1/" \
		"$(sed 's/ *$//' "$tmp/std" | stamp_tenths | paste -sd'|')"
	sstat -j --no-merge -e "$dummy" -- true 2>"$tmp/json"
	check_eq "-j --no-merge: perf's \"cpu\" key, as a string" '"0" "1"' \
		"$(python3 -c 'import json, sys; print(" ".join(json.dumps(json.loads(l)["cpu"]) for l in open(sys.argv[1])))' "$tmp/json")"
	sstat -j -e "$dummy" -- true 2>"$tmp/json"
	check_eq "-j merged: one object, no cpu key" "1 False" \
		"$(python3 -c 'import json, sys; o = [json.loads(l) for l in open(sys.argv[1])]; print(len(o), "cpu" in o[0])' "$tmp/json")"
fi

# perf stat -vv as oracle: the attr (type, config, config1, config2) and CPU of
# each instance perf opens for a merged name equal netpmu's. With a bdf, perf
# opens every instance (the driver refuses the others); netpmu only the one
# that can count it.
kind exact
if ! command -v perf >/dev/null || ! unshare -Urm true 2>/dev/null; then
	skip_checks 6 "perf stat -vv as oracle of merged names" "needs perf and user namespaces (unshare -Urm)"
	exit 0
fi
copy_pmu_dirs "$root" "$tmp/pmus"
cat >"$tmp/oracle" <<'SH'
#!/bin/sh
mount --bind "$1" /sys/bus/event_source/devices || exit 1
perf stat -vv -a -e "$2" -- true 2>&1 | awk -f "$3" | cut -d' ' -f1-5 | sort -u
SH
chmod +x "$tmp/oracle"
attrs() {
	"$NETPMU" stat --sysfs-root "$root" --dry-run -e "$1" 2>/dev/null | awk '
		/^# event / { c = "0"; c1 = "0"; c2 = "0" }
		/^  type / { t = $2 } /^  config / { c = $2 } /^  config1 / { c1 = $2 } /^  config2 / { c2 = $2 }
		/^sys_perf_event_open/ { printf "type=%s config=%s config1=%s config2=%s cpu=%s\n", t, c, c1, c2, $5 }' | sort -u
}
for s in "hns3_pmu_sicl/$G/" "hns3_pmu_sicl_/pps_ssu_rpu_packet_num,port=1,tc=3/" "hns3_pmu/$G/" \
	 "hisi_pcie0_core/rx_mwr_flux,port=1/" "hisi_pcie0_core/rx_mwr_latency,port=0x101/"; do
	theirs=$(unshare -Urm "$tmp/oracle" "$tmp/pmus" "$s" "$REPO/tests/lib/perf_vv_attrs.awk")
	check_eq "perf stat -vv opens the same $(echo "$theirs" | grep -c type=) attrs and CPUs as netpmu for $s" \
		"$theirs" "$(attrs "$s")"
done
s="hns3_pmu_sicl/$G,bdf=0x3600,queue=0xffff/"
s=${s/,global=1/}
theirs=$(unshare -Urm "$tmp/oracle" "$tmp/pmus" "$s" "$REPO/tests/lib/perf_vv_attrs.awk")
check_eq "$s: perf opens both instances (type 11 and 16), netpmu the one holding 36:00.0, with the same attr" \
	"2 type=16 config=0x2 config1=0xffff360000 config2=0 cpu=1" \
	"$(echo "$theirs" | grep -c type=) $(comm -12 <(echo "$theirs") <(attrs "$s"))"
