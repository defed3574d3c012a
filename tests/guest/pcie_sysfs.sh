#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: the PCIe PMU model's sysfs files, byte for byte as the upstream
# ABI (tests/fixtures/abi/pcie-events.tsv, formats.tsv) and the guest's real
# PCIe topology say: 18 events, 8 formats, bus/bdf_min/bdf_max of its
# Root Ports, the counting CPU as a cpulist, the identifier.
. "$(dirname "$0")/../lib/tap.sh"
plan 17
kind exact
pmu=/sys/bus/event_source/devices/hisi_pcie0_core0
abi=$REPO/tests/fixtures/abi

if [ ! -d $pmu ]; then
	fail "hisi_pcie0_core0 is registered" "no $pmu"
	exit 0
fi
TAP_KIND="weak: presence; its files are checked byte for byte below" pass "hisi_pcie0_core0 is registered"

PYTHONPATH=$REPO/tests/lib python3 - "$abi" "$pmu" <<'PY'
import os, re, sys
from pcie_pmu import *
abi, pmu = sys.argv[1], sys.argv[2]

def raw(path):
    return open(path, "rb").read()

def table(name):
    return [l.split("\t") for l in open(os.path.join(abi, name)).read().splitlines()
            if l and not l.startswith("#")]

# events/: the 18 of the upstream table, "config=0x%llx\n".
want = {name: b"config=0x%x\n" % int(config, 16) for name, config, _, _ in table("pcie-events.tsv")}
check_eq("events/ holds exactly the 18 upstream events", sorted(want),
         sorted(os.listdir(pmu + "/events")))
bad = [n for n in want if os.path.exists(f"{pmu}/events/{n}") and raw(f"{pmu}/events/{n}") != want[n]]
check_eq("every events/ file is byte-exact (config=0x%llx\\n)", [], bad)

# format/: the 8 fields of the upstream table.
fmt = {field: bits for p, field, bits in table("formats.tsv") if p == "pcie"}
check_eq("the upstream table lists 8 formats", 8, len(fmt))
check_eq("format/ holds exactly the upstream 8 files", sorted(fmt), sorted(os.listdir(pmu + "/format")))
bad = [n for n in fmt if os.path.exists(f"{pmu}/format/{n}") and raw(f"{pmu}/format/{n}") != (fmt[n] + "\n").encode()]
check_eq("every format/ file is byte-exact", [], bad)

# bus, bdf_min, bdf_max: "%#04x\n" of the guest's real Root Ports.
ports = root_ports()
kind("weak", "setup: the Root Ports the checks below compare with")
check("the guest has PCIe Root Ports", len(ports) >= 2, f"found {ports}")
kind("exact")
lo, hi = min(ports), max(ports)
def k04x(v):                      # the kernel's %#04x
    return ("0x%02x" % v).encode() + b"\n"
check_eq(f"bus = %#04x of bdf_min's bus ({lo >> 8:#04x})", k04x(lo >> 8), raw(pmu + "/bus"))
check_eq(f"bdf_min = %#04x of the lowest Root Port {bdf_name(lo)}", k04x(lo), raw(pmu + "/bdf_min"))
check_eq(f"bdf_max = %#04x of the highest Root Port {bdf_name(hi)}", k04x(hi), raw(pmu + "/bdf_max"))

# cpumask: a cpulist of the counting CPU: the first CPU of the Root Ports'
# NUMA node (none here: the first online CPU).
online = open("/sys/devices/system/cpu/online").read().strip()
first = re.split("[-,]", online)[0]
check_eq("cpumask is the cpulist of the first online CPU", (first + "\n").encode(), raw(pmu + "/cpumask"))
check_eq("identifier = %#x of VERSION (0x30)", b"0x30\n", raw(pmu + "/identifier"))
check("type is a dynamic PMU type", re.fullmatch(rb"\d+\n", raw(pmu + "/type")) is not None,
      repr(raw(pmu + "/type")))

# Nothing else of ours: no hw_clk_freq, no filtermode/ (those are HNS3's).
core = {"type", "perf_event_mux_interval_ms", "power", "subsystem", "uevent", "device"}
ours = sorted(set(os.listdir(pmu)) - core)
check_eq("top-level files are upstream's (events format bus bdf_min bdf_max cpumask identifier) "
         "and the model's netpmu_model",
         sorted(["events", "format", "bus", "bdf_min", "bdf_max", "cpumask", "identifier", "netpmu_model"]), ours)
# oracle: the model's own device, as the driver core names it
check_eq("netpmu_model names the model's device: netpmu_pcie_sim0_0",
         b"netpmu_pcie_sim0_0\n", raw(pmu + "/netpmu_model"))
for f in ours:
    if f not in ("events", "format"):
        mode = os.stat(f"{pmu}/{f}").st_mode & 0o777
        if mode != 0o444:
            not_ok(f"{f} is 0444", oct(mode))
            break
else:
    ok("top-level files are 0444")
PY

# The model says how it mapped the topology.
for line in $(dmesg | sed -n 's/.*hisi_pcie0_core0: Root Port \([0-9a-f:.]*\) is port bit \([0-9]*\).*/\1=\2/p' | awk '!seen[$0]++'); do
	echo "  $line"
done
TAP_KIND=golden check_cmd "the kernel log maps each Root Port to its port bit" \
	sh -c "dmesg | grep -q 'hisi_pcie0_core0: Root Port .* is port bit 0 (port=0x1)'"
