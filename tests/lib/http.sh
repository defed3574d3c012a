# SPDX-License-Identifier: GPL-2.0
# HTTP GETs for the guest scripts, in bash over /dev/tcp: the arm64 guest root
# has no curl, and a Python client's start (urllib's imports) took 1.2-1.5 s
# in a TCG guest, most of serve_removal.sh's minute. Plain HTTP/1.0, one
# request a connection; TLS is left to the scripts that test it.
# The wait for each read is 10 s times NETPMU_TIMEOUT_SCALE.

# http_get URL FILE [HEADER...]: the body into FILE, the status line and
# headers (CR stripped) into FILE.head; prints the status code, 0 when
# nothing answered (FILE then empty).
http_get() {
	local url=$1 file=$2 wait=$((10 * ${NETPMU_TIMEOUT_SCALE:-1})) hostport path fd line request status=0
	shift 2
	hostport=${url#http://}
	path=/${hostport#*/}
	[ "$hostport" = "${hostport#*/}" ] && path=/
	hostport=${hostport%%/*}
	: >"$file"
	: >"$file.head"
	if ! { exec {fd}<>"/dev/tcp/${hostport%:*}/${hostport##*:}"; } 2>/dev/null; then
		echo 0
		return 0
	fi
	# A server that has closed already (a TLS port asked in plain HTTP) must
	# not end the script with SIGPIPE: the answer read below says what came.
	request="GET $path HTTP/1.0"$'\r\n'"Host: $hostport"$'\r\n'"Connection: close"$'\r\n'
	for line in "$@"; do request+=$line$'\r\n'; done
	trap '' PIPE
	printf '%s\r\n' "$request" >&"$fd" 2>/dev/null
	trap - PIPE
	if IFS= read -r -t "$wait" line <&"$fd" 2>/dev/null; then
		line=${line%$'\r'}
		[[ $line =~ ^HTTP/[0-9.]+\ ([0-9]{3}) ]] && status=${BASH_REMATCH[1]}
		echo "$line" >"$file.head"
		while IFS= read -r -t "$wait" line <&"$fd" 2>/dev/null; do
			line=${line%$'\r'}
			[ -z "$line" ] && break
			echo "$line" >>"$file.head"
		done
		timeout "$wait" cat <&"$fd" >"$file"
	fi
	exec {fd}>&-
	echo "$status"
}

# http_header FILE NAME: the value of header NAME of http_get's answer in FILE.
http_header() {
	awk -v name="$2" 'tolower(substr($0, 1, length(name) + 1)) == tolower(name ":") {
		sub(/^[^:]*: */, ""); print; exit }' "$1.head"
}

# url_encode VAR STRING: STRING percent-encoded (a query's value) into VAR.
url_encode() {
	local -n out=$1
	local s=$2 c i LC_ALL=C
	out=
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case "$c" in
		[A-Za-z0-9._~-]) out+=$c ;;
		*) printf -v c '%%%02X' "'$c"; out+=$c ;;
		esac
	done
}
