#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest, on every cell: netpmu.ko beside upstream's own drivers
# (drivers/perf/hisilicon/hns3_pmu.c and hisi_pcie_pmu.c of the cell kernel's
# source package, built unchanged by `make kmod`). Both orders of loading
# work, unloading either leaves the other working, the models register where
# no real device exists and count exactly, and say they are models. Where a
# real device of a kind exists (pretend_hw= stands in for one: QEMU has no
# 19e5:a22b or 19e5:a12d function) no model takes its name, and a model that
# cannot be made leaves the PCI drivers registered. netpmu.ko has no PCI
# alias, so udev never races upstream's driver for a device. The default load
# is restored at the end, whatever happened.
. "$(dirname "$0")/../lib/tap.sh"
plan 27
kind golden
kmod=${NETPMU_KO:?set by tests/vm/run}

restore() {
	rmmod hns3_dup_pmu hns3_pmu hisi_pcie_pmu 2>/dev/null
	if [ ! -d /sys/module/netpmu ] || [ -n "$(cat /sys/module/netpmu/parameters/pretend_hw)" ]; then
		rmmod netpmu 2>/dev/null
		insmod "$kmod" || echo "not ok - restore the default load of netpmu.ko: insmod failed"
	fi
}
trap restore EXIT

UPSTREAM=${kmod%/*}/upstream DUP_KO=${NETPMU_DUP_KO:?} PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import errno
from hns3_lib import *

UP = os.environ["UPSTREAM"]
DRV = "/sys/bus/pci/drivers"
OURS = [f"{DRV}/netpmu_hns3_pmu", f"{DRV}/netpmu_hisi_pcie_pmu"]
THEIRS = [f"{DRV}/hns3_pmu", f"{DRV}/hisi_pcie_pmu"]
PCIE0 = "hisi_pcie0_core0"
nic = nics()
e0, e1 = nic["eth0"], nic["eth1"]
port = iter(range(9601, 9700))


def run(*cmd):
    r = subprocess.run(list(cmd), capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def upstream(load):
    """Loads or unloads both upstream drivers; (rc, err) of each."""
    if load:
        return [run("insmod", f"{UP}/{m}.ko") for m in ("hns3_pmu", "hisi_pcie_pmu")]
    return [run("rmmod", m) for m in ("hns3_pmu", "hisi_pcie_pmu")]


def dirs(paths):
    return [os.path.isdir(p) for p in paths]


def models():
    """The model PMUs of netpmu, by the file only models have."""
    return sorted(p for p in os.listdir(EVENT_SOURCE) if os.path.exists(f"{EVENT_SOURCE}/{p}/netpmu_model"))


def counts_exactly(title):
    """A known flow counted by the HNS3 model: frames x frame size (oracle:
    the datagrams the receiver got)."""
    fl = Flow(e0, e1, 50, 300, next(port))
    ev = f"{PMU0}/bw_ssu_rpu_byte_num,port={e1.port},tc=0xf/"
    try:
        values, _ = perf_stat([ev], [fl])
    except RuntimeError as e:
        values = {}
        note(str(e))
    kind("exact")
    check_eq(f"{title}: {ev} = 50 x {frame(300)} = {fl.bytes()} (datagrams received)",
             fl.bytes(), values.get(ev, (None, 0))[0])
    kind("golden")


# oracle: modinfo of the module file itself
check_eq("netpmu.ko has no PCI alias: udev never loads it for a device upstream's driver may take", "",
         subprocess.run(["modinfo", "-F", "alias", KMOD], capture_output=True, text=True).stdout.strip())

rc, err = rmmod()
check_eq("rmmod netpmu (the bench's default load)", (0, ""), (rc, err))

# ---- upstream first, then netpmu
check_eq("insmod upstream hns3_pmu.ko and hisi_pcie_pmu.ko", [(0, "")] * 2, upstream(True))
check_eq("upstream's PCI drivers hns3_pmu and hisi_pcie_pmu are registered", [True, True], dirs(THEIRS))
dmesg_mark("coexist upstream first")
rc, err = insmod()
check_eq("then insmod netpmu.ko loads (its PCI drivers have names of their own)", (0, ""), (rc, err))
check_eq("netpmu_hns3_pmu, netpmu_hisi_pcie_pmu and upstream's drivers are all registered",
         [True] * 4, dirs(OURS + THEIRS))
check_eq(f"no real device: both models registered ({PMU0}, {PCIE0}), each with netpmu_model",
         sorted([PMU0, PCIE0]), models())
log = dmesg_since("coexist upstream first")
check_eq("the kernel log says each is a model",
         [f"netpmu: {PMU0} is a model (netpmu_sim0), not hardware",
          f"netpmu: {PCIE0} is a model (netpmu_pcie_sim0_0), not hardware"],
         [l.split("] ", 1)[-1] for l in log.splitlines() if "is a model" in l])
counts_exactly("beside upstream's drivers")
check_eq("rmmod upstream's hns3_pmu and hisi_pcie_pmu while netpmu.ko is loaded", [(0, "")] * 2,
         upstream(False))
check_eq("netpmu's drivers and models are still there", ([True, True], sorted([PMU0, PCIE0])),
         (dirs(OURS), models()))
counts_exactly("after upstream's drivers left")

# ---- netpmu first, then upstream
check_eq("insmod upstream's drivers while netpmu.ko is loaded", [(0, "")] * 2, upstream(True))
check_eq("all four PCI drivers registered", [True] * 4, dirs(OURS + THEIRS))
counts_exactly("after upstream's drivers came")
rc, err = rmmod()
check_eq("rmmod netpmu while upstream's drivers are loaded", (0, ""), (rc, err))
check_eq("upstream's drivers stay; netpmu's drivers and models are gone",
         ([True, True], [False, False], []), (dirs(THEIRS), dirs(OURS), models()))

# ---- a real device of each kind present (pretend_hw stands in): no model
dmesg_mark("coexist pretend")
rc, err = insmod("pretend_hw=hns3,pcie", "sim=1", "pcie_sim=1")
check_eq("insmod netpmu.ko pretend_hw=hns3,pcie sim=1 pcie_sim=1 loads", (0, ""), (rc, err))
check_eq("with real PMUs of both kinds present no model takes a name; the PCI drivers are registered",
         ([], [True, True]), (models(), dirs(OURS)))
check_eq("new_device '5' is refused while a real HNS3 PMU exists (EBUSY)", errno.EBUSY, sim_new("5"))
check_eq("one kernel log line per kind says why no model was made",
         ["netpmu: sim=1 but a real HNS3 PMU (19e5:a22b) exists: no model",
          "netpmu: pcie_sim=1 but a real PCIe PMU (19e5:a12d) exists: no model"],
         [l.split("] ", 1)[-1] for l in dmesg_since("coexist pretend").splitlines() if "exists: no model" in l])
rmmod()
rc, err = insmod("pretend_hw=pcie")
check_eq("pretend_hw=pcie: the HNS3 model only", (0, [PMU0]), (rc, models()))
rmmod()

# ---- both upstream drivers loaded and the HNS3 name taken by another PMU
dup = os.environ["DUP_KO"]
check_eq("insmod the stand-in holding hns3_pmu_sicl_0", (0, ""), run("insmod", dup))
dmesg_mark("coexist taken")
rc, err = insmod()
check_eq("insmod netpmu.ko beside upstream's drivers with hns3_pmu_sicl_0 taken: loads, the PCIe model "
         "only, the drivers registered", (0, [PCIE0], [True] * 4), (rc, models(), dirs(OURS + THEIRS)))
check_eq("one kernel log line says the name is taken",
         ["netpmu: PMU hns3_pmu_sicl_0 already exists (upstream hns3_pmu driver bound?), not registering"],
         [l.split("] ", 1)[-1] for l in dmesg_since("coexist taken").splitlines() if "already exists" in l])
rmmod()
run("rmmod", "hns3_dup_pmu")
upstream(False)

rc, err = insmod()
check_eq("the default load again: both models", (0, sorted([PMU0, PCIE0])), (rc, models()))
with as_kind("weak", NO_WARNING):
    check_eq("kernel log of the whole test: no warning", [], kernel_problems(dmesg_since("coexist upstream first")))
finish()
PY
