#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu trace's CPU records (NET_RX/NET_TX softirqs per CPU) against
# /proc/softirqs, in its JSON and its text output; the text lines carry the
# JSON's fields; --count N stops after exactly N records (trace) or tables
# (top); a ninth -e is refused with one line.
# Oracles: /proc/softirqs (the kernel counts a softirq where the
# softirq_entry tracepoint fires); datagrams sent; lines written.
. "$(dirname "$0")/../lib/tap.sh"
plan 16

count=40 size=100
tmp=$(mktemp -d)
# The igb pair's watchdog raises NET_RX every 2 s; it is down meanwhile, so
# that only the flow raises softirqs. Taking a link down flushes even
# permanent neighbours: they are put back at exit.
restore_igb() {
	ip link set eth2 up && ip -n peer link set eth3 up
	ip neigh replace 203.0.113.2 lladdr "$(ip netns exec peer cat /sys/class/net/eth3/address)" dev eth2 nud permanent
	ip -n peer neigh replace 203.0.113.1 lladdr "$(cat /sys/class/net/eth2/address)" dev eth3 nud permanent
}
trap 'restore_igb; rm -rf "$tmp"' EXIT
ip link set eth2 down && ip -n peer link set eth3 down

# softirqs NAME: "CPU COUNT" lines of /proc/softirqs' NAME row.
softirqs() { awk -v n="$1:" '$1 == n { for (i = 2; i <= NF; i++) print i - 2, $i }' /proc/softirqs; }

# traced FORMAT: netpmu trace -I 200 in FORMAT (json or text) around the flow;
# /proc/softirqs is read once trace is attached and again after the flow,
# before trace is stopped, so trace's window holds the one read.
traced() {
	local opt= pid
	[ "$1" = json ] && opt=--json
	"$NETPMU" trace $opt -I 200 -d 60 >"$tmp/$1.out" 2>"$tmp/$1.err" &
	pid=$!
	wait_line "$tmp/$1.err" tracing
	wait_sigint_handled $pid
	{ softirqs NET_RX; softirqs NET_TX; } >"$tmp/$1.before"
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count $count \
		--size $size --gap-us 2000 >/dev/null
	{ softirqs NET_RX; softirqs NET_TX; } >"$tmp/$1.after"
	kill -INT $pid
	wait $pid
	echo $? >"$tmp/$1.rc"
}

# sums FORMAT: per CPU NET_RX and NET_TX softirqs summed over the CPU records,
# the /proc/softirqs deltas, eth1's packets, and each record type's fields.
sums() {
	python3 - "$tmp/$1.out" "$1" "$tmp/$1.before" "$tmp/$1.after" <<'PY'
import json, sys
path, fmt, before, after = sys.argv[1:]

def text_record(line):
    # "SEC.NSEC TYPE [dev=IF] key=value ...": the fields, as JSON has them.
    ts, kind, *pairs = line.split()
    rec = {"type": kind}
    for p in pairs:
        k, v = p.split("=", 1)
        rec[k] = v if k == "dev" else int(v)
    return rec

def proc(path):
    lines = [tuple(map(int, l.split())) for l in open(path)]
    half = len(lines) // 2
    return lines[:half], lines[half:]

rx = {}; tx = {}; packets = 0; fields = {}
for line in open(path):
    r = json.loads(line) if fmt == "json" else text_record(line)
    fields.setdefault(r["type"], sorted(k for k in r if k not in ("type", "ts_ns", "counters")))
    if r["type"] == "cpu":
        rx[r["cpu"]] = rx.get(r["cpu"], 0) + r["net_rx"]
        tx[r["cpu"]] = tx.get(r["cpu"], 0) + r["net_tx"]
    elif r["type"] == "queue" and r["dev"] == "eth1":
        packets += r["packets"]
(brx, btx), (arx, atx) = proc(before), proc(after)
show = lambda d: " ".join(f"cpu{c}={d.get(c, 0)}" for c in sorted(set(d) | {c for c, _ in brx}))
print("trace_rx", show(rx))
print("proc_rx", show({c: a - b for (c, b), (_, a) in zip(brx, arx)}))
print("trace_tx", show(tx))
print("proc_tx", show({c: a - b for (c, b), (_, a) in zip(btx, atx)}))
print("packets", packets)
for kind in sorted(fields):
    print("fields_" + kind, ",".join(fields[kind]))
PY
}

for fmt in json text; do
	traced $fmt
	sums $fmt >"$tmp/$fmt.sums"
	sed 's/^/  /' "$tmp/$fmt.sums"
	get() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tmp/$fmt.sums"; }
	TAP_KIND=golden check_eq "$fmt: netpmu trace -I 200 stopped by Ctrl-C exits 0" 0 "$(cat "$tmp/$fmt.rc")"
	kind exact
	check_eq "$fmt: NET_RX softirqs per CPU, summed over the CPU records = /proc/softirqs deltas" \
		"$(get proc_rx)" "$(get trace_rx)"
	check_eq "$fmt: NET_TX softirqs per CPU, summed over the CPU records = /proc/softirqs deltas" \
		"$(get proc_tx)" "$(get trace_tx)"
	check_eq "$fmt: eth1's packets summed over its queue records = the $count datagrams sent" $count \
		"$(get packets)"
done
TAP_KIND=golden check_eq "text lines carry the fields of the JSON records, type by type" \
	"$(grep '^fields_' "$tmp/json.sums")" "$(grep '^fields_' "$tmp/text.sums")"

# --count: records (trace) and tables (top), exactly.
kind exact
"$NETPMU" trace --json -I 50 --count 7 >"$tmp/count.json" 2>"$tmp/count.err"
check_eq "trace --json -I 50 --count 7 writes 7 records" 7 "$(wc -l <"$tmp/count.json")"
TAP_KIND=golden check_eq "trace --count 7 says it wrote 7 records" "netpmu trace: 7 records" \
	"$(grep -o 'netpmu trace: [0-9]* records' "$tmp/count.err")"
"$NETPMU" trace -I 50 --count 7 >"$tmp/count.txt" 2>/dev/null
check_eq "trace -I 50 --count 7 (text) writes 7 lines" 7 "$(wc -l <"$tmp/count.txt")"
"$NETPMU" trace --per-poll --json --count 5 -d 60 >"$tmp/polls.json" 2>"$tmp/polls.err" &
pid=$!
wait_line "$tmp/polls.err" tracing
"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9001 --count $count \
	--size $size --gap-us 2000 >/dev/null
wait $pid
check_eq "trace --per-poll --count 5 over $count datagrams writes 5 poll records" 5 \
	"$(grep -c '"type":"poll"' "$tmp/polls.json")"
"$NETPMU" top -I 100 --count 3 >"$tmp/top.txt" 2>/dev/null
check_eq "top -I 100 --count 3 prints 3 tables" 3 "$(grep -c '^netpmu top ' "$tmp/top.txt")"

# A ninth -e: one line, the usage exit status.
kind golden
events=()
for i in $(seq 9); do events+=(-e "hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/"); done
"$NETPMU" trace "${events[@]}" -d 1 >/dev/null 2>"$tmp/nine.err"
check_eq "trace with 9 -e exits 2 (usage)" 2 $?
check_eq "trace with 9 -e says why in one line" "netpmu trace: at most 8 events (a PMU has 8 counters)" \
	"$(cat "$tmp/nine.err")"
