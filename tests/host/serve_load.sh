#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve under load with real BPF on this machine's kernel: a flood of
# datagrams through a veth pair while eight clients scrape /metrics as fast
# as they can (text and OpenMetrics), one sends requests serve must refuse
# (unknown path, POST, a malformed request line, a request cut short), and
# serve reloads its config twice during the flood: unchanged (logrotate's
# SIGHUP), then with a new label. Both are taken in place, so serve's NAPI
# packets for the receiving veth are exactly the frames it received. A third
# reload changes the interval: a new session, which counts on. SIGTERM ends
# serve with status 0. tests/run's asan suite runs this with the ASan+UBSan
# loader: any sanitizer report fails that suite.
. "$(dirname "$0")/../lib/tap.sh"
plan 12
kind exact
. "$REPO/tests/lib/netns.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip_checks 12 "netpmu serve under load" "needs root for BPF and network namespaces"
	exit 0
fi

count=20000 size=200
a=sl-a-$$ b=sl-b-$$ va=sla$$ vb=slb$$
port=$((20000 + $$ % 20000))
tmp=$(mktemp -d)
serve_pid=
cleanup() {
	[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
	touch "$tmp/stop"
	wait 2>/dev/null
	netns_pair_down $a $b
	[ -n "${KEEP:-}" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"
}
trap cleanup EXIT
if ! netns_pair_up $a $b $va $vb; then
	fail "a veth pair between namespaces" "setup failed"
	exit 0
fi

cat >"$tmp/serve.yml" <<EOF
listen: 127.0.0.1:$port
interval: 200ms
devices: {include: [$vb]}
EOF
"$NETPMU" serve --config "$tmp/serve.yml" --json-log "$tmp/intervals.json" >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve_pid=$!
wait_line "$tmp/serve.err" serving
# Nothing below can pass without it: tap_run fails the missing checks.
if ! grep -q serving "$tmp/serve.err"; then
	fail "serve starts on 127.0.0.1:$port" "$(head -n 3 "$tmp/serve.err" | tr '\n' ' ')"
	exit 0
fi
TAP_KIND="weak: setup, the checks below are the evidence" pass "serve starts on 127.0.0.1:$port"

# Clients until $tmp/stop exists: 8 scrapers (every other one asks for
# OpenMetrics), and one that sends what serve must refuse. Each prints its
# tallies as one JSON line.
cat >"$tmp/clients.py" <<'EOF'
import http.client, json, os, socket, sys, threading
port, stop = int(sys.argv[1]), sys.argv[2]
tally = {"scrapes": 0, "whole": 0, "refused_as_expected": 0, "other": []}
lock = threading.Lock()
def note(key, what=None):
    with lock:
        if what is None:
            tally[key] += 1
        elif len(tally["other"]) < 5:
            tally["other"].append(what)
def scraper(openmetrics):
    headers = {"Accept": "application/openmetrics-text; version=1.0.0"} if openmetrics else {}
    while not os.path.exists(stop):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            c.request("GET", "/metrics", headers=headers)
            r = c.getresponse()
            body = r.read().decode()
        except Exception as e:
            note("other", f"scrape: {e!r}")
            continue
        finally:
            c.close()
        note("scrapes")
        end = "# EOF\n" if openmetrics else "\n"
        if r.status == 200 and "netpmu_build_info{" in body and body.endswith(end):
            note("whole")
        else:
            note("other", f"scrape: status {r.status}, {len(body)} bytes")
def refused():
    asks = [("GET", "/nothing", 404), ("POST", "/metrics", 405)]
    while not os.path.exists(stop):
        for method, path, want in asks:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                c.request(method, path)
                r = c.getresponse()
                r.read()
                if r.status == want:
                    note("refused_as_expected")
                else:
                    note("other", f"{method} {path}: status {r.status}")
            except Exception as e:
                note("other", f"{method} {path}: {e!r}")
            finally:
                c.close()
        for raw in (b"GARBAGE\r\n\r\n", b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Le"):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            try:
                s.sendall(raw)
                s.shutdown(socket.SHUT_WR)
                while s.recv(4096):
                    pass
                note("refused_as_expected")
            except Exception as e:
                note("other", f"raw request: {e!r}")
            finally:
                s.close()
threads = [threading.Thread(target=scraper, args=(i % 2 == 1,)) for i in range(8)]
threads.append(threading.Thread(target=refused))
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps(tally))
EOF
python3 "$tmp/clients.py" $port "$tmp/stop" >"$tmp/clients.json" 2>"$tmp/clients.err" &
clients_pid=$!

rx_before=$(ip netns exec $b cat /sys/class/net/$vb/statistics/rx_packets)
# A receiver that drops datagrams under load (a full socket buffer) does so
# after NAPI: vb's rx_packets are the truth serve must give.
ip netns exec $b "$UDP_FLOW" recv --port 9000 --count $count --timeout 3 \
	>"$tmp/recv.out" &
recv_pid=$!
sleep 0.3
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9000 --count $((count / 2)) \
	--size $size >/dev/null
kill -HUP $serve_pid
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9000 --count $((count / 2)) \
	--size $size >/dev/null &
send_pid=$!
sleep 0.2
echo "labels: {site: lab1}" >>"$tmp/serve.yml"
kill -HUP $serve_pid
wait $send_pid
wait $recv_pid
received=$(awk '{ print $2 }' "$tmp/recv.out")
rx=$(($(ip netns exec $b cat /sys/class/net/$vb/statistics/rx_packets) - rx_before))
sleep 1
touch "$tmp/stop"
wait $clients_pid

# vb's NAPI packets, summed over its queues, once an interval has closed
# after the last datagram.
# napi_packets [LABEL]: their sum, on the series that carry LABEL too.
napi_packets() {
	python3 - "$port" "$vb" "${1:-}" <<'EOF'
import re, sys, urllib.request
body = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10).read().decode()
total = 0
for line in body.splitlines():
    m = re.match(r'netpmu_napi_packets_total\{(.*)\} (\d+)$', line)
    if m and f'dev="{sys.argv[2]}"' in m.group(1) and sys.argv[3] in m.group(1):
        total += int(m.group(2))
print(total)
EOF
}
scrapes=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); print(t["scrapes"], t["whole"], t["refused_as_expected"], "; ".join(t["other"]))' "$tmp/clients.json" 2>/dev/null)
read -r n_scrapes n_whole n_refused others <<<"$scrapes"
TAP_KIND="weak: the clients' own tally, at least 100 scrapes taken under the flood" \
	check_cmd "eight clients scraped serve under the flood ($n_scrapes scrapes)" test "${n_scrapes:-0}" -ge 100
check_eq "every scrape was answered 200 with a whole exposition" "$n_scrapes" "$n_whole"
check_eq "nothing else went wrong for the clients" "" "${others:-}$(cat "$tmp/clients.err")"
TAP_KIND="weak: the refusing client's tally, at least 20 refusals" \
	check_cmd "unknown paths, POSTs, a malformed and a cut request were refused ($n_refused)" \
	test "${n_refused:-0}" -ge 20
check_eq "$vb's NAPI delivered all $count datagrams: its rx_packets moved by $count ($received reached the socket)" \
	$count $rx
check_eq "netpmu_napi_packets_total of $vb = the $count datagrams, across two reloads in place" $count \
	"$(napi_packets)"
check_eq "and every series of $vb carries the new label site=\"lab1\"" $count "$(napi_packets 'site="lab1"')"

# The new session says "no hardware series" once the old one's programs are
# detached and before its own attach: the datagrams wait for its BPF links
# (as many as this session has).
links() { bpftool link show | grep -c '^[0-9]*:'; }
links_attached=$(links)
sed -i 's/^interval: 200ms$/interval: 300ms/' "$tmp/serve.yml"
kill -HUP $serve_pid
session_attached() { lines_at_least "$tmp/serve.err" 'no hardware series' 2 && [ "$(links)" -ge "$links_attached" ]; }
wait_until 10 session_attached
more=1000
ip netns exec $a "$UDP_FLOW" send --to 198.18.0.2 --port 9000 --count $more --size $size \
	>/dev/null
sleep 1
check_eq "a new interval: a new session, which counts on from $count ($more datagrams more)" $((count + more)) \
	"$(napi_packets)"
kill -TERM $serve_pid
wait $serve_pid
rc=$?
serve_pid=
check_eq "SIGTERM: serve exits with status 0" 0 $rc
# No HNS3 PMU here: serve says so as each session starts.
check_eq "serve's stderr: serving, reloaded 3 times, 2 sessions without an HNS3 PMU" "1 3 2" \
	"$(grep -c '^netpmu serve: serving ' "$tmp/serve.err") $(grep -c '^netpmu serve: reloaded ' "$tmp/serve.err") $(grep -c '^netpmu serve: no hardware series: no HNS3 PMU' "$tmp/serve.err")"
check_eq "serve's stderr has those 6 lines only" 6 "$(wc -l <"$tmp/serve.err")"
