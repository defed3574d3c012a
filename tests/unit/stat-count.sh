#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu stat counting for real on this machine: a fixture HNS3 PMU whose type
# is the kernel's software PMU (type 1), so that its events open here (config 0
# is cpu-clock, 9 is dummy). Checks perf's output forms (human, -x CSV columns,
# -j JSON keys), -I intervals with --count, -o, -- COMMAND and its exit status,
# Ctrl-C, a command that does not exist, and the no-permission error.
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/stat_stamps.sh"
plan 21
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree
software_backed_hns3 "$root" 9 0
clock=hns3_pmu_sicl_9/clock_byte_num,global=1/
dummy=hns3_pmu_sicl_9/dummy_byte_num,global=1/

stat() { "$NETPMU" stat --sysfs-root "$root" "$@"; }
if ! stat -e "$dummy" -- true 2>"$tmp/err"; then
	if grep -q "no permission" "$tmp/err"; then
		skip_checks 21 "netpmu stat counts on this machine" "system-wide counting needs root or CAP_PERFMON here: $(cat "$tmp/err")"
		exit 0
	fi
	fail "netpmu stat counts a software-backed fixture event" "$(cat "$tmp/err")"
	skip_checks 20 "netpmu stat counts on this machine" "netpmu stat does not count here"
	exit 0
fi

# CSV: perf's 7 columns; cpu-clock on CPU 0 counts the nanoseconds it was
# enabled. The event strings hold commas, so these checks use -x';' (perf does
# not quote either).
stat -x';' -e "$clock" -e "$dummy" -- sleep 0.3 2>"$tmp/csv"
check_eq "-x';' -- COMMAND exits with COMMAND's status (0)" 0 $?
check_eq "-x';': one line per counter, nothing else" 2 "$(wc -l <"$tmp/csv")"
check_eq "-x';': 7 columns: value;unit;event;runtime;pcnt-running;metric-value;metric-unit" "7 7" \
	"$(awk -F';' '{ printf "%s%d", (NR > 1 ? " " : ""), NF }' "$tmp/csv")"
check_eq "-x';': the dummy event counts 0, ran all the time, has no metric" \
	"0;;$dummy;100.00;;" "$(sed -n 2p "$tmp/csv" | cut -d';' -f1-3,5-7)"
value=$(sed -n 1p "$tmp/csv" | cut -d';' -f1)
runtime=$(sed -n 1p "$tmp/csv" | cut -d';' -f4)
kind weak 'cpu-clock and its running time are two reads of one clock: no independent truth of CPU time, 1% apart at most'
# cpu-clock reads its clock a little apart from the running time: 1% apart at most.
if [ "$value" -ge 290000000 ] && [ "$value" -le 2000000000 ] &&
   [ $(((value - runtime) * 100 / runtime)) -eq 0 ]; then
	pass "-x';': cpu-clock counted the 0.3 s of sleep 0.3 in ns, its running time alike"
else
	fail "-x';': cpu-clock counted the 0.3 s of sleep 0.3 in ns, its running time alike" "value $value, runtime $runtime"
fi
kind golden
stat -x, -e "$dummy" -- true 2>"$tmp/csv"
check_eq "-x,: perf's separator, the event string unquoted as perf writes it" "0,,$dummy,RUNTIME,100.00,," \
	"$(sed -E 's/,[0-9]+,100.00/,RUNTIME,100.00/' "$tmp/csv")"

# Exit status, signals, errors of COMMAND.
stat -e "$dummy" -- sh -c 'exit 3' 2>/dev/null
check_eq "-- COMMAND: netpmu exits with the command's status (3)" 3 $?
stat -e "$dummy" sh -c 'kill -TERM $$' 2>/dev/null
check_eq "COMMAND without --, killed by SIGTERM: status 128+15" 143 $?
stat -e "$dummy" -- /nonexistent/command 2>"$tmp/err"
check_eq "a command that does not exist: status 1" 1 $?
check_eq "a command that does not exist: one line" \
	"netpmu stat: cannot run '/nonexistent/command': No such file or directory" "$(cat "$tmp/err")"

# Human form, as perf: the header names the command or 'system wide'.
stat -e "$dummy" -- true 2>"$tmp/std"
check_eq "human form: perf's header, the counter line, the elapsed time" \
	"| Performance counter stats for 'true':||                 0      $dummy||SECONDS seconds time elapsed|" \
	"$(sed -E 's/^ +[0-9]+\.[0-9]{9} seconds/SECONDS seconds/' "$tmp/std" | sed 's/ *$//' | paste -sd'|')"
stat -a -e "$dummy" -- true 2>"$tmp/std"
check_eq "human form with -a: 'system wide'" " Performance counter stats for 'system wide':" "$(sed -n 2p "$tmp/std")"

# Intervals: exactly N. Their time stamps are the measured times of the
# reads, as perf prints them, each cut to its multiple of -I (stamp_tenths).
stat -I 100 --count 3 -x';' -e "$dummy" 2>"$tmp/iv"
check_eq "-I 100 --count 3 -x';': three lines read in the 0.1, 0.2, 0.3 s intervals, the time first, unpadded as perf 6.12's" \
	"0.1;0;;$dummy|0.2;0;;$dummy|0.3;0;;$dummy" \
	"$(cut -d';' -f1-4 "$tmp/iv" | stamp_tenths | paste -sd'|')"
stat -I 100 --interval-count 2 -e "$dummy" 2>"$tmp/iv"
check_eq "-I human form: perf's interval header, then time and count" \
	"#           time             counts unit events|     0.1                  0      $dummy|     0.2                  0      $dummy" \
	"$(sed 's/ *$//' "$tmp/iv" | stamp_tenths | paste -sd'|')"
stat -I 200 -x';' -e "$dummy" -- sleep 0.25 2>"$tmp/iv"
check_eq "-I with a command: intervals until it ends, the last one shorter (0.25 s and a bit)" \
	"2 0.2 shorter" "$(wc -l <"$tmp/iv") $(sed -n 1p "$tmp/iv" | cut -d';' -f1 | stamp_tenths) $(
	sed -n 2p "$tmp/iv" | awk -F';' '{ print ($1 >= 0.25 && $1 < 0.4) ? "shorter" : "at " $1 }')"

# JSON lines with perf's keys, spaced as perf writes them.
stat -j -I 100 --count 2 -e "$clock" -e "$dummy" 2>"$tmp/json"
keys="interval counter-value unit event event-runtime pcnt-running metric-value metric-unit"
check_eq "-j -I: 4 JSON lines with perf stat's keys" "$keys|$keys|$keys|$keys" \
	"$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    print(" ".join(json.loads(line)))' "$tmp/json" | paste -sd'|')"
check_eq "-j: the dummy line, no metric written as perf 6.12 writes it" \
	"{\"interval\" : 0.2, \"counter-value\" : \"0.000000\", \"unit\" : \"\", \"event\" : \"$dummy\", \"event-runtime\" : RUNTIME, \"pcnt-running\" : 100.00, \"metric-value\" : \"0.000000\", \"metric-unit\" : \"(null)\"}" \
	"$(sed -n 4p "$tmp/json" | sed -E 's/"event-runtime" : [0-9]+/"event-runtime" : RUNTIME/' | stamp_tenths)"

# -o FILE: the counts go there, stderr stays empty.
stat -o "$tmp/counts" -x';' -e "$dummy" -- true 2>"$tmp/err"
check_eq "-o FILE: the counts in FILE, nothing on stderr" "0;;$dummy|" "$(cut -d';' -f1-3 "$tmp/counts")|$(cat "$tmp/err")"

# Ctrl-C ends counting without a command; the totals are printed, status 0.
# (netpmu itself in the background, not a subshell, so that the signal reaches it.)
"$NETPMU" stat --sysfs-root "$root" -x';' -e "$dummy" 2>"$tmp/int" &
pid=$!
wait_sigint_handled $pid
kill -INT $pid
wait $pid
check_eq "SIGINT without a command: totals printed, status 0" "0 0;;$dummy" "$? $(cut -d';' -f1-3 "$tmp/int")"
"$NETPMU" stat --sysfs-root "$root" -x';' -e "$dummy" -- sleep 30 2>"$tmp/int" &
pid=$!
wait_sigint_handled $pid
started=$(date +%s)
kill -INT $pid
wait $pid
check_eq "SIGINT to netpmu alone with a command: the command is ended, totals printed, status 0" \
	"0 0;;$dummy fast" "$? $(cut -d';' -f1-3 "$tmp/int") $([ $(($(date +%s) - started)) -lt 5 ] && echo fast)"

# No permission: as an unprivileged user, where perf_event_paranoid asks for CAP_PERFMON.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
if [ "$(id -u)" != 0 ] || [ "$paranoid" -lt 1 ] || ! command -v setpriv >/dev/null; then
	skip "no-permission error names CAP_PERFMON and perf_event_paranoid" "needs root to drop to nobody and perf_event_paranoid >= 1"
else
	setpriv --reuid=65534 --regid=65534 --clear-groups "$NETPMU" stat --sysfs-root "$root" -e "$dummy" -- true 2>"$tmp/err"
	check_eq "no permission: status 1, one line naming CAP_PERFMON and perf_event_paranoid" \
		"1 netpmu stat: cannot open $dummy: no permission to count system-wide: run as root or with CAP_PERFMON, or set kernel.perf_event_paranoid to 0 or less (it is $paranoid)" \
		"$? $(cat "$tmp/err")"
fi
