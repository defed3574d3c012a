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

The clocks themselves (perf_clock and ktime) agreed within these offsets
over 0.05, 0.5 and 2 s windows: no rate term (offsets did not grow with the
window).
"""

PATH_NS = 5_000_000


def tolerance_ns(clk_hz, folds=1):
    """Largest |cycles x 1e9 / clk - perf time| allowed, in ns."""
    return -(-folds * 10**9 // clk_hz) + PATH_NS


def check_time(cycles, clk_hz, perf_ns, folds=1):
    """(ok, deviation ns, tolerance ns) of a time counter against perf's time."""
    dev = cycles * 10**9 // clk_hz - perf_ns
    tol = tolerance_ns(clk_hz, folds)
    return abs(dev) <= tol, dev, tol
