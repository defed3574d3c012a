#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve while what it counts goes away (issue 14: "a removed NIC or
# PMU is reported in the self-metrics and the log, and serving goes on").
# Two exporters: A with -e on hns3_pmu_sicl_6, a model instance of its own
# on eth1 (the func-queue bytes of eth1's queue 0), and --json-log; B
# without -e, rotating on hns3_pmu_sicl_0 (A's counts stay clear of the
# rotation's reprogramming of that PMU). After a known UDP flow
# to eth1 both hold the exact counts. The model refuses del_device while
# events are open (EBUSY, kmod/README.md), so the PMU's removal is staged
# for A alone: A reads PMUs from a --sysfs-root copy of the PMU links, and
# the PMU's link goes. Then eth1's PCI function is really removed. A and B
# go on serving (HTTP 200), each removal is said in one line (and in A's
# JSON log) and counted in netpmu_devices_removed_total, the totals stay
# (A adds nothing of a later flow to the removed PMU's series), neither
# spins. A SIGHUP to A then (its --config names the removed PMU's event)
# falls back to the software series, which go on counting. SIGTERM exits 0
# with no BPF program left. eth1 and netpmu.ko are
# restored at the end.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/eth1.sh"
. "$(dirname "$0")/../lib/http.sh"
plan 26
kind exact
tmp=$(mktemp -d)
a_pid= b_pid= removed=
kmod=${NETPMU_KO:?netpmu.ko of the cell, set by tests/vm/run}

cleanup() {
	for p in $a_pid $b_pid; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	[ -d /sys/bus/event_source/devices/$pmu ] && echo $id >/sys/bus/netpmu_sim/del_device
	[ -z "$removed" ] || eth1_restore "$kmod" || echo "# serve_removal: eth1 could not be restored" >&2
	rm -rf "$tmp"
}
trap cleanup EXIT

a_port=9715 b_port=9716
frame() { echo $(($1 + 42 > 60 ? $1 + 42 : 60)); }
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
peer_pci=$(eth1_pci)
bdf=$(hns3_bdf "$peer_pci")
id=6 pmu=hns3_pmu_sicl_6
event="$pmu/bw_ssu_rpu_byte_num,bdf=$bdf,queue=0/"
rx='dev="eth1",queue="0",dir="rx"'
# scrape PORT FILE: the HTTP status, the body into FILE.
scrape() { http_get "http://127.0.0.1:$1/metrics" "$2"; }
# value PORT SERIES-PREFIX: the sum of the series whose text starts so, or "none".
value() {
	scrape "$1" "$tmp/scrape" >/dev/null
	awk -v p="$2" 'index($0, p) == 1 { s += $NF; n++ } END { print n ? s : "none" }' "$tmp/scrape"
}
# Until series PREFIX on PORT equals WANT (the interval's records are in), up to 20 s,
# scaled.
value_is() { [ "$(value "$1" "$2")" = "$3" ]; }
wait_value() { wait_until 20 value_is "$@"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# Times the main thread (serve's loop) blocked: in its 100 ms ring-buffer poll
# about 20 times in 2 s; a loop that spins never blocks.
sleeps() { awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$1/status"; }

TAP_KIND="weak: setup, the instance A counts on" check_cmd "new_device '$id netdevs=eth1' adds $pmu" \
	sh -c "echo '$id netdevs=eth1' >/sys/bus/netpmu_sim/new_device"
# A's PMUs: links to the real ones, so that one can go without the kernel's.
mkdir -p "$tmp/sys/bus/event_source/devices"
for d in /sys/bus/event_source/devices/*; do
	ln -s "$(readlink -f "$d")" "$tmp/sys/bus/event_source/devices/${d##*/}"
done

progs_before=$(bpftool prog show | grep -c '^[0-9]*:')
printf 'events:\n  - %s\n' "$event" >"$tmp/a.yml"
"$NETPMU" serve --listen 127.0.0.1:$a_port -I 200 --config "$tmp/a.yml" --sysfs-root "$tmp/sys" \
	--json-log "$tmp/a.jsonl" >/dev/null 2>"$tmp/a.err" &
a_pid=$!
# B at 1 s: its rotation reopens 8 counters an interval, much of TCG's time at 200 ms.
"$NETPMU" serve --listen 127.0.0.1:$b_port -I 1000 >/dev/null 2>"$tmp/b.err" &
b_pid=$!
if ! wait_line "$tmp/a.err" serving || ! wait_line "$tmp/b.err" serving; then
	fail "two exporters start" "$(tr '\n' ' ' <"$tmp/a.err") | $(tr '\n' ' ' <"$tmp/b.err")"
	skip_checks 23 "netpmu serve with removals" "an exporter did not start"
	exit 0
fi

n=300 size=500 n2=120 size2=200 n3=50 size3=100
eth1_flow $n $size
wait_value $a_port "netpmu_napi_packets_total{$rx}" $n
wait_value $b_port "netpmu_napi_packets_total{$rx}" $n
# The tick reads the PMU before it sends the queues' records, so a frame
# between the two is in the next interval's PMU delta: wait for it to be in
# before the PMU goes (a removed PMU's later deltas are not added).
wait_value $a_port 'netpmu_pmu_event_total{pmu="'$pmu'",event="bw_ssu_rpu_byte_num"' $((n * $(frame $size)))
check_eq "A: netpmu_napi_packets_total{$rx} = the $n datagrams" $n "$(value $a_port "netpmu_napi_packets_total{$rx}")"
check_eq "A: netpmu_pmu_event_total of $event = $n x $(frame $size)" $((n * $(frame $size))) \
	"$(value $a_port 'netpmu_pmu_event_total{pmu="'$pmu'",event="bw_ssu_rpu_byte_num"')"
# Evidence for a shortfall: another user's events can have the perf core
# multiplex A's counter off the PMU (its running time then falls short).
echo "# A's counter in its JSON log: $(python3 -c '
import json, sys
n = mux = total = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    for c in r.get("counters", []) if r["type"] == "counters" else []:
        n += 1
        total += c.get("delta", 0)
        mux += c.get("running_ns", 0) < c.get("enabled_ns", 0)
print("%d intervals, %d multiplexed (running < enabled), deltas summing to %d" % (n, mux, total))
' "$tmp/a.jsonl")"
check_eq "B (no -e): netpmu_napi_packets_total{$rx} = $n" $n "$(value $b_port "netpmu_napi_packets_total{$rx}")"
check_eq "nothing removed yet: no netpmu_devices_removed_total on A or B" "none none" \
	"$(value $a_port netpmu_devices_removed_total) $(value $b_port netpmu_devices_removed_total)"

kind golden
check_eq "the model's PMU cannot go under open events: del_device $id -> EBUSY (kmod/README.md)" \
	"Device or resource busy" "$( (echo $id >/sys/bus/netpmu_sim/del_device) 2>&1 | sed 's/.*: //')"

# The PMU, as A sees it, goes; then a flow A must not add to its series.
rm "$tmp/sys/bus/event_source/devices/$pmu"
check_cmd "A says the PMU's removal" wait_line "$tmp/a.err" "PMU $pmu removed"
eth1_flow $n2 $size2
wait_value $a_port "netpmu_napi_packets_total{$rx}" $((n + n2))
kind exact
check_eq "A serves on: netpmu_napi_packets_total{$rx} = $n + $n2" $((n + n2)) \
	"$(value $a_port "netpmu_napi_packets_total{$rx}")"
check_eq "A: the removed PMU's series keeps its total ($n x $(frame $size)), the $n2 later frames not added" \
	$((n * $(frame $size))) "$(value $a_port 'netpmu_pmu_event_total{pmu="'$pmu'",event="bw_ssu_rpu_byte_num"')"

# A reloads its config, which names the removed PMU: neither the new nor the
# old config can count, the software series serve on.
kill -HUP $a_pid
TAP_KIND=golden check_cmd "A, reloaded without the PMU, serves on with its software series" \
	wait_line "$tmp/a.err" "serving the software series only"
TAP_KIND=golden check_eq "A says the reload, the fallback to the old config, then to the software series" \
	"netpmu serve: reloaded $tmp/a.yml|netpmu serve: reload refused, serving on as before: the new config cannot count|netpmu serve: the PMU counters cannot be opened now: serving the software series only (SIGHUP tries again)|" \
	"$(grep -E 'reload|software series' "$tmp/a.err" | tr '\n' '|')"
eth1_flow $n3 $size3
wait_value $a_port "netpmu_napi_packets_total{$rx}" $((n + n2 + n3))
check_eq "A after the reload: packets = $n + $n2 + $n3, the PMU's series still $n x $(frame $size)" \
	"$((n + n2 + n3)) $((n * $(frame $size)))" \
	"$(value $a_port "netpmu_napi_packets_total{$rx}") $(value $a_port 'netpmu_pmu_event_total{pmu="'$pmu'",event="bw_ssu_rpu_byte_num"')"

# eth1's PCI function goes, for A and B alike.
wait_value $b_port "netpmu_napi_packets_total{$rx}" $((n + n2 + n3))
a_ticks=$(cpu_ticks $a_pid) b_ticks=$(cpu_ticks $b_pid) a_sleeps=$(sleeps $a_pid) b_sleeps=$(sleeps $b_pid)
sleep 2
b_before=$(($(cpu_ticks $b_pid) - b_ticks))
a_slept_before=$(($(sleeps $a_pid) - a_sleeps)) b_slept_before=$(($(sleeps $b_pid) - b_sleeps))
echo "# in the 2 s before the NIC's removal: CPU ticks A $(($(cpu_ticks $a_pid) - a_ticks)), B $b_before; main thread blocked A $a_slept_before, B $b_slept_before times"
removed=1
echo 1 >"/sys/bus/pci/devices/$peer_pci/remove"
wait_line "$tmp/a.err" "NIC .* removed"
wait_line "$tmp/b.err" "NIC .* removed"
a_ticks=$(cpu_ticks $a_pid) b_ticks=$(cpu_ticks $b_pid) a_sleeps=$(sleeps $a_pid) b_sleeps=$(sleeps $b_pid)
sleep 2
a_used=$(($(cpu_ticks $a_pid) - a_ticks)) b_used=$(($(cpu_ticks $b_pid) - b_ticks))
a_slept=$(($(sleeps $a_pid) - a_sleeps)) b_slept=$(($(sleeps $b_pid) - b_sleeps))
check_eq "both serve on: HTTP 200 from A and B" "200 200" \
	"$(scrape $a_port "$tmp/a.scrape") $(scrape $b_port "$tmp/b.scrape")"
check_eq "A: netpmu_devices_removed_total = 2 (the PMU, the NIC)" 2 "$(value $a_port netpmu_devices_removed_total)"
check_eq "B: netpmu_devices_removed_total = 1 (the NIC)" 1 "$(value $b_port netpmu_devices_removed_total)"
kind golden
check_eq "A: its removal series, labelled" \
	"netpmu_devices_removed_total{pmu=\"$pmu\"} 1|netpmu_devices_removed_total{dev=\"eth1\",bdf=\"$peer_pci\"} 1|" \
	"$(grep '^netpmu_devices_removed_total' "$tmp/a.scrape" | tr '\n' '|')"
check_eq "A: stderr says each removal in one line" \
	"netpmu serve: PMU $pmu removed: its counters are no longer added, their series keep their last totals|netpmu serve: NIC eth1 ($peer_pci) removed: its series keep their last totals|" \
	"$(grep ' removed: ' "$tmp/a.err" | tr '\n' '|')"
check_eq "B: stderr says the NIC's removal in one line" \
	"netpmu serve: NIC eth1 ($peer_pci) removed: its series keep their last totals|" \
	"$(grep ' removed: ' "$tmp/b.err" | tr '\n' '|')"
# Its rotation reaches the function's queue within a round of the targets.
check_cmd "B: its rotation drops the removed function's queue, saying so in one line" \
	wait_line "$tmp/b.err" "^netpmu serve: PCI function $peer_pci is gone (removed): dropping queue 0 of $peer_pci from the rotation$"
check_eq "A's JSON log: a removed record each" "pmu=$pmu|dev=eth1,bdf=$peer_pci|" \
	"$(python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["type"] == "removed" and r["ts_ns"] > 0:
        print(",".join("%s=%s" % (k, v) for k, v in r.items() if k not in ("type", "ts_ns")), end="|")
' "$tmp/a.jsonl")"
kind exact
check_eq "the totals stay after the NIC's removal: A ${n}+${n2}+${n3} packets and $n x $(frame $size) bytes, B $((n + n2 + n3)) packets" \
	"$((n + n2 + n3)) $((n * $(frame $size))) $((n + n2 + n3))" \
	"$(value $a_port "netpmu_napi_packets_total{$rx}") $(value $a_port 'netpmu_pmu_event_total{pmu="'$pmu'"') $(value $b_port "netpmu_napi_packets_total{$rx}")"
kind weak "a bound: a loop blocks after a removal at least a quarter as often as in the 2 s before, and at least once; a spin never blocks"
hz=$(getconf CLK_TCK)
echo "# in the 2 s after: CPU ticks A $a_used, B $b_used ($hz a second); main thread blocked A $a_slept, B $b_slept times"
echo "# B's stderr after the removal: $(sed -n '/NIC .* removed/,$p' "$tmp/b.err" | tail -n +2 | head -5 | tr '\n' '|')"
# CPU time is no oracle here: TCG has no steal time, so a loaded host's time
# is counted as the guest's (B took 1.68 s in 2 s beside two other guests,
# 0.84 s before). Nor is a fixed count of blocks: a loop that blocks about 20
# times in 2 s on a release kernel blocked 3 times on the debug kernel, where
# each of B's intervals takes longer. So each loop is compared with itself.
not_spinning() { # blocks_after blocks_before
	[ $1 -ge 1 ] && [ $(($1 * 4)) -ge $2 ]
}
check_eq "A does not spin after the removals: its loop blocked at least once, and at least a quarter as often as before" yes \
	"$(not_spinning $a_slept $a_slept_before && echo yes ||
		echo "no: blocked $a_slept times after, $a_slept_before before; $a_used CPU ticks")"
# B's rotation reopens counters each interval and drops the removed function's queues once.
check_eq "B does not spin after the removal: its loop blocked at least once, and at least a quarter as often as before" yes \
	"$(not_spinning $b_slept $b_slept_before && echo yes ||
		echo "no: blocked $b_slept times after, $b_slept_before before; $b_used CPU ticks")"

kill -TERM $a_pid $b_pid
wait $a_pid
a_rc=$?
wait $b_pid
b_rc=$?
a_pid= b_pid=
kind exact
check_eq "SIGTERM: A and B exit 0" "0 0" "$a_rc $b_rc"
check_eq "no BPF program left (bpftool prog show)" "$progs_before" "$(bpftool prog show | grep -c '^[0-9]*:')"
removed=
TAP_KIND="weak: setup, restoring what the test changed" check_cmd "eth1 back in 'peer', netpmu.ko reloaded" eth1_restore "$kmod"
