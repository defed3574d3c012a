#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: every PCIe PMU perf command line of the documentation
# (tests/fixtures/abi/doc-commands.tsv) under the guest's real perf stat,
# with its Hip09 BDF and port bits replaced by the guest's real ones and
# "sleep 5" (or nothing) replaced by a known flow: each counts exactly what
# the TLP model says. Also the document's perf list lines, under the name
# this perf lists the PMU by (perf 6.1 and 6.12 alike keep hisi_pcie0_core0:
# it has no _<N> suffix for 6.12 to merge). No documented PCIe line uses
# perf stat -g, so every line means the same to both perfs.
. "$(dirname "$0")/../lib/tap.sh"
plan 15
kind model

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
import shlex
from pcie_pmu import *
from perf_forms import perf_list_name
from doc_commands import rows

doc = [(outcome, line) for _, _, outcome, line in rows("pcie")]
list_name = perf_list_name(PMU)
note(f"this perf lists {PMU} as {list_name}")
out = subprocess.run(["perf", "list"], capture_output=True, text=True).stdout
kind("exact")
for _, shown in [row for row in doc if row[0] == "listed"]:
    listed = shown.replace(f"{PMU}/", f"{list_name}/")
    check(f"perf list shows {listed} [Kernel PMU event] (the document: {shown})",
          re.search(rf"^ +{re.escape(listed)} +\[Kernel PMU event\]", out, re.M), out.strip()[-300:])
check_eq(f"perf list shows the 18 events of {PMU} as {list_name}/EVENT/", 18,
         len(re.findall(rf"^ +{re.escape(list_name)}/[a-z_]+/ +\[Kernel PMU event\]", out, re.M)))

p = params()
eth0, eth1 = endpoints()
ports = root_ports()
N, F = 10, 1000

# The document's Hip09 names -> this guest's: EP 0000:39:00.0 -> eth1; the
# x8 Root Port 00:00.0 (bit 0) and x4 Root Port 00:04.0 (bit 8) -> the
# guest's first and second Root Ports (bits 0 and 1).
repl = {"bdf=0x3900": f"bdf={eth1.bdf:#x}", "port=0x1/": f"port={1 << 0:#x}/",
        "port=0x100": f"port={1 << 1:#x}", "port=0x101": f"port={1 << 0 | 1 << 1:#x}"}
print(f"  replacements: {repl} ({eth1}, Root Ports {[bdf_name(b) for b in ports]})")

lines = []
for _, cmd in doc:
    if cmd.startswith("perf stat ") and "-e" in shlex.split(cmd) and cmd not in lines:
        lines.append(cmd)
kind("golden")
check_eq("the PCIe document holds 9 distinct perf stat lines with events", 9, len(lines))
kind("model")
# The document's advice for bandwidth: the flux/time pair in one group.
lines.append('perf stat -e "{hisi_pcie0_core0/rx_mwr_flux,port=0xffff/,hisi_pcie0_core0/rx_mwr_time,port=0xffff/}"')
lines.append("perf stat -e hisi_pcie0_core0/rx_mwr_flux,port=0x101/ sleep 5")

ready = "/tmp/pcie-seeds-ready"
workload = ["bash", "-c",
            f"rm -f {ready}; ip netns exec peer {UDP_FLOW} recv --port 9200 --count {N} --timeout 10 "
            f"--ready {ready} >/dev/null & for i in $(seq 200); do [ -e {ready} ] && break; sleep 0.02; done; "
            f"{UDP_FLOW} send --to 198.51.100.2 --port 9200 --count {N} --size {F - ETH_IP_UDP} "
            f"--gap-us 1000 >/dev/null; wait"]
runs = flow_tlps(p, N, F, eth0, eth1)

for line in lines:
    real = line
    for k, v in repl.items():
        real = real.replace(k, v)
    args = shlex.split(real)
    ev = args[args.index("-e") + 1]
    cmd = ["perf", "stat", "-x,", "-e", ev, "--"] + workload
    out = subprocess.run(cmd, capture_output=True, text=True)
    # value,unit,event,run-time,percentage,...: the event holds commas.
    rows = [m.groups() for m in re.finditer(
        r"^([^,\n]*),[^,\n]*,(hisi_pcie0_core0/[^/]*/),(\d*),([\d.]*)", out.stderr, re.M)]
    desc = f"{line}  ->  perf stat -e {ev} -- <{N} x {F}-byte frames>"
    if out.returncode or not rows:
        not_ok(desc, f"status {out.returncode}: {out.stderr.strip()[-300:]}")
        continue
    problems, shown = [], []
    for r in rows:
        r = (r[0], None, r[1], r[2], r[3])
        name = r[2]
        inner = name.split("/")[1]
        want = expected(p, runs, *parse_event(inner))
        shown.append(f"{inner}={r[0]}")
        if not r[0].isdigit():
            problems.append(f"{name} not counted: {r[0]}")
        elif r[4] not in ("100.00", ""):
            problems.append(f"{name} ran {r[4]}% of the time")
        elif want is None:
            if int(r[0]) <= 0:
                problems.append(f"{name}: time did not tick")
        elif int(r[0]) != want:
            problems.append(f"{name}: expected {want}, got {r[0]}")
        elif want == 0:
            problems.append(f"{name}: counts 0")
    if problems:
        not_ok(desc, "; ".join(problems))
    else:
        ok(f"{desc}: {' '.join(shown)} (as the model says)")
sys.exit(0)
PY
