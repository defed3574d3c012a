#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu top in the guest, not on a terminal: plain tables, the real IRQ of
# each queue, the HNS3 counters rotating over every queue of every function
# (oracle: the PCI NICs' queues in sysfs), and --dev narrowing both the rows
# and the rotation. Its per-interval figures are rates printed with little
# precision; each one x the interval printed beside it gives back the whole
# count when the print's error is below half a unit (checked per table), and
# the counts add up to the truth: eth1's interrupts (oracle: /proc/interrupts)
# its hardware RX frames and bytes (oracle: datagrams sent x frame size) and
# its function's PCIe DMA writes (oracle: kmod/hisi_pcie.md's TLP table).
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/irqs.sh"
plan 16
kind exact
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=400 size=500 frame=542
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
peer_bdf=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
rx_irq=$(irqs_of "$peer_virtio" input.0)

table_head='^netpmu top  t='
tables() { grep -c "$table_head" "$1"; }
# run_top OUTPUT ARGS...: top (0.5 s intervals) while $n datagrams flow to
# eth1, stopped with Ctrl-C once it printed two tables after the last
# datagram arrived: synchronised on the flow, however slow the machine
# (a fixed --count missed the end of the flow on a loaded host).
# "$OUTPUT.flow": whether top still ran when the last datagram arrived.
run_top() {
	local out=$1 pid t0
	shift
	"$NETPMU" top -I 500 --count 1000 "$@" >"$out" 2>"$out.err" &
	pid=$!
	# The flow starts once top printed its first table (it is attached by then).
	wait_until 30 lines_at_least "$out" "$table_head" 1
	"$UDP_FLOW" transfer --netns peer --to 198.51.100.2 --port 9000 --count $n \
		--size $size --gap-us 4000 >/dev/null
	if kill -0 $pid 2>/dev/null; then echo inside >"$out.flow"; else echo after >"$out.flow"; fi
	t0=$(tables "$out")
	wait_until 30 lines_at_least "$out" "$table_head" $((t0 + 2))
	wait_sigint_handled $pid && kill -INT $pid
	wait $pid
}

# --count N: N tables, then exit 0.
"$NETPMU" top -I 200 --count 3 >"$tmp/count.txt" 2>&1
TAP_KIND=golden check_eq "netpmu top -I 200 --count 3 exits 0 after 3 tables" "0 3" "$? $(tables "$tmp/count.txt")"

run_top "$tmp/top.txt"
TAP_KIND=golden check_eq "netpmu top exits 0 on Ctrl-C" 0 $?
TAP_KIND="weak: setup, the sums below need the whole flow inside" check_eq "the flow of $n datagrams ended while top ran" inside "$(cat "$tmp/top.txt.flow")"
check_cmd "eth1's RX queue 0 row carries its real IRQ (oracle: /proc/interrupts)" \
	grep -qE "^eth1 +0 +rx +[0-9]+ +$rx_irq " "$tmp/top.txt"

# Rotation: the functions the PMU counts are the PCI NICs in its BDF range;
# each has max(rx-*, tx-*) queues in sysfs. One target per table, in turn,
# advancing every table as top --help says: the queue map is read again in a
# thread of its own (session/queue_reader.c), so not even the debug cell's
# seconds-long reading holds a target.
pmu=/sys/bus/event_source/devices/hns3_pmu_sicl_0
{
	for ns in "" "ip netns exec peer"; do
		$ns sh -c 'for d in /sys/class/net/*/device; do
			[ -e "$d" ] || continue
			q=$(ls "${d%/device}/queues" | sed -n "s/^\(rx\|tx\)-//p" | sort -n | tail -n 1)
			f=$(readlink -f "$d")
			case $(basename "$f") in
			[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:*) ;;
			*) f=$(dirname "$f") ;;	# virtio: the PCI function is the parent
			esac
			echo "$(basename "$f") $((q + 1))"
		done'
	done
} >"$tmp/funcs"
python3 - "$tmp/top.txt" "$tmp/funcs" "$(cat $pmu/bdf_min 2>/dev/null || echo 0)" \
	"$(cat $pmu/bdf_max 2>/dev/null || echo 0xffff)" >"$tmp/rot" <<'PY'
import re, sys
heads = [re.search(r"queue (\d+) of (\S+) \((\d+) of (\d+) queues", l) for l in open(sys.argv[1])
         if l.startswith("netpmu top ")]
def bdf(name):
    if ":" not in name:
        return int(name, 0)
    bus, dev_fn = name.split(":")[-2:]
    dev, fn = dev_fn.split(".")
    return int(bus, 16) << 8 | int(dev, 16) << 3 | int(fn)
lo, hi = bdf(sys.argv[3]), bdf(sys.argv[4])
want = sorted((q, f) for f, nq in (l.split() for l in open(sys.argv[2]))
              if lo <= bdf(f) <= hi for q in range(int(nq)))
seen = [(int(h[1]), h[2]) for h in heads if h]
pos = [(int(h[3]), int(h[4])) for h in heads if h]
total = len(want)
unknown = sorted(set(seen) - set(want))
print("seen targets are queues in range, N = %d" % total if not unknown and all(n == total for _, n in pos)
      else f"unknown targets {unknown}, N {sorted(set(n for _, n in pos))}, want {want}")
# In turn: the next target or the same one again, never a skip (a check of
# its own, so that a held target and a skipped one fail apart).
turn = all(b[0] in (a[0], a[0] % total + 1) and b[1] == total for a, b in zip(pos, pos[1:])) and len(pos) > 1
print("in turn" if turn else f"positions {pos}")
print(f"  positions {[p[0] for p in pos]}", file=sys.stderr)
every = all(b[0] == a[0] % total + 1 for a, b in zip(pos, pos[1:])) and set(seen) == set(want)
print("advances every table, all covered" if every else
      f"held: {sum(a[0] == b[0] for a, b in zip(pos, pos[1:]))} of {len(pos) - 1} tables kept the target, "
      f"{len(set(seen))} of {total} covered")
PY
sed 's/^/  /' "$tmp/rot"
sed 's/^/  top stderr: /' "$tmp/top.txt.err" | head -n 10
targets=$(sed -n 1p "$tmp/rot" | awk '{ print $NF }')
check_eq "the rotation's targets are the queues of the PCI NICs in the PMU's range, N of them (oracle: sysfs queues, bdf_min..bdf_max)" \
	"seen targets are queues in range, N = $targets" "$(sed -n 1p "$tmp/rot")"
TAP_KIND=golden check_eq "one target per table, in turn, never skipping one (i of N)" "in turn" "$(sed -n 2p "$tmp/rot")"
TAP_KIND=golden check_eq "the rotation advances every table and covers all $targets queues, as top --help says (oracle: sysfs queues)" \
	"advances every table, all covered" "$(sed -n 3p "$tmp/rot")"

irq_before=$(irq_count "$rx_irq")
run_top "$tmp/dev.txt" --dev "$peer_bdf"
TAP_KIND=golden check_eq "netpmu top --dev BDF (eth1 lives in another namespace) exits 0" 0 $?
irq_delta=$(($(irq_count "$rx_irq") - irq_before))
TAP_KIND=golden check_cmd "--dev by PCI address: only that function's rows, its queue counted every interval" \
	sh -c "! grep -qE '^eth0 ' $tmp/dev.txt && grep -q 'queue 0 of $peer_bdf (1 of 1 queues' $tmp/dev.txt"
TAP_KIND=golden check_cmd "the header names both PMUs" grep -q 'hw: hns3_pmu_sicl_0 + hisi_pcie0_core0' "$tmp/dev.txt"
TAP_KIND="weak: setup, the sums below need the whole flow inside" check_eq "the flow of $n datagrams ended while top ran (else the sums below miss some)" inside \
	"$(cat "$tmp/dev.txt.flow")"

# eth1's RX row per table: IRQ/s, HW-RX-B/s, HW-RX-P/s x the interval. A
# rate below 1000 is printed to the unit, above as 1.2K (50/s): the count is
# rate x interval, exact after rounding when the print's error x interval
# plus the rate x the interval's own rounding (0.5 ms) stays below 0.5.
# PCIE-WR-B/s: eth1's DMA writes per frame, from kmod/hisi_pcie.md's TLP
# table: the frame in MPS pieces and a D-byte descriptor write-back, each
# with a 16-byte header (rx_mwr_flux,bdf=eth1, payload + header).
params=/sys/module/netpmu/parameters
mps=$(cat $params/pcie_mps) desc=$(cat $params/pcie_desc_bytes)
pcie_frame=$((frame + desc + 16 * ((frame + mps - 1) / mps + 1)))
python3 - "$tmp/dev.txt" $frame $pcie_frame >"$tmp/sums" <<'PY'
import re, sys
frame, pcie_frame = int(sys.argv[2]), int(sys.argv[3])
def human(v):
    if v == "-":
        return 0.0, 0.0
    m = re.fullmatch(r"([0-9.]+)([KMGT]?)", v.lstrip("~"))
    scale = 1000 ** " KMGT".index(m[2] or " ")
    return float(m[1]) * scale, (0.5 if scale == 1 else 0.05 * scale)
irqs = packets = frames_b = frames_pcie = 0
worst = 0.0
stale = 0
for line in open(sys.argv[1]):
    if line.startswith("netpmu top "):
        interval = float(re.search(r"interval ([0-9.]+) s", line)[1])
        continue
    f = line.split()
    if len(f) < 16 or f[0] != "eth1" or f[2] != "rx":
        continue
    hw = f[10:]
    if hw[0] == "~":
        stale += 1
        hw = hw[1:]
    elif hw[0].startswith("~"):
        stale += 1
    for value, unit, acc in ((f[5], 1, "irqs"), (hw[0], frame, "bytes"), (hw[2], 1, "packets"),
                             (hw[5], pcie_frame, "pcie")):
        rate, err = human(value)
        count = rate * interval / unit
        worst = max(worst, (err * interval + rate * 0.0005) / unit)
        if acc == "irqs":
            irqs += round(count)
        elif acc == "bytes":
            frames_b += round(count)
        elif acc == "pcie":
            frames_pcie += round(count)
        else:
            packets += round(count)
print(f"irqs {irqs}")
print(f"packets {packets}")
print(f"bytes {frames_b * frame}")
print(f"print error {'below 0.5' if worst < 0.5 else worst:} stale {stale}")
print(f"pcie {frames_pcie * pcie_frame}")
PY
sed 's/^/  /' "$tmp/sums"
TAP_KIND=golden check_eq "eth1's RX row: no stale or scaled (~) hardware figure while its queue is the only target" \
	"print error below 0.5 stale 0" "$(sed -n 4p "$tmp/sums")"
check_eq "eth1's RX row: IRQ/s x interval add up to its IRQ's count (oracle: /proc/interrupts delta)" \
	"irqs $irq_delta" "$(sed -n 1p "$tmp/sums")"
check_eq "eth1's RX row: HW-RX-P/s x interval add up to the $n datagrams sent (oracle: datagrams sent)" \
	"packets $n" "$(sed -n 2p "$tmp/sums")"
check_eq "eth1's RX row: HW-RX-B/s x interval add up to $n x $frame bytes (oracle: datagrams x frame size)" \
	"bytes $((n * frame))" "$(sed -n 3p "$tmp/sums")"
check_eq "eth1's RX row: PCIE-WR-B/s x interval add up to $n x $pcie_frame DMA-write bytes (oracle: hisi_pcie.md TLP table)" \
	"pcie $((n * pcie_frame))" "$(sed -n 5p "$tmp/sums")"
sed 's/^/  /' "$tmp/dev.txt" | grep -E '^  (netpmu|eth1 +0 +rx)' | head -n 30
