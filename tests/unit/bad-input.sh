#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Bad input, as a hostile user gives it (issue 16): each is refused in one
# line naming what is wrong and what would be right, with the exact status;
# nothing crashes, wraps, blocks or ends with status 0 after losing output.
. "$(dirname "$0")/../lib/tap.sh"
plan 51
kind golden
. "$REPO/tests/lib/sysfs_fixture.sh"

fixture_tree --topology --netpmu-extensions
pcie=$(readlink -f "$root/bus/event_source/devices/hisi_pcie0_core1")
hns3=$(readlink -f "$root/bus/event_source/devices/hns3_pmu_sicl_0")

# check_run DESCRIPTION STATUS EXPECTED-STDERR ARGS...: netpmu ARGS prints
# EXPECTED-STDERR as its only stderr line, nothing on stdout, exits STATUS.
check_run() {
	local desc=$1 status=$2 expected=$3 rc
	shift 3
	timeout 10 "$NETPMU" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$status" ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$expected" ]; then
		pass "$desc"
	else
		fail "$desc" "exit $rc (want $status), stdout '$(head -c 200 "$tmp/out")', stderr '$(cat "$tmp/err")', want '$expected'"
	fi
}
dry() { check_run "$1" 1 "netpmu stat: $3: $2" stat --sysfs-root "$root" --dry-run -e "$3"; }

# A PCIe PMU whose len_mode covers the whole of config2 (port and bdf too):
# netpmu indexed a table with the bdf read back as len_mode (SIGSEGV).
echo config2:0-63 >"$pcie/format/len_mode"
dry "len_mode over port and bdf: refused, no crash" \
	"format/len_mode (config2:0-63) and format/port (config2:0-15) of hisi_pcie0_core1 share bits: not the hisi_pcie_pmu layout, whose filter fields are apart" \
	"hisi_pcie0_core1/rx_mwr_bw,bdf=35:00.0/"
# A wider len_mode field than the driver's 2 bits takes values it has no meaning for.
echo config1:10-13 >"$pcie/format/len_mode"
dry "len_mode above 3 in a wider field: refused with the valid values" \
	"len_mode=9: valid: 1 (payload), 2 (header), 3 (both)" \
	"hisi_pcie0_core1/rx_mwr_flux,port=1,len_mode=9/"
echo config1:14-15 >"$pcie/format/thr_mode"
dry "thr_mode above 1 in a wider field: refused with the valid values" \
	"thr_mode=2: valid: 0 (at least / longer than) or 1 (shorter than)" \
	"hisi_pcie0_core1/rx_mwr_flux,port=1,thr_len=2,thr_mode=2/"
echo config1:4 >"$pcie/format/thr_mode"
echo config1:10-11 >"$pcie/format/len_mode"

# Repeated and contradictory terms: perf ORs or overrides them silently.
dry "a field given twice (tc=1,tc=2 would count tc 3)" "tc given twice: give it once" \
	"hns3_pmu_sicl_0/bw_ssu_rpu,port=1,tc=1,tc=2/"
dry "a flag given twice" "global given twice: give it once" "hns3_pmu_sicl_0/bw_ssu_rpu,global=1,global=1/"
dry "config given twice" "config given twice: give it once" "hns3_pmu_sicl_0/config=0x2,config=0x3,global=1/"
dry "an event name given twice" "bw_ssu_rpu given twice: give it once" \
	"hns3_pmu_sicl_0/bw_ssu_rpu,bw_ssu_rpu,global=1/"
dry "name= given twice" "name given twice: give it once" \
	"hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,name=a,name=b,global=1/"
dry "dev= and bdf= both set the bdf field" "dev and bdf both set field bdf (config1:8-23): give one of them" \
	"hns3_pmu_sicl_0/bw_ssu_rpu,dev=eth0,bdf=35:00.0,queue=0xffff/"
dry "a PCIe field given twice" "port given twice: give it once" "hisi_pcie0_core1/rx_mwr_flux,port=1,port=2/"
dry "an event name and a field changing its event bits" \
	"the terms change the event bw_ssu_rpu_byte_num names (config 0x2) into config 0x302: drop the event name or the terms that set config bits 0-16" \
	"hns3_pmu_sicl_0/bw_ssu_rpu,event_type=3,global=1/"
dry "an event name and a config term naming another event" \
	"the terms change the event bw_ssu_rpu_byte_num names (config 0x2) into config 0x5: drop the event name or the terms that set config bits 0-16" \
	"hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,config=0x5,global=1/"
dry "an event name and ext_counter_used (would count its time event)" \
	"the terms change the event bw_ssu_rpu_byte_num names (config 0x2) into config 0x10002: drop the event name or the terms that set config bits 0-16" \
	"hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,ext_counter_used=1,global=1/"
"$NETPMU" stat --sysfs-root "$root" --dry-run -e "hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,config=0x2,global=1/" \
	>/dev/null 2>&1
check_eq "an event name and a config term that agrees with it: accepted" 0 $?

# Numbers: refused with their range, never wrapped (-I 4294967305 was 9 ms).
for cmd in stat top trace; do
	check_run "$cmd -I 4294967305: refused with the range" 2 \
		"netpmu $cmd: -I wants a whole number from 10 to 86400000, not '4294967305'" \
		$cmd -I 4294967305 --sysfs-root "$root" -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/
done
check_run "-I ' -1' (strtoul takes it as the largest number): refused" 2 \
	"netpmu stat: -I wants a whole number from 10 to 86400000, not ' -1'" \
	stat -I ' -1' --sysfs-root "$root" -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/
check_run "stat -x '': refused (the columns would run together)" 2 \
	"netpmu stat: -x needs a separator, e.g. -x, or -x';'" \
	stat -x '' --sysfs-root "$root" -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/
check_run "--count above 32 bits: refused with the range" 2 \
	"netpmu trace: --count wants a whole number from 1 to 4294967295, not '4294967296'" \
	trace --count 4294967296
check_run "--ringbuf-kb 4 GiB (wrapped to 0 bytes): refused with the range" 2 \
	"netpmu trace: --ringbuf-kb wants a whole number from 1 to 1048576, not '4194304'" \
	trace --ringbuf-kb 4194304
for d in inf nan 0x10 1e400 ' 1' 0 31536001; do
	check_run "-d '$d': refused with the range" 2 \
		"netpmu top: -d wants a number of seconds above 0 and at most 31536000, not '$d'" top -d "$d"
done

# --hist and --where: a field is one whole name of the list ('' read before it).
fields="dev, cpu, ifindex, napi_id, irq, queue, dir, work, budget, polls, packets, budget_exhausted, poll_ns, irqs, irq_ns, interval_ns, net_rx, net_rx_ns, net_tx, net_tx_ns"
check_run "--hist '': refused, status 2" 2 "netpmu trace: --hist: unknown field '' (valid: $fields)" trace --hist ''
check_run "--hist with two names of the list: refused" 2 \
	"netpmu trace: --hist: unknown field 'cpu, ifindex' (valid: $fields)" trace --hist 'cpu, ifindex'
check_run "--hist with part of a name: refused" 2 "netpmu trace: --hist: unknown field 'net' (valid: $fields)" \
	trace --hist net
check_run "--where '': refused with the column and what it expected" 2 \
	"netpmu trace: --where: column 1: expected a field, a number or a \"string\", got the end" trace --where ''
check_run "--where with an empty term: refused at its column" 2 \
	"netpmu trace: --where: column 9: expected a field, a number or a \"string\", got ','" \
	trace --where 'queue=1,,cpu=0'
check_run "--hist work without --per-poll: refused with the kinds that have it" 2 \
	"netpmu trace: --hist: work is a field of poll records, and this run's are queue, cpu, counters: --per-poll gives poll records" \
	trace --hist work

# sysfs files that would block (a FIFO) or hold binary data: a warning naming the file.
dev=$root/bus/event_source/devices
mv "$pcie/cpumask" "$tmp/cpumask"
mkfifo "$pcie/cpumask"
timeout 10 "$NETPMU" list --sysfs-root "$root" hisi_pcie0_core1 >/dev/null 2>"$tmp/err"
check_eq "a FIFO for a sysfs file: no blocking (status 0, not 124), one warning" \
	"0:netpmu list: warning: $dev/hisi_pcie0_core1/cpumask: not a regular file" "$?:$(cat "$tmp/err")"
rm "$pcie/cpumask"
printf '1\033[2J\n' >"$pcie/cpumask"
"$NETPMU" list --sysfs-root "$root" hisi_pcie0_core1 >/dev/null 2>"$tmp/err"
check_eq "control bytes in a sysfs file: not echoed, one warning" \
	"netpmu list: warning: $dev/hisi_pcie0_core1/cpumask: binary data (control bytes)" "$(cat "$tmp/err")"
mv "$tmp/cpumask" "$pcie/cpumask"

# A failed write of the output: status 1 and one line saying why.
"$NETPMU" list --sysfs-root "$root" >/dev/full 2>"$tmp/err"
check_eq "list > /dev/full: status 1, one line" \
	"1:netpmu list: cannot write the output: No space left on device" "$?:$(cat "$tmp/err")"
"$NETPMU" stat --sysfs-root "$root" --dry-run -e hns3_pmu_sicl_0/bw_ssu_rpu,global=1/ >/dev/full 2>"$tmp/err"
check_eq "stat --dry-run > /dev/full: status 1, one line" \
	"1:netpmu stat: cannot write the output: No space left on device" "$?:$(cat "$tmp/err")"
"$NETPMU" list --help >/dev/full 2>"$tmp/err"
check_eq "list --help > /dev/full: status 1, one line" \
	"1:netpmu list: cannot write the output: No space left on device" "$?:$(cat "$tmp/err")"
"$NETPMU" trace --help >/dev/full 2>"$tmp/err"
check_eq "trace --help > /dev/full: status 1, one line" \
	"1:netpmu trace: cannot write the output: No space left on device" "$?:$(cat "$tmp/err")"
# closed_pipe ARGS...: "STATUS:STDERR" of netpmu ARGS writing into a pipe nobody reads.
closed_pipe() {
	python3 - "$NETPMU" "$@" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
print(f"{p.returncode}:{p.stderr.decode().strip()}")
PY
}
check_eq "list into a closed pipe: status 1 (not SIGPIPE), one line" \
	"1:netpmu list: cannot write the output: Broken pipe" "$(closed_pipe list --sysfs-root "$root")"
check_eq "list --json into a closed pipe: status 1, one line" \
	"1:netpmu list: cannot write the output: Broken pipe" "$(closed_pipe list --json --sysfs-root "$root")"

# Where netpmu really counts (a software-backed fixture PMU): -o to a full disk.
software_backed_hns3 "$root" 9 0
clock=hns3_pmu_sicl_9/clock_byte_num,global=1/
if "$NETPMU" stat --sysfs-root "$root" -e "$clock" -- true 2>/dev/null; then
	"$NETPMU" stat --sysfs-root "$root" -I 20 --count 3 -o /dev/full -e "$clock" 2>"$tmp/err"
	check_eq "stat -I -o /dev/full: status 1, one line" \
		"1:netpmu stat: cannot write /dev/full: No space left on device" "$?:$(cat "$tmp/err")"
	echo 4000 >"$root/devices/hns3_pmu_sicl_9/type"
	"$NETPMU" stat --sysfs-root "$root" -e "$clock" -- true 2>"$tmp/err"
	check_eq "a perf type the kernel does not have: said so, the filter not blamed" \
		"1:netpmu stat: cannot open $clock: this kernel has no PMU of perf type 4000, hns3_pmu_sicl_9's type in sysfs (is its driver or netpmu.ko loaded? 'netpmu list' shows the PMUs)" \
		"$?:$(cat "$tmp/err")"
else
	skip "stat -I -o /dev/full: status 1, one line" "cannot count system-wide here"
	skip "a perf type the kernel does not have: said so, the filter not blamed" "cannot count system-wide here"
fi

# trace needs BPF: Ctrl-C and SIGTERM in a 20 s interval are answered at once
# with the partial interval, and a full disk is an error.
if ! timeout 10 "$NETPMU" trace -d 0.2 >/dev/null 2>"$tmp/err"; then
	skip_checks 5 "trace: Ctrl-C, SIGTERM, > /dev/full" "trace does not run here: $(tail -n 1 "$tmp/err")"
	exit 0
fi
# stop_times SIG: "STATUS ANSWER_MS EXIT_MS INTERVAL_NS" of trace -I 20000
# given SIG 0.3 s into its interval: when its partial interval reached the
# output, when it exited (everything detached), and that interval's length.
stop_times() {
	python3 - "$NETPMU" "$1" "$tmp/out" <<'PY'
import os, re, signal, subprocess, sys, time
netpmu, sig, out = sys.argv[1], getattr(signal, "SIG" + sys.argv[2]), sys.argv[3]
with open(out, "w") as f:
    p = subprocess.Popen([netpmu, "trace", "-I", "20000"], stdout=f, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 20
# SigCgt bit 2: its SIGINT handler is installed, so the signal is not lost.
while time.monotonic() < deadline:
    with open(f"/proc/{p.pid}/status") as st:
        caught = int(re.search(r"SigCgt:\s*(\w+)", st.read()).group(1), 16)
    if caught & 2:
        break
    time.sleep(0.01)
time.sleep(0.3)
t0 = time.monotonic()
p.send_signal(sig)
answer = None
while p.poll() is None or answer is None:
    if answer is None and b"interval_ns=" in open(out, "rb").read():
        answer = time.monotonic()
    if p.poll() is not None and answer is None:
        answer = float("inf")
    time.sleep(0.001)
end = time.monotonic()
m = re.search(rb" counters .*interval_ns=(\d+)", open(out, "rb").read())
print(p.returncode, round((answer - t0) * 1000) if answer != float("inf") else -1,
      round((end - t0) * 1000), m.group(1).decode() if m else "-")
PY
}
for sig in INT TERM; do
	# The best of 3: other jobs' guests keep this machine's 2 CPUs busy, and
	# one run can lose its CPU for longer than the answer takes (5-30 ms idle).
	for try in 1 2 3; do
		read -r rc answer_ms exit_ms ns <<<"$(stop_times $sig)"
		[ "$rc" = 0 ] && [ "$answer_ms" -ge 0 ] && [ "$answer_ms" -lt 100 ] && break
	done
	if [ "$rc" = 0 ] && [ "$answer_ms" -ge 0 ] && [ "$answer_ms" -lt 100 ]; then
		pass "trace -I 20000: SIG$sig answered (partial interval written) within 100 ms, status 0"
	else
		fail "trace -I 20000: SIG$sig answered (partial interval written) within 100 ms, status 0" \
			"status $rc, written after $answer_ms ms (best of 3)"
	fi
	if [ "$exit_ms" -lt 1000 ]; then
		pass "trace -I 20000: SIG$sig: everything detached and exited within 1 s"
	else
		fail "trace -I 20000: SIG$sig: everything detached and exited within 1 s" "after $exit_ms ms"
	fi
	# The partial interval: about 0.3 s of the 20 s, as perf stat -I prints it.
	if [ "$ns" != - ] && [ "$ns" -gt 100000000 ] && [ "$ns" -lt 5000000000 ]; then
		pass "trace -I 20000: SIG$sig prints the partial interval"
	else
		fail "trace -I 20000: SIG$sig prints the partial interval" "interval_ns '$ns' in '$(head -c 300 "$tmp/out")'"
	fi
done
"$NETPMU" trace -I 50 -d 0.2 >/dev/full 2>"$tmp/err"
check_eq "trace > /dev/full: status 1, the reason last" \
	"1:netpmu trace: cannot write the output: No space left on device" "$?:$(tail -n 1 "$tmp/err")"
