# SPDX-License-Identifier: GPL-2.0
"""CPU hotplug for the guest PMU tests: which CPUs can go offline, where a
PMU's counting CPU moves, and perf stat -I, netpmu stat -I and netpmu trace -I
counting one event in the background while CPUs come and go.

Where the counting CPU goes (kmod/README.md, "CPU hotplug"): offlining it
moves every PMU counting there to cpumask_any_but(cpu_online_mask, cpu), the
lowest other online CPU (upstream drivers, and the perf core for a PMU with a
scope); onlining a CPU moves nothing back."""

import os
import signal
import subprocess
import tempfile
import time

from tap import note

CPU_SYSFS = "/sys/devices/system/cpu"
NETPMU = os.environ["NETPMU"]  # the cell's loader, set by tests/vm/run


def kernel_has_pmu_scope():
    """Whether the running kernel has PMU scopes: its BTF names
    PERF_PMU_SCOPE_SYS_WIDE. netpmu.ko declares that scope wherever its
    headers have it, and the perf core then owns the counting CPU."""
    with open("/sys/kernel/btf/vmlinux", "rb") as f:
        return b"\0PERF_PMU_SCOPE_SYS_WIDE\0" in f.read()


def offlinable(cpu):
    """x86 has no online file for CPU 0: it cannot go offline."""
    return os.path.exists(f"{CPU_SYSFS}/cpu{cpu}/online")


def online_cpus():
    with open(f"{CPU_SYSFS}/online") as f:
        text = f.read().strip()
    cpus = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def set_online(cpu, on):
    with open(f"{CPU_SYSFS}/cpu{cpu}/online", "w") as f:
        f.write("1" if on else "0")


def all_online():
    """Puts every offlinable CPU back online (at exit, whatever failed)."""
    for name in os.listdir(CPU_SYSFS):
        if name[3:].isdigit() and name.startswith("cpu") and offlinable(int(name[3:])):
            if int(name[3:]) not in online_cpus():
                set_online(int(name[3:]), True)


def cpumask(pmu):
    with open(f"/sys/bus/event_source/devices/{pmu}/cpumask") as f:
        return int(f.read().strip())


def moved_to(counting, victim):
    """Where a PMU counting on CPU counting is once CPU victim is offline."""
    if counting != victim:
        return counting
    return min(online_cpus() - {victim})


class Tools:
    """perf stat -I, netpmu stat -I and netpmu trace -I counting EVENT from
    now until stop(), each on its own: what a user watching sees."""

    def __init__(self, event, interval_ms=250):
        self.event, self.tmp = event, tempfile.mkdtemp()
        ms = str(interval_ms)
        self.files = {name: os.path.join(self.tmp, name) for name in ("perf", "stat", "trace", "trace.err")}
        self.procs = {
            "perf stat -I": subprocess.Popen(
                ["perf", "stat", "-a", "-I", ms, "-x", ";", "-e", event, "-o", self.files["perf"]],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            "netpmu stat -I": subprocess.Popen(
                [NETPMU, "stat", "-I", ms, "-x", ";", "-e", event, "-o", self.files["stat"]],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            "netpmu trace -I": subprocess.Popen(
                [NETPMU, "trace", "--json", "-I", ms, "-e", event],
                stdout=open(self.files["trace"], "w"), stderr=open(self.files["trace.err"], "w")),
        }
        # Started: every tool has printed its first interval.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self._all_started():
            time.sleep(0.1)

    def _all_started(self):
        return all(os.path.exists(p) and os.path.getsize(p) > 0
                   for p in (self.files["perf"], self.files["stat"], self.files["trace"]))

    def stop(self, settle_s=1.0):
        """Stops the tools (Ctrl-C) once two intervals passed; returns
        {tool: (sum of its interval counts, or None, why)}."""
        time.sleep(settle_s)
        for p in self.procs.values():
            p.send_signal(signal.SIGINT)
        for p in self.procs.values():
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        return {
            "perf stat -I": self._csv_sum(self.files["perf"]),
            "netpmu stat -I": self._csv_sum(self.files["stat"]),
            "netpmu trace -I": self._trace_sum(),
        }

    def _csv_sum(self, path):
        """perf's -I -x';' lines: time;count;unit;event;... An interval the
        event spent entirely off any CPU (migrating) says <not counted>."""
        total, lines, idle = 0, 0, 0
        with open(path) as f:
            for line in f:
                cols = line.strip().split(";")
                if len(cols) < 4 or line.startswith("#") or cols[3] != self.event:
                    continue
                lines += 1
                if cols[1] == "<not counted>":
                    idle += 1
                elif cols[1].isdigit():
                    total += int(cols[1])
                else:
                    return None, f"an interval printed {cols[1]!r} (at {cols[0]} s)"
        if not lines:
            return None, "no interval printed"
        return total, f"{lines} intervals, {idle} of them <not counted>"

    def _trace_sum(self):
        import json
        total, records, unreadable = 0, 0, []
        with open(self.files["trace"]) as f:
            for line in f:
                r = json.loads(line)
                if r["type"] != "counters":
                    continue
                for c in r["counters"]:
                    if c["event"] == self.event:
                        records += 1
                        # A tick that ran while the event moved to its new CPU
                        # cannot read it (EINVAL); its bytes are in the next
                        # readable delta, which is taken from the last
                        # readable value, so the sum stays exact.
                        if not c["readable"]:
                            unreadable.append(str(c.get("error")))
                            continue
                        total += c["delta"]
        with open(self.files["trace.err"]) as f:
            err = f.read().strip()
        if err:
            note("netpmu trace: " + err.replace("\n", "; "))
        if not records:
            return None, "no counters record"
        return total, f"{records} counters records, {len(unreadable)} unreadable ({' '.join(unreadable) or 'none'})"
