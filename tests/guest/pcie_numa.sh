#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest (two NUMA nodes of one CPU each, tests/vm/run), on every cell:
# the PCIe PMU of a device on node 1 (the model with pcie_node=1) counts on a
# CPU of node 1 and says so in cpumask, as upstream's driver does, on kernels
# with PMU scopes too (where netpmu keeps reads from any CPU). perf stat
# attributes the counts to that CPU and they are exact; when the CPU goes
# offline the events move to a CPU of another node and stay there when it
# returns (upstream). netpmu.ko is reloaded with its default parameters at
# the end.
. "$(dirname "$0")/../lib/tap.sh"
plan 9
kind exact
kmod=${NETPMU_KO:?set by tests/vm/run}
reload() { rmmod netpmu && insmod "$kmod" "$@"; }
trap 'reload >/dev/null 2>&1 || echo "not ok - restore the default load of netpmu.ko"' EXIT

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
check_eq "the guest has two NUMA nodes" 2 "$nodes"
TAP_KIND="weak: setup step" check_cmd "netpmu.ko reloads with pcie_node=1" reload pcie_node=1

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
import atexit
from pcie_pmu import *
from cpu_hotplug import *

atexit.register(all_online)
PMU0 = "hisi_pcie0_core0"
# oracle: the kernel's own CPU list of node 1
node1 = [int(c) for c in open("/sys/devices/system/node/node1/cpulist").read().strip().split(",")]
check_eq(f"cpumask is the first CPU of node 1 ({node1[0]}), the device's node", node1[0], cpumask(PMU0))
note(f"PMU scopes: {'yes' if kernel_has_pmu_scope() else 'no'}")

p = params()
eth0, eth1 = endpoints()
D, F = p["desc_bytes"], 1000
spec = f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"
cfg = parse_event(spec)


def perf_per_cpu(count):
    """perf stat -a -A around count frames: {cpu: value} of the event."""
    out = "/tmp/pcie-numa.perf"
    r = subprocess.run(["perf", "stat", "-a", "-A", "-x", ";", "-o", out, "-e", f"{PMU0}/{spec}/", "--",
                        UDP_FLOW, "transfer", "--netns", "peer", "--to", "198.51.100.2", "--port", "9000",
                        "--count", str(count), "--size", str(F - ETH_IP_UDP), "--gap-us", "1000"],
                       capture_output=True, text=True)
    rows = {}
    for line in open(out).read().splitlines() if os.path.exists(out) else []:
        f = line.split(";")
        if len(f) > 3 and f[0].startswith("CPU") and f[1].isdigit():
            rows[int(f[0][3:])] = int(f[1])
    if r.returncode:
        note(f"perf stat: {r.stderr.strip()}")
    return rows


# oracle: frames sent x (frame + the descriptor write-back per frame)
rows = perf_per_cpu(6)
check_eq(f"perf stat -a -A: the count is on CPU {node1[0]} only and = 6*(F+D) = {6 * (F + D)}",
         {node1[0]: 6 * (F + D)}, rows)
vals = measure([spec], lambda: flow(4, F - ETH_IP_UDP))
check_eq(f"an event opened on any CPU counts on CPU {node1[0]}: 4*(F+D) = {4 * (F + D)}",
         4 * (F + D), (vals[spec] or [None])[0])

kind("weak", "setup step")
check(f"CPU {node1[0]} can go offline", offlinable(node1[0]))
kind("exact")
if offlinable(node1[0]):
    set_online(node1[0], False)
    moved = cpumask(PMU0)
    check(f"CPU {node1[0]} offline: cpumask moves to an online CPU of another node",
          moved != node1[0] and moved in online_cpus(), f"cpumask {moved}")
    rows = perf_per_cpu(3)
    check_eq(f"CPU {node1[0]} offline: perf counts 3*(F+D) on CPU {moved}", {moved: 3 * (F + D)}, rows)
    set_online(node1[0], True)
    check_eq(f"CPU {node1[0]} back online: cpumask stays {moved} (upstream: nothing moves back)",
             moved, cpumask(PMU0))
else:
    for what in ("cpumask moves", "perf counts on the new CPU", "cpumask stays"):
        skip(f"CPU {node1[0]} offline: {what}", "it cannot go offline")
sys.exit(0)
PY
