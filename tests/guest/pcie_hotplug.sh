#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on every cell: CPU hotplug of the PCIe PMU's counting CPU.
# netpmu.ko is reloaded with pcie_cpu=1 (the model's stand-in for a
# NUMA-local CPU 1): the PMU counts there, on every kernel (with PMU scopes
# too: netpmu's remote reads leave the counting CPU to the driver). Then
# one round per CPU that can go offline (x86: CPU 1; arm64: the counting CPU
# first, then the other one): the CPU goes offline and comes back while known
# flows pass; cpumask moves to the other CPU if it counted there and stays
# otherwise (nothing moves back, as upstream), the open events (a grouped
# pair included) count exactly, and so do perf stat -I, netpmu stat -I and
# netpmu trace -I running throughout. netpmu.ko is reloaded with its default
# parameters at the end.
. "$(dirname "$0")/../lib/tap.sh"
kind model
pmu=/sys/bus/event_source/devices/hisi_pcie0_core0
kmod=${NETPMU_KO:?netpmu.ko of the cell, set by tests/vm/run}
warnings() { dmesg | grep -cE 'WARNING:|BUG:|Oops|Call Trace:'; }
before=$(warnings)

reload() {
	rmmod netpmu && insmod "$kmod" "$@"
}
TAP_KIND="weak: setup step" check_cmd "netpmu.ko reloads with pcie_cpu=1" reload pcie_cpu=1

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
import atexit
from pcie_pmu import *
from cpu_hotplug import *

atexit.register(all_online)
PMU0 = "hisi_pcie0_core0"
victims = [cpu for cpu in (0, 1) if offlinable(cpu)]
note(f"PMU scopes: {'yes' if kernel_has_pmu_scope() else 'no'}; CPUs that can go offline: {victims}")
# 12 checks (4 of them in the shell around), 6 per round.
plan(12 + 6 * len(victims))
check_eq("cpumask is the requested CPU 1", 1, cpumask(PMU0))

p = params()
eth0, eth1 = endpoints()
D, F = p["desc_bytes"], 1000
spec = f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"
flux = Counter(*parse_event(spec), name=spec)
grp = Counter(*parse_event(f"rx_mwr_flux,bdf={eth0.bdf:#x},len_mode=1"))
tim = Counter(*parse_event(f"rx_mwr_time,bdf={eth0.bdf:#x},len_mode=1"), group=grp)
flux.enable()
grp.enable()
tools = Tools(f"{PMU0}/{spec}/")
frames = {"n": 0}


def phase(title, count):
    t0 = tim.value()
    flow(count, F - ETH_IP_UDP)
    frames["n"] += count
    n = frames["n"]
    check_eq(f"{title}: {spec} = {n}*(F+D) = {n * (F + D)} (every frame so far)", n * (F + D), flux.value())
    t1 = tim.value()
    kind("weak", "monotonic: the time across a CPU move has no exact value")
    check(f"{title}: the grouped time counter ticks on", t1 > t0, f"{t0} -> {t1}")
    kind("model")


phase("before any hotplug", 5)
for victim in sorted(victims, key=lambda cpu: cpu != cpumask(PMU0)):
    was = cpumask(PMU0)
    want = moved_to(was, victim)
    set_online(victim, False)
    check_eq(f"CPU {victim} offline: cpumask {was} -> {want}", want, cpumask(PMU0))
    phase(f"CPU {victim} offline", 7)
    set_online(victim, True)
    check_eq(f"CPU {victim} back online: cpumask stays {want} (upstream)", want, cpumask(PMU0))
    phase(f"CPU {victim} back online", 3)

results = tools.stop()
r = flux.read()
check("the event never stopped counting (time running = enabled)", r[1] == r[2] > 0, repr(r))
grp.disable()
flux.disable()
tim.close()
grp.close()
flux.close()
total = frames["n"] * (F + D)
for tool, (got, why) in results.items():
    note(f"{tool}: {why}")
    check_eq(f"{tool}: the sum of its intervals = every frame's flux, {total}", total, got)

# A new event goes to the current counting CPU.
vals = measure([spec], lambda: flow(2, F - ETH_IP_UDP))
check_eq(f"a new event counts on CPU {cpumask(PMU0)}: 2*(F+D)", 2 * (F + D), (vals[spec] or [None])[0])
sys.exit(0)
PY

TAP_KIND="weak: an absence: no kernel warning, BUG or oops (tests/vm/run fails the run on one too)" \
	check_eq "no kernel warning, BUG or oops during hotplug" "$before" "$(warnings)"
TAP_KIND="weak: setup step" check_cmd "netpmu.ko reloads with its default parameters" reload
# The first CPU of the Root Ports' NUMA node: they have none here, so CPU 0.
check_eq "cpumask is CPU 0 again" 0 "$(cat $pmu/cpumask)"
