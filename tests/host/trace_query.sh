#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# trace's --where expressions and --agg aggregations with real BPF on this
# machine's kernel: two veth pairs get flows of 200 and 120 datagrams while
# five tracers run over the same polls: netpmu trace --per-poll --json (the
# records), netpmu with aggregations in text and in JSON, netpmu -I with
# per-interval sums, and bpftrace with the same maps on napi_poll (sum,
# lhist, stats and hist of work per veth, and count() of polls of 32 datagrams or
# more per veth and CPU: bpftrace's lines and netpmu's must be the same); and
# two more with a --where whose comparisons the kernel tests before the ring
# buffer, and the same tested in user space only (--no-kernel-filter): both
# keep exactly the polls the records give for it.
. "$(dirname "$0")/../lib/tap.sh"
plan 18
kind exact
. "$REPO/tests/lib/netns.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_checks 18 "trace --where/--agg on this machine's kernel" "needs root for BPF and network namespaces"
	exit 0
fi

n1=200 n2=120 size=100
a1=tq-a1-$$ b1=tq-b1-$$ a2=tq-a2-$$ b2=tq-b2-$$
# Device names of this run's own: BPF sees every namespace's devices.
va1=tqa$$ vb1=tqb$$ va2=tqc$$ vb2=tqd$$
tmp=$(mktemp -d)
pids=()
cleanup() {
	interrupt_and_reap "${pids[@]}"
	netns_pair_down $a1 $b1
	netns_pair_down $a2 $b2
	[ -n "${KEEP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT
if ! netns_pair_up $a1 $b1 $va1 $vb1 || ! netns_pair_up $a2 $b2 $va2 $vb2; then
	fail "two veth pairs between namespaces" "setup failed"
	exit 0
fi

# vb1's NAPI completes through a 200 us timer that reschedules it, twice,
# before it waits for an interrupt again (napi_defer_hard_irqs): its polls
# take several datagrams each, vb2's one.
ip netns exec $b1 sh -c "echo 2 >/sys/class/net/$vb1/napi_defer_hard_irqs && echo 200000 >/sys/class/net/$vb1/gro_flush_timeout"

both="dev == \"$vb1\" || dev == \"$vb2\""
"$NETPMU" trace --per-poll --json -d 120 >"$tmp/records.json" 2>"$tmp/records.err" &
pids+=($!)
"$NETPMU" trace --per-poll -d 120 --where "$both" --agg '@work[dev] = sum(work)' \
	--agg '@polls[dev] = count()' --agg "@w = lhist(work, 0, 64, 8)" --agg '@s[dev] = stats(work)' \
	--agg '@h = hist(work)' >"$tmp/agg.txt" 2>"$tmp/agg.err" &
pids+=($!)
"$NETPMU" trace --per-poll -d 120 --where "work >= 32 && ($both)" --agg '@busy[dev, cpu] = count()' \
	>"$tmp/busy.txt" 2>"$tmp/busy.err" &
pids+=($!)
"$NETPMU" trace --per-poll --json -d 120 --where "($both) && work >= 2" --agg 'count()' \
	--agg 'stats(work) by dev' >"$tmp/agg.json" 2>"$tmp/agg-json.err" &
pids+=($!)
"$NETPMU" trace -I 300 -d 120 --where "$both" --agg 'sum(packets) by dev' >"$tmp/intervals.txt" \
	2>"$tmp/intervals.err" &
pids+=($!)
in_kernel="dev == \"$vb1\" && work >= 1"
"$NETPMU" trace --per-poll --json -d 120 --where "$in_kernel" >"$tmp/kernel.json" 2>"$tmp/kernel.err" &
pids+=($!)
"$NETPMU" trace --per-poll --json -d 120 --where "$in_kernel" --no-kernel-filter >"$tmp/user.json" \
	2>"$tmp/user.err" &
pids+=($!)
have_bpftrace=0
if command -v bpftrace >/dev/null; then
	have_bpftrace=1
	# bpftrace finds tracepoints through tracefs (as tests/bench/run mounts it).
	[ -e /sys/kernel/tracing/events ] || mount -t tracefs tracefs /sys/kernel/tracing
	veths="str(args->dev_name) == \"$vb1\" || str(args->dev_name) == \"$vb2\""
	bpftrace -e "tracepoint:napi:napi_poll /$veths/ { @w = lhist(args->work, 0, 64, 8);
			@work[str(args->dev_name)] = sum(args->work);
			@s[str(args->dev_name)] = stats(args->work); @h = hist(args->work); }
		tracepoint:napi:napi_poll /args->work >= 32 && ($veths)/ {
			@busy[str(args->dev_name), cpu] = count(); }" \
		>"$tmp/bpftrace.txt" 2>"$tmp/bpftrace.err" &
	pids+=($!)
fi
attached() {
	grep -q tracing "$tmp/records.err" && grep -q tracing "$tmp/agg.err" &&
		grep -q tracing "$tmp/agg-json.err" && grep -q tracing "$tmp/intervals.err" &&
		grep -q tracing "$tmp/kernel.err" && grep -q tracing "$tmp/user.err" &&
		grep -q tracing "$tmp/busy.err" &&
		{ [ $have_bpftrace = 0 ] || grep -q Attaching "$tmp/bpftrace.txt"; }
}
wait_until 30 attached
TAP_KIND="weak: setup, the 'tracing' lines; the counts below are the evidence" \
	check_cmd "seven netpmu traces (and bpftrace, if installed) attached" attached

# Two senders at once, so that some polls find more than one datagram.
flow() { # NS_A NS_B PORT COUNT READY
	ip netns exec "$2" "$UDP_FLOW" recv --port "$3" --count "$4" --timeout 10 \
		--ready "$5" >"$5.out" &
	local recv=$! half=$(($4 / 2))
	wait_until 5 test -e "$5"
	ip netns exec "$1" "$UDP_FLOW" send --to 198.18.0.2 --port "$3" --count $half \
		--size $size >/dev/null &
	ip netns exec "$1" "$UDP_FLOW" send --to 198.18.0.2 --port "$3" \
		--count $(($4 - half)) --size $size >/dev/null
	wait $recv
}
flow $a1 $b1 9100 $n1 "$tmp/ready1" &
flow_pid=$!
flow $a2 $b2 9101 $n2 "$tmp/ready2"
wait $flow_pid
check_eq "both receivers got their flows" \
	"received $n1 datagrams $((n1 * size)) bytes; received $n2 datagrams $((n2 * size)) bytes" \
	"$(cat "$tmp/ready1.out"); $(cat "$tmp/ready2.out")"
# -I 300: two more intervals after the flows, so that their polls are in.
sleep 0.7
# A tool whose handler did not show in time still gets the signal: the test ends either way.
for pid in "${pids[@]}"; do wait_sigint_handled "$pid"; kill -INT "$pid" 2>/dev/null; done
wait "${pids[@]}"
pids=()

# The records' own view of the same polls.
python3 - "$tmp/records.json" "$vb1" "$vb2" >"$tmp/truth.txt" <<'PY'
import json, sys
recs = [r for r in map(json.loads, open(sys.argv[1])) if r.get("dev") in sys.argv[2:]]
work = {d: sum(r["work"] for r in recs if r["dev"] == d) for d in sys.argv[2:]}
polls = {d: sum(1 for r in recs if r["dev"] == d) for d in sys.argv[2:]}
# lhist(work, 0, 64, 8) as bpftrace buckets it: (..., 0), [0, 8), ... [56, 64), [64, ...)
buckets = [0] * 10
for r in recs:
    w = r["work"]
    buckets[0 if w < 0 else 9 if w >= 64 else w // 8 + 1] += 1
big = [r for r in recs if r["work"] >= 2]
print("work", *(work[d] for d in sys.argv[2:]))
print("polls", *(polls[d] for d in sys.argv[2:]))
print("buckets", *buckets)
print("big", len(big), *(sum(r["work"] for r in big if r["dev"] == d) for d in sys.argv[2:]))
PY
truth() { sed -n "s/^$1 //p" "$tmp/truth.txt"; }
read -r rec_work1 rec_work2 <<<"$(truth work)"
check_eq "the records: the two veths' polls processed the $n1 and $n2 datagrams sent" "$n1 $n2" "$rec_work1 $rec_work2"

agg_line() { sed -n "s/^@$1\[$2\]: //p" "$tmp/agg.txt"; }
check_eq "@work[dev] = sum(work): the $n1 and $n2 datagrams sent, per veth" "$n1 $n2" \
	"$(agg_line work "$vb1") $(agg_line work "$vb2")"
TAP_KIND="weak: against netpmu's own records of the same polls (a second tracer), not an independent count" \
	check_eq "@polls[dev] = count() equals the records' polls per veth" "$(truth polls)" \
	"$(agg_line polls "$vb1") $(agg_line polls "$vb2")"
# lhist's buckets as counts: the first to the last non-empty one.
hist_counts() { awk -F'|' '/^[[(]/ { split($1, f, " "); printf "%s%s", n++ ? " " : "", f[length(f)] }' "$1"; }
trimmed=$(python3 -c '
import sys
b = sys.argv[1:]
nz = [i for i, v in enumerate(b) if v != "0"]
print(" ".join(b[nz[0]:nz[-1] + 1]) if nz else "")' $(truth buckets))
TAP_KIND="weak: against netpmu's own records of the same polls (a second tracer), not an independent count" \
	check_eq "@w = lhist(work, 0, 64, 8): the buckets the records give" "$trimmed" \
	"$(sed -n '/^@w:$/,/^$/p' "$tmp/agg.txt" | hist_counts /dev/stdin)"
if [ $have_bpftrace = 1 ]; then
	check_eq "@w = lhist(work, 0, 64, 8): bpftrace's own lines over the same polls, bucket for bucket" \
		"$(sed -n '/^@w: *$/,/^$/p' "$tmp/bpftrace.txt" | grep '^[[(]')" \
		"$(sed -n '/^@w:$/,/^$/p' "$tmp/agg.txt" | grep '^[[(]')"
	# A map's lines: from its header (bpftrace 0.17 writes "@w: " with a space) to the blank line after;
	# bpftrace 0.17 leaves no blank line after a map of counts: the next map's name ends it too.
	map_lines() {
		awk -v m="$2" '/^@/ { on = $0 ~ "^" m "[:\\[]" } /^$/ { on = 0 } on { sub(/: $/, ":"); print }' "$1"
	}
	# In bpftrace's order: sums by value (200 and 120), stats by average (vb1's polls carry several
	# datagrams, vb2's one), a histogram's buckets.
	for m in @work @s @h; do
		check_eq "$m: bpftrace's own lines over the same polls, line for line, in its order" \
			"$(map_lines "$tmp/bpftrace.txt" $m)" "$(map_lines "$tmp/agg.txt" $m)"
	done
	# count()s of 1 or 2 tie: bpftrace leaves ties in no set order, so the lines are compared sorted.
	check_eq "@busy[dev, cpu] = count() of polls of 32 datagrams or more: bpftrace's own lines" \
		"$(map_lines "$tmp/bpftrace.txt" @busy | sort)" "$(map_lines "$tmp/busy.txt" @busy | sort)"
else
	skip "@w = lhist(work, 0, 64, 8): bpftrace's own lines over the same polls" "bpftrace is not installed"
	for m in @work @s @h @busy; do skip "$m: bpftrace's own lines" "bpftrace is not installed"; done
fi

read -r big_polls big1 big2 <<<"$(truth big)"
json_value() { python3 -c '
import json, sys
for line in open(sys.argv[1]):
    m = json.loads(line)
    if sys.argv[2] in m["data"]:
        v = m["data"][sys.argv[2]]
        # A key no record had is not in the map, as in bpftrace: 0.
        for k in sys.argv[3:]:
            v = v.get(k, 0) if isinstance(v, dict) else 0
        print(v)' "$tmp/agg.json" "$@"; }
TAP_KIND="weak: against netpmu's own records of the same polls (a second tracer), not an independent count" \
	check_eq "--json, --where '(...) && work >= 2': count() equals the records' polls of 2 packets or more" \
	"$big_polls" "$(json_value @count)"
TAP_KIND="weak: against netpmu's own records of the same polls (a second tracer), not an independent count" \
	check_eq "--json stats(work) by dev: the totals of those polls per veth" "$big1 $big2" \
	"$(json_value @stats_work "$vb1" total) $(json_value @stats_work "$vb2" total)"

# -I 300: one time line and map per interval; summed over them, the datagrams.
sum_intervals() { awk -v key="@sum_packets[$1]: " 'index($0, key) == 1 { n += substr($0, length(key) + 1) } END { print n + 0 }' "$tmp/intervals.txt"; }
check_eq "-I 300 sum(packets) by dev: summed over its intervals, the $n1 and $n2 datagrams" "$n1 $n2" \
	"$(sum_intervals "$vb1") $(sum_intervals "$vb2")"
TAP_KIND="weak: the form: a HH:MM:SS line before each interval's maps, more than one interval" \
	check_cmd "-I 300 prints a time line per interval (bpftrace's time())" \
	test "$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' "$tmp/intervals.txt")" -ge 2

# The kernel's filter: the polls kept are the records' polls that hold, one for one.
polls_of() { # FILE [DEV MIN_WORK]: "napi_id cpu work budget" of each poll (of DEV with work >= MIN_WORK), sorted
	python3 -c '
import json, sys
keep = lambda r: len(sys.argv) < 3 or (r["dev"] == sys.argv[2] and r["work"] >= int(sys.argv[3]))
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "poll" and keep(r)]
print(len(rows), "polls:", " ".join(sorted("%d/%d/%d/%d" % (r["napi_id"], r["cpu"], r["work"], r["budget"]) for r in rows)))' "$@"
}
expected=$(polls_of "$tmp/records.json" "$vb1" 1)
echo "# --where '$in_kernel': the records give ${expected%% polls:*} polls"
check_eq "--where '$in_kernel', both comparisons in the kernel: exactly the records' polls that hold" \
	"$expected" "$(polls_of "$tmp/kernel.json")"
check_eq "the same --where with --no-kernel-filter: exactly those polls" "$expected" "$(polls_of "$tmp/user.json")"
# Left out in the kernel: at least the veths' polls that fail it (the host's other NICs poll too).
failing=$(python3 -c '
import json, sys
print(sum(1 for r in map(json.loads, open(sys.argv[1])) if r.get("type") == "poll" and r["dev"] in sys.argv[3:]
          and not (r["dev"] == sys.argv[2] and r["work"] >= 1)))' "$tmp/records.json" "$vb1" "$vb1" "$vb2")
left_out=$(sed -n 's/.*: \([0-9]*\) polls left out in the kernel by \([0-9]*\) of.*/\1 \2/p' "$tmp/kernel.err")
echo "# the kernel left out ${left_out% *} polls; the veths' polls that fail the --where: $failing"
TAP_KIND=golden check_eq "the closing lines: the kernel left out, by 2 comparisons, at least the veths' $failing failing polls; with --no-kernel-filter, none" \
	"yes 2|0" \
	"$([ "${left_out% *}" -ge "$failing" ] 2>/dev/null && echo yes || echo "no: '$left_out'") ${left_out#* }|$(grep -c 'left out in the kernel' "$tmp/user.err")"
