#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""HNS3 PMU test helpers for the guest (imported by tests/guest/hns3_*.sh).

TAP lines like tests/lib/tap.sh; perf_event_open through ctypes; the guest's
NICs as the device model binds them (kmod/README.md): function = the NIC's
PCI BDF, port = its rank in PCI order (domain, bus, devfn), MSI-X entries from the IRQs' hwirq (as user/queue/queue_map.h
derives msix_index); known UDP flows through tests/lib/udp_flow.c under the
real perf; the module's default load restored by reload().
"""
import ctypes
import os
import platform
import re
import struct
import subprocess
import sys
import tempfile
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
ABI = os.path.join(REPO, "tests/fixtures/abi")
KMOD = os.environ["NETPMU_KO"]  # the cell's module, set by tests/vm/run
UDP_FLOW = os.environ["UDP_FLOW"]  # tests/lib/udp_flow.c built for the cell, set by tests/vm/run
EVENT_SOURCE = "/sys/bus/event_source/devices"
SIM_BUS = "/sys/bus/netpmu_sim"
PMU0 = "hns3_pmu_sicl_0"
FRAME_HDR = 14 + 20 + 8          # Ethernet + IPv4 + UDP
ETH_ZLEN = 60

# ------------------------------------------------------------------ TAP

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import tap  # noqa: E402
from tap import ok, not_ok, skip, note, check_eq, check, kind, plan, as_kind, NO_WARNING  # noqa: E402,F401  (re-exported to the tests)
from doc_commands import rows as doc_command_rows  # noqa: E402
from perf_forms import perf_has_group_switch, perf_list_name  # noqa: E402,F401  (re-exported to the tests)


def frame(size):
    """Ethernet frame bytes (no FCS) of a UDP/IPv4 datagram of SIZE payload."""
    return max(size + FRAME_HDR, ETH_ZLEN)

# ------------------------------------------------------------ sysfs, PMU


def pmu_dir(pmu=PMU0):
    return os.path.join(EVENT_SOURCE, pmu)


def read(path):
    with open(path) as f:
        return f.read()


def pmu_read(name, pmu=PMU0):
    return read(os.path.join(pmu_dir(pmu), name))


def pmu_type(pmu=PMU0):
    return int(pmu_read("type", pmu))


def counting_cpu(pmu=PMU0):
    return int(pmu_read("cpumask", pmu).strip())


def abi_table(name):
    """The rows of one of the upstream ABI tables (tests/fixtures/abi), as lists."""
    return [line.split("\t") for line in read(os.path.join(ABI, name)).splitlines()
            if line and not line.startswith("#")]


def spec_events():
    """[(name, config, [modes])] of the 110 upstream events."""
    return [(name, int(config, 16), modes.split(","))
            for name, config, _kind, modes in abi_table("hns3-events.tsv")]


def doc_commands(doc):
    """[(outcome, line)] of one document's perf lines (doc-commands.tsv)."""
    return [(outcome, line) for _, _, outcome, line in doc_command_rows(doc)]


# The module's func-intr extension (kmod/README.md, "ABI extensions").
EXTENSION_EVENTS = [
    ("pps_intr_msix_func_intr_num", 0x301, ["global", "func-intr"]),
    ("pps_intr_msix_func_time", 0x10301, ["global", "func-intr"]),
]


def cfg1(port=0, tc=0, bdf=0, queue=0, intr=0, glob=0):
    return port | tc << 4 | bdf << 8 | queue << 24 | intr << 40 | glob << 52


G = cfg1(glob=1)

# ------------------------------------------------------- perf_event_open

from perf_event_abi import *  # noqa: E402,F401,F403  (re-exported to the tests)
from perf_event_abi import libc as _libc  # noqa: E402


def attr(config, config1=0, config2=0, flags=0, pmu=PMU0, type_=None,
         sample_period=0, read_format=FMT_ENABLED | FMT_RUNNING):
    a = Attr()
    a.type = pmu_type(pmu) if type_ is None else type_
    a.size = ctypes.sizeof(Attr)
    a.config, a.config1, a.config2 = config, config1, config2
    a.flags, a.sample_period, a.read_format = flags, sample_period, read_format
    return a


def open_fd(a, pid=-1, cpu=None, group=-1, pmu=PMU0):
    """An fd, or -errno."""
    if cpu is None:
        cpu = counting_cpu(pmu)
    fd = _libc.syscall(NR_PERF_EVENT_OPEN, ctypes.byref(a), pid, cpu, group,
                       PERF_FLAG_FD_CLOEXEC)
    return fd if fd >= 0 else -ctypes.get_errno()


def open_errno(a, **kw):
    """0 if the event opened (it is closed again), else the errno."""
    fd = open_fd(a, **kw)
    if fd < 0:
        return -fd
    os.close(fd)
    return 0


def enable(fd):
    _libc.ioctl(fd, IOC_ENABLE, 0)


def disable(fd):
    _libc.ioctl(fd, IOC_DISABLE, 0)


def read_counter(fd):
    """(value, time_enabled, time_running)."""
    return struct.unpack("QQQ", os.read(fd, 24))


def close_all(fds):
    for fd in fds:
        if fd >= 0:
            os.close(fd)

# ------------------------------------------------------------- topology


def sh(cmd, ns=None, check=True):
    """stdout of a shell command, in network namespace ns if given."""
    if ns:
        cmd = f"ip netns exec {ns} sh -c {shquote(cmd)}"
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError(f"'{cmd}' failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def shquote(s):
    return "'" + s.replace("'", "'\\''") + "'"


class Nic:
    def __init__(self, name, ns, pci, ifindex, addr):
        self.name, self.ns, self.pci, self.ifindex, self.addr = name, ns, pci, ifindex, addr
        dom, bus, slot_fn = pci.split(":")
        slot, fn = slot_fn.split(".")
        self.domain = int(dom, 16)
        self.bdf = int(bus, 16) << 8 | int(slot, 16) << 3 | int(fn, 16)
        self.short = pci[5:]            # "01:00.0"
        self.port = None                # set by nics()
        self.vectors = {}               # MSI-X entry -> Linux IRQ

    def __repr__(self):
        return f"{self.name}({self.short}, bdf={self.bdf:#x}, port {self.port})"


# Every netdev with a device: name, device path, ifindex; then the IPv4
# addresses. One shell per namespace.
_LIST_NICS = r'''for d in /sys/class/net/*; do
  [ -e "$d/device" ] && echo "dev ${d##*/} $(readlink -f "$d/device") $(cat "$d/ifindex")"
done
ip -4 -o addr'''
_PCI_RE = re.compile(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]")


def nics():
    """{name: Nic} of every PCI network device (root namespace and 'peer'),
    with the port the model gives it: its rank in PCI order."""
    found = {}
    for ns in (None, "peer"):
        devs, addrs = [], {}
        for line in sh(_LIST_NICS, ns=ns).splitlines():
            f = line.split()
            if len(f) == 4 and f[0] == "dev":
                devs.append(f[1:])
            elif len(f) >= 4 and f[2] == "inet":
                addrs.setdefault(f[1], f[3].split("/")[0])
        for name, path, ifindex in devs:
            # The PCI function nearest the netdev among its parents.
            pci = [c for c in path.split("/") if _PCI_RE.fullmatch(c)]
            if pci:
                found[name] = Nic(name, ns, pci[-1], int(ifindex), addrs.get(name))
    for port, nic in enumerate(sorted(found.values(), key=lambda n: (n.domain, n.bdf, n.ifindex))):
        nic.port = port
    _msix_vectors(found.values())
    return found


def _msix_vectors(nic_list):
    """MSI-X entry -> IRQ, from each IRQ's chip_name and hwirq: per-device
    domains give the index, the global PCI-MSI domain encodes
    entry | bus:devfn << 11 | domain << 27 (as user/queue/vector_sysfs.c)."""
    by_pci = {n.pci: n for n in nic_list}
    for nic in nic_list:
        msi = f"/sys/bus/pci/devices/{nic.pci}/msi_irqs"
        owned = set(int(i) for i in os.listdir(msi)) if os.path.isdir(msi) else set()
        for irq in owned:
            base = f"/sys/kernel/irq/{irq}"
            chip, hw = read(base + "/chip_name").strip(), int(read(base + "/hwirq"))
            if chip.endswith("-" + nic.pci):
                nic.vectors[hw] = irq
            elif "MSI" in chip and (hw >> 11) & 0xffff == nic.bdf and hw >> 27 == nic.domain:
                nic.vectors[hw & 0x7ff] = irq
    return by_pci


def proc_interrupts():
    """{irq: total over CPUs} from /proc/interrupts."""
    out = {}
    lines = read("/proc/interrupts").splitlines()
    ncpu = len(lines[0].split())
    for line in lines[1:]:
        f = line.split()
        if f and f[0].rstrip(":").isdigit():
            out[int(f[0].rstrip(":"))] = sum(int(x) for x in f[1:1 + ncpu] if x.isdigit())
    return out


def queue_packets(nic):
    """{('rx'|'tx', queue): packets} from the driver's ethtool statistics."""
    out = {}
    for line in sh(f"ethtool -S {nic.name}", ns=nic.ns).splitlines():
        m = re.match(r"\s*(rx|tx)_queue_(\d+)_packets:\s*(\d+)", line)
        if m:
            out[(m.group(1), int(m.group(2)))] = int(m.group(3))
    return out

# ------------------------------------------------------ traffic under perf


class Flow:
    """count datagrams of size bytes from NIC src to NIC dst on UDP port."""

    def __init__(self, src, dst, count, size, port, flows=1):
        self.src, self.dst, self.count, self.size, self.port = src, dst, count, size, port
        self.flows = flows
        self.gap_us = 0

    def bytes(self):
        return self.count * frame(self.size)

    def sender(self):
        cmd = (f"{UDP_FLOW} send --to {self.dst.addr} --port {self.port} "
               f"--count {self.count} --size {self.size}")
        if self.flows > 1:
            cmd += f" --flows {self.flows}"
        if self.gap_us:
            cmd += f" --gap-us {self.gap_us}"
        return f"ip netns exec {self.src.ns} {cmd}" if self.src.ns else cmd

    def __repr__(self):
        return f"{self.count} x {self.size} B {self.src.name}->{self.dst.name}"


# A normal cell's seconds: udp_flow scales its own timeout, and the wait
# for the receivers here scales the same way, by NETPMU_TIMEOUT_SCALE (a slow
# kernel's cell, the debug kernel: KASAN under TCG, waits longer).
RECV_TIMEOUT = 20
TIMEOUT_SCALE = int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))


def _start_receivers(flows, tmp):
    receivers = []
    for i, fl in enumerate(flows):
        ready = os.path.join(tmp, f"ready{i}")
        cmd = [UDP_FLOW, "recv", "--port", str(fl.port), "--count",
               str(fl.count), "--timeout", str(RECV_TIMEOUT), "--ready", ready]
        if fl.dst.ns:
            cmd = ["ip", "netns", "exec", fl.dst.ns] + cmd
        receivers.append((fl, ready, subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)))
    deadline = time.monotonic() + RECV_TIMEOUT * TIMEOUT_SCALE
    while not all(os.path.exists(r) for _, r, _ in receivers) and time.monotonic() < deadline:
        time.sleep(0.05)
    return receivers


def _senders(flows):
    return " & ".join(fl.sender() + " >/dev/null" for fl in flows) + " & wait"


def _check_receivers(receivers, senders_log=""):
    """senders_log: what the senders' command printed, told with a failure
    (a sender that failed and a receiver that waited in vain look alike)."""
    for fl, ready, p in receivers:
        got = p.communicate()[0].strip()
        want = f"received {fl.count} datagrams {fl.count * fl.size} bytes"
        if got != want:
            bound = "bound" if os.path.exists(ready) else "not bound before the senders started"
            said = f"; the senders' command said: {senders_log.strip()[-400:]!r}" if senders_log.strip() else ""
            raise RuntimeError(f"flow {fl}: receiver ({bound}) said {got!r}{said}")


def run_flows(flows, after="sleep 0.3"):
    """Sends the flows (receivers bound first) and checks they arrived."""
    receivers = _start_receivers(flows, tempfile.mkdtemp())
    r = subprocess.run(["sh", "-c", f"{_senders(flows)}; {after}"], capture_output=True, text=True)
    _check_receivers(receivers, r.stdout + r.stderr)
    if r.returncode:
        raise RuntimeError(f"senders failed: {r.stderr.strip()}")


def perf_stat(events, flows=(), after="sleep 0.3", extra=(), interval=False,
              before="", tool=("perf", "stat", "-a")):
    """Runs perf stat -a (or tool, e.g. netpmu stat: perf's -x -o forms) on
    events (strings) around the shell command before and the flows (their
    receivers bound first), then checks each receiver got its datagrams.
    Returns ({event: (value, run_time_ns)}, perf stderr+stdout)."""
    tmp = tempfile.mkdtemp()
    receivers = _start_receivers(flows, tmp)
    work = f"{_senders(flows)}; {after}" if flows else after
    out = os.path.join(tmp, "perf.out")
    cmd = list(tool) + ["-x", ";", "-o", out]
    for ev in events:
        cmd += ["-e", ev]
    cmd += list(extra) + ["--", "sh", "-c", before + work]
    r = subprocess.run(cmd, capture_output=True, text=True)
    log = r.stdout + r.stderr
    _check_receivers(receivers, log)
    values = {}
    text = read(out) if os.path.exists(out) else ""
    for line in text.splitlines():
        f = line.strip().split(";")
        if interval and len(f) >= 5:
            f = f[1:]
        if len(f) >= 4 and f[2].startswith("hns3_pmu"):
            val = int(f[0]) if f[0].isdigit() else None
            prev = values.get(f[2], (0, 0))
            if val is None:
                values[f[2]] = (None, 0)
            elif prev[0] is not None:
                values[f[2]] = (prev[0] + val, int(f[3] or 0))
    if r.returncode:
        raise RuntimeError(f"{' '.join(tool[:2])} failed ({r.returncode}): {log.strip()} {text.strip()}")
    return values, log + text

# ------------------------------------------------------- module, instances


def sim_new(args):
    """Writes new_device; 0 or the errno."""
    return write_errno(os.path.join(SIM_BUS, "new_device"), args)


def sim_del(ident):
    return write_errno(os.path.join(SIM_BUS, "del_device"), str(ident))


def write_errno(path, text):
    """Writes text to a sysfs or debugfs file in one write: 0, or the errno."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except OSError as e:
        return e.errno
    try:
        os.write(fd, text.encode())
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def remove_at_exit(*ids):
    """Removes these run-time instances when the test exits, if still there."""
    import atexit

    def cleanup():
        for i in ids:
            if os.path.exists(pmu_dir(f"hns3_pmu_sicl_{i}")):
                sim_del(i)
    atexit.register(cleanup)


def loaded():
    return os.path.isdir("/sys/module/netpmu")


def rmmod():
    r = subprocess.run(["rmmod", "netpmu"], capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def insmod(*params):
    r = subprocess.run(["insmod", KMOD] + list(params), capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def reload(*params):
    """Loads the module again with params (none: the bench's default load)."""
    if loaded():
        rc, err = rmmod()
        if rc:
            raise RuntimeError(f"rmmod netpmu: {err}")
    rc, err = insmod(*params)
    if rc:
        raise RuntimeError(f"insmod {' '.join(params)}: {err}")


def dmesg_mark(text):
    with open("/dev/kmsg", "w") as f:
        f.write(f"netpmu-test: {text}\n")


def dmesg_since(text):
    log = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
    mark = f"netpmu-test: {text}"
    return log[log.rfind(mark) + len(mark):] if mark in log else log


def kernel_problems(text):
    return [l for l in text.splitlines()
            if re.search(r"WARNING:|BUG:|Oops|general protection|Call Trace:|UBSAN:|KASAN:", l)]


def finish():
    sys.exit(1 if tap.failures else 0)
