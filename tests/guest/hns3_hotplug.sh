#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on every cell: CPU hotplug of the HNS3 PMU's counting CPU
# (kmod/README.md, "CPU hotplug"). A run-time model instance local to CPU 1
# (local_cpu=1) counts there, on every kernel (with PMU scopes too: netpmu's
# remote reads leave the counting CPU to the driver, as upstream). Then, one round per CPU that can go offline (x86:
# CPU 1; arm64: the instance's counting CPU first, then the other one), the
# CPU goes offline and comes back while known flows pass: cpumask moves to
# the other CPU if it counted there and stays otherwise, the open events (a
# group with a slot-sharing pair included) count exactly, and so do perf stat
# -I, netpmu stat -I and netpmu trace -I running throughout: the sum of their
# intervals is every byte received. Instances made after a round, and while
# their local CPU is offline, count where the rules say.
. "$(dirname "$0")/../lib/tap.sh"
kind exact

PYTHONPATH=$REPO/tests/guest:$REPO/tests/lib python3 - <<'PY'
import atexit
from hns3_lib import *
from cpu_hotplug import *

P3, P4 = "hns3_pmu_sicl_3", "hns3_pmu_sicl_4"
victims = [cpu for cpu in (0, 1) if offlinable(cpu)]
note(f"PMU scopes: {'yes' if kernel_has_pmu_scope() else 'no'}; CPUs that can go offline: {victims}")
# 22 checks, 13 per round, 7 more after the first.
plan(22 + 13 * len(victims) + 7 * bool(victims))
opened = []


def restore():
    """Every CPU online and no instance of ours left, whatever failed."""
    close_all(opened)
    all_online()
    for n in (3, 4):
        if os.path.exists(pmu_dir(f"hns3_pmu_sicl_{n}")):
            sim_del(n)


atexit.register(restore)
nic = nics()
e0, e1 = nic["eth0"], nic["eth1"]
hz = 10**8
dmesg_mark("hns3 hotplug")
check_eq("new_device '3 local_cpu=1'", 0, sim_new("3 local_cpu=1"))
check_eq(f"{P3}: cpumask = 1 (the CPU its device is local to)", 1, cpumask(P3))

specs = [
    ("bw_ssu_rpu_byte_num,global=1", 0x2, G, "rx_bytes"),
    ("pps_ssu_egu_packet_num,global=1", 0x101, G, "tx_pkts"),
    (f"pps_ssu_rpu_packet_num,bdf={e1.bdf:#x},queue=0xffff (group leader)", 0x102,
     cfg1(bdf=e1.bdf, queue=0xffff), "e1_rx_pkts"),
    (f"pps_ssu_rpu_time,bdf={e1.bdf:#x},queue=0xffff (its pair, same slot)", 0x10102,
     cfg1(bdf=e1.bdf, queue=0xffff), "time"),
    (f"config=0x301,bdf={e1.bdf:#x},intr=1", 0x301, cfg1(bdf=e1.bdf, intr=1), "intr"),
    ("bw_ssu_rpu_time,global=1", 0x10002, G, "time"),
]
irq = e1.vectors.get(1)
before_irqs = proc_interrupts()
fds = []
for i, (name, cfg, c1, _) in enumerate(specs):
    group = fds[2] if i == 3 else -1
    fds.append(open_fd(attr(cfg, c1, pmu=P3, flags=F_DISABLED if group < 0 else 0),
                       pmu=P3, group=group))
fd0 = open_fd(attr(0x2, G, flags=F_DISABLED))
opened.extend(f for f in fds + [fd0] if f >= 0)
check_eq(f"6 events (one a group of a pair) open on {P3}, one on {PMU0}",
         [True] * 7, [f >= 0 for f in fds + [fd0]])
for i, fd in enumerate(fds + [fd0]):
    if i != 3 and fd >= 0:
        enable(fd)
# The instance's 3 other counters: what a user watching sees.
tools = Tools(f"{P3}/bw_ssu_rpu_byte_num,global=1/")

sent = {"rx_bytes": 0, "tx_pkts": 0, "e1_rx_pkts": 0}
p4 = {"fd": -1, "rx_bytes": 0}


def phase(title, flows):
    try:
        run_flows(flows)
    except RuntimeError as e:
        not_ok(f"{title}: flows", str(e))
    for fl in flows:
        sent["rx_bytes"] += fl.bytes()
        sent["tx_pkts"] += fl.count
        sent["e1_rx_pkts"] += fl.count if fl.dst is e1 else 0
        p4["rx_bytes"] += fl.bytes() if p4["fd"] >= 0 else 0
    vals = [read_counter(fd) if fd >= 0 else (None, 0, 0) for fd in fds]
    for (name, _, _, key), (v, en, run) in zip(specs, vals):
        if key in sent:
            check_eq(f"{title}: {P3}/{name} = {sent[key]} (all flows so far)", sent[key], v)
        elif key == "time":
            # Each move of the event to another CPU adds a del/add path
            # of its own: 1% of the run, not tests/lib/time_counter.py's bound.
            kind("weak", "a 1% tolerance: every CPU move adds a del/add path")
            check(f"{title}: {P3}/{name}: cycles / 100 MHz = enabled time within 1%",
                  v is not None and en and abs(v / hz - en / 1e9) <= 0.01 * en / 1e9,
                  f"{v} cycles, {en} ns enabled")
            kind("exact")


def new_instance_cpu(title):
    """Instance 4, local to CPU 1: where it counts now."""
    if 1 in online_cpus():
        return 1, f"{title}: its local CPU 1"
    return min(online_cpus()), f"{title}: local CPU 1 is offline, the first online CPU"


port = iter(range(9401, 9500))
phase("before any hotplug", [Flow(e0, e1, 10, 100, next(port)), Flow(e1, e0, 4, 700, next(port))])
for rnd, victim in enumerate(sorted(victims, key=lambda cpu: cpu != cpumask(P3))):
    was = {p: cpumask(p) for p in (PMU0, P3)}
    want = {p: moved_to(c, victim) for p, c in was.items()}
    set_online(victim, False)
    for p in was:
        check_eq(f"CPU {victim} offline: {p} cpumask {was[p]} -> {want[p]}", want[p], cpumask(p))
    phase(f"CPU {victim} offline", [Flow(e0, e1, 15, 300, next(port))])
    set_online(victim, True)
    check_eq(f"CPU {victim} back online: every cpumask stays ({want})", want,
             {p: cpumask(p) for p in want})
    phase(f"CPU {victim} back online", [Flow(e1, e0, 7, 1200, next(port)), Flow(e0, e1, 3, 20, next(port))])
    if rnd == 0:
        check_eq("new_device '4 local_cpu=1' after the round", 0, sim_new("4 local_cpu=1"))
        cpu4, why = new_instance_cpu("made after the round")
        check_eq(f"{P4}: cpumask = {cpu4} ({why})", cpu4, cpumask(P4))
        p4["fd"] = open_fd(attr(0x2, G), pmu=P4)
        opened.append(p4["fd"])
        phase(f"{P4} counting too", [Flow(e0, e1, 5, 500, next(port))])

results = tools.stop()
for fd in fds + [fd0]:
    if fd >= 0:
        disable(fd)
after_irqs = proc_interrupts()
v = read_counter(fds[4])[0] if fds[4] >= 0 else None
d = after_irqs.get(irq, 0) - before_irqs.get(irq, 0)
check_eq(f"{P3}/config=0x301,bdf={e1.bdf:#x},intr=1/ across the hotplug = /proc/interrupts delta of IRQ {irq} = {d}",
         d, v)
check_eq(f"{PMU0}/bw_ssu_rpu_byte_num,global=1/ across the hotplug = {sent['rx_bytes']}",
         sent["rx_bytes"], read_counter(fd0)[0] if fd0 >= 0 else None)
check_eq(f"{P4}/bw_ssu_rpu_byte_num,global=1/ (made after the first round) = {p4['rx_bytes']}",
         p4["rx_bytes"], read_counter(p4["fd"])[0] if p4["fd"] >= 0 else None)
for tool, (total, why) in results.items():
    note(f"{tool}: {why}")
    check_eq(f"{tool} on {P3}: the sum of its intervals = every byte received, {sent['rx_bytes']}",
             sent["rx_bytes"], total)
close_all(opened)
opened.clear()
check_eq("del_device 3", 0, sim_del(3))
check_eq("del_device 4", 0, sim_del(4))

want0 = moved_to(cpumask(PMU0), 1)
set_online(1, False)
check_eq(f"CPU 1 offline: {PMU0} counts on CPU {want0}, where the next tests expect it", want0, cpumask(PMU0))
check_eq("new_device '4 local_cpu=1' while CPU 1 is offline", 0, sim_new("4 local_cpu=1"))
cpu4, why = new_instance_cpu("made while CPU 1 is offline")
check_eq(f"{P4}: cpumask = {cpu4} ({why})", cpu4, cpumask(P4))
set_online(1, True)
check_eq(f"{P4} stays on CPU {cpu4} when CPU 1 comes online", cpu4, cpumask(P4))
check_eq("del_device 4", 0, sim_del(4))
with as_kind("weak", NO_WARNING):
    check_eq("kernel log: no warning", [], kernel_problems(dmesg_since("hns3 hotplug")))
finish()
PY
