#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The BPF object loads and attaches on this machine's own kernel and sees every
# packet of a known flow in veth's NAPI polls.
. "$(dirname "$0")/../lib/tap.sh"
plan 12
kind exact
. "$REPO/tests/lib/netns.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_checks 12 "napi_poll trace on this machine's kernel" "needs root for BPF and network namespaces"
	exit 0
fi

count=200 size=100
a=netpmu-a-$$ b=netpmu-b-$$
# Device names of this run's own: BPF sees every namespace's devices.
va=nta$$ vb=ntb$$
tmp=$(mktemp -d)
trap 'netns_pair_down $a $b; rm -rf "$tmp"' EXIT
netns_pair_up $a $b $va $vb || { fail "veth pair between namespaces" "setup failed"; exit 0; }

"$NETPMU" trace --per-poll --json -d 6 >"$tmp/trace.json" 2>"$tmp/trace.err" &
trace_pid=$!
wait_line "$tmp/trace.err" tracing
TAP_KIND="weak: setup, its only output is the 'tracing' line; the counts below are the evidence" \
	check_cmd "netpmu trace attaches to napi_poll" grep -q tracing "$tmp/trace.err"

ip netns exec $b "$UDP_FLOW" recv --port 9000 --count $count --timeout 5 \
	--ready "$tmp/ready" >"$tmp/recv.out" &
recv_pid=$!
wait_until 5 test -e "$tmp/ready"
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9000 --count $count --size $size >/dev/null
wait $recv_pid
check_eq "receiver got the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
wait $trace_pid
TAP_KIND=golden check_eq "netpmu trace exits 0" 0 $?

polled=$(python3 - "$tmp/trace.json" "$vb" <<'PY'
import json, sys
work = 0
for line in open(sys.argv[1]):
    rec = json.loads(line)
    if rec["dev"] == sys.argv[2]:
        work += rec["work"]
print(work)
PY
)
check_eq "NAPI polls of the receiving veth processed exactly the $count packets sent" "$count" "$polled"
TAP_KIND=golden check_cmd "trace reports ring buffer drops (none)" grep -q ' 0 dropped' "$tmp/trace.err"

# Interval records joined in the kernel: the same flood, summed per queue.
"$NETPMU" trace --json -I 200 -d 5 >"$tmp/interval.json" 2>"$tmp/interval.err" &
trace_pid=$!
wait_line "$tmp/interval.err" tracing
ip netns exec $b "$UDP_FLOW" recv --port 9001 --count $count --timeout 4 \
	--ready "$tmp/ready2" >/dev/null &
recv_pid=$!
wait_until 5 test -e "$tmp/ready2"
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9001 --count $count --size $size >/dev/null
wait $recv_pid
wait $trace_pid
summed=$(python3 -c '
import json, sys
print(sum(r["packets"] for r in map(json.loads, open(sys.argv[1])) if r["type"] == "queue" and r.get("dev") == sys.argv[2]))
' "$tmp/interval.json" "$vb")
check_eq "interval records: the receiving veth's NAPI packets summed over the run = the $count sent" "$count" "$summed"

# netpmu top without any NIC PMU: software columns only, and it says so.
# The flow starts once top printed its first table (it is attached by then);
# top stops two tables after the flow ended (a fixed --count raced a slow
# sender under load).
table_head='^netpmu top '
tables() { grep -c "$table_head" "$tmp/top.txt"; }
"$NETPMU" top -I 300 >"$tmp/top.txt" 2>&1 &
top_pid=$!
wait_until 10 lines_at_least "$tmp/top.txt" "$table_head" 1
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9002 --count 50 --size 10 >/dev/null
t0=$(tables)
wait_until 10 lines_at_least "$tmp/top.txt" "$table_head" $((t0 + 2))
wait_sigint_handled $top_pid && kill -INT $top_pid
wait $top_pid
TAP_KIND=golden check_cmd "netpmu top runs without a NIC PMU and says software columns only" \
	grep -q 'no HNS3 PMU: software columns only' "$tmp/top.txt"
TAP_KIND="weak: presence of the row; top's figures over 300 ms tables are checked in the guest (top.sh)" \
	check_cmd "netpmu top shows the receiving veth's NAPI" grep -qE "^$vb " "$tmp/top.txt"

# bpftrace-style questions, no compiler: --where, --by, --hist over the same
# flood; stopped once the flood is in (a fixed -d raced a slow sender under load).
"$NETPMU" trace --per-poll --where dev=$vb --by dev -d 60 >"$tmp/by.txt" 2>"$tmp/by.err" &
by_pid=$!
"$NETPMU" trace --per-poll --where dev=$vb --hist work -d 60 >"$tmp/hist.txt" 2>"$tmp/hist.err" &
hist_pid=$!
wait_line "$tmp/by.err" tracing && wait_line "$tmp/hist.err" tracing
ip netns exec $b "$UDP_FLOW" recv --port 9003 --count $count --timeout 3 \
	--ready "$tmp/ready3" >/dev/null &
recv_pid=$!
wait_until 5 test -e "$tmp/ready3"
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9003 --count $count --size $size >/dev/null
wait $recv_pid
for pid in $by_pid $hist_pid; do wait_sigint_handled $pid && kill -INT $pid; done
wait $by_pid $hist_pid
check_cmd "--where dev=VETH --by dev sums the flood's packets (work=$count)" \
	grep -qE "^dev=$vb records=[0-9]+ work=$count( |$)" "$tmp/by.txt"
TAP_KIND=golden check_eq "--hist work prints a bpftrace-style histogram" "@work:" "$(head -n 1 "$tmp/hist.txt")"
in_hist=$(awk -F'|' 'NR > 1 && /\|/ { split($1, f, " "); n += f[length(f)] } END { print n + 0 }' "$tmp/hist.txt")
hist_polls=$(sed -n 's/^netpmu trace: \([0-9]*\) records.*/\1/p' "$tmp/hist.err")
TAP_KIND="weak: circular, against trace's own record count of the same run (no independent count of polls)" \
	check_eq "the histogram counts every poll it was given" "$hist_polls" "$in_hist"
out=$("$NETPMU" trace --by colour 2>&1)
TAP_KIND=golden check_eq "an unknown --by key is refused (status 2) naming the valid keys" \
	"2 netpmu trace: --by: 'colour' is not a key (valid: queue, cpu, irq, dev)" "$? $out"
