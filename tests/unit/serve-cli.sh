#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve on this machine: its option errors (one line, exit 2), a bad
# --listen and a missing capability (one line, exit 1); as root, a real run
# on this kernel: a known UDP flow between two network namespaces counted
# exactly in netpmu_napi_packets_total, promtool clean on the text format,
# OpenMetrics when asked for, 404 elsewhere, a second instance on the same
# port refused, and SIGTERM answered with exit 0 within a second. And the
# split: netpmu maps none of the exporter's libraries; it runs netpmu-serve
# from beside itself, and says so in one line when it is not there.
. "$(dirname "$0")/../lib/tap.sh"
plan 26
kind golden
tmp=$(mktemp -d)
port=$((20000 + $$ % 20000))
a=netpmu-sa-$$ b=netpmu-sb-$$ va=nsa$$ vb=nsb$$
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	[ "$(id -u)" = 0 ] && netns_pair_down $a $b
	rm -rf "$tmp"
}
trap cleanup EXIT

# run ARGS...: rc, err (stderr, lines joined by |) and the number of stderr lines.
run() {
	timeout 20 "$NETPMU" serve "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	err=$(tr '\n' '|' <"$tmp/err")
	lines=$(wc -l <"$tmp/err")
}

run --help
check_eq "serve --help exits 0 and names the default address" "0 yes" \
	"$rc $(grep -q '127.0.0.1:9713' "$tmp/out" && echo yes)"
run --frobnicate
check_eq "an unknown option: exit 2, one line" \
	"2 netpmu serve: unknown option '--frobnicate' (see netpmu serve --help)|" "$rc $err"
run --max-series 0
check_eq "--max-series 0: exit 2, one line" "2 1" "$rc $lines"
run -e a -e b -e c -e d -e e -e f -e g -e h -e i
check_eq "a ninth -e: exit 2, one line" "2 netpmu serve: at most 8 events (a PMU has 8 counters)|" "$rc $err"
run --queue x
check_eq "--queue x: exit 2, one line" "2 1" "$rc $lines"
run --listen 127.0.0.1
check_eq "--listen without a port: exit 1, one line saying what is right" \
	"1 netpmu serve: --listen '127.0.0.1': not ADDR:PORT with a port 1..65535 (e.g. 127.0.0.1:9713, [::1]:9713, :9713)|" \
	"$rc $err"
run --listen 999.0.0.1:$port
check_eq "--listen with no IP address: exit 1, one line" "1 1" "$rc $lines"
run --listen 127.0.0.1:99999
check_eq "--listen with port 99999: exit 1" 1 "$rc"

# needed FILE: the shared libraries FILE names (readelf's NEEDED), sorted, joined by spaces.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(lib[a-z0-9_-]*\).*/\1/p' | sort | xargs
}
loader=$(readlink -f "$NETPMU")
check_eq "netpmu needs libbpf but no HTTP, YAML or bcrypt library; netpmu-serve needs all four" \
	"netpmu: no libmicrohttpd, libyaml, libcrypt|netpmu-serve: libbpf libcrypt libmicrohttpd libyaml-0" \
	"netpmu: $(needed "$loader" | grep -oE 'libmicrohttpd|libyaml|libcrypt' | xargs | sed 's/^$/no libmicrohttpd, libyaml, libcrypt/')|netpmu-serve: $(needed "$(dirname "$loader")/netpmu-serve" | grep -oE 'libbpf|libcrypt|libmicrohttpd|libyaml-0' | xargs)"
cp "$loader" "$tmp/netpmu"
"$tmp/netpmu" serve --help >"$tmp/out" 2>"$tmp/err"
rc=$?
check_eq "netpmu serve without netpmu-serve beside it: exit 1, one line naming where it looked" \
	"1 netpmu serve: cannot run $tmp/netpmu-serve: No such file or directory (it is installed beside netpmu)|" \
	"$rc $(tr '\n' '|' <"$tmp/err")"
# netpmu at a path of 4095 bytes, the most /proc/self/exe gives: readlink
# fills the buffer, so the path may be cut short, and is refused as such.
long=$(
	cd "$tmp" && mkdir long && cd long || exit 1
	left=$((4095 - ${#tmp} - 5 - 7))	# "/long", "/netpmu"
	while [ $left -gt 0 ]; do
		part=$(printf '%*s' $((left > 201 ? 200 : left - 1)) '' | tr ' ' d)
		mkdir "$part" && cd "$part" || exit 1
		left=$((left - ${#part} - 1))
	done
	cp "$loader" netpmu && ./netpmu serve --help 2>&1 >/dev/null
	echo "rc $? length $(($(pwd | wc -c) + 6))"	# pwd's newline for the slash
)
check_eq "netpmu serve from a 4095-byte path: exit 1, one line: the path may be cut short" \
	"netpmu serve: the path of netpmu (/proc/self/exe) is longer than 4094 bytes|rc 1 length 4095|" \
	"$(echo "$long" | tr '\n' '|')"
rm -rf "$tmp/long"

# A port held by another socket: the exporter says so in one line.
python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(); open(sys.argv[2], "w").close(); time.sleep(30)' \
	$port "$tmp/held" &
holder=$!
wait_until 5 test -e "$tmp/held"
run --listen 127.0.0.1:$port
kill $holder 2>/dev/null
wait $holder 2>/dev/null
check_eq "a port in use: exit 1, one line" \
	"1 netpmu serve: cannot listen on 127.0.0.1:$port: the address is in use (another netpmu serve? pick another with --listen)|" \
	"$rc $err"

if [ "$(id -u)" != 0 ]; then
	skip_checks 13 "netpmu serve on this machine's kernel" "needs root (BPF, network namespaces, setpriv)"
	exit 0
fi
. "$REPO/tests/lib/netns.sh"
. "$REPO/tests/lib/serve_labels.sh"

# Without CAP_BPF and CAP_PERFMON, one line names them.
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$NETPMU" serve --listen 127.0.0.1:$port \
	>/dev/null 2>"$tmp/err"
rc=$?
check_eq "unprivileged without capabilities: exit 1, one line naming them" \
	"1 netpmu serve: missing capability CAP_BPF and CAP_PERFMON (run as root, or grant CAP_BPF and CAP_PERFMON, e.g. setpriv --inh-caps +bpf,+perfmon --ambient-caps +bpf,+perfmon)|" \
	"$rc $(tr '\n' '|' <"$tmp/err")"

netns_pair_up $a $b $va $vb || { fail "veth pair between namespaces" "setup failed"; exit 0; }
count=300 size=200
url=http://127.0.0.1:$port
"$NETPMU" serve --listen 127.0.0.1:$port -I 200 --dev $vb --json-log "$tmp/log.jsonl" >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
wait_line "$tmp/serve.err" serving
ip netns exec $b "$UDP_FLOW" recv --port 9000 --count $count --timeout 5 \
	--ready "$tmp/ready" >"$tmp/recv.out" &
recv=$!
wait_until 5 test -e "$tmp/ready"
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9000 --count $count --size $size >/dev/null
wait $recv
# Two intervals after the last packet: every poll of the flow is in the totals.
sleep 0.6
curl -s "$url/metrics" >"$tmp/text"
packets=$(awk -v d="dev=\"$vb\"" '/^netpmu_napi_packets_total\{/ && index($0, d) { s += $2 } END { print s + 0 }' "$tmp/text")
kind exact
check_eq "netpmu_napi_packets_total of $vb = the $count datagrams sent" $count "$packets"
check_eq "--dev $vb: no other device's queue series" 0 \
	"$(grep '^netpmu_napi_polls_total{' "$tmp/text" | grep -vc "dev=\"$vb\"")"
check_eq "--json-log: the queue records' packets of $vb add up to $count" $count \
	"$(python3 -c 'import json, sys
print(sum(r["packets"] for r in map(json.loads, open(sys.argv[1])) if r["type"] == "queue" and r["dev"] == sys.argv[2]))' \
	"$tmp/log.jsonl" $vb)"
kind golden
# logrotate's convention: the file moved away, SIGHUP, a new one.
mv "$tmp/log.jsonl" "$tmp/log.jsonl.1"
kill -HUP $pid
wait_until 5 test -s "$tmp/log.jsonl"
check_eq "SIGHUP without --config: --json-log reopened, a new file with JSON lines, serving on" "yes yes" \
	"$([ -s "$tmp/log.jsonl" ] && head -n 1 "$tmp/log.jsonl" | python3 -c 'import json, sys; json.load(sys.stdin)' && echo yes) $(kill -0 $pid && echo yes)"
check_eq "every label name of the scrape ($(scrape_label_names "$tmp/text" | xargs)) is refused as a config label" \
	"" "$(labels_not_refused "$tmp/text" "$tmp" | xargs)"
check_cmd "promtool check metrics is clean on a scrape" sh -c "promtool check metrics <'$tmp/text'"
check_eq "text format: counter families named with _total, their HELP and TYPE first" \
	"# HELP netpmu_napi_packets_total Packets its NAPI polls processed.|# TYPE netpmu_napi_packets_total counter|" \
	"$(grep -A1 '^# HELP netpmu_napi_packets_total' "$tmp/text" | tr '\n' '|')"
check_eq "netpmu_build_info carries netpmu --version" "netpmu_build_info{version=\"$("$NETPMU" --version | cut -d' ' -f2)\"} 1" \
	"$(grep '^netpmu_build_info' "$tmp/text")"
curl -s -D "$tmp/om.head" -H 'Accept: application/openmetrics-text; version=1.0.0' "$url/metrics" >"$tmp/om"
check_eq "OpenMetrics when asked: its content type, TYPE without _total, samples with it, # EOF last" \
	"application/openmetrics-text; version=1.0.0; charset=utf-8|# TYPE netpmu_napi_packets counter|yes|# EOF" \
	"$(sed -n 's/^Content-Type: //Ip' "$tmp/om.head" | tr -d '\r')|$(grep '^# TYPE netpmu_napi_packets ' "$tmp/om")|$(grep -q '^netpmu_napi_packets_total{' "$tmp/om" && echo yes)|$(tail -n 1 "$tmp/om")"
check_eq "any other path: 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "$url/")"
run --listen 127.0.0.1:$port
check_eq "a second instance on the same port: exit 1, one line" \
	"1 netpmu serve: cannot listen on 127.0.0.1:$port: the address is in use (another netpmu serve? pick another with --listen)|" \
	"$rc $err"
kill -TERM $pid
t0=$(date +%s%N)
wait $pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
pid=
check_eq "SIGTERM: exit 0" 0 $rc
if [ $ms -le 1000 ]; then pass "SIGTERM: gone within a second ($ms ms)"; else fail "SIGTERM: gone within a second" "$ms ms"; fi
