#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve under the real Prometheus server (Debian's, scraping every
# second on the guest's loopback): after known UDP flows to eth1 (queue 0,
# in namespace 'peer') Prometheus holds exactly the datagrams received on
# eth1's RX queue (netpmu_napi_packets_total), the frames x frame size the
# HNS3 PMU counted for that queue (netpmu_pmu_event_total, -e pinned on it
# through --config) and the interrupts /proc/interrupts counted; a SIGHUP
# reload keeps every series continuous (PromQL resets() = 0); promtool is
# clean on a scrape; OpenMetrics when asked; TLS and basic auth from an
# exporter-toolkit web config (401 on a wrong password); SIGTERM leaves no
# BPF program; an unprivileged run holding only CAP_BPF and CAP_PERFMON
# serves the same exact counts, and without -e the rotated func-queue series
# with their coverage.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/irqs.sh"
. "$(dirname "$0")/../lib/eth1.sh"
. "$(dirname "$0")/../lib/http.sh"
plan 20
kind exact
tmp=$(mktemp -d)
serve_pid= prom_pid= tls_pid=
cleanup() {
	for p in $serve_pid $prom_pid $tls_pid; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

port=9713 prom_port=9090 tls_port=9714
frame() { echo $(($1 + 42 > 60 ? $1 + 42 : 60)); }
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
peer_pci=$(eth1_pci)
bdf=$(hns3_bdf "$peer_pci")
rx_irq=$(irqs_of "$peer_virtio" input.0)
event="hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,bdf=$bdf,queue=0/"
rx='dev="eth1",queue="0",dir="rx"'

# TLS is the one GET that bash's /dev/tcp cannot make (tests/lib/http.sh).
cat >"$tmp/tls_get.py" <<'PY'
import base64, os, ssl, sys, urllib.error, urllib.request
# tls_get.py URL CAFILE USER:PASSWORD FILE...: for each pair, one GET with
# basic auth; FILE gets "STATUS CONTENT-TYPE | WWW-AUTHENTICATE", then the body.
SCALE = int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))
context = ssl.create_default_context(cafile=sys.argv[2])
for credentials, path in zip(sys.argv[3::2], sys.argv[4::2]):
    req = urllib.request.Request(sys.argv[1])
    req.add_header("Authorization", "Basic " + base64.b64encode(credentials.encode()).decode())
    try:
        r = urllib.request.urlopen(req, timeout=10 * SCALE, context=context)
        status, headers, body = r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        status, headers, body = e.code, e.headers, e.read().decode()
    with open(path, "w") as out:
        print(status, headers.get("Content-Type", ""), "|", headers.get("WWW-Authenticate", ""), file=out)
        out.write(body)
PY
# prom_value EXPR: the sum of the values of PromQL EXPR's result, or "none".
prom_value() {
	local query
	url_encode query "$1"
	[ "$(http_get "http://127.0.0.1:$prom_port/api/v1/query?query=$query" "$tmp/query")" = 200 ] || { echo none; return; }
	awk '{ n = split($0, parts, /"value":\[[0-9.e+-]+,"/)
		for (i = 2; i <= n; i++) { v = parts[i]; sub(/".*/, "", v); sum += v; found++ } }
		END { if (!found) print "none"; else if (sum == int(sum)) printf "%.0f\n", sum; else printf "%.6f\n", sum }' "$tmp/query"
}
# prom_at_least EXPR N: EXPR's value is a whole number, N or more.
prom_at_least() {
	local v
	v=$(prom_value "$1")
	[[ $v =~ ^[0-9]+$ ]] && [ "$v" -ge "$2" ]
}
# prom_wait_scrape_after SECONDS: until Prometheus holds a scrape taken at
# least SECONDS after now (30 s, scaled).
prom_wait_scrape_after() {
	wait_until 30 prom_at_least 'floor(timestamp(netpmu_build_info) * 1000)' \
		$((${EPOCHREALTIME/./} / 1000 + $1 * 1000))
}
# prom_settle EXPR TARGET: until EXPR reaches TARGET (a slow guest may be
# seconds behind; 60 s, scaled), then once more after a scrape a second
# later: what is printed is the settled value, an overcount included.
prom_settle() {
	wait_until 60 prom_at_least "$1" "$2"
	prom_wait_scrape_after 1
	prom_value "$1"
}

cat >"$tmp/prometheus.yml" <<EOF2
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: netpmu
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF2
printf 'events:\n  - %s\n' "$event" >"$tmp/serve.yml"

progs_before=$(bpftool prog show | grep -c '^[0-9]*:')
irqs_before=$(irq_count "$rx_irq")
"$NETPMU" serve --listen 127.0.0.1:$port -I 200 --config "$tmp/serve.yml" >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve_pid=$!
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address=127.0.0.1:$prom_port --log.level=warn >"$tmp/prom.log" 2>&1 &
prom_pid=$!
if ! wait_line "$tmp/serve.err" serving || ! prom_wait_scrape_after 0; then
	fail "netpmu serve and Prometheus start" "$(tr '\n' ' ' <"$tmp/serve.err") $(tail -n 3 "$tmp/prom.log" | tr '\n' ' ')"
	skip_checks 18 "netpmu serve under Prometheus" "the exporter or Prometheus did not start"
	exit 0
fi
TAP_KIND="weak: setup, the counts below are the evidence" check_eq "Prometheus scrapes netpmu serve (up = 1)" 1 \
	"$(prom_value 'up{job="netpmu"}')"

n=400 size=500
eth1_flow $n $size
check_eq "netpmu_napi_packets_total{$rx} = the $n datagrams received" $n \
	"$(prom_settle "netpmu_napi_packets_total{$rx}" $n)"
check_eq "netpmu_pmu_event_total of $event = $n x $(frame $size)" $((n * $(frame $size))) \
	"$(prom_settle 'netpmu_pmu_event_total{event="bw_ssu_rpu_byte_num",queue="0"}' $((n * $(frame $size))))"
check_eq "netpmu_irq_handled_total{irq=\"$rx_irq\"} = /proc/interrupts' delta" $(($(irq_count "$rx_irq") - irqs_before)) \
	"$(prom_value "netpmu_irq_handled_total{irq=\"$rx_irq\"}")"

kind golden
http_get "http://127.0.0.1:$port/metrics" "$tmp/scrape" >/dev/null
check_cmd "promtool check metrics is clean on a scrape" sh -c "promtool check metrics <'$tmp/scrape'"
om_status=$(http_get "http://127.0.0.1:$port/metrics" "$tmp/om" "Accept: application/openmetrics-text; version=1.0.0")
check_eq "OpenMetrics when the Accept header asks for it: its type, # EOF last" \
	"200 application/openmetrics-text; version=1.0.0; charset=utf-8|# EOF" \
	"$om_status $(http_header "$tmp/om" Content-Type)|$(tail -n 1 "$tmp/om")"

# SIGHUP reads the config again: the series go on from their totals.
kill -HUP $serve_pid
check_cmd "SIGHUP reloads the config" wait_line "$tmp/serve.err" reloaded
n2=150 size2=100
prom_wait_scrape_after 1 >/dev/null
eth1_flow $n2 $size2
kind exact
check_eq "after the reload: netpmu_napi_packets_total{$rx} = $n + $n2" $((n + n2)) \
	"$(prom_settle "netpmu_napi_packets_total{$rx}" $((n + n2)))"
check_eq "after the reload: netpmu_pmu_event_total = $n x $(frame $size) + $n2 x $(frame $size2)" \
	$((n * $(frame $size) + n2 * $(frame $size2))) \
	"$(prom_settle 'netpmu_pmu_event_total{event="bw_ssu_rpu_byte_num",queue="0"}' \
		$((n * $(frame $size) + n2 * $(frame $size2))))"
check_eq "no series reset in Prometheus' view (sum of resets() over 10 min)" 0 \
	"$(prom_value 'sum(resets(netpmu_napi_packets_total[10m])) + sum(resets(netpmu_napi_polls_total[10m])) + sum(resets(netpmu_irq_handled_total[10m])) + sum(resets(netpmu_pmu_event_total[10m]))')"

# TLS and basic auth, with a web config as node_exporter takes it.
kind golden
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 \
	-keyout "$tmp/tls.key" -out "$tmp/tls.crt" 2>/dev/null
# bcrypt at its lowest cost (2^4 rounds): the default 2^12 took seconds under TCG, in the
# test and in serve checking each request.
hash=$(python3 -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))' 2>/dev/null)
cat >"$tmp/web.yml" <<EOF2
tls_server_config:
  cert_file: tls.crt
  key_file: tls.key
basic_auth_users:
  prom: $hash
EOF2
"$NETPMU" serve --listen 127.0.0.1:$tls_port --web-config "$tmp/web.yml" >/dev/null 2>"$tmp/tls.err" &
tls_pid=$!
wait_line "$tmp/tls.err" serving
python3 "$tmp/tls_get.py" "https://127.0.0.1:$tls_port/metrics" "$tmp/tls.crt" prom:s3cret "$tmp/tls.ok" \
	prom:wrong "$tmp/tls.bad"
check_eq "TLS with the right password: 200 and the metrics" "200 text/plain; version=0.0.4; charset=utf-8 | |yes" \
	"$(head -n 1 "$tmp/tls.ok")|$(grep -q '^netpmu_build_info' "$tmp/tls.ok" && echo yes)"
check_eq "a wrong password: 401 asking for basic auth" "401 | Basic realm=\"netpmu\"" \
	"$(head -n 1 "$tmp/tls.bad" | sed 's/^401 [^|]*|/401 |/')"
http_get "http://127.0.0.1:$tls_port/metrics" "$tmp/tls.plain" >/dev/null
check_eq "plain HTTP to the TLS port gets no metrics" no \
	"$(grep -q '^netpmu_build_info' "$tmp/tls.plain" && echo yes || echo no)"
kill $tls_pid
wait $tls_pid
tls_pid=

kill -TERM $serve_pid
t0=$(date +%s%N)
wait $serve_pid
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
serve_pid=
echo "# SIGTERM to exit: $ms ms"
check_eq "SIGTERM: exit 0" 0 "$rc"
# Within a second is checked on a real kernel (tests/unit/serve-cli.sh); an
# emulated CPU sharing a loaded host takes 0.3-1.5 s to detach (measured).
TAP_KIND="weak: wall time in an emulated guest on a shared host: answered, not hung" check_eq \
	"SIGTERM: gone within 10 s in the guest" yes "$([ $ms -le 10000 ] && echo yes || echo "no: $ms ms")"
kind exact
check_eq "SIGTERM: no BPF program left (bpftool prog show)" "$progs_before" \
	"$(bpftool prog show | grep -c '^[0-9]*:')"

# Least privilege: only CAP_BPF and CAP_PERFMON, as nobody; no -e: the
# func-queue counters rotate over the queues.
# The same Prometheus scrapes the new exporter on the same port: the series'
# latest samples are its own once a scrape after its start is in (below).
# (setpriv execs netpmu: the pid signalled is the exporter's.)
as_nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
		--ambient-caps=-all,+bpf,+perfmon "$NETPMU" serve --listen 127.0.0.1:$port -I 200 "$@"
}
# Debian's perf_event_paranoid 3 lets only CAP_SYS_ADMIN count: said in one line.
paranoid=$(sysctl -n kernel.perf_event_paranoid)
sysctl -qw kernel.perf_event_paranoid=3
as_nobody -d 5 >/dev/null 2>"$tmp/paranoid.err"
rc=$?
TAP_KIND=golden check_eq "as nobody with perf_event_paranoid 3: exit 1, one line saying what to set" \
	"1 netpmu serve: kernel.perf_event_paranoid is 3, which only CAP_SYS_ADMIN passes (set it to 2 for CAP_BPF and CAP_PERFMON to do, or run as root)|" \
	"$rc $(tr '\n' '|' <"$tmp/paranoid.err")"
sysctl -qw kernel.perf_event_paranoid=2
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,+bpf,+perfmon \
	--ambient-caps=-all,+bpf,+perfmon "$NETPMU" serve --listen 127.0.0.1:$port -I 200 \
	>/dev/null 2>"$tmp/nobody.err" &
serve_pid=$!
wait_line "$tmp/nobody.err" serving
prom_wait_scrape_after 1 >/dev/null
n3=120 size3=300
eth1_flow $n3 $size3
check_eq "as nobody with CAP_BPF and CAP_PERFMON: netpmu_napi_packets_total{$rx} = $n3" $n3 \
	"$(prom_settle "netpmu_napi_packets_total{$rx}" $n3)"
# The rotation reaches the queues in its own time: up to 30 s (scaled) for both families.
rotated=no
wait_until 30 prom_at_least 'count(netpmu_counter_coverage_ratio > 0 <= 1) > 0 and
	count(netpmu_hns3_queue_rx_bytes_total) > 0' 1 && rotated=yes
TAP_KIND="weak: which queues the rotation reached depends on timing" check_eq \
	"without -e: rotated func-queue series with their coverage (0 < ratio <= 1)" yes "$rotated"
kill -TERM $serve_pid
wait $serve_pid
rc=$?
serve_pid=
sysctl -qw kernel.perf_event_paranoid="$paranoid"
kind golden
check_eq "as nobody: SIGTERM, exit 0, nothing on stderr but the serving line" \
	"0 netpmu serve: serving http://127.0.0.1:$port/metrics|" "$rc $(tr '\n' '|' <"$tmp/nobody.err")"
