#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu trace --hooks auto|fentry|kprobe|tracepoint over the same known flow:
# what each way of hooking __napi_poll and __napi_schedule must and must not
# report. Packets and polls are exact in every mode (the napi_poll tracepoint
# is always there); poll time only with the __napi_poll entry/exit hooks; the
# IRQ -> NAPI join only with the __napi_schedule hooks. A mode the kernel
# cannot do fails with one line naming what is missing.
# Oracles: datagrams sent; perf's count of eth1's napi_poll tracepoint hits;
# /proc/interrupts; the cell's kernel (arm64's 6.1 has no ftrace direct calls,
# which BPF trampolines need: fentry loads there but does not attach; a kernel
# without the function __napi_poll in /proc/kallsyms has nothing to hook).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/irqs.sh"

count=40 size=300
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

kver=$(uname -r | cut -d. -f1,2)
if [ "$(uname -m)" = aarch64 ] && [ "$kver" = 6.1 ]; then
	fentry_fails=1 auto_hooks=kprobe
else
	fentry_fails=0 auto_hooks=fentry
fi
# A kernel whose compiler cloned __napi_poll (the debug-kernel cell's GCC
# made it __napi_poll.constprop.0: one argument folded away) has no
# __napi_poll to hook: fentry and kprobe must say so in one line, and auto
# goes on without poll time.
if grep -qE ' __napi_poll$' /proc/kallsyms; then napi_poll_hookable=1; else napi_poll_hookable=0; fi
# must_fail MODE: the line a forced MODE must fail with on this kernel, or nothing.
must_fail() {
	if [ "$1" != fentry ] && [ "$1" != kprobe ]; then
		return
	elif [ $napi_poll_hookable = 0 ]; then
		echo "netpmu trace: --hooks $1: this kernel's BTF has no function __napi_poll"
	elif [ "$1" = fentry ] && [ $fentry_fails = 1 ]; then
		echo "netpmu trace: --hooks fentry: this kernel cannot attach an fentry program to __napi_poll (no BPF trampoline for it); --hooks auto falls back to kprobes"
	fi
}
modes=(auto fentry kprobe tracepoint)
# 8 checks per mode that runs; 2 for a forced mode that must fail.
checks=0
for mode in "${modes[@]}"; do
	if [ -n "$(must_fail "$mode")" ]; then checks=$((checks + 2)); else checks=$((checks + 8)); fi
done
plan $checks

peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
rx_irq=$(awk -F: -v n="$peer_virtio-input.0" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts)

# flow MODE: netpmu trace --hooks MODE with interval records over the flow,
# inside perf counting eth1's napi_poll hits (eth1 receives nothing else).
flow() {
	local before after
	before=$(irq_count "$rx_irq")
	perf stat -x, -a -e napi:napi_poll --filter 'dev_name == "eth1"' -o "$tmp/$1.perf" -- \
		"$NETPMU" trace --json -I 200 --hooks "$1" -- "$UDP_FLOW" transfer \
		--netns peer --to 198.51.100.2 --port 9000 --count $count --size $size --gap-us 5000 \
		--report "$tmp/$1.recv" >"$tmp/$1.json" 2>"$tmp/$1.err"
	echo $? >"$tmp/$1.rc"
	after=$(irq_count "$rx_irq")
	echo $((after - before)) >"$tmp/$1.irqs"
}

# sums JSON: eth1's queue records summed over the run.
sums() {
	python3 - "$1" <<'PY'
import json, sys
polls = packets = irqs = 0
poll_ns, learnt = None, set()
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] != "queue" or r["dev"] != "eth1":
        continue
    polls += r["polls"]
    packets += r["packets"]
    irqs += r["irqs"]
    learnt.add(r["irq"])
    if "poll_ns" in r:
        poll_ns = (poll_ns or 0) + r["poll_ns"]
print("packets", packets)
print("polls", polls)
print("poll_time", "none" if poll_ns is None else "positive" if poll_ns > 0 else "zero")
print("irq", " ".join(map(str, sorted(learnt))))
print("irqs", irqs)
PY
}

for mode in "${modes[@]}"; do
	flow "$mode"
	rc=$(cat "$tmp/$mode.rc")
	sed 's/^/  trace: /' "$tmp/$mode.err"
	refusal=$(must_fail "$mode")
	if [ -n "$refusal" ]; then
		kind golden
		check_eq "--hooks $mode on $(uname -m) $(uname -r): netpmu trace exits 1" 1 "$rc"
		check_eq "--hooks $mode on $(uname -m) $(uname -r): one line names what is missing" \
			"$refusal" "$(cat "$tmp/$mode.err")"
		continue
	fi
	case $mode in
	auto) hooks=$auto_hooks ;;
	tracepoint) hooks="tracepoints only" ;;
	*) hooks=$mode ;;
	esac
	sums "$tmp/$mode.json" >"$tmp/$mode.sums"
	sed 's/^/  /' "$tmp/$mode.sums"
	get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tmp/$mode.sums"; }
	perf_polls=$(grep napi:napi_poll "$tmp/$mode.perf" | cut -d, -f1)
	kind golden
	check_eq "--hooks $mode: netpmu trace -- COMMAND exits 0" 0 "$rc"
	check_eq "--hooks $mode: the hooks attached are $hooks" "$hooks" \
		"$(sed -n 's/.*, hooks: \([^;(]*[^;( ]\).*/\1/p' "$tmp/$mode.err")"
	kind exact
	check_eq "--hooks $mode: peer received the flow" "received $count datagrams $((count * size)) bytes" \
		"$(cat "$tmp/$mode.recv")"
	check_eq "--hooks $mode: eth1's NAPI packets = the $count datagrams sent" $count "$(get packets)"
	check_eq "--hooks $mode: eth1's polls = perf's count of its napi_poll tracepoint hits" \
		"$perf_polls" "$(get polls)"
	kind golden
	if [ "$mode" = tracepoint ]; then
		check_eq "--hooks $mode: no poll time (no __napi_poll entry/exit hooks)" none "$(get poll_time)"
	elif [ $napi_poll_hookable = 0 ]; then
		check_eq "--hooks $mode: no poll time (this kernel has no __napi_poll to hook)" none "$(get poll_time)"
	else
		check_eq "--hooks $mode: poll time measured (__napi_poll entry and exit hooked)" positive \
			"$(get poll_time)"
	fi
	kind exact
	# virtio-net on these kernels does not set napi->irq: without the
	# __napi_schedule hooks nothing ties eth1's NAPI to its IRQ.
	if [ "$mode" = tracepoint ]; then
		check_eq "--hooks $mode: eth1's NAPI is joined with no IRQ" 0 "$(get irq)"
		check_eq "--hooks $mode: no interrupts joined with eth1's NAPI" 0 "$(get irqs)"
	else
		check_eq "--hooks $mode: eth1's NAPI is joined with IRQ $rx_irq ($peer_virtio-input.0)" \
			"$rx_irq" "$(get irq)"
		check_eq "--hooks $mode: interrupts joined with eth1's NAPI = IRQ $rx_irq's /proc/interrupts delta" \
			"$(cat "$tmp/$mode.irqs")" "$(get irqs)"
	fi
done
