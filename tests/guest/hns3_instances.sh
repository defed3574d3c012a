#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: device-model instances added and removed at run time through
# /sys/bus/netpmu_sim/{new_device,del_device} (as netdevsim does): a new
# instance on one NIC with its own identifier and clock has exactly those
# sysfs values and counts only that NIC, beside hns3_pmu_sicl_0 counting the
# same frames; removal is refused while an event is open and clean after;
# malformed or conflicting requests get their errno.
. "$(dirname "$0")/../lib/tap.sh"
plan 41
kind golden

PYTHONPATH=$REPO/tests/guest:$REPO/tests/lib python3 - <<'PY'
import errno
from hns3_lib import *
from time_counter import check_time

nic = nics()
remove_at_exit(5, 6)
e0, e1 = nic["eth0"], nic["eth1"]
P5 = "hns3_pmu_sicl_5"
E = lambda e: errno.errorcode.get(e, "0 (done)") if e else "0 (done)"

dmesg_mark("hns3 instances")
req = f"5 netdevs={e1.name} identifier=0x31 hw_clk_freq=250000000"
check_eq(f"new_device '{req}'", "0 (done)", E(sim_new(req)))
check("netpmu_sim5 is a device of the netpmu_sim bus, at /sys/devices/netpmu_sim5",
      os.path.isdir(f"{SIM_BUS}/devices/netpmu_sim5") and os.path.isdir("/sys/devices/netpmu_sim5"))
check(f"{P5} is registered", os.path.isdir(pmu_dir(P5)))
check_eq(f"{P5}: identifier = 0x31", "0x31\n", pmu_read("identifier", P5))
check_eq(f"{P5}: hw_clk_freq = 250000000", "250000000\n", pmu_read("hw_clk_freq", P5))
check_eq(f"{P5}: bdf_min = bdf_max = {e1.short} ({e1.name}, its only function)",
         (e1.short + "\n", e1.short + "\n"), (pmu_read("bdf_min", P5), pmu_read("bdf_max", P5)))
check_eq(f"{P5}: cpumask = 0", "0\n", pmu_read("cpumask", P5))
check_eq(f"{P5}: the same 112 events", 112, len(os.listdir(pmu_dir(P5) + "/events")))
check(f"kernel log: {P5} counts {e1.name} ({e1.pci}) as port 0",
      f"{P5}: counting {e1.name} ({e1.pci}) as port 0" in dmesg_since("hns3 instances"))

f01 = Flow(e0, e1, 9, 200, 9301)
f10 = Flow(e1, e0, 6, 50, 9302)
specs = [
    (P5, "bw_ssu_rpu_byte_num,global=1", f"{f01.count}x{frame(f01.size)} (what {e1.name} received)", f01.bytes()),
    (P5, "bw_ssu_egu_byte_num,global=1", f"{f10.count}x{frame(f10.size)} (what {e1.name} sent)", f10.bytes()),
    (P5, "pps_ssu_rpu_packet_num,port=0,tc=0xf", f"{f01.count} ({e1.name} is its port 0)", f01.count),
    (P5, "pps_ssu_rpu_packet_num,port=1,tc=0xf", "0 (it has no port 1)", 0),
    (P5, f"bw_ssu_rpu_byte_num,bdf={e1.bdf:#x},queue=0xffff", f"{f01.count}x{frame(f01.size)}", f01.bytes()),
    (PMU0, "bw_ssu_rpu_byte_num,global=1", f"{f01.count}x{frame(f01.size)}+{f10.count}x{frame(f10.size)}",
     f01.bytes() + f10.bytes()),
]
try:
    values, _ = perf_stat([f"{p}/{s}/" for p, s, _, _ in specs] + [f"{P5}/bw_ssu_rpu_time,global=1/"],
                          [f01, f10], after="sleep 0.5")
except RuntimeError as e:
    values = {}
    not_ok("perf stat on the new instance", str(e))
kind("exact")
for p, s, formula, want in specs:
    check_eq(f"{p}/{s}/ = {formula} = {want}", want, values.get(f"{p}/{s}/", (None, 0))[0])
cycles, ns = values.get(f"{P5}/bw_ssu_rpu_time,global=1/", (None, 0))
# oracle: perf's enabled time; tolerance: tests/lib/time_counter.py (2 folds:
# perf's read and del), was 1%.
kind("weak", "a tolerance: the clock's resolution and the add/del path, derived in tests/lib/time_counter.py")
ok_, dev, tol = check_time(cycles, 250_000_000, ns, folds=2) if cycles is not None and ns else (False, None, None)
check(f"{P5}/bw_ssu_rpu_time/ / 250 MHz = enabled time (tests/lib/time_counter.py)", ok_,
      f"{cycles} cycles, {ns} ns: {dev} ns off (> {tol})")
kind("golden")
check_eq(f"{P5}: func bdf={e0.bdf:#x} ({e0.name}, outside its bdf range) -> ENOENT", "ENOENT",
         E(open_errno(attr(0x2, cfg1(bdf=e0.bdf, queue=0xffff), pmu=P5), pmu=P5)))

fd = open_fd(attr(0x2, G, pmu=P5), pmu=P5)
check("an event on the new instance opens", fd >= 0, f"errno {-fd}")
check_eq("del_device 5 while an event is open -> EBUSY", "EBUSY", E(sim_del(5)))
check(f"{P5} is still registered and counting after the refused removal",
      os.path.isdir(pmu_dir(P5)) and fd >= 0 and len(os.read(fd, 24)) == 24)
close_all([fd])
check_eq("del_device 5 after the event closed", "0 (done)", E(sim_del(5)))
check(f"{P5}, netpmu_sim5 and its bus entry are gone",
      not os.path.exists(pmu_dir(P5)) and not os.path.exists("/sys/devices/netpmu_sim5")
      and not os.path.exists(f"{SIM_BUS}/devices/netpmu_sim5"))
check_eq("new_device '5' again after removal", "0 (done)", E(sim_new("5")))
check_eq(f"{P5} re-created with the defaults: identifier 0x30, 100 MHz",
         ("0x30\n", "100000000\n"), (pmu_read("identifier", P5), pmu_read("hw_clk_freq", P5)))
check_eq("del_device 5", "0 (done)", E(sim_del(5)))

for req, want, why in (("0", "EEXIST", "instance 0 exists"),
                       ("\n", "EINVAL", "no id"),
                       ("abc", "EINVAL", "id not a number"),
                       ("70000", "ERANGE", "id above 16 bits"),
                       ("6 counter_bits=8", "EINVAL", "counter_bits below 16"),
                       ("6 counter_bits=65", "EINVAL", "counter_bits above 64"),
                       ("6 hw_clk_freq=0", "EINVAL", "zero clock"),
                       ("6 link_mbps=0", "EINVAL", "zero link speed"),
                       ("6 local_cpu=65536", "EINVAL", "no such CPU"),
                       ("6 local_cpu=-2", "EINVAL", "negative CPU other than -1"),
                       ("6 bogus=1", "EINVAL", "unknown key"),
                       ("6 netdevs", "EINVAL", "key without value")):
    check_eq(f"new_device {req!r} ({why}) -> {want}", want, E(sim_new(req)))
check("no instance 6 was left behind", not os.path.exists(pmu_dir("hns3_pmu_sicl_6")))
for req, want, why in (("99", "ENOENT", "no such instance"), ("abc", "EINVAL", "not a number")):
    check_eq(f"del_device '{req}' ({why}) -> {want}", want, E(sim_del(req)))
with as_kind("weak", NO_WARNING):
    check_eq("kernel log: no warning", [], kernel_problems(dmesg_since("hns3 instances")))
finish()
PY
