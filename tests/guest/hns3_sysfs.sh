#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: every sysfs file of hns3_pmu_sicl_0 against the upstream ABI
# (tests/fixtures/abi/hns3-events.tsv, formats.tsv), byte for byte: the 110
# upstream events and their filter modes plus the func-intr pair
# (0x301/0x10301) the module adds, the format fields plus the `event` alias of
# the older syntax, the top-level files with the values the default load must
# give (counting CPU 0, identifier 0x30, 100 MHz, the bound NICs' BDF range),
# file modes, and `perf list` under the name this perf gives the PMU.
. "$(dirname "$0")/../lib/tap.sh"
plan 22
kind exact

PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import os, re, stat, subprocess
from hns3_lib import *

d = pmu_dir()
spec = spec_events()
check_eq("the upstream table lists 110 events", 110, len(spec))
want = spec + EXTENSION_EVENTS
names = sorted(n for n, _, _ in want)

def files(sub):
    return sorted(os.listdir(os.path.join(d, sub)))

check_eq("events/ holds the 110 upstream events and the func-intr pair (112 files)", names, files("events"))
check_eq("filtermode/ holds the same 112 names", names, files("filtermode"))

ORDER = ["global", "port", "port-tc", "func", "func-queue", "func-intr"]
bad_ev, bad_fm = [], []
for name, config, modes in spec:
    got = read(f"{d}/events/{name}")
    if got != "config=0x%x\n" % config:
        bad_ev.append((name, got))
    fm = "filter mode supported: " + "".join(m + " " for m in ORDER if m in modes) + "\n"
    got = read(f"{d}/filtermode/{name}")
    if got != fm:
        bad_fm.append((name, got, fm))
check_eq("events/: each of the 110 upstream events reads config=0x%x\\n of its config in the table", [], bad_ev)
check_eq("filtermode/: each of the 110 reads 'filter mode supported: ' + its modes in the table, space-terminated, + \\n", [], bad_fm)
check_eq("events/pps_intr_msix_func_intr_num = config=0x301", "config=0x301\n",
         read(f"{d}/events/pps_intr_msix_func_intr_num"))
check_eq("events/pps_intr_msix_func_time = config=0x10301", "config=0x10301\n",
         read(f"{d}/events/pps_intr_msix_func_time"))
for n in ("pps_intr_msix_func_intr_num", "pps_intr_msix_func_time"):
    check_eq(f"filtermode/{n} = global func-intr", "filter mode supported: global func-intr \n",
             read(f"{d}/filtermode/{n}"))
check_eq("filtermode/pps_intr_msix_nic_intr_num stays global only (upstream)",
         "filter mode supported: global \n", read(f"{d}/filtermode/pps_intr_msix_nic_intr_num"))

fmt = {"subevent": "config:0-7", "event_type": "config:8-15", "ext_counter_used": "config:16",
       "port": "config1:0-3", "tc": "config1:4-7", "bdf": "config1:8-23",
       "queue": "config1:24-39", "intr": "config1:40-51", "global": "config1:52",
       "event": "config:8-15"}
check_eq("format/: subevent=config:0-7 event_type=config:8-15 ext_counter_used=config:16 port=config1:0-3 "
         "tc=config1:4-7 bdf=config1:8-23 queue=config1:24-39 intr=config1:40-51 global=config1:52, "
         "plus event=config:8-15 (v1 syntax), each + \\n",
         {k: v + "\n" for k, v in fmt.items()},
         {n: read(f"{d}/format/{n}") for n in files("format")})

nic = nics()
bdfs = sorted(n.bdf for n in nic.values())
note("bound functions: " + ", ".join(repr(n) for n in sorted(nic.values(), key=lambda n: n.port)))
b = lambda v: "%02x:%02x.%x\n" % (v >> 8, (v >> 3) & 0x1f, v & 7)
check_eq("cpumask = 0 (the first online CPU)", "0\n", read(f"{d}/cpumask"))
check_eq("identifier = 0x30 (model default)", "0x30\n", read(f"{d}/identifier"))
check_eq("hw_clk_freq = 100000000 (model default)", "100000000\n", read(f"{d}/hw_clk_freq"))
check_eq(f"bdf_min = {b(bdfs[0]).strip()} (lowest BDF of the PCI NICs bound at load)", b(bdfs[0]),
         read(f"{d}/bdf_min"))
check_eq(f"bdf_max = {b(bdfs[-1]).strip()} (highest BDF of the PCI NICs bound at load)", b(bdfs[-1]),
         read(f"{d}/bdf_max"))
# oracle: the model's own device on the netpmu_sim bus
check_eq("netpmu_model (the model's own file, outside upstream's set) names its device netpmu_sim0",
         "netpmu_sim0\n", read(f"{d}/netpmu_model"))
kind("weak", "presence of the model device")
check("netpmu_sim0 is the model device on the netpmu_sim bus", os.path.isdir("/sys/bus/netpmu_sim/devices/netpmu_sim0"))
kind("exact")
check("type is the PMU's dynamic perf type (a number above PERF_TYPE_MAX)",
      read(f"{d}/type").strip().isdigit() and int(read(f"{d}/type")) >= 6, repr(read(f"{d}/type")))

modes = {}
for sub in ("events", "filtermode", "format"):
    for n in files(sub):
        modes[f"{sub}/{n}"] = stat.S_IMODE(os.stat(f"{d}/{sub}/{n}").st_mode)
for n in ("cpumask", "identifier", "bdf_min", "bdf_max", "hw_clk_freq", "netpmu_model"):
    modes[n] = stat.S_IMODE(os.stat(f"{d}/{n}").st_mode)
check_eq("every events/, filtermode/, format/ and top-level ABI file is 0444", [],
         sorted(k for k, v in modes.items() if v != 0o444))

# perf 6.1 lists hns3_pmu_sicl_0/EVENT/, perf 6.12 hns3_pmu_sicl/EVENT/.
list_name = perf_list_name(PMU0)
out = subprocess.run(["perf", "list", "pmu"], capture_output=True, text=True).stdout
listed = sorted(set(re.findall(rf"^\s+{re.escape(list_name)}/([a-z0-9_]+)/", out, re.M)))
check_eq(f"perf list shows all 112 events of {PMU0} as {list_name}/EVENT/ (this perf's naming)", names, listed)
check_eq(f"perf list shows them under no other hns3_pmu_sicl name than {list_name}", [list_name],
         sorted(set(re.findall(r"^\s+(hns3_pmu_sicl[_0-9]*)/", out, re.M))))
finish()
PY
