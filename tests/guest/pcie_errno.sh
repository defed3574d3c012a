#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: every way perf_event_open refuses a PCIe PMU event, with its
# errno, and what it accepts that one might expect refused.
. "$(dirname "$0")/../lib/tap.sh"
plan 33
kind exact

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
from pcie_pmu import *

evs = events()
eth0, eth1 = endpoints()
ports = root_ports()
EINVAL, EOPNOTSUPP = errno.EINVAL, errno.EOPNOTSUPP
name = {0: "success", EINVAL: "EINVAL", EOPNOTSUPP: "EOPNOTSUPP"}
flux = evs["rx_mwr_flux"]
P = 1 << 0                              # a valid port filter


def expect(desc, want, attr, **kw):
    got = open_errno(attr, **kw)
    check_eq(f"{desc}: {name.get(want, want)}", name.get(want, want), name.get(got, errno.errorcode.get(got, got)))


# Sampling and task attach (event_init: -EOPNOTSUPP).
expect("sample_period=1000", EOPNOTSUPP, attr_for(flux, config2=P, sample_period=1000))
expect("freq=1 sample_freq=100", EOPNOTSUPP, attr_for(flux, config2=P, flags=F_FREQ, sample_period=100))
expect("attached to a task (pid=0, cpu=-1)", EOPNOTSUPP, attr_for(flux, config2=P), pid=0, cpu=-1)
expect("attached to a task on a CPU (pid=0, cpu=0)", EOPNOTSUPP, attr_for(flux, config2=P), pid=0, cpu=0)

# Exclusion bits (PERF_PMU_CAP_NO_EXCLUDE: the perf core, -EINVAL).
for flag, fname in ((F_EXCLUDE_USER, "exclude_user"), (F_EXCLUDE_KERNEL, "exclude_kernel"),
                    (F_EXCLUDE_HV, "exclude_hv")):
    expect(fname, EINVAL, attr_for(flux, config2=P, flags=flag))
expect("pid=-1 cpu=-1 (the perf core)", EINVAL, attr_for(flux, config2=P), cpu=-1)

# Threshold and trigger lengths: at most 10.
for n in (10, 11, 15):
    want = 0 if n <= 10 else EINVAL
    expect(f"thr_len={n}", want, attr_for(flux, config1=n, config2=P))
    expect(f"trig_len={n}", want, attr_for(flux, config1=n << 5, config2=P))

# The requester check when port is 0: bdf must exist and sit below a Root
# Port in [bdf_min, bdf_max].
funcs = pci_functions()
missing = next(b for b in range(0xff00, 0, -8) if b not in funcs)
expect("no filter at all (bdf 0 = 00:00.0, the host bridge: no Root Port)", EINVAL, attr_for(flux))
expect(f"bdf={missing:#x}: no such device", EINVAL, attr_for(flux, config2=missing << 16))
bus0 = [b for b in funcs if b >> 8 == 0 and b not in ports]
for b in bus0[:3]:
    expect(f"bdf={b:#x} ({bdf_name(b)}, on the root bus: no Root Port)", EINVAL,
           attr_for(flux, config2=b << 16))
for ep in (eth0, eth1):
    expect(f"bdf={ep.bdf:#x} ({ep.ifname}, below Root Port {bdf_name(ep.rp)})", 0,
           attr_for(flux, config2=ep.bdf << 16))
for rp in ports:
    expect(f"bdf={rp:#x} (a Root Port is its own Root Port)", 0, attr_for(flux, config2=rp << 16))
others = [b for b in funcs if b not in ports and b not in bus0 and b not in (eth0.bdf, eth1.bdf)]
for b in others[:2]:
    expect(f"bdf={b:#x} ({bdf_name(b)}, another function below a Root Port)", 0,
           attr_for(flux, config2=b << 16))

# port wins over bdf; port and the event code are not validated.
expect(f"port=0x1 with an invalid bdf={missing:#x}: port wins", 0,
       attr_for(flux, config2=missing << 16 | 1))
expect("port=0x8000 (no such Root Port): accepted", 0, attr_for(flux, config2=0x8000))
expect("event=0x1234 (not published): accepted", 0, attr_for(0x1234, config2=P))
expect("config bits above 16 are ignored", 0, attr_for(flux | 0xfffe0000, config2=P))
expect("len_mode=0 (replaced by 3)", 0, attr_for(flux, config2=P))
expect("opened on another CPU than cpumask's: moved there", 0, attr_for(flux, config2=P),
       cpu=(counting_cpu() + 1) % os.cpu_count())

# Groups: another hardware PMU's event may not lead or join.
hns3 = "/sys/bus/event_source/devices/hns3_pmu_sicl_0/type"
if os.path.exists(hns3):
    t = int(open(hns3).read())
    lead = perf_event_open(attr_for(0x2, config1=1 << 52, type_=t, flags=F_DISABLED), cpu=counting_cpu())
    try:
        expect("a member whose leader is another PMU's (hns3_pmu_sicl_0)", EINVAL,
               attr_for(flux, config2=P), group_fd=lead)
    finally:
        os.close(lead)
else:
    skip("a member whose leader is another PMU's", "no hns3_pmu_sicl_0")

# The counters still count after all this.
p = params()
vals = measure([f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"], lambda: flow(3, 500))
check_eq("the PMU still counts exactly afterwards", 3 * (542 + p["desc_bytes"]),
         (vals[f"rx_mwr_flux,bdf={eth1.bdf:#x},len_mode=1"] or [None])[0])
sys.exit(0)
PY
