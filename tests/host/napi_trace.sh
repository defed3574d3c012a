#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The BPF object loads and attaches on this machine's own kernel and sees every
# packet of a known flow in veth's NAPI polls.
. "$(dirname "$0")/../lib/tap.sh"
. "$REPO/tests/lib/netns.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "napi_poll trace on this machine's kernel" "needs root for BPF and network namespaces"
	exit 0
fi

count=200 size=100
a=netpmu-a-$$ b=netpmu-b-$$
tmp=$(mktemp -d)
trap 'netns_pair_down $a $b; rm -rf "$tmp"' EXIT
netns_pair_up $a $b || { fail "veth pair between namespaces" "setup failed"; exit 0; }

"$NETPMU" trace --per-poll --json -d 6 >"$tmp/trace.json" 2>"$tmp/trace.err" &
trace_pid=$!
for _ in $(seq 50); do grep -q 'tracing' "$tmp/trace.err" 2>/dev/null && break; sleep 0.1; done
check_cmd "netpmu trace attaches to napi_poll on $(uname -r)" grep -q tracing "$tmp/trace.err"

ip netns exec $b "$REPO/tests/lib/udp_flow.py" recv --port 9000 --count $count --timeout 5 \
	--ready "$tmp/ready" >"$tmp/recv.out" &
recv_pid=$!
for _ in $(seq 50); do [ -e "$tmp/ready" ] && break; sleep 0.1; done
ip netns exec $a "$REPO/tests/lib/udp_flow.py" send --to 198.18.0.2 --port 9000 --count $count --size $size >/dev/null
wait $recv_pid
check_eq "receiver got the flow" "received $count datagrams $((count * size)) bytes" "$(cat "$tmp/recv.out")"
wait $trace_pid
check_eq "netpmu trace exits 0" 0 $?

polled=$(python3 - "$tmp/trace.json" <<'PY'
import json, sys
work = 0
for line in open(sys.argv[1]):
    rec = json.loads(line)
    if rec["dev"] == "vb":
        work += rec["work"]
print(work)
PY
)
check_eq "NAPI polls of vb processed exactly the $count packets sent" "$count" "$polled"
check_cmd "trace reports ring buffer drops (none)" grep -q ' 0 dropped' "$tmp/trace.err"
