#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: exact counts of the PCIe PMU model for known UDP flows on the
# real NICs, against the TLP model of kmod/hisi_pcie.md ("The PCIe device
# model"): payload and header flux, descriptor and doorbell TLPs, latency
# sums and TLP counts, threshold and trigger filters, and a bdf or port filter
# on the other NIC or Root Port counting nothing.
. "$(dirname "$0")/../lib/tap.sh"
plan 82
kind model

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
from pcie_pmu import *

p = params()
eth0, eth1 = endpoints()
print(f"  {eth0}; {eth1}; model {p}")
D, MPS, MRRS = p["desc_bytes"], p["mps"], p["mrrs"]
b0, b1 = f"bdf={eth0.bdf:#x}", f"bdf={eth1.bdf:#x}"
p0, p1 = f"port={1 << eth0.port:#x}", f"port={1 << eth1.port:#x}"
ceil = lambda a, b: -(-a // b)

def v(values, spec):
    """The count, or None if the event did not count all the time."""
    return values[spec][0] if values.get(spec) else None

def run_checks(title, specs, runs, explicit):
    """explicit = {spec: (formula, value)}: the count against the formula
    worked out from kmod/hisi_pcie.md's TLP table (frame bytes on the wire,
    MPS/MRRS splits, 16/12-byte headers, D-byte descriptors), the oracle;
    the Python TLP model (tests/lib/pcie_pmu.py, a copy of the kmod's) must
    agree with each formula, and is the only reference for the other specs."""
    for spec, (formula, value) in explicit.items():
        check_eq(f"{title}: {spec} = {formula} = {value} (oracle: hisi_pcie.md TLP table)",
                 value, v(values, spec))
        check_eq(f"{title}: the Python TLP model agrees: {spec} = {value}",
                 value, expected(p, runs, *parse_event(spec)))
    for spec in specs:
        if spec in explicit:
            continue
        want = expected(p, runs, *parse_event(spec))
        check_eq(f"{title}: {spec} = {want} (Python TLP model only: a copy, no independent oracle)",
                 want, v(values, spec))

# ---- A: N frames of F bytes from eth0 to eth1 ------------------------------
N, F = 20, 1000                       # UDP payload F - 42
full, rest = F // MPS, F % MPS         # 3 x 256 + 232 with the defaults
explicit = {
    f"rx_mwr_flux,{b1},len_mode=1,thr_len=3": ("N*F", N * F),
    f"rx_mwr_flux,{b1},len_mode=1": ("N*(F+D)", N * (F + D)),
    f"rx_mwr_flux,{b1},len_mode=2": ("N*(ceil(F/MPS)+1)*16", N * (ceil(F, MPS) + 1) * 16),
    f"rx_mwr_flux,{b1}": ("N*(F+D+(ceil(F/MPS)+1)*16)", N * (F + D + (ceil(F, MPS) + 1) * 16)),
    f"rx_mwr_flux,{b1},len_mode=1,thr_len=6": ("N*floor(F/MPS)*MPS (TLPs >= 64 DW)", N * full * MPS),
    f"rx_mwr_flux,{b1},len_mode=1,thr_len=6,thr_mode=1": ("N*(F%MPS+D) (TLPs < 64 DW)", N * (rest + D)),
    f"rx_mwr_flux,{p0},len_mode=1": ("N*D (eth0's write-backs)", N * D),
    f"rx_mrd_flux,{b0},len_mode=1": ("N*(D+F) (descriptor + frame read)", N * (D + F)),
    f"rx_mrd_flux,{b0},len_mode=2": ("N*(1+ceil(F/MRRS))*16", N * (1 + ceil(F, MRRS)) * 16),
    f"rx_mrd_flux,{b1},len_mode=1": ("N*D (eth1's descriptor fetches)", N * D),
    f"tx_cpl_flux,{b0},len_mode=1": ("N*(D+F)", N * (D + F)),
    f"tx_cpl_flux,{b0},len_mode=2": ("N*(1+ceil(F/MPS))*12", N * (1 + ceil(F, MPS)) * 12),
    f"tx_mwr_flux,port=0xffff,len_mode=1": ("2*N*4 (one doorbell per frame and NIC)", 2 * N * 4),
    f"tx_mwr_flux,bdf={eth0.rp:#x}": ("N*(4+16) (doorbells come from the Root Port)", N * 20),
    f"tx_mwr_flux,{b0}": ("0 (the CPU, not eth0, requests doorbells)", 0),
    "rx_cpl_flux,port=0xffff": ("0 (no CPU reads of the NICs)", 0),
    "tx_mrd_flux,port=0xffff": ("0", 0),
    f"rx_mwr_cnt,{b1}": ("N*(ceil(F/MPS)+1)", N * (ceil(F, MPS) + 1)),
    f"rx_mrd_cnt,{b0}": ("N*(1+ceil(F/MRRS))", N * (1 + ceil(F, MRRS))),
    "tx_mrd_cnt,port=0xffff": ("0", 0),
    f"rx_mwr_flux,{b1},len_mode=1,trig_len=2,trig_mode=1": ("0 (no TLP < 4 DW: never triggers)", 0),
}
specs = list(explicit) + [
    "rx_mwr_flux,port=0xffff", "rx_mrd_flux,port=0xffff", "tx_cpl_flux,port=0xffff",
    "tx_mwr_flux,port=0xffff", f"rx_mwr_flux,{p1},len_mode=1",
    f"rx_mwr_latency,{b1}", f"rx_mrd_latency,{b0}", "rx_mrd_latency,port=0xffff",
    "rx_mwr_cnt,port=0xffff", "rx_mrd_cnt,port=0xffff",
    "tx_mrd_latency,port=0xffff", f"tx_cpl_flux,{p0},thr_len=4",
    f"tx_cpl_flux,{p0},thr_len=4,thr_mode=1", "tx_mwr_flux,port=0x3,trig_len=1,trig_mode=1",
]
runs = flow_tlps(p, N, F, eth0, eth1)
values = measure(specs, lambda: flow(N, F - ETH_IP_UDP))
run_checks(f"{N} x {F}-byte frames eth0->eth1", specs, runs, explicit)

# Latency: every TLP adds lat_base_ns plus its serialization, in cycles.
lat = lambda n: p["lat_base_ns"] * p["clk_freq"] // 10**9 + n * 8 * p["clk_freq"] // (p["link_mbps"] * 10**6)
want = N * (full * lat(MPS + 16) + (lat(rest + 16) if rest else 0) + lat(D + 16))
check_eq(f"rx_mwr_latency,{b1} = N*(sum of per-TLP latencies) = {want} (oracle: hisi_pcie.md latency formula)", want,
         v(values, f"rx_mwr_latency,{b1}"))

# ---- B: a trigger that fires on the first big frame -------------------------
N1, F1, N2, F2 = 5, 100, 7, 1000
spec = f"rx_mwr_flux,{b1},len_mode=1,trig_len=5"          # > 32 DW starts it
values = measure([spec, f"rx_mwr_flux,{b1},len_mode=1"],
                 lambda: (flow(N1, F1 - ETH_IP_UDP), flow(N2, F2 - ETH_IP_UDP)))
runs = flow_tlps(p, N1, F1, eth0, eth1) + flow_tlps(p, N2, F2, eth0, eth1)
check_eq(f"trigger > 32 DW: {N1} small frames uncounted, then N2*(F2+D) = {N2 * (F2 + D)}",
         N2 * (F2 + D), v(values, spec))
check_eq("the model predicts the same", expected(p, runs, *parse_event(spec)), v(values, spec))
check_eq(f"without the trigger: N1*(F1+D)+N2*(F2+D)", N1 * (F1 + D) + N2 * (F2 + D),
         v(values, f"rx_mwr_flux,{b1},len_mode=1"))

# ---- C: frames that only eth0 moves: eth1 and its Root Port count nothing ---
blackhole()                            # 198.51.100.3: a MAC nobody has
N, F = 10, 500
quiet = [f"rx_mwr_flux,{b1}", f"rx_mrd_flux,{b1}", f"tx_cpl_flux,{b1}",
         f"rx_mwr_cnt,{b1}", f"rx_mrd_cnt,{b1}", f"rx_mwr_flux,{p1}",
         f"rx_mrd_flux,{p1}", f"tx_cpl_flux,{p1}", f"tx_mwr_flux,{p1}",
         f"tx_mwr_flux,bdf={eth1.rp:#x}", f"rx_mwr_latency,{p1}"]
busy = f"rx_mrd_flux,{b0},len_mode=1"
values = measure(quiet + [busy],
                 lambda: flow(N, F - ETH_IP_UDP, dst="198.51.100.3", expect_rx=False))
check_eq(f"eth0 sent {N} frames nobody receives: {busy} = N*(D+F)", N * (D + F), v(values, busy))
for spec in quiet:
    check_eq(f"only eth0 moves data: {spec} (eth1 or its Root Port) counts 0", 0, v(values, spec))

# The other PCI functions below eth1's Root Port (idle) count nothing.
others = [b for b in pci_functions() if b not in (eth0.bdf, eth1.bdf) and b not in root_ports()]
below = []
for b in others:
    path = os.path.realpath("/sys/bus/pci/devices/0000:" + bdf_name(b))
    if "0000:" + bdf_name(eth1.rp) in path.split("/"):
        below.append(b)

# ---- D: the other direction: eth0 and its Root Port count nothing ----------
blackhole(ns="peer", dev="eth1")
quiet = [f"rx_mwr_flux,{b0}", f"rx_mrd_flux,{b0}", f"tx_cpl_flux,{b0}",
         f"rx_mwr_flux,{p0}", f"tx_mwr_flux,{p0}", f"rx_mrd_cnt,{p0}"]
busy = f"tx_cpl_flux,{b1},len_mode=1"
extra = [f"rx_mwr_flux,bdf={b:#x}" for b in below]
values = measure(quiet + extra + [busy],
                 lambda: flow(N, F - ETH_IP_UDP, src_ns="peer", dst="198.51.100.3", dst_ns=None,
                              expect_rx=False))
check_eq(f"eth1 sent {N} frames nobody receives: {busy} = N*(D+F)", N * (D + F), v(values, busy))
for spec in quiet:
    check_eq(f"only eth1 moves data: {spec} (eth0 or its Root Port) counts 0", 0, v(values, spec))
for spec in extra:
    check_eq(f"an idle function below eth1's Root Port: {spec} counts 0", 0, v(values, spec))

# ---- E: *_time ticks at the model's clock while enabled ---------------------
from time_counter import check_time, timed
c = Counter(*parse_event("rx_mwr_time,port=0xffff"))
calls_ns = timed(c.enable)
time.sleep(0.5)
calls_ns += timed(c.disable)
cycles, enabled, running = c.read()
c.close()
# oracle: perf's running time; tolerance: tests/lib/time_counter.py (was a
# ratio of 0.9 to 1.01), the add/del path bounded by the calls' own time.
ok_, dev, tol = check_time(cycles, p["clk_freq"], running, folds=2, calls_ns=calls_ns)
kind("weak", "a tolerance: the clock's resolution and the add/del path, derived in tests/lib/time_counter.py")
check(f"rx_mwr_time counts {p['clk_freq']} Hz cycles while running (oracle: perf's running time)",
      ok_, f"{cycles} cycles in {running} ns running ({enabled} enabled, enable and disable took {calls_ns} ns): "
      f"{dev} ns off, more than {tol}")
sys.exit(0)
PY
