#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: CPU hotplug migration. x86 cannot offline CPU 0, the default
# counting CPU, so a run-time model instance is made local to CPU 1
# (local_cpu=1, kmod/README.md): the PMU counts there; offlining CPU 1 moves
# cpumask to CPU 0 and migrates the open events (a group with a slot-sharing
# pair included), which keep counting exactly: bytes and packets of known
# flows before, during and after, interrupts against /proc/interrupts, time
# against the enabled time. hns3_pmu_sicl_0 on CPU 0 is unaffected.
. "$(dirname "$0")/../lib/tap.sh"

PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
from hns3_lib import *

CPU1 = "/sys/devices/system/cpu/cpu1/online"
if not os.path.exists(CPU1):
    skip("CPU hotplug migration", "CPU 1 cannot be taken offline in this guest")
    finish()
if tuple(int(x) for x in os.uname().release.split(".")[:2]) >= (6, 12):
    # PERF_PMU_SCOPE_SYS_WIDE: the perf core picks the counting CPU (the
    # first online, CPU 0 here) and ignores local_cpu.
    skip("CPU hotplug migration", "the perf core picks the CPU of a scoped PMU (6.12+): CPU 0, not offlinable")
    finish()

def cpu1(state):
    with open(CPU1, "w") as f:
        f.write(state)

def restore():
    """CPU 1 online and no instance of ours left, whatever failed."""
    close_all(opened)
    if read(CPU1).strip() != "1":
        cpu1("1")
    for n in (3, 4):
        if os.path.exists(pmu_dir(f"hns3_pmu_sicl_{n}")):
            sim_del(n)

import atexit
opened = []
atexit.register(restore)

nic = nics()
e0, e1 = nic["eth0"], nic["eth1"]
P3 = "hns3_pmu_sicl_3"
hz = 10**8
dmesg_mark("hns3 hotplug")
check_eq("new_device '3 local_cpu=1'", 0, sim_new("3 local_cpu=1"))
check_eq(f"{P3}: cpumask = 1 (the CPU its device is local to)", "1\n", pmu_read("cpumask", P3))

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
before = proc_interrupts()
fds = []
for i, (name, cfg, c1, _) in enumerate(specs):
    group = fds[2] if i == 3 else -1
    fds.append(open_fd(attr(cfg, c1, pmu=P3, flags=F_DISABLED if group < 0 else 0),
                       pmu=P3, group=group))
fd0 = open_fd(attr(0x2, G, flags=F_DISABLED))
opened.extend(f for f in fds + [fd0] if f >= 0)
check_eq(f"6 events (one a group of a pair) open on {P3} at CPU 1, one on {PMU0}",
         [True] * 7, [f >= 0 for f in fds + [fd0]])
for i, fd in enumerate(fds + [fd0]):
    if i != 3 and fd >= 0:
        enable(fd)

sent = {"rx_bytes": 0, "tx_pkts": 0, "e1_rx_pkts": 0}
def phase(title, flows):
    try:
        run_flows(flows)
    except RuntimeError as e:
        not_ok(f"{title}: flows", str(e))
    for fl in flows:
        sent["rx_bytes"] += fl.bytes()
        sent["tx_pkts"] += fl.count
        sent["e1_rx_pkts"] += fl.count if fl.dst is e1 else 0
    vals = [read_counter(fd) if fd >= 0 else (None, 0, 0) for fd in fds]
    for (name, _, _, key), (v, en, run) in zip(specs, vals):
        if key in sent:
            check_eq(f"{title}: {P3}/{name} = {sent[key]} (all flows so far)", sent[key], v)
        elif key == "time":
            check(f"{title}: {P3}/{name}: {v} cycles / 100 MHz = enabled {en / 1e9:.4f} s within 1%",
                  v is not None and en and abs(v / hz - en / 1e9) <= 0.01 * en / 1e9)
    return vals

phase("before offlining (CPU 1 counts)", [Flow(e0, e1, 10, 100, 9401), Flow(e1, e0, 4, 700, 9402)])
cpu1("0")
check_eq(f"CPU 1 offline: {P3} cpumask moves to 0", "0\n", pmu_read("cpumask", P3))
check_eq(f"CPU 1 offline: {PMU0} cpumask stays 0", "0\n", pmu_read("cpumask"))
phase("CPU 1 offline (events migrated to CPU 0)", [Flow(e0, e1, 15, 300, 9403)])
cpu1("1")
check_eq(f"CPU 1 back online: {P3} stays on CPU 0 (no move back, as upstream)", "0\n", pmu_read("cpumask", P3))
vals = phase("CPU 1 back online", [Flow(e1, e0, 7, 1200, 9404), Flow(e0, e1, 3, 20, 9405)])
for fd in fds + [fd0]:
    if fd >= 0:
        disable(fd)
after = proc_interrupts()
v = read_counter(fds[4])[0] if fds[4] >= 0 else None
d = after.get(irq, 0) - before.get(irq, 0)
check_eq(f"{P3}/config=0x301,bdf={e1.bdf:#x},intr=1/ across the migration = /proc/interrupts delta of IRQ {irq} = {d}",
         d, v)
check_eq(f"{PMU0}/bw_ssu_rpu_byte_num,global=1/ (CPU 0 throughout) = {sent['rx_bytes']}",
         sent["rx_bytes"], read_counter(fd0)[0] if fd0 >= 0 else None)
opened.clear()
close_all(fds + [fd0])
check_eq(f"del_device 3", 0, sim_del(3))

cpu1("0")
check_eq("new_device '4 local_cpu=1' while CPU 1 is offline", 0, sim_new("4 local_cpu=1"))
check_eq("hns3_pmu_sicl_4: cpumask = 0 (its local CPU is offline: the first online one)", "0\n",
         pmu_read("cpumask", "hns3_pmu_sicl_4"))
cpu1("1")
check_eq("hns3_pmu_sicl_4 stays on CPU 0 when CPU 1 comes online", "0\n", pmu_read("cpumask", "hns3_pmu_sicl_4"))
check_eq("del_device 4", 0, sim_del(4))
check_eq("kernel log: no warning", [], kernel_problems(dmesg_since("hns3 hotplug")))
finish()
PY
