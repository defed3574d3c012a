#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Inside the guest (tests/vm/run): the cost of one bpf_perf_event_read_value()
on the HNS3 PMU, from the kernel's accounting (run_time_ns / run_cnt, sampled
from the program's fdinfo every 20 ms; medians, since the host deschedules a
TCG guest now and then) of `netpmu trace --per-poll` with 0 and then 8 counters
open, the same flood each time: the napi_poll program reads every counter at
each poll, the interval tick (every 100 ms) refreshes their snapshots.
Interrupts and sender sit on the PMU's counting CPU, where its counters are
readable. Prints one line: "bench-guest: {JSON}". TCG: relative only.

usage: guest_read_cost.py NETPMU TOOLS_DIR [PACKETS]
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tool_run import ToolRun, bpf_prog_stats  # noqa: E402

PMU = "hns3_pmu_sicl_0"
# Eight global counters (no two sharing a slot): all the PMU has.
EVENTS = ["bw_ssu_egu_byte_num", "bw_ssu_rpu_byte_num", "bw_tpu_ssu_byte_num",
          "bw_rd_fbd_byte_num", "bw_wr_fbd_byte_num", "pps_igu_ssu_packet_num",
          "pps_ssu_egu_packet_num", "pps_ssu_rpu_packet_num"]


def irqs_of(netns, dev):
    """The MSI-X vectors of DEV's virtio device, by name in /proc/interrupts."""
    link = subprocess.run((["ip", "netns", "exec", netns] if netns else []) +
                          ["readlink", "-f", "/sys/class/net/%s/device" % dev],
                          check=True, capture_output=True, text=True).stdout.strip()
    name = os.path.basename(link)
    out = []
    for line in open("/proc/interrupts"):
        if re.search(r"\b%s-(input|output)" % re.escape(name), line):
            out.append(line.split(":")[0].strip())
    return out


def prog_fdinfo(pid, ids):
    """fdinfo path of each program id the process holds."""
    paths = {}
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if "bpf-prog" not in os.readlink("/proc/%d/fd/%s" % (pid, fd)):
                continue
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as f:
                m = re.search(r"^prog_id:\s+(\d+)", f.read(), re.M)
        except OSError:
            continue
        if m and int(m[1]) in ids:
            paths[int(m[1])] = "/proc/%d/fdinfo/%s" % (pid, fd)
    return paths


def read_stats(path):
    text = open(path).read()
    return (int(re.search(r"run_cnt:\s+(\d+)", text)[1]),
            int(re.search(r"run_time_ns:\s+(\d+)", text)[1]))


def sample(paths, stop, out, period=0.02):
    """Per-window (runs, ns) of each program until STOP is set: a window that
    the host descheduled the guest in is an outlier, which a median ignores."""
    last = {name: read_stats(p) for name, p in paths.items()}
    while not stop.is_set():
        time.sleep(period)
        for name, p in paths.items():
            cnt, ns = read_stats(p)
            if cnt > last[name][0]:
                out[name].append((cnt - last[name][0], ns - last[name][1]))
            last[name] = (cnt, ns)


def window_median(windows):
    per_run = sorted(ns / cnt for cnt, ns in windows)
    return round(per_run[len(per_run) // 2], 1) if per_run else None


def one_run(netpmu, tools, packets, nr_counters, cpu, port):
    import threading
    argv = [netpmu, "trace", "--per-poll"]
    for e in EVENTS[:nr_counters]:
        argv += ["-e", "%s/%s,global=1/" % (PMU, e)]
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "polls.txt")
        with open(out_path, "w") as out:
            tool = ToolRun(argv, out)
            tool.wait_for(r"tracing", "err", timeout=60)
            names = {p["id"]: p["name"] for p in bpf_prog_stats(tool.prog_ids())}
            paths = {names[i]: path for i, path in prog_fdinfo(tool.proc.pid, set(names)).items()
                     if names[i] in ("napi_poll", "interval_tick")}
            windows = {name: [] for name in paths}
            stop = threading.Event()
            sampler = threading.Thread(target=sample, args=(paths, stop, windows))
            sampler.start()
            ready = os.path.join(tmp, "ready")
            recv = subprocess.Popen(["ip", "netns", "exec", "peer", os.path.join(tools, "flood_recv"),
                                     str(port), str(packets), ready, "2000"], stdout=subprocess.PIPE,
                                    text=True)
            while not os.path.exists(ready):
                time.sleep(0.05)
            subprocess.run(["taskset", "-c", cpu, os.path.join(tools, "flood_send"), "198.51.100.2",
                            str(port), str(packets), "64", "16"], check=True, capture_output=True)
            got = recv.communicate(timeout=300)[0].strip()
            stop.set()
            sampler.join()
            tool.stop()
        polls = snapshots = 0
        with open(out_path) as f:
            for line in f:
                if " poll " in line:
                    polls += 1
                    snapshots += "(snapshot)" in line
    return {"counters": nr_counters, "receiver": got, "poll_records": polls,
            "records_with_snapshots": snapshots,
            "napi_poll_windows": len(windows.get("napi_poll", [])),
            "napi_poll_ns_per_run": window_median(windows.get("napi_poll", [])),
            "tick_runs": sum(c for c, _ in windows.get("interval_tick", [])),
            "tick_ns_per_run": window_median(windows.get("interval_tick", []))}


def main():
    netpmu, tools = sys.argv[1], sys.argv[2]
    packets = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    cpu = open("/sys/bus/event_source/devices/%s/cpumask" % PMU).read().strip()
    for irq in irqs_of(None, "eth0") + irqs_of("peer", "eth1"):
        with open("/proc/irq/%s/smp_affinity_list" % irq, "w") as f:
            f.write(cpu)
    with open("/proc/sys/kernel/bpf_stats_enabled", "w") as f:
        f.write("1")
    runs = [one_run(netpmu, tools, packets, n, cpu, 9100 + n) for n in (0, 8)]
    base, full = runs
    # The tick reads every counter in one run (hardirq context, nothing nests in
    # it); the per-poll program reads them at each poll.
    tick_read = (full["tick_ns_per_run"] - base["tick_ns_per_run"]) / 8
    poll_read = (full["napi_poll_ns_per_run"] - base["napi_poll_ns_per_run"]) / 8
    print("bench-guest: " + json.dumps({
        "kernel": os.uname().release, "counting_cpu": int(cpu), "packets": packets, "runs": runs,
        "read_ns_tcg_tick": round(tick_read, 1), "read_ns_tcg_poll": round(poll_read, 1),
        "read_vs_poll_run": round(poll_read / base["napi_poll_ns_per_run"], 3)}))


if __name__ == "__main__":
    main()
