# SPDX-License-Identifier: GPL-2.0
"""How far a model's *_time counter may be from perf's time for it, and why.

A time counter ticks at the model's clock (hw_clk_freq, or the PCIe model's
clk_freq) from ktime while its slot counts. perf's time_enabled/time_running
run from the context's time stamp taken before pmu->add() to the one taken
before pmu->del(). So the two differ by:

- resolution: the model converts ns to cycles with a floor at every fold
  (a register read, a del, an hrtimer sample of a narrowed counter), losing
  less than one cycle each time: at most `folds` cycles;
- the path between perf's stamp and the model's register write, at add and
  at del: tens of microseconds warm under TCG, up to 2.7 ms measured on the
  first enable after boot (x86_64 6.12: TCG translating the code on its
  first run, guest time following host time). PATH_NS bounds both ends.
  Both ends happen inside the enable and disable calls (perf runs them on
  the event's CPU and waits), so a caller that timed those calls (timed())
  may pass their sum: on a kernel slower than PATH_NS allows (the
  debug-kernel cell: KASAN and lockdep under TCG) the bound is what the
  path took there, and never less than PATH_NS. PATH_NS is 5 ms times
  NETPMU_TIMEOUT_SCALE, the factor a slow kernel's cell sets: a caller that
  cannot time the calls (perf stat makes them) has only that bound, and the
  debug-kernel cell's hns3_instances was 8.9 ms off over 9.3 s that way
  (beside two other guests on 2 host cores).

The clocks themselves (perf_clock and ktime) agreed within these offsets
over 0.05, 0.5 and 2 s windows: no rate term (offsets did not grow with the
window).
"""

import os
import time

PATH_NS = 5_000_000 * int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))


def timed(call):
    """Runs call(); how long it took in ns, on the model's clock (ktime)."""
    start = time.monotonic_ns()
    call()
    return time.monotonic_ns() - start


def tolerance_ns(clk_hz, folds=1, calls_ns=0):
    """Largest |cycles x 1e9 / clk - perf time| allowed, in ns; calls_ns:
    the enable and disable calls' measured time (timed()), if known."""
    return -(-folds * 10**9 // clk_hz) + max(PATH_NS, calls_ns)


def check_time(cycles, clk_hz, perf_ns, folds=1, calls_ns=0):
    """(ok, deviation ns, tolerance ns) of a time counter against perf's time."""
    dev = cycles * 10**9 // clk_hz - perf_ns
    tol = tolerance_ns(clk_hz, folds, calls_ns)
    return abs(dev) <= tol, dev, tol
