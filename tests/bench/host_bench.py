#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host half of `make bench`: the four configurations run interleaved
(round r starts at configuration r), each with the same fixed UDP flood across
the veth pair. Round 0 runs with kernel.bpf_stats_enabled=1 for the BPF cost
and is left out of the throughput medians. Writes the raw runs as JSON.

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
import time

from tool_run import ToolRun, bpf_prog_stats

SENDER_CPU, RECEIVER_CPU = "0", "1"
INTERVAL_S = 1.0
# netpmu's text interval output starts with this line; bpftrace's with time().
NETPMU_TOP_FIRST = r"^netpmu top "
BPFTRACE_FIRST = r"^\d\d:\d\d:\d\d$"


def configs(netpmu, bt):
    return [
        {"name": "1 none", "argv": None},
        {"name": "2 netpmu top", "argv": [netpmu, "top", "-I", "1000"],
         "ready": NETPMU_TOP_FIRST, "stream": "out", "interval_first": True},
        {"name": "3 netpmu per-poll", "argv": [netpmu, "trace", "--per-poll"], "pipe": False,
         "ready": r"^netpmu trace: tracing", "stream": "err"},
        {"name": "4 bpftrace", "argv": ["bpftrace", bt],
         "ready": BPFTRACE_FIRST, "stream": "out", "interval_first": True},
    ]


def flood(args, port):
    """The fixed flood: returns the receiver's and the sender's figures."""
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
    s = re.search(r"sent (\d+) packets in ([\d.]+) s: (\d+) pkt/s", sent)
    if not r or not s:
        raise RuntimeError("flood failed: %r %r" % (sent, got))
    return {"received": int(r[1]), "recv_s": float(r[2]), "pps": int(r[3]),
            "socket_drops": int(r[4]), "sent": int(s[1]), "send_s": float(s[2]),
            "send_pps": int(s[3])}


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


def run_one(cfg, args, port, with_stats):
    run = {"config": cfg["name"], "bpf_stats": with_stats}
    tool = None
    if cfg["argv"]:
        tool = ToolRun(cfg["argv"], subprocess.PIPE if cfg.get("pipe", True) else subprocess.DEVNULL)
        ready = tool.wait_for(cfg["ready"], cfg["stream"])
        run["first_output_s" if cfg.get("interval_first") else "ready_s"] = round(ready, 4)
        attach = tool.first(r"^Attaching \d+ probes")
        if attach is not None:
            run["attaching_line_s"] = round(attach, 4)
        ids = tool.prog_ids()
    run["flood"] = flood(args, port)
    if tool:
        if with_stats:
            run["progs"] = bpf_prog_stats(ids)
        status = tool.stop()
        run["exit_status"] = status
        run["rusage"] = tool.rusage
        err = tool.text("err")
        run["losses"] = losses(cfg, err)
        run["stderr_tail"] = err.splitlines()[-3:]
        if status not in (0, -2):
            raise RuntimeError("%s exited with %s:\n%s" % (cfg["name"], status, err))
    return run


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
    ap.add_argument("--packets", type=int, default=1000000)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    cfgs = configs(args.netpmu, args.bt)
    runs = []
    port = 9000
    started = time.monotonic()
    for rnd in range(args.rounds + 1):
        order = cfgs[rnd % len(cfgs):] + cfgs[:rnd % len(cfgs)]
        stats = rnd == 0
        old = set_stats("1") if stats else None
        try:
            for cfg in order:
                port += 1
                run = run_one(cfg, args, port, stats)
                run["round"] = rnd
                runs.append(run)
                print("  round %d %-18s %9d pkt/s%s" % (
                    rnd, cfg["name"], run["flood"]["pps"],
                    "  (BPF stats on, not in the medians)" if stats else ""), file=sys.stderr)
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
