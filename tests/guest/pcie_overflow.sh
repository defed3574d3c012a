#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: counters start at 2^63. The model's debugfs "inject" hook
# advances a counter to just below 2^64; real traffic then wraps it, the
# overflow interrupt runs the PMU's handler on the counting CPU, which folds
# the count and lets the counter run on from 0 (no preset, so nothing counted
# during the handler is lost): the total stays exact and counting goes on.
. "$(dirname "$0")/../lib/tap.sh"
plan 8
kind model
dbg=/sys/kernel/debug/netpmu_pcie_sim0_0

if [ ! -w $dbg/inject ]; then
	fail "the model's debugfs hooks exist" "no $dbg/inject"
	exit 0
fi

PYTHONPATH=$REPO/tests/lib python3 - "$dbg" <<'PY'
from pcie_pmu import *

dbg = sys.argv[1]
p = params()
eth0, eth1 = endpoints()
F, D = 1000, p["desc_bytes"]
irqs = lambda: int(open(dbg + "/irqs").read())

# Alone on the PMU, the event takes counter 0.
c = Counter(*parse_event(f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"))
c.enable()
flow(2, F - ETH_IP_UDP)
check_eq("2 frames: 2*(F+D)", 2 * (F + D), c.value())
before = irqs()
# Counter 0 holds 2^63 + 2*(F+D): take it to 1.5 frames below 2^64.
skip = (1 << 63) - 2 * (F + D) - 3 * (F + D) // 2
open(dbg + "/inject", "w").write(f"0 0 {skip}\n")
time.sleep(0.2)
check_eq("no overflow yet: no interrupt", before, irqs())
flow(3, F - ETH_IP_UDP)
check_eq("3 more frames wrap counter 0: exactly one overflow interrupt handled", before + 1, irqs())
check_eq("the count stays exact across the wrap: 5*(F+D) + injected", 5 * (F + D) + skip, c.value())
flow(4, F - ETH_IP_UDP)
check_eq("after the wrap counting goes on, exact", 9 * (F + D) + skip, c.value())
check_eq("no further interrupt", before + 1, irqs())

# The time counter of a pair wraps the same way.
c.disable(); c.close()
g = Counter(*parse_event(f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"))
t = Counter(*parse_event(f"rx_mwr_time,bdf={eth1.bdf:#x},len_mode=1"), group=g)
g.enable()
time.sleep(0.1)
before = irqs()
inj = (1 << 63) - t.value() - p["clk_freq"] // 10      # 0.1 s before 2^64
open(dbg + "/inject", "w").write(f"0 1 {inj}\n")
time.sleep(0.5)
t.value()                              # the model notices the wrap at an access
time.sleep(0.2)
check_eq("the time counter wraps: one overflow interrupt", before + 1, irqs())
t0 = t.value()
kind("weak", "a bound: the time counter ran at least the 0.8 s slept past the injected value")
check("the pair member sharing the counter keeps its count across the overflow: rx_mwr_time "
      ">= injected + 0.8 s of cycles; rx_mwr_flux stays 0",
      g.value() == 0 and t0 >= inj + p["clk_freq"] * 8 // 10, f"flux {g.value()}, time {t0}")
g.disable(); t.close(); g.close()
sys.exit(0)
PY
