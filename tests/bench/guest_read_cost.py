#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Inside the guest (tests/vm/run): the cost of one bpf_perf_event_read_value()
on the HNS3 PMU, from the kernel's accounting of the napi_poll program in
`netpmu trace --per-poll` with 0 and then 8 counters open, the same flood each
time. Interrupts, sender and receiver sit on the PMU's counting CPU, where its
counters are readable. Prints one line: "bench-guest: {JSON}". TCG: relative only.

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


def one_run(netpmu, tools, packets, nr_counters, cpu, port):
    argv = [netpmu, "trace", "--per-poll"]
    for e in EVENTS[:nr_counters]:
        argv += ["-e", "%s/%s,global=1/" % (PMU, e)]
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "polls.txt")
        with open(out_path, "w") as out:
            tool = ToolRun(argv, out)
            tool.wait_for(r"tracing", "err", timeout=60)
            ids = tool.prog_ids()
            ready = os.path.join(tmp, "ready")
            recv = subprocess.Popen(["ip", "netns", "exec", "peer", os.path.join(tools, "flood_recv"),
                                     str(port), str(packets), ready, "2000"], stdout=subprocess.PIPE,
                                    text=True)
            while not os.path.exists(ready):
                time.sleep(0.05)
            subprocess.run(["taskset", "-c", cpu, os.path.join(tools, "flood_send"), "198.51.100.2",
                            str(port), str(packets), "64", "16"], check=True, capture_output=True)
            got = recv.communicate(timeout=300)[0].strip()
            progs = [p for p in bpf_prog_stats(ids) if p["name"] == "napi_poll"]
            tool.stop()
        polls = snapshots = 0
        with open(out_path) as f:
            for line in f:
                if " poll " in line:
                    polls += 1
                    snapshots += "(snapshot)" in line
    p = progs[0]
    return {"counters": nr_counters, "napi_poll_runs": p["run_cnt"],
            "napi_poll_ns_per_run": round(p["run_time_ns"] / max(p["run_cnt"], 1), 1),
            "poll_records": polls, "records_with_snapshots": snapshots, "receiver": got}


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
    per_read = (full["napi_poll_ns_per_run"] - base["napi_poll_ns_per_run"]) / 8
    print("bench-guest: " + json.dumps({
        "kernel": os.uname().release, "counting_cpu": int(cpu), "packets": packets, "runs": runs,
        "read_ns_tcg": round(per_read, 1),
        "read_vs_poll_run": round(per_read / base["napi_poll_ns_per_run"], 3)}))


if __name__ == "__main__":
    main()
