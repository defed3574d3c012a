#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# netpmu top in the guest, not on a terminal: plain tables, the real IRQ of
# each queue, the HNS3 counters rotating over every queue of every function
# (oracle: the PCI NICs' queues in sysfs), and --dev narrowing both the rows
# and the rotation. Its per-interval figures are rates printed with little
# precision; each one x the interval printed beside it gives back the whole
# count when the print's error is below half a unit (checked per table), and
# the counts add up to the truth: eth1's interrupts (oracle: /proc/interrupts)
# and its hardware RX frames and bytes (oracle: datagrams sent x frame size).
. "$(dirname "$0")/../lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=400 size=500 frame=542
peer_virtio=$(ip netns exec peer readlink -f /sys/class/net/eth1/device | xargs basename)
peer_bdf=$(ip netns exec peer readlink -f /sys/class/net/eth1/device/.. | xargs basename)
rx_irq=$(awk -F: -v n="$peer_virtio-input.0" '$0 ~ n { gsub(/ /, "", $1); print $1 }' /proc/interrupts)
irq_count() { awk -v irq="$rx_irq:" '$1 == irq { s = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }

# run_top OUTPUT COUNT ARGS...: top for COUNT intervals of 0.5 s while $n
# datagrams flow to eth1 (starting the flow's two Pythons takes seconds
# under TCG). "$OUTPUT.flow": whether top still ran when the last arrived.
run_top() {
	local out=$1 count=$2 pid
	shift 2
	"$NETPMU" top -I 500 --count "$count" "$@" >"$out" 2>"$out.err" &
	pid=$!
	# The flow starts once top printed its first table (it is attached by then).
	for _ in $(seq 100); do grep -q '^netpmu top ' "$out" && break; sleep 0.1; done
	"$REPO/tests/lib/udp_flow.py" transfer --netns peer --to 198.51.100.2 --port 9000 --count $n \
		--size $size --gap-us 4000 >/dev/null
	if kill -0 $pid 2>/dev/null; then echo inside >"$out.flow"; else echo after >"$out.flow"; fi
	wait $pid
}

run_top "$tmp/top.txt" 30
check_eq "netpmu top --count 30 exits 0" 0 $?
check_eq "prints 30 tables" 30 "$(grep -c '^netpmu top ' "$tmp/top.txt")"
check_eq "the flow of $n datagrams ended inside top's 30 intervals" inside "$(cat "$tmp/top.txt.flow")"
check_cmd "eth1's RX queue 0 row carries its real IRQ ($rx_irq; oracle: /proc/interrupts)" \
	grep -qE "^eth1 +0 +rx +[0-9]+ +$rx_irq " "$tmp/top.txt"

# Rotation: the functions the PMU counts are the PCI NICs in its BDF range;
# each has max(rx-*, tx-*) queues in sysfs. One target per table, in turn,
# all of them over the run.
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
print("targets", " ".join(f"{q}@{f}" for q, f in want))
print("seen", " ".join(f"{q}@{f}" for q, f in sorted(set(seen))))
total = len(want)
# In turn: the next target or the same one again (the rotation does not
# advance every interval: seen staying 1 to 4 tables under TCG), never a skip.
turn = all(b[0] in (a[0], a[0] % total + 1) and b[1] == total for a, b in zip(pos, pos[1:])) and len(pos) == 30
print("in turn" if turn else f"positions {pos}")
print(f"  positions {[p[0] for p in pos]}", file=sys.stderr)
PY
sed 's/^/  /' "$tmp/rot"
sed 's/^/  top stderr: /' "$tmp/top.txt.err" | head -n 10
check_eq "the HNS3 counters visit every queue of every function in range (oracle: sysfs queues, bdf_min..bdf_max)" \
	"$(sed -n 1p "$tmp/rot" | sed 's/^targets/seen/')" "$(sed -n 2p "$tmp/rot")"
check_eq "one target per table, in turn, never skipping one (i of N, N = the queues in range)" "in turn" "$(sed -n 3p "$tmp/rot")"

irq_before=$(irq_count)
run_top "$tmp/dev.txt" 30 --dev "$peer_bdf"
check_eq "netpmu top --dev $peer_bdf (eth1 lives in another namespace) exits 0" 0 $?
irq_delta=$(($(irq_count) - irq_before))
check_cmd "--dev by PCI address: only that function's rows, its queue counted every interval" \
	sh -c "! grep -qE '^eth0 ' $tmp/dev.txt && grep -q 'queue 0 of $peer_bdf (1 of 1 queues' $tmp/dev.txt"
check_cmd "the header names both PMUs" grep -q 'hw: hns3_pmu_sicl_0 + hisi_pcie0_core0' "$tmp/dev.txt"
check_eq "the flow of $n datagrams ended inside top's 30 intervals (else the sums below miss some)" inside \
	"$(cat "$tmp/dev.txt.flow")"

# eth1's RX row per table: IRQ/s, HW-RX-B/s, HW-RX-P/s x the interval. A
# rate below 1000 is printed to the unit, above as 1.2K (50/s): the count is
# rate x interval, exact after rounding when the print's error x interval
# plus the rate x the interval's own rounding (0.5 ms) stays below 0.5.
python3 - "$tmp/dev.txt" $frame >"$tmp/sums" <<'PY'
import re, sys
frame = int(sys.argv[2])
def human(v):
    if v == "-":
        return 0.0, 0.0
    m = re.fullmatch(r"([0-9.]+)([KMGT]?)", v.lstrip("~"))
    scale = 1000 ** " KMGT".index(m[2] or " ")
    return float(m[1]) * scale, (0.5 if scale == 1 else 0.05 * scale)
irqs = packets = frames_b = 0
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
    for value, unit, acc in ((f[5], 1, "irqs"), (hw[0], frame, "bytes"), (hw[2], 1, "packets")):
        rate, err = human(value)
        count = rate * interval / unit
        worst = max(worst, (err * interval + rate * 0.0005) / unit)
        if acc == "irqs":
            irqs += round(count)
        elif acc == "bytes":
            frames_b += round(count)
        else:
            packets += round(count)
print(f"irqs {irqs}")
print(f"packets {packets}")
print(f"bytes {frames_b * frame}")
print(f"print error {'below 0.5' if worst < 0.5 else worst:} stale {stale}")
PY
sed 's/^/  /' "$tmp/sums"
check_eq "eth1's RX row: no stale or scaled (~) hardware figure while its queue is the only target" \
	"print error below 0.5 stale 0" "$(sed -n 4p "$tmp/sums")"
check_eq "eth1's RX row: IRQ/s x interval add up to its IRQ's count (oracle: /proc/interrupts delta)" \
	"irqs $irq_delta" "$(sed -n 1p "$tmp/sums")"
check_eq "eth1's RX row: HW-RX-P/s x interval add up to the $n datagrams sent (oracle: datagrams sent)" \
	"packets $n" "$(sed -n 2p "$tmp/sums")"
check_eq "eth1's RX row: HW-RX-B/s x interval add up to $n x $frame bytes (oracle: datagrams x frame size)" \
	"bytes $((n * frame))" "$(sed -n 3p "$tmp/sums")"
pcie=$(awk '$1 == "eth1" && $3 == "rx" && $(NF) != "0" && $(NF) != "-" { print $(NF) }' "$tmp/dev.txt" | head -n 1)
case "$pcie" in
''|0) fail "eth1's PCIe DMA write bandwidth is shown while traffic flows" "$(cat "$tmp/dev.txt")" ;;
*) pass "eth1's PCIe DMA write bandwidth is shown while traffic flows ($pcie B/s)" ;;
esac
sed 's/^/  /' "$tmp/dev.txt" | grep -E '^  (netpmu|eth1 +0 +rx)' | head -n 30
