#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the loader SIGKILLed (issue 16's faults). stat, trace
# --per-poll, top and serve each run on eth1's queue with real traffic and
# are killed with SIGKILL, which no handler sees. The kernel must take back
# everything by itself: bpftool shows no program, link or map more than
# before, every perf event is closed (netpmu.ko's refcnt: the kernel takes one
# module reference per open event of its PMUs and gives it back at close),
# serve's port can be bound again at once, and netpmu.ko unloads at the end
# (no reference leaked) and loads again.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth1.sh"
plan 23
kind exact
tmp=$(mktemp -d)
kmod=${NETPMU_KO:?netpmu.ko of the cell, set by tests/vm/run}
pid= recv_pid= send_pid=
cleanup() {
	[ -z "$pid" ] || kill -9 "$pid" 2>/dev/null
	[ -z "$send_pid" ] || kill "$send_pid" 2>/dev/null
	[ -z "$recv_pid" ] || kill "$recv_pid" 2>/dev/null
	wait 2>/dev/null
	[ -d /sys/module/netpmu ] || insmod "$kmod" || echo "# loader_killed: insmod netpmu.ko failed" >&2
	rm -rf "$tmp"
}
trap cleanup EXIT

peer_pci=$(eth1_pci)
bdf=$(hns3_bdf "$peer_pci")
hns3="hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,bdf=$bdf,queue=0/"
pps="hns3_pmu_sicl_0/pps_ssu_rpu_packet_num,bdf=$bdf,queue=0/"

objects() {
	echo "$(bpftool prog show | grep -c '^[0-9]*:') $(bpftool link show | grep -c '^[0-9]*:')" \
		"$(bpftool map show | grep -c '^[0-9]*:')"
}
refcnt() { cat /sys/module/netpmu/refcnt; }
# until the loader has attached (more BPF programs than before), up to 30 s.
more_programs() { [ "$(bpftool prog show | grep -c '^[0-9]*:')" -gt "${objects_before%% *}" ]; }
wait_attached() { wait_until 30 more_programs; }

# Frames on eth1's queue 0 for the whole test: the counters and programs move.
ip netns exec peer "$UDP_FLOW" recv --port 9200 --count 1000000 --timeout 600 >/dev/null &
recv_pid=$!
"$UDP_FLOW" send --to 198.51.100.2 --port 9200 --count 1000000 --size 300 \
	--gap-us 5000 >/dev/null 2>&1 &
send_pid=$!

objects_before=$(objects) refcnt_before=$(refcnt)
echo "# before: BPF programs, links, maps: $objects_before; netpmu.ko refcnt $refcnt_before"

# killed NAME EVENTS: kills $pid with SIGKILL, checks what the kernel took back.
killed() {
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	check_eq "$1 SIGKILLed: killed by the signal (status 137)" 137 $?
	pid=
	check_eq "$1: the kernel closed its $2 perf event(s): netpmu.ko refcnt back to $refcnt_before" \
		"$refcnt_before" "$(wait_output 20 "$refcnt_before" refcnt)"
}

# stat: perf events only, two of them.
"$NETPMU" stat -I 200 -e "$hns3" -e "$pps" >/dev/null 2>"$tmp/stat.err" &
pid=$!
check_eq "stat -I with 2 events: netpmu.ko refcnt = $refcnt_before + 2 (one per open event)" \
	$((refcnt_before + 2)) "$(wait_output 20 $((refcnt_before + 2)) refcnt)"
killed "stat" 2

# trace --per-poll: BPF programs, links, the ring buffer and 2 counters.
"$NETPMU" trace --per-poll -e "$hns3" -e "$pps" >/dev/null 2>"$tmp/trace.err" &
pid=$!
TAP_KIND="weak: setup, the programs attached before the kill" check_cmd "trace --per-poll attached" wait_attached
check_eq "trace --per-poll: refcnt = $refcnt_before + 2" $((refcnt_before + 2)) \
	"$(wait_output 20 $((refcnt_before + 2)) refcnt)"
killed "trace --per-poll" 2
check_eq "trace --per-poll: no BPF program, link or map left (bpftool)" "$objects_before" \
	"$(wait_output 20 "$objects_before" objects)"

# top: BPF and the rotation's counters on eth1's queues.
"$NETPMU" top -I 300 >/dev/null 2>"$tmp/top.err" &
pid=$!
TAP_KIND="weak: setup, the programs attached before the kill" check_cmd "top attached" wait_attached || cat "$tmp/top.err" >&2
killed "top" "rotating"
check_eq "top: no BPF program, link or map left (bpftool)" "$objects_before" "$(wait_output 20 "$objects_before" objects)"

# serve: BPF, a counter, the HTTP listener.
printf 'events:\n  - %s\n' "$hns3" >"$tmp/serve.yml"
"$NETPMU" serve --listen 127.0.0.1:9740 -I 300 --config "$tmp/serve.yml" >/dev/null 2>"$tmp/serve.err" &
pid=$!
TAP_KIND="weak: setup, the programs attached before the kill" check_cmd "serve attached" wait_attached
check_eq "serve: refcnt = $refcnt_before + 1" $((refcnt_before + 1)) "$(wait_output 20 $((refcnt_before + 1)) refcnt)"
killed "serve" 1
check_eq "serve: no BPF program, link or map left (bpftool)" "$objects_before" "$(wait_output 20 "$objects_before" objects)"
check_eq "serve: its port is free at once: a new serve on 127.0.0.1:9740 binds it" "serving" \
	"$("$NETPMU" serve --listen 127.0.0.1:9740 -I 300 --count 1 2>&1 >/dev/null |
		grep -o -m1 'serving')"
check_eq "the second serve left nothing either (bpftool)" "$objects_before" "$(wait_output 20 "$objects_before" objects)"

kill -9 "$send_pid" "$recv_pid" 2>/dev/null
wait "$send_pid" "$recv_pid" 2>/dev/null
send_pid= recv_pid=
check_eq "after the four kills: netpmu.ko refcnt $refcnt_before" "$refcnt_before" "$(refcnt)"
if [ "$refcnt_before" = 0 ]; then
	check_cmd "netpmu.ko unloads: no reference leaked" rmmod netpmu
	check_cmd "netpmu.ko loads again" insmod "$kmod"
else
	skip_checks 2 "netpmu.ko unloads and loads again" "netpmu.ko was in use before the test (refcnt $refcnt_before)"
fi
# (stat -I prints its intervals on stderr, as perf stat does: only netpmu's own lines are read.)
TAP_KIND=golden check_eq "the killed loaders wrote no error line (their stderr, before the kill)" "" \
	"$(cat "$tmp/stat.err" "$tmp/trace.err" "$tmp/top.err" "$tmp/serve.err" | grep '^netpmu' |
		grep -v -e '^netpmu trace: tracing' -e '^netpmu serve: serving' | head -3)"
