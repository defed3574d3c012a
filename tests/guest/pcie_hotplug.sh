#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: CPU hotplug moves the PCIe PMU's counting CPU and its events.
# x86 cannot offline CPU 0, the counting CPU by default, so netpmu.ko is
# reloaded with pcie_cpu=1 (the model's stand-in for a NUMA-local CPU 1);
# offlining CPU 1 must then move cpumask to CPU 0 with the events counting on,
# exactly; onlining it again leaves the counting CPU alone (as upstream).
# netpmu.ko is reloaded with its default parameters at the end.
. "$(dirname "$0")/../lib/tap.sh"
pmu=/sys/bus/event_source/devices/hisi_pcie0_core0
kmod=${NETPMU_KO:?set by tests/vm/run}
cpu1=/sys/devices/system/cpu/cpu1/online

if [ ! -w $cpu1 ]; then
	skip "hotplug moves the counting CPU" "CPU 1 cannot be taken offline here"
	exit 0
fi
warnings() { dmesg | grep -cE 'WARNING:|BUG:|Oops|Call Trace:'; }
before=$(warnings)

reload() {
	rmmod netpmu && insmod "$kmod" "$@"
}
check_cmd "netpmu.ko reloads with pcie_cpu=1" reload pcie_cpu=1
check_eq "cpumask is the requested CPU 1" 1 "$(cat $pmu/cpumask)"

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
from pcie_pmu import *

p = params()
eth0, eth1 = endpoints()
D, F = p["desc_bytes"], 1000
spec = f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"
online = "/sys/devices/system/cpu/cpu1/online"

flux = Counter(*parse_event(spec), name=spec)
grp = Counter(*parse_event(f"rx_mwr_flux,bdf={eth0.bdf:#x},len_mode=1"))
tim = Counter(*parse_event(f"rx_mwr_time,bdf={eth0.bdf:#x},len_mode=1"), group=grp)
flux.enable(); grp.enable()

flow(5, F - ETH_IP_UDP)
check_eq("on CPU 1: 5 frames counted, 5*(F+D)", 5 * (F + D), flux.value())
t1 = tim.value()

open(online, "w").write("0\n")
check_eq("CPU 1 offline: cpumask moves to CPU 0", "0\n", read_sys("cpumask"))
flow(7, F - ETH_IP_UDP)
check_eq("the event moved along and counts on: 12*(F+D)", 12 * (F + D), flux.value())
t2 = tim.value()
check(f"the grouped time counter moved along and ticks on ({t1} -> {t2})", t2 > t1)
r = flux.read()
check("the event never stopped counting (time running = enabled)", r[1] == r[2] > 0, repr(r))

open(online, "w").write("1\n")
check_eq("CPU 1 online again: the counting CPU stays 0 (upstream)", "0\n", read_sys("cpumask"))
flow(3, F - ETH_IP_UDP)
check_eq("still counting: 15*(F+D)", 15 * (F + D), flux.value())
grp.disable(); flux.disable()
tim.close(); grp.close(); flux.close()

# A new event goes to the new counting CPU.
vals = measure([spec], lambda: flow(2, F - ETH_IP_UDP))
check_eq("a new event counts on CPU 0: 2*(F+D)", 2 * (F + D), (vals[spec] or [None])[0])
sys.exit(0)
PY

[ "$(cat $cpu1)" = 1 ] || echo 1 > $cpu1
check_eq "no kernel warning, BUG or oops during hotplug" "$before" "$(warnings)"
check_cmd "netpmu.ko reloads with its default parameters" reload
check_eq "cpumask is CPU 0 again" 0 "$(cat $pmu/cpumask)"
