#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: exact counts of hns3_pmu_sicl_0 under the real `perf stat` for
# known UDP flows (tests/lib/udp_flow.c) in both directions at once, frame
# bytes = max(payload + 42, 60) (kmod/README.md): global, port, port-tc, func
# and func-queue bytes and packets for two sets of N x S; per-queue func-queue
# counts on a multi-queue NIC against the driver's own per-queue statistics;
# the modelled latency; *_time / hw_clk_freq against perf's enabled time
# (within the resolution and add/del path of tests/lib/time_counter.py); func-intr and global interrupt counts against /proc/interrupts;
# an instance with rx_drop_every=3: RX frames + floor(RX frames / 3) in its RX packet and byte counters.
. "$(dirname "$0")/../lib/tap.sh"
plan 73
kind exact

PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import errno

from hns3_lib import *
from time_counter import check_time

nic = nics()
remove_at_exit(1, 2)
v0, v1 = nic["eth0"], nic["eth1"]
note(f"virtio pair {v0!r} <-> {v1!r}")
P = PMU0
ev = lambda spec: f"{P}/{spec}/"
fb = lambda n: f"bdf={n.bdf:#x}"

def run(title, specs, flows, **kw):
    """specs: [(event spec, formula text, expected)]; one perf stat run."""
    try:
        values, _ = perf_stat([ev(s) for s, _, _ in specs], flows, **kw)
    except RuntimeError as e:
        for s, formula, want in specs:
            not_ok(f"{title}: {s} = {formula} = {want}", str(e))
        return None
    for s, formula, want in specs:
        got = values.get(ev(s), (None, 0))[0]
        check_eq(f"{title}: {s} = {formula} = {want}", want, got)
    return values

def fx(flow):
    return f"{flow.count}x{frame(flow.size)}"

# ---- A, B: global, port, port-tc, func, func-queue; both directions at once
for i, (n01, s01, n10, s10) in enumerate([(7, 10, 5, 1000), (40, 1472, 3, 18)], 1):
    f01 = Flow(v0, v1, n01, s01, 9101)
    f10 = Flow(v1, v0, n10, s10, 9102)
    flows = [f01, f10]
    title = f"set {i} ({f01}, {f10})"
    both_b = f01.bytes() + f10.bytes()
    both_p = f01.count + f10.count
    run(title + " A", [
        ("bw_ssu_rpu_byte_num,global=1", f"{fx(f01)}+{fx(f10)}", both_b),
        ("bw_ssu_egu_byte_num,global=1", f"{fx(f01)}+{fx(f10)}", both_b),
        ("pps_ssu_rpu_packet_num,global=1", f"{f01.count}+{f10.count}", both_p),
        ("pps_ssu_egu_packet_num,global=1", f"{f01.count}+{f10.count}", both_p),
        (f"bw_ssu_rpu_byte_num,port={v0.port},tc=0xf", fx(f10), f10.bytes()),
        (f"bw_ssu_egu_byte_num,port={v0.port},tc=0xf", fx(f01), f01.bytes()),
        (f"pps_ssu_rpu_packet_num,port={v1.port},tc=0xf", str(f01.count), f01.count),
        (f"pps_ssu_egu_packet_num,port={v1.port},tc=0", str(f10.count), f10.count),
    ], flows)
    run(title + " B", [
        (f"bw_ssu_rpu_byte_num,{fb(v0)},queue=0xffff", fx(f10), f10.bytes()),
        (f"bw_tpu_ssu_byte_num,{fb(v0)},queue=0xffff", fx(f01), f01.bytes()),
        (f"pps_ssu_rpu_packet_num,{fb(v1)},queue=0xffff", str(f01.count), f01.count),
        (f"pps_tpu_ssu_packet_num,{fb(v1)},queue=0xffff", str(f10.count), f10.count),
        (f"bw_ssu_rpu_byte_num,{fb(v1)},queue=0", fx(f01), f01.bytes()),
        (f"bw_tpu_ssu_byte_num,{fb(v1)},queue=0", fx(f10), f10.bytes()),
        (f"pps_ssu_rpu_packet_num,{fb(v0)},queue=0", str(f10.count), f10.count),
        (f"pps_tpu_ssu_packet_num,{fb(v0)},queue=0", str(f01.count), f01.count),
    ], flows)

# ---- C: per-queue counts of a multi-queue NIC vs the driver's statistics
if "eth2" in nic and "eth3" in nic and nic["eth2"].addr and nic["eth3"].addr:
    i0, i1 = nic["eth2"], nic["eth3"]
    g01 = Flow(i0, i1, 24, 200, 9103, flows=8)
    g10 = Flow(i1, i0, 16, 600, 9104, flows=8)
    rx0, tx0 = queue_packets(i1), queue_packets(i0)
    specs = [(f"pps_ssu_rpu_packet_num,{fb(i1)},queue={q}", None, None) for q in (0, 1)] + \
            [(f"bw_ssu_rpu_byte_num,{fb(i1)},queue={q}", None, None) for q in (0, 1)] + \
            [(f"pps_tpu_ssu_packet_num,{fb(i0)},queue={q}", None, None) for q in (0, 1)] + \
            [(f"bw_tpu_ssu_byte_num,{fb(i0)},queue={q}", None, None) for q in (0, 1)]
    title = f"multi-queue ({g01}, {g10}, 8 flows each)"
    try:
        values, _ = perf_stat([ev(s) for s, _, _ in specs], [g01, g10])
    except RuntimeError as e:
        values = None
        not_ok(title, str(e))
    if values is not None:
        rx1, tx1 = queue_packets(i1), queue_packets(i0)
        rxq = {q: rx1.get(("rx", q), 0) - rx0.get(("rx", q), 0) for q in (0, 1)}
        txq = {q: tx1.get(("tx", q), 0) - tx0.get(("tx", q), 0) for q in (0, 1)}
        note(f"{i1.name} rx_queue_N_packets deltas {rxq}, {i0.name} tx_queue_N_packets deltas {txq}")
        check_eq(f"{title}: the drivers' per-queue packets add up to {g01.count}",
                 (g01.count, g01.count), (sum(rxq.values()), sum(txq.values())))
        F = frame(g01.size)
        for q in (0, 1):
            for s, want, formula in (
                    (f"pps_ssu_rpu_packet_num,{fb(i1)},queue={q}", rxq[q], f"{i1.name} rx_queue_{q}_packets delta"),
                    (f"bw_ssu_rpu_byte_num,{fb(i1)},queue={q}", rxq[q] * F, f"{rxq[q]}x{F}"),
                    (f"pps_tpu_ssu_packet_num,{fb(i0)},queue={q}", txq[q], f"{i0.name} tx_queue_{q}_packets delta"),
                    (f"bw_tpu_ssu_byte_num,{fb(i0)},queue={q}", txq[q] * F, f"{txq[q]}x{F}")):
                check_eq(f"{title}: {s} = {formula} = {want}", want, values.get(ev(s), (None, 0))[0])
else:
    skip("multi-queue func-queue counts", "no eth2/eth3 NIC pair in this guest")

# ---- D: modelled latency and time counters
f01 = Flow(v0, v1, 12, 500, 9105)
f10 = Flow(v1, v0, 6, 64, 9106)
hz = int(pmu_read("hw_clk_freq"))
lat = lambda fl: fl.count * (1000 * hz // 10**9 + frame(fl.size) * 8 * hz // (10000 * 10**6))
time_specs = ["bw_ssu_rpu_time,global=1", "pps_ssu_egu_time,global=1",
              "pps_intr_msix_nic_time,global=1", f"pps_intr_msix_func_time,{fb(v1)},intr=1"]
lat_specs = [
    ("dly_ssu_rx_th_nic_time,global=1", "sum over frames of 100 + floor(F*8*hz/10^10) cycles", lat(f01) + lat(f10)),
    ("dly_ssu_rx_th_nic_packet_num,global=1", f"{f01.count}+{f10.count}", f01.count + f10.count),
    (f"dly_tpu_time,port={v1.port},tc=0xf", "latency of the frames port 1 sent", lat(f10)),
    (f"dly_tpu_packet_num,port={v1.port},tc=0xf", str(f10.count), f10.count),
]
title = f"latency ({f01}, {f10})"
try:
    values, _ = perf_stat([ev(s) for s, _, _ in lat_specs] + [ev(s) for s in time_specs],
                          [f01, f10], after="sleep 1")
except RuntimeError as e:
    values = {}
    not_ok(title, str(e))
for s, formula, want in lat_specs:
    check_eq(f"{title}: {s} = {formula} = {want}", want, values.get(ev(s), (None, 0))[0])
try:
    idle, _ = perf_stat([ev(s) for s in time_specs], [], after="sleep 1")
except RuntimeError as e:
    idle = {}
    not_ok("time events without traffic", str(e))
kind("weak", "a tolerance: the clock's resolution and the add/del path, derived in tests/lib/time_counter.py")
for what, vals in (("with traffic", values), ("idle", idle)):
    for s in time_specs:
        cycles, running = vals.get(ev(s), (None, 0))
        # oracle: perf's running time; tolerance: tests/lib/time_counter.py
        # (2 folds: perf's read and del), was 1% of the run.
        desc = f"{s} / {hz} Hz = perf's running time ({what}; oracle: perf's time)"
        if cycles is None or not running:
            not_ok(desc, f"no count ({cycles}, {running} ns)")
            continue
        ok_, dev, tol = check_time(cycles, hz, running, folds=2)
        check(desc, ok_, f"{cycles} cycles vs {running} ns: {dev} ns off, more than {tol}")
kind("exact")

# ---- E: interrupts of the functions' MSI-X vectors vs /proc/interrupts
check_eq("sicl_1 instance on eth0 and eth1 added (new_device '1 netdevs=eth0,eth1')", 0,
         sim_new("1 netdevs=eth0,eth1"))
note(f"MSI-X vectors: {v0.name} {v0.vectors}, {v1.name} {v1.vectors}")
f01 = Flow(v0, v1, 20, 100, 9107)
f10 = Flow(v1, v0, 10, 300, 9108)
specs = [(v0, k) for k in sorted(v0.vectors)] + [(v1, k) for k in sorted(v1.vectors)]
events = [ev(f"config=0x00301,{fb(n)},intr={k}") for n, k in specs]
beyond = max(v1.vectors) + 1 if v1.vectors else 0
events.append(ev(f"pps_intr_msix_func_intr_num,{fb(v1)},intr={beyond}"))
events += ["hns3_pmu_sicl_1/pps_intr_msix_nic_intr_num,global=1/",
           "hns3_pmu_sicl_1/pps_intr_msix_func_intr_num,global=1/"]
before = proc_interrupts()
try:
    values, _ = perf_stat(events, [f01, f10])
except RuntimeError as e:
    values = {}
    not_ok("func-intr run", str(e))
after = proc_interrupts()
delta = lambda irq: after.get(irq, 0) - before.get(irq, 0)
rx_irq = v1.vectors.get(1)
check(f"the flows raised interrupts on {v1.name}'s MSI-X entry 1 (IRQ {rx_irq})",
      rx_irq is not None and delta(rx_irq) > 0, f"delta {rx_irq and delta(rx_irq)}")
for (n, k), e in zip(specs, events):
    irq = n.vectors[k]
    check_eq(f"{e} = /proc/interrupts delta of IRQ {irq} ({n.name} MSI-X entry {k}) = {delta(irq)}",
             delta(irq), values.get(e, (None, 0))[0])
check_eq(f"{events[len(specs)]} (no such entry) = 0", 0, values.get(events[len(specs)], (None, 0))[0])
total = sum(delta(irq) for n in (v0, v1) for irq in n.vectors.values())
for e in events[-2:]:
    check_eq(f"{e} = sum of the /proc/interrupts deltas of every vector of {v0.name} and {v1.name} = {total}",
             total, values.get(e, (None, 0))[0])
check_eq("sicl_1 instance removed (del_device 1)", 0, sim_del(1))

# ---- F: frames dropped before DMA (rx_drop_every=N, kmod/README.md): one
# more RX frame counted for every N received, the Nth, 2Nth, ... counted
# since the instance was made; TX and the latency pair count none of them.
check_eq("new_device '2 rx_drop_every=1000001' (above 1000000): EINVAL", errno.EINVAL,
         sim_new("2 netdevs=eth1 rx_drop_every=1000001"))
check_eq("sicl_2 instance on eth1 with rx_drop_every=3 added", 0, sim_new("2 netdevs=eth1 rx_drop_every=3"))
f01 = Flow(v0, v1, 10, 100, 9109)
f10 = Flow(v1, v0, 4, 300, 9110)
ev2 = lambda spec: f"hns3_pmu_sicl_2/{spec}/"
rx = f01.count + f01.count // 3
specs = [
    (ev2("pps_ssu_rpu_packet_num,global=1"), f"{f01.count} + floor({f01.count}/3)", rx),
    (ev2("bw_ssu_rpu_byte_num,global=1"), f"{rx}x{frame(f01.size)}", rx * frame(f01.size)),
    (ev2("dly_ssu_rx_th_nic_packet_num,global=1"), f"{f01.count} (delivered frames only)", f01.count),
    (ev2("pps_ssu_egu_packet_num,global=1"), f"{f10.count} (TX drops none)", f10.count),
    (ev(f"pps_ssu_rpu_packet_num,port={v1.port},tc=0xf"), f"{f01.count} (sicl_0 drops none)", f01.count),
]
try:
    values, _ = perf_stat([e for e, _, _ in specs], [f01, f10])
except RuntimeError as e:
    values = {}
    not_ok("rx_drop_every run", str(e))
for e, formula, want in specs:
    check_eq(f"rx_drop_every=3 ({f01}, {f10}): {e} = {formula} = {want}", want, values.get(e, (None, 0))[0])
check_eq("sicl_2 instance removed (del_device 2)", 0, sim_del(2))
finish()
PY
