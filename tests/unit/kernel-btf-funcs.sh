#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The loader's lookup of kernel functions in raw BTF (user/session/
# kernel_btf_funcs.c: which hooks `trace`, `top` and `serve` may fentry or
# kprobe), through the test driver tests/unit/btf_funcs_dump.c, against
# bpftool's dump of the same file (libbpf's parse): this machine's kernel BTF,
# a copy of it, and small BTF files made here, each with its function ids
# worked out by hand; then files it must refuse, each with its reason.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/test_driver.sh"
plan 13

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

build_test_driver btf_funcs_dump
dump=$DRIVER
vmlinux=/sys/kernel/btf/vmlinux

# bpftool_ids FILE NAME...: "NAME ID" of the first FUNC of each name in
# bpftool's dump of FILE (0 for none).
bpftool_ids() {
	local file=$1
	shift
	bpftool btf dump file "$file" | awk -v names="$*" '
		BEGIN { n = split(names, list, " "); for (i = 1; i <= n; i++) id[list[i]] = 0 }
		$2 == "FUNC" {
			name = substr($3, 2, length($3) - 2); sub(/^\[/, "", $1); sub(/\]$/, "", $1)
			if (name in id && !id[name]) id[name] = $1
		}
		END { for (i = 1; i <= n; i++) print list[i], id[list[i]] }'
}

kind exact
if [ ! -r "$vmlinux" ]; then
	skip_checks 4 "the kernel's BTF" "this kernel has no $vmlinux (CONFIG_DEBUG_INFO_BTF)"
else
	hooks='__napi_poll __napi_schedule __napi_schedule_irqoff net_rx_action'
	# 40 function names from the whole file, the last among them, spread so
	# that they fall in many 64 KiB windows of both sections; a struct's
	# name and an absent name (both 0).
	bpftool btf dump file "$vmlinux" | awk '$2 == "FUNC" { print substr($3, 2, length($3) - 2) }' >funcs
	sample=$(awk -v total="$(wc -l <funcs)" 'NR % int(total / 39) == 1 || NR == total' funcs | tr '\n' ' ')
	others="$sample sk_buff netpmu_no_such_function"
	check_eq "the hook functions' ids in this kernel's BTF are bpftool's" \
		"$(bpftool_ids "$vmlinux" $hooks)" "$("$dump" "$vmlinux" $hooks)"
	check_eq "41 functions from all over the file, a struct's name and an absent name: bpftool's ids" \
		"$(bpftool_ids "$vmlinux" $others)" "$("$dump" "$vmlinux" $others)"
	cp "$vmlinux" vmlinux.btf
	check_eq "a copy of the kernel's BTF in a regular file gives the same ids" \
		"$("$dump" "$vmlinux" $hooks $others)" "$("$dump" vmlinux.btf $hooks $others)"
	kind golden
	check_eq "the sample holds 41 names and ids none of them 0 (else the comparison above proves less)" \
		"41 0" "$("$dump" "$vmlinux" $sample | awk '{ n++; z += $2 == 0 } END { print n, z }')"
fi

# make_btf FILE [HOW]: a small raw BTF file. Types: 1 int, 2 a function
# prototype, 3 FUNC f, 4 STRUCT s with a member g, 5 FUNC g, 6 FUNC f again.
# HOW spoils it: magic, kind (type 4 an unknown kind), strings (no final
# NUL), members (type 4 claims more members than the section holds),
# truncated (the file cut inside the strings).
make_btf() {
	python3 - "$@" <<'PY'
import struct, sys
path, how = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
strs = b"\0int\0f\0s\0g\0"
off = {name: strs.index(b"\0" + name.encode() + b"\0") + 1 for name in ("int", "f", "s", "g")}
def info(kind, vlen=0): return (kind << 24) | vlen
types = struct.pack("<IIII", off["int"], info(1), 4, 32)             # 1 INT int, 32 bits
types += struct.pack("<III", 0, info(13), 1)                          # 2 FUNC_PROTO int (void)
types += struct.pack("<III", off["f"], info(12), 2)                   # 3 FUNC f
members = 1000 if how == "members" else 1
types += struct.pack("<III", off["s"], info(31 if how == "kind" else 4, members), 4)  # 4 STRUCT s
types += struct.pack("<III", off["g"], 1, 0)                          #   member g: int at 0
types += struct.pack("<III", off["g"], info(12), 2)                   # 5 FUNC g
types += struct.pack("<III", off["f"], info(12), 2)                   # 6 FUNC f (a second)
if how == "strings": strs = strs[:-1] + b"x"
hdr = struct.pack("<HBBIIIII", 0xeb9f if how != "magic" else 0x9feb, 1, 0, 24, 0, len(types), len(types), len(strs))
data = hdr + types + strs
if how == "truncated": data = data[:-3]
open(path, "wb").write(data)
PY
}

kind golden
make_btf small.btf
check_eq "a small BTF file: f is type 3 (the first of two), g type 5 (not its member of the same name), s and int no function" \
	"f 3 g 5 s 0 int 0" "$("$dump" small.btf f g s int | tr '\n' ' ' | sed 's/ $//')"
kind exact
check_eq "the small file's function ids are bpftool's" \
	"$(bpftool_ids small.btf f g s int)" "$("$dump" small.btf f g s int)"

kind golden
# refused FILE REASON: the reader refuses FILE, with REASON.
refused() {
	local out rc
	out=$("$dump" "$1" f g 2>&1)
	rc=$?
	check_eq "$1 is refused: $2" "btf_funcs_dump: $1: $2 (status 1)" "$out (status $rc)"
}
for how in magic kind strings members truncated; do
	make_btf "$how.btf" "$how"
done
: >empty.btf
refused empty.btf 'Invalid argument'
refused magic.btf 'Invalid argument'
refused truncated.btf 'Invalid argument'
refused kind.btf 'Protocol error'
refused strings.btf 'Protocol error'
refused members.btf 'Protocol error'
