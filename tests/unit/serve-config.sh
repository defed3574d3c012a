#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu serve's --config and --web-config files (user/serve/), through the
# test driver tests/unit/serve_config_dump.c: every key of a valid file read
# back exactly; for each kind of bad file the exact error line, its
# FILE:LINE:COLUMN worked out by hand from the file (the driver also fails a
# refused file that leaves its struct non-empty); bcrypt users checked
# against a published bcrypt test vector and hashes python3 makes here.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/test_driver.sh"
plan 73


tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

build_test_driver serve_config_dump
dump=$DRIVER

kind golden
# refuses MODE DESCRIPTION CONTENT EXPECTED: CONTENT (printf's %b) as bad.yaml
# is refused with exactly EXPECTED, status 1.
refuses() {
	local mode=$1 desc=$2 got rc
	printf '%b' "$3" >bad.yaml
	got=$("$dump" "$mode" bad.yaml 2>&1)
	rc=$?
	check_eq "$desc" "$4 (status 1)" "$got (status $rc)"
}

cat >full.yaml <<'EOF'
listen: 127.0.0.1:9713
interval: 2s                  # a comment
events:
  - hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/
  - "hisi_pcie0_core1/rx_mwr_bw,bdf=35:00.0/"
devices: { include: [eth2, "0000:35:00.0"], exclude: [eth0] }
queues:
  include: [0, 1, 65535]
  exclude: []
max_series: 10000000
labels: { site: lab1, rack_7: r7, _x: "a b" }
json_log: /var/log/netpmu/records.jsonl
EOF
check_eq "every key of a config file, read back" "listen 127.0.0.1:9713
interval_ms 2000
events 2
events[0] hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/
events[1] hisi_pcie0_core1/rx_mwr_bw,bdf=35:00.0/
include_devs 2
include_devs[0] eth2
include_devs[1] 0000:35:00.0
exclude_devs 1
exclude_devs[0] eth0
include_queues 3
include_queues[0] 0
include_queues[1] 1
include_queues[2] 65535
exclude_queues 0
max_series 10000000
labels 3
labels[0] site=lab1
labels[1] rack_7=r7
labels[2] _x=a b
json_log /var/log/netpmu/records.jsonl" "$("$dump" config full.yaml 2>&1)"

printf '{}\n' >empty-map.yaml
check_eq "an empty mapping sets nothing" "listen -
interval_ms 0
events 0
include_devs 0
exclude_devs 0
include_queues 0
exclude_queues 0
max_series 0
labels 0
json_log -" "$("$dump" config empty-map.yaml 2>&1)"

# interval VALUE MS: the duration's milliseconds.
for pair in 10ms:10 500ms:500 1s:1000 2m:120000 60m:3600000 1h:3600000; do
	printf 'interval: %s\n' "${pair%%:*}" >interval.yaml
	check_eq "interval ${pair%%:*} is ${pair#*:} ms" "interval_ms ${pair#*:}" \
		"$("$dump" config interval.yaml 2>&1 | grep '^interval_ms')"
done
for listen in '"[::1]:9713"' '"[::]:1"' 'localhost:65535' '0.0.0.0:9713'; do
	printf 'listen: %s\n' "$listen" >listen.yaml
	check_eq "listen $listen is taken" "listen $(echo "$listen" | tr -d '"')" \
		"$("$dump" config listen.yaml 2>&1 | grep '^listen')"
done

valid='listen, interval, events, devices, queues, max_series, labels, json_log'
refuses config "an unknown key, with the valid ones" 'listn: 127.0.0.1:9713\n' \
	"bad.yaml:1:1: unknown key 'listn' in the file (valid: $valid)"
refuses config "an unknown key under devices" 'devices:\n  include: [eth0]\n  inclde: [eth1]\n' \
	"bad.yaml:3:3: unknown key 'inclde' in devices (valid: include, exclude)"
refuses config "events as one string, not a list" 'interval: 1s\nevents: hns3_pmu_sicl_0/bw_ssu_rpu_byte_num/\n' \
	"bad.yaml:2:9: events is a single value (a list of event strings, e.g. hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/)"
refuses config "devices as a list, not a mapping" 'devices: [eth0]\n' \
	"bad.yaml:1:10: devices is a list (a mapping of include and/or exclude lists)"
refuses config "labels as a list" 'labels:\n  - site\n' \
	"bad.yaml:2:3: labels is a list (a mapping of label names to values)"
refuses config "a duplicate key, with the first one's place" 'max_series: 10\nlabels: {site: a}\nmax_series: 20\n' \
	"bad.yaml:3:1: duplicate key 'max_series' in the file (first at 1:1; give each key once)"
refuses config "a duplicate label" 'labels:\n  site: a\n  rack: b\n  site: c\n' \
	"bad.yaml:4:3: duplicate key 'site' in labels (first at 2:3; give each key once)"
refuses config "interval below 10ms" 'interval: 9ms\n' \
	"bad.yaml:1:11: interval '9ms' is out of range (10ms to 1h)"
refuses config "interval above 1h" 'interval: 61m\n' \
	"bad.yaml:1:11: interval '61m' is out of range (10ms to 1h)"
refuses config "interval of 11 digits" 'interval: 99999999999ms\n' \
	"bad.yaml:1:11: interval '99999999999ms' is out of range (10ms to 1h)"
refuses config "interval without a unit" 'interval: 100\n' \
	"bad.yaml:1:11: interval '100' is not a duration (a whole number and a unit ms, s, m or h, from 10ms to 1h: 500ms, 2s, 1m)"
refuses config "max_series 0" 'max_series: 0\n' \
	"bad.yaml:1:13: max_series '0' is out of range (a whole number from 1 to 10000000)"
refuses config "max_series above 10000000" 'max_series: 10000001\n' \
	"bad.yaml:1:13: max_series '10000001' is out of range (a whole number from 1 to 10000000)"
refuses config "max_series not a number" 'max_series: 1e6\n' \
	"bad.yaml:1:13: max_series '1e6' is not a whole number (from 1 to 10000000)"
refuses config "a queue above 65535" 'queues:\n  include: [0, 65536]\n' \
	"bad.yaml:2:16: queues.include entry 2 '65536' is out of range (a whole number from 0 to 65535)"
refuses config "a negative queue" 'queues: {exclude: [-1]}\n' \
	"bad.yaml:1:20: queues.exclude entry 1 '-1' is not a whole number (from 0 to 65535)"
refuses config "a label name with a -" 'labels: {rack-id: r7}\n' \
	"bad.yaml:1:10: label name 'rack-id' has a character other than letters, digits and _ (a letter or _, then letters, digits or _; not __ first)"
refuses config "a label name with a digit first" 'labels:\n  site: a\n  7rack: b\n' \
	"bad.yaml:3:3: label name '7rack' does not start with a letter or _ (a letter or _, then letters, digits or _; not __ first)"
refuses config "a label name starting with __" 'labels: {__name__: x}\n' \
	"bad.yaml:1:10: label name '__name__' starts with __, which Prometheus keeps for itself (a letter or _, then letters, digits or _; not __ first)"
refuses config "a label netpmu's series carry" 'labels: {queue: q}\n' \
	"bad.yaml:1:10: label name 'queue' is one of netpmu's own labels (another name than dev, queue, dir, irq, cpu, vec, pmu, event, bdf, port, tc, intr, global, func, thr_len, thr_mode, len_mode, trig_len, trig_mode, subevent, event_id, target, root_port, endpoint, what, prog, table, version, quantile, le)"
refuses config "a label without a value" 'labels: {site: }\n' \
	"bad.yaml:1:16: label site is empty (a non-empty value)"
refuses config "an empty event string" "events:\n  - hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/\n  - ''\n" \
	"bad.yaml:3:5: events entry 2 is empty (an event string, e.g. hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/)"
refuses config "an empty json_log" 'json_log:\n' \
	"bad.yaml:1:10: json_log is empty (a file name)"
refuses config "listen without a port" 'listen: 9713\n' \
	"bad.yaml:1:9: listen '9713' is not HOST:PORT (e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "listen on port 65536" 'listen: 127.0.0.1:65536\n' \
	"bad.yaml:1:9: listen '127.0.0.1:65536' has no port from 1 to 65535 (HOST:PORT, e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "listen on port 0" 'listen: "[::1]:0"\n' \
	"bad.yaml:1:9: listen '[::1]:0' has no port from 1 to 65535 (HOST:PORT, e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "a newline in a value is shown escaped: the error stays one line" 'listen: "a\\nb:0"\n' \
	"bad.yaml:1:9: listen 'a\\x0ab:0' is not HOST:PORT (e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "an IPv6 listen address outside brackets" 'listen: ::1:9713\n' \
	"bad.yaml:1:9: listen '::1:9713' has an IPv6 address outside brackets (HOST:PORT, e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "a bracketed listen address that is no IPv6 address" 'listen: "[::1::2]:9713"\n' \
	"bad.yaml:1:9: listen '[::1::2]:9713': '::1::2' is no IPv6 address (HOST:PORT, e.g. 127.0.0.1:9713 or [::1]:9713)"
refuses config "an empty file" '' \
	"bad.yaml:1:1: empty document (a mapping of the keys $valid)"
refuses config "a document that is a list" '- listen\n' \
	"bad.yaml:1:1: the document is a list (a mapping of the keys $valid)"
refuses config "a second document" 'listen: a:1\n---\nlisten: b:2\n' \
	"bad.yaml:2:1: a second YAML document (one document per file)"
refuses config "a flow list left open: libyaml's problem and mark" 'listen: [127.0.0.1:9713\n' \
	"bad.yaml:2:1: did not find expected ',' or ']' while parsing a flow sequence (valid YAML)"
refuses config "a tab as indentation" 'labels:\n\tsite: a\n' \
	"bad.yaml:2:1: found character that cannot start any token while scanning for the next token (valid YAML)"
refuses config "a byte that is no UTF-8, at its column" 'listen: \xff\n' \
	"bad.yaml:1:9: invalid leading UTF-8 octet #FF (valid YAML in UTF-8)"
# 40 levels of "[": the root mapping is level 1, the 32nd "[" (column 9 + 31) level 33.
refuses config "nesting deeper than 32 levels" "events: $(printf '[%.0s' {1..40})\n" \
	"bad.yaml:1:40: nested deeper than 32 levels (a config nests 3 at most)"
refuses config "a duplicate anchor, with both places" 'a: &x 1\nb: &x 2\n' \
	"bad.yaml:2:4: found duplicate anchor; first occurrence at 1:4, second occurrence here (valid YAML)"

got=$("$dump" config missing.yaml 2>&1)
check_eq "a file that does not exist" \
	"missing.yaml: cannot read: No such file or directory (a readable YAML file) (status 1)" "$got (status $?)"
mkdir folder.yaml
got=$("$dump" config folder.yaml 2>&1)
check_eq "a folder" "folder.yaml: not a regular file (a readable YAML file) (status 1)" "$got (status $?)"
# 1 MiB exactly is taken, one byte more is not: a comment, then the 15
# bytes "\nmax_series: 7\n".
{ printf '#'; head -c $((1048576 - 1 - 15)) /dev/zero | tr '\0' x; printf '\nmax_series: 7\n'; } >mib.yaml
check_eq "a file of 1 MiB exactly is read" "max_series 7" "$("$dump" config mib.yaml 2>&1 | grep '^max_series')"
{ printf ' '; cat mib.yaml; } >over.yaml
got=$("$dump" config over.yaml 2>&1)
check_eq "a file of 1 MiB and 1 byte is refused" \
	"over.yaml: larger than 1 MiB (a readable YAML file of at most 1048576 bytes) (status 1)" "$got (status $?)"

# The web config: PEM-shaped files (the reader checks the -----BEGIN only)
# beside it, named relative to its folder, loaded from another folder.
mkdir -p etc/tls elsewhere
printf -- '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' >etc/tls/tls.crt
printf -- '-----BEGIN PRIVATE KEY-----\nMIGH\n-----END PRIVATE KEY-----\n' >etc/tls/tls.key
# The published crypt_blowfish test vector: "U*U" with this $2a$ salt.
vector='$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'
cat >etc/web.yml <<EOF
tls_server_config:
  cert_file: tls/tls.crt
  key_file: $tmp/etc/tls/tls.key
basic_auth_users:
  alice: $vector
EOF
got=$(cd elsewhere && "$dump" web ../etc/web.yml --check alice 'U*U' --check alice 'U*V' \
	--check bob 'U*U' --check '' '' 2>&1)
check_eq "a web config read back, its files relative to its folder" "cert_pem 59 bytes, -----BEGIN CERTIFICATE-----
key_pem 59 bytes, -----BEGIN PRIVATE KEY-----
users 1
users[0] alice $vector" "$(head -n 4 <<<"$got")"
TAP_KIND=exact check_eq "the bcrypt test vector's password is accepted" "check alice: accepted" \
	"$(sed -n 5p <<<"$got")"
check_eq "a wrong password is refused" "check alice: refused" "$(sed -n 6p <<<"$got")"
check_eq "an unknown user is refused, with a configured user's password" "check bob: refused" \
	"$(sed -n 7p <<<"$got")"
check_eq "an empty user is refused" "check : refused" "$(sed -n 8p <<<"$got")"

# Hashes made here by python3's crypt (libxcrypt underneath): $2b$ and $2y$.
hash_of() {
	python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], sys.argv[2] + crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)[4:]))' "$@" 2>/dev/null
}
if b=$(hash_of 'carol pass' '$2b$') && y=$(hash_of 's3cret:x' '$2y$') && [ ${#b} = 60 ] && [ ${#y} = 60 ]; then
	printf 'basic_auth_users:\n  carol: %s\n  dave: "%s"\n' "$b" "$y" >etc/users.yml
	got=$("$dump" web etc/users.yml --check carol 'carol pass' --check dave 's3cret:x' \
		--check carol 's3cret:x' --check dave 'carol pass' --check eve 'carol pass' 2>&1)
	check_eq "python3's \$2b\$ and \$2y\$ hashes: right passwords in, wrong ones and unknown users out" \
		"cert_pem -
key_pem -
users 2
users[0] carol $b
users[1] dave $y
check carol: accepted
check dave: accepted
check carol: refused
check dave: refused
check eve: refused" "$got"
else
	skip "python3's \$2b\$ and \$2y\$ hashes" "python3 has no crypt module making bcrypt here"
fi

# An unknown user costs a bcrypt run as a known one does (cost 11: about
# 0.1 s a run here), so that timing does not tell which users exist. CPU
# time, not wall time: a loaded machine stretches the latter (399 against
# 1930 ms once), not the work done.
kind weak 'a CPU-time ratio: the unknown user must cost at least half the known one'
printf 'basic_auth_users:\n  slow: %s\n' "$(hash_of x '$2b$' | sed 's/^\$2b\$04/$2b$11/')" >etc/slow.yml
# cpu_ms USER: the CPU time (user + system, ms) of two checks of USER.
cpu_ms() {
	local TIMEFORMAT='%3U %3S' t
	t=$({ time "$dump" web etc/slow.yml --check "$1" y --check "$1" y >/dev/null; } 2>&1)
	awk '{ printf "%d", ($1 + $2) * 1000 }' <<<"$t"
}
if grep -q '\$2b\$11\$' etc/slow.yml; then
	known=$(cpu_ms slow) unknown=$(cpu_ms nobody)
	if [ $((unknown * 2)) -ge "$known" ] && [ "$known" -ge 100 ]; then
		pass "an unknown user costs a bcrypt run ($unknown ms of CPU against $known ms)"
	else
		fail "an unknown user costs a bcrypt run" "$unknown ms of CPU against $known ms for a known user"
	fi
else
	skip "an unknown user costs a bcrypt run" "python3 has no crypt module making bcrypt here"
fi

kind golden
refuses web "a missing cert_file, named with its folder" 'tls_server_config:\n  cert_file: tls.crt\n  key_file: tls.key\n' \
	"bad.yaml:2:14: cert_file ./tls.crt: cannot read: No such file or directory (a readable PEM file)"
refuses web "a missing key_file, by absolute name" "tls_server_config:\n  cert_file: $tmp/etc/tls/tls.crt\n  key_file: /nonexistent/tls.key\n" \
	"bad.yaml:3:13: key_file /nonexistent/tls.key: cannot read: No such file or directory (a readable PEM file)"
refuses web "a key file that is not PEM" "tls_server_config:\n  cert_file: $tmp/etc/tls/tls.crt\n  key_file: $tmp/full.yaml\n" \
	"bad.yaml:3:13: key_file $tmp/full.yaml: not PEM (a file with a -----BEGIN ...----- block)"
refuses web "a cert_file without key_file" "tls_server_config:\n  cert_file: $tmp/etc/tls/tls.crt\n" \
	"bad.yaml:2:3: tls_server_config has no key_file (both cert_file and key_file)"
refuses web "client_auth_type: the toolkit's key refused by name" "tls_server_config:\n  cert_file: $tmp/etc/tls/tls.crt\n  client_auth_type: RequireAndVerifyClientCert\n" \
	"bad.yaml:3:3: tls_server_config: client_auth_type is not implemented by netpmu serve (remove it; tls_server_config takes cert_file and key_file only)"
refuses web "http_server_config refused by name" 'http_server_config:\n  http2: false\n' \
	"bad.yaml:1:1: http_server_config is not implemented by netpmu serve (remove it; the file takes tls_server_config and basic_auth_users only)"
refuses web "an unknown key in the web config" 'basic_auth_user: {}\n' \
	"bad.yaml:1:1: unknown key 'basic_auth_user' in the file (valid: tls_server_config, basic_auth_users)"
bcrypt_want='a bcrypt hash: $2a$, $2b$ or $2y$, a cost from 04 to 31, $, then 53 characters of ./0-9A-Za-z, as htpasswd -nbB makes'
refuses web "a SHA-512 crypt hash" 'basic_auth_users:\n  alice: $6$salt$abc\n' \
	"bad.yaml:2:10: the hash of user alice is not bcrypt ($bcrypt_want)"
refuses web "a \$2x\$ hash" 'basic_auth_users:\n  alice: $2x$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW\n' \
	"bad.yaml:2:10: the hash of user alice is not bcrypt ($bcrypt_want)"
refuses web "a bcrypt cost of 03" 'basic_auth_users:\n  alice: $2b$03$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW\n' \
	"bad.yaml:2:10: the hash of user alice is not bcrypt ($bcrypt_want)"
refuses web "a user name with a colon" 'basic_auth_users:\n  "a:b": $2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW\n' \
	"bad.yaml:2:3: user name 'a:b' has a ':' (a name without ':', which Basic auth splits at)"
refuses web "a user twice" "basic_auth_users:\n  alice: $vector\n  alice: $vector\n" \
	"bad.yaml:3:3: duplicate key 'alice' in basic_auth_users (first at 2:3; give each key once)"
