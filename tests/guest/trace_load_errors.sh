#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What trace and top say when the BPF programs cannot load or a forced hook
# mode cannot attach: one line naming what is missing, exit status 1, nothing
# left attached. Each condition is made for real, in a child's own mount
# namespace or credentials: no capabilities (setpriv), no kernel BTF (a tmpfs
# over /sys/kernel/btf, /dev/null over libbpf's other places), no kprobe
# events (tmpfs over the kprobe PMU and tracefs's kprobe_events).
. "$(dirname "$0")/../lib/tap.sh"
plan 13
kind golden

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fails NAME EXPECTED-LINE COMMAND...: COMMAND exits 1 and says EXPECTED-LINE alone.
fails() {
	local name=$1 line=$2
	shift 2
	"$@" >/dev/null 2>"$tmp/err"
	check_eq "$name: exits 1" 1 $?
	check_eq "$name: says why in one line" "$line" "$(cat "$tmp/err")"
}

unprivileged=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)
for cmd in trace top; do
	fails "$cmd without privileges" \
		"netpmu $cmd: cannot load the BPF programs: permission denied (run as root, or with CAP_BPF and CAP_PERFMON)" \
		"${unprivileged[@]}" "$NETPMU" $cmd -d 1
done

# The kernel's BTF, and the files where libbpf looks for it next (the x86
# cells' root has the module build's vmlinux), hidden.
hide_btf='mount -t tmpfs none /sys/kernel/btf || exit 99
r=$(uname -r)
for f in /boot/vmlinux-$r /lib/modules/$r/vmlinux-$r /lib/modules/$r/build/vmlinux \
	/usr/lib/modules/$r/kernel/vmlinux /usr/lib/debug/boot/vmlinux-$r /usr/lib/debug/boot/vmlinux-$r.debug \
	/usr/lib/debug/lib/modules/$r/vmlinux; do
	[ -e "$f" ] && { mount --bind /dev/null "$f" || exit 99; }
done
exec "$@"'
for cmd in trace top; do
	fails "$cmd on a kernel without BTF" \
		"netpmu $cmd: cannot load the BPF programs: this kernel has no BTF (/sys/kernel/btf/vmlinux): netpmu needs CONFIG_DEBUG_INFO_BTF=y" \
		unshare -m sh -c "$hide_btf" sh "$NETPMU" $cmd -d 1
done

# Every way libbpf attaches a kprobe, hidden.
hide_kprobes='for d in /sys/bus/event_source/devices/kprobe /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -d "$d" ] && { mount -t tmpfs none "$d" || exit 99; }
done
exec "$@"'
fails "trace --hooks kprobe without kprobe events" \
	"netpmu trace: --hooks kprobe: this kernel has no kprobe events (CONFIG_KPROBE_EVENTS)" \
	unshare -m sh -c "$hide_kprobes" sh "$NETPMU" trace --hooks kprobe -d 1

# A usage error: the usage exit status, before anything loads.
fails_usage() {
	"$NETPMU" "$@" >/dev/null 2>"$tmp/err"
	check_eq "$* exits 2 (usage)" 2 $?
}
fails_usage trace --hooks ftrace
check_eq "trace --hooks ftrace names the modes" \
	"netpmu trace: --hooks wants auto, fentry, kprobe or tracepoint, not 'ftrace'" "$(cat "$tmp/err")"

check_eq "no netpmu BPF program or link is left after the failures" "0 0" \
	"$(bpftool prog show | grep -cE 'name (napi_poll|irq_entry|softirq_entry|interval_tick)( |$)') $(bpftool link show | grep -c .)"
