#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host half of `make bench`: the seven configurations run interleaved
(round r starts at configuration r), each with the same fixed UDP flood across
the veth pair in two scenarios (the worst case, one packet per NAPI poll, and
threaded NAPI, whose polls carry many), sender and receiver pinned to CPUs 0
and 1. Round 0 runs with kernel.bpf_stats_enabled=1 for the BPF cost, plus empty bpftrace programs on
the same tracepoints (the accounting's own cost), and is left out of the
throughput medians; every other round ends with a start-up probe (netpmu trace
-I 1000 to its first record). netpmu serve runs with a scraper fetching
/metrics every second throughout the flood. Writes the raw runs as JSON.

usage: host_bench.py --ns-a NS --ns-b NS --netpmu PATH --tools DIR --bt SCRIPT
                     [--packets N] [--size B] [--rounds R] --out FILE
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from tool_run import ToolRun, bpf_prog_stats

SENDER_CPU, RECEIVER_CPU = "0", "1"
INTERVAL_S = 1.0
# Loopback only, away from serve's default port (an exporter may run there).
SERVE_LISTEN = "127.0.0.1:19713"
# netpmu's text interval output starts with this line; bpftrace's with time().
NETPMU_TOP_FIRST = r"^netpmu top "
BPFTRACE_FIRST = r"^\d\d:\d\d:\d\d$"


def configs(netpmu, bt, tools):
    return [
        {"name": "1 none", "argv": None},
        {"name": "2 netpmu top", "argv": [netpmu, "top", "-I", "1000"],
         "ready": NETPMU_TOP_FIRST, "stream": "out", "interval_first": True},
        {"name": "3 netpmu per-poll", "argv": [netpmu, "trace", "--per-poll"], "pipe": False,
         "ready": r"^netpmu trace: tracing", "stream": "err"},
        {"name": "4 bpftrace", "argv": ["bpftrace", bt],
         "ready": BPFTRACE_FIRST, "stream": "out", "interval_first": True},
        {"name": "5 netpmu serve", "argv": [netpmu, "serve", "--listen", SERVE_LISTEN, "-I", "1000"],
         "ready": r"^netpmu serve: serving", "stream": "err", "scrape": "http://%s/metrics" % SERVE_LISTEN,
         "wait_progs": True},
        # The same per-poll trace with a --where the kernel tests before the ring buffer.
        {"name": "6 per-poll filtered", "argv": [netpmu, "trace", "--per-poll", "--where", "work >= budget"],
         "pipe": False, "ready": r"^netpmu trace: tracing", "stream": "err"},
        # The floor: empty programs on the hooks 2, 3 and 5 attach (tests/bench/floor.bpf.c).
        {"name": "7 floor", "argv": [os.path.join(tools, "floor"), os.path.join(tools, "floor.bpf.o")],
         "ready": r"^floor: attached", "stream": "out"},
    ]


class Scraper:
    """Fetches URL every second, as Prometheus would, until stopped: how many
    scrapes answered 200 and how long each took."""

    def __init__(self, url):
        self.url, self.ms, self.failed = url, [], 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.is_set():
            t0 = time.monotonic()
            try:
                with urllib.request.urlopen(self.url, timeout=5) as r:
                    r.read()
                    ok = r.status == 200
            except OSError:
                ok = False
            if ok:
                self.ms.append(round((time.monotonic() - t0) * 1000, 2))
            else:
                self.failed += 1
            self.done.wait(max(0.0, 1.0 - (time.monotonic() - t0)))

    def stop(self):
        self.done.set()
        self.thread.join(10)
        return {"scrapes": len(self.ms), "failed": self.failed, "ms": self.ms}


# Start-up alone: netpmu's interval records (the BPF programs top runs) printed
# as they come, so that the first one marks load + attach + the first interval.
def startup_probe(netpmu):
    return {"name": "netpmu trace -I 1000", "argv": [netpmu, "trace", "-I", "1000"],
            "ready": r"^\d+\.\d+ ", "stream": "out", "interval_first": True, "no_flood": True}


# The kernel's accounting itself costs a clock read per run: empty programs on
# the same tracepoints show how much of each figure it is.
FLOOR_BT = " ".join("tracepoint:%s {}" % tp for tp in (
    "napi:napi_poll", "irq:irq_handler_entry", "irq:irq_handler_exit",
    "irq:softirq_entry", "irq:softirq_exit"))


def floor_probe():
    return {"name": "0 empty bpftrace", "argv": ["bpftrace", "-e", FLOOR_BT],
            "ready": r"^Attaching \d+ probes", "stream": "out", "settle": 0.5}


def parts_probe(tools):
    """One kind of work per program on softirq_entry (tests/bench/parts.bpf.c)."""
    return {"name": "0 parts", "argv": [os.path.join(tools, "floor"), os.path.join(tools, "parts.bpf.o")],
            "ready": r"^floor: attached", "stream": "out"}


def vm_kb(pid, field):
    """VmRSS (now) or VmHWM (the peak since exec: rusage's ru_maxrss also counts the
    forked copy of this Python before the exec, 20 MiB and more)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def disk_irqs(path):
    """Direct reads of PATH (its disk's interrupts), for the hardirq hooks' figures;
    None where the file system refuses O_DIRECT."""
    if not os.path.exists(path):
        subprocess.run(["dd", "if=/dev/zero", "of=" + path, "bs=1M", "count=32"],
                       check=True, capture_output=True)
    proc = subprocess.Popen(["dd", "if=" + path, "of=/dev/null", "bs=4k", "iflag=direct"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.05)
    return proc if proc.poll() is None else None


def napi_thread_cpu_ns(pid):
    """CPU time of the receiving veth's NAPI thread so far (schedstat: ns on CPU)."""
    with open("/proc/%d/schedstat" % pid) as f:
        return int(f.read().split()[0])


def flood(args, port, irq_load=False, napi_thread=None):
    """The fixed flood: returns the receiver's and the sender's figures. With
    IRQ_LOAD, direct disk reads run beside it (interrupts for the IRQ hooks).
    With NAPI_THREAD (the batched scenario) the polls, and so the hooks, run
    in that thread: packets per CPU-second are then those delivered per second
    of the sender's and that thread's CPU time."""
    disk = disk_irqs(os.path.join(args.tools, "irq-load.dat")) if irq_load else None
    try:
        before = napi_thread and napi_thread_cpu_ns(napi_thread)
        figures = flood_only(args, port)
        if napi_thread:
            figures["napi_thread_cpu_s"] = round((napi_thread_cpu_ns(napi_thread) - before) / 1e9, 4)
            figures["pkt_per_cpu_s"] = round(figures["received"] /
                                             max(figures["send_cpu_s"] + figures["napi_thread_cpu_s"], 1e-6))
        return figures
    finally:
        if disk:
            disk.kill()
            disk.wait()


def flood_only(args, port):
    with tempfile.TemporaryDirectory() as tmp:
        ready = os.path.join(tmp, "ready")
        recv = subprocess.Popen(
            ["ip", "netns", "exec", args.ns_b, "taskset", "-c", RECEIVER_CPU,
             os.path.join(args.tools, "flood_recv"), str(port), str(args.packets), ready, "1000"],
            stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 10
        while not os.path.exists(ready) and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = subprocess.run(
            ["ip", "netns", "exec", args.ns_a, "taskset", "-c", SENDER_CPU,
             os.path.join(args.tools, "flood_send"), "198.18.0.2", str(port), str(args.packets),
             str(args.size), "64"], check=True, capture_output=True, text=True).stdout
        got = recv.communicate(timeout=120)[0]
    r = re.search(r"received (\d+) packets in ([\d.]+) s: (\d+) pkt/s, (\d+) dropped", got)
    s = re.search(r"sent (\d+) packets in ([\d.]+) s: (\d+) pkt/s .*, ([\d.]+) s CPU", sent)
    if not r or not s:
        raise RuntimeError("flood failed: %r %r" % (sent, got))
    return {"received": int(r[1]), "recv_s": float(r[2]), "pps": int(r[3]),
            "socket_drops": int(r[4]), "sent": int(s[1]), "send_s": float(s[2]),
            "send_pps": int(s[3]), "send_cpu_s": float(s[4]),
            "pkt_per_cpu_s": round(int(s[1]) / max(float(s[4]), 1e-6))}


def losses(cfg, err_text):
    """What the tool said it lost: per-poll prints records and drops on exit."""
    m = re.search(r"netpmu trace: (\d+) records, (\d+) dropped \(ring buffer full\), "
                  r"(\d+) NAPI and (\d+) IRQ not tracked", err_text)
    if m:
        return {"records": int(m[1]), "dropped": int(m[2]), "napi_untracked": int(m[3]),
                "irq_untracked": int(m[4])}
    m = re.search(r"lost (\d+) records \(ring buffer full\), (\d+) NAPI and (\d+) IRQ", err_text)
    if m:
        return {"dropped": int(m[1]), "napi_untracked": int(m[2]), "irq_untracked": int(m[3])}
    return {"dropped": 0} if cfg["argv"] and "netpmu" in cfg["argv"][0] else {}


def run_one(cfg, args, port, with_stats, napi_thread=None):
    run = {"config": cfg["name"], "bpf_stats": with_stats}
    tool = None
    if cfg["argv"]:
        tool = ToolRun(cfg["argv"], subprocess.PIPE if cfg.get("pipe", True) else subprocess.DEVNULL)
        ready = tool.wait_for(cfg["ready"], cfg["stream"])
        time.sleep(cfg.get("settle", 0))
        run["first_output_s" if cfg.get("interval_first") else "ready_s"] = round(ready, 4)
        for key, pattern in (("attaching_line_s", r"^Attaching \d+ probes"),
                             ("tracing_line_s", r"^netpmu trace: tracing")):
            t = tool.first(pattern)
            if t is not None:
                run[key] = round(t, 4)
        ids = tool.prog_ids()
        # serve says it serves before it attaches: the flood waits until its programs stop coming.
        deadline, seen = time.monotonic() + 30, None
        while cfg.get("wait_progs") and (not ids or ids != seen) and time.monotonic() < deadline:
            seen = ids
            time.sleep(0.5)
            ids = tool.prog_ids()
        if cfg.get("wait_progs"):
            run["attached_s"] = round(time.monotonic() - tool.start, 4)
        # Which programs it runs: the floor must have one on each hook netpmu attaches.
        run["prog_names"] = sorted(p["name"] for p in bpf_prog_stats(tool.prog_ids()))
    scraper = Scraper(cfg["scrape"]) if cfg.get("scrape") else None
    if not cfg.get("no_flood"):
        run["flood"] = flood(args, port, irq_load=with_stats, napi_thread=napi_thread)
    if scraper:
        run["scrape"] = scraper.stop()
    if tool:
        run["steady_rss_kb"] = vm_kb(tool.proc.pid, "VmRSS")
        run["peak_rss_kb"] = vm_kb(tool.proc.pid, "VmHWM")
        if with_stats:
            run["progs"] = bpf_prog_stats(tool.prog_ids())
        status = tool.stop()
        run["exit_status"] = status
        run["rusage"] = tool.rusage
        err = tool.text("err")
        run["losses"] = losses(cfg, err)
        run["stderr_tail"] = err.splitlines()[-3:]
        if status not in (0, -2):
            raise RuntimeError("%s exited with %s:\n%s" % (cfg["name"], status, err))
    return run


# The flood's two shapes: the worst case (veth's NAPI in softirq context, one
# packet per poll) and a batched one: threaded NAPI, rescheduled by a 200 us
# timer instead of at once (napi_defer_hard_irqs), so that a poll finds the
# packets of 200 us waiting, as a real NIC's coalesced interrupt brings them.
SCENARIOS = ("worst", "batched")


def set_batched(ns, on):
    """Sets the receiving veth's NAPI to the scenario; its thread's pid when batched."""
    def napi_threads():
        return set(subprocess.run(["pgrep", "^napi/vb-"], capture_output=True, text=True).stdout.split())

    settings = (("napi_defer_hard_irqs", 2), ("gro_flush_timeout", 200000), ("threaded", 1)) if on else \
        (("threaded", 0), ("gro_flush_timeout", 0), ("napi_defer_hard_irqs", 0))
    before = napi_threads()
    for name, value in settings:
        subprocess.run(["ip", "netns", "exec", ns, "sh", "-c", "echo %d > /sys/class/net/vb/%s" % (value, name)],
                       check=True)
    if not on:
        return None
    # Other namespaces may have a vb of their own: this one's thread is the new one.
    new = napi_threads() - before
    if len(new) != 1:
        raise RuntimeError("batched scenario: expected one new NAPI thread of vb, found %r" % sorted(new))
    return int(new.pop())


def set_stats(value):
    path = "/proc/sys/kernel/bpf_stats_enabled"
    with open(path) as f:
        old = f.read().strip()
    with open(path, "w") as f:
        f.write(value)
    return old


def main():
    ap = argparse.ArgumentParser()
    for opt in ("--ns-a", "--ns-b", "--netpmu", "--tools", "--bt", "--out"):
        ap.add_argument(opt, required=True)
    ap.add_argument("--packets", type=int, default=500000)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    cfgs = configs(args.netpmu, args.bt, args.tools)
    runs = []
    port = 9000
    started = time.monotonic()
    for rnd in range(args.rounds + 1):
        order = cfgs[rnd % len(cfgs):] + cfgs[:rnd % len(cfgs)]
        stats = rnd == 0
        old = set_stats("1") if stats else None
        try:
            for scenario in SCENARIOS:
                napi_thread = set_batched(args.ns_b, scenario == "batched")
                probes = [floor_probe(), parts_probe(args.tools)] if stats and scenario == "worst" else []
                for cfg in order + probes:
                    port += 1
                    run = run_one(cfg, args, port, stats, napi_thread)
                    run["round"], run["scenario"] = rnd, scenario
                    runs.append(run)
                    print("  round %d %-7s %-18s %9d pkt/s %9d pkt/CPU-s%s" % (
                        rnd, scenario, cfg["name"], run["flood"]["pps"], run["flood"]["pkt_per_cpu_s"],
                        "  (BPF stats on, not in the medians)" if stats else ""), file=sys.stderr)
            set_batched(args.ns_b, False)
            if not stats:
                run = run_one(startup_probe(args.netpmu), args, port, False)
                run["round"] = rnd
                runs.append(run)
        finally:
            if old is not None:
                set_stats(old)
    with open(args.out, "w") as f:
        json.dump({"kernel": os.uname().release, "packets": args.packets, "size": args.size,
                   "rounds": args.rounds, "interval_s": INTERVAL_S,
                   "loadavg_at_end": os.getloadavg(),
                   "host_seconds": round(time.monotonic() - started, 1), "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()
