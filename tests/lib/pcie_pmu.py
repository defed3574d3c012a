#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""PCIe PMU test driver for the guest: perf_event_open through ctypes, the
guest's real PCIe topology, known UDP flows, and the device model's TLP
formulas (kmod/hisi_pcie.md, "The PCIe device model") to state exact counts.

Imported by the tests/guest/pcie_*.sh scripts (python3 - <<EOF ... import
pcie_pmu); prints TAP lines like tests/lib/tap.sh: "ok - ...", "not ok - ...: why".
"""
import ctypes
import errno
import fcntl
import glob
import os
import platform
import re
import struct
import subprocess
import sys
import time

PMU = "hisi_pcie0_core0"
SYSFS = "/sys/bus/event_source/devices/" + PMU
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
UDP_FLOW = os.environ["UDP_FLOW"]  # tests/lib/udp_flow.c built for the cell, set by tests/vm/run
# A slow kernel's cell (tests/vm/run's NETPMU_TIMEOUT_SCALE) waits longer.
TIMEOUT_SCALE = int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))

# ---------------------------------------------------------------- TAP

from tap import ok, not_ok, skip, note, check_eq, check, kind, plan, as_kind, NO_WARNING  # noqa: F401  (re-exported to the tests)


# ------------------------------------------------------- perf_event_open

from perf_event_abi import *  # noqa: F401,F403  (re-exported to the tests)
from perf_event_abi import libc as _libc


def read_sys(name):
    with open(os.path.join(SYSFS, name)) as f:
        return f.read()


def pmu_type():
    return int(read_sys("type"))


def counting_cpu():
    return int(read_sys("cpumask").strip().split(",")[0].split("-")[0])


def events():
    """name -> config, from events/ (checked byte-exact by pcie_sysfs.sh)."""
    out = {}
    for path in glob.glob(SYSFS + "/events/*"):
        m = re.fullmatch(r"config=(0x[0-9a-f]+)\n", open(path).read())
        out[os.path.basename(path)] = int(m.group(1), 16)
    return out


def perf_event_open(attr, pid=-1, cpu=None, group_fd=-1,
                    flags=PERF_FLAG_FD_CLOEXEC):
    """An fd, or raises OSError with the errno."""
    if cpu is None:
        cpu = counting_cpu()
    fd = _libc.syscall(NR_PERF_EVENT_OPEN, ctypes.byref(attr), pid, cpu,
                       group_fd, flags)
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return fd


def attr_for(config=0, config1=0, config2=0, flags=0, read_format=None,
             type_=None, **extra):
    a = Attr()
    a.type = pmu_type() if type_ is None else type_
    a.size = ctypes.sizeof(Attr)
    a.config, a.config1, a.config2, a.flags = config, config1, config2, flags
    a.read_format = (FMT_ENABLED | FMT_RUNNING) if read_format is None \
        else read_format
    for k, v in extra.items():
        setattr(a, k, v)
    return a


def open_errno(attr, **kw):
    """0 if perf_event_open succeeded (the fd is closed), else the errno."""
    try:
        fd = perf_event_open(attr, **kw)
    except OSError as e:
        return e.errno
    os.close(fd)
    return 0


class Counter:
    """One event; read() gives (value, time_enabled, time_running)."""

    def __init__(self, config, config1=0, config2=0, group=None, flags=0,
                 name=None):
        self.name = name or f"config={config:#x},config1={config1:#x},config2={config2:#x}"
        self.attr = attr_for(config, config1, config2,
                             flags=flags | (0 if group else F_DISABLED))
        self.fd = perf_event_open(self.attr,
                                  group_fd=group.fd if group else -1)

    def ioctl(self, req, group=False):
        fcntl.ioctl(self.fd, req, 1 if group else 0)

    def enable(self):
        self.ioctl(IOC_ENABLE, group=True)

    def disable(self):
        self.ioctl(IOC_DISABLE, group=True)

    def read(self):
        data = os.read(self.fd, 24)
        if len(data) < 24:
            return None
        return struct.unpack("QQQ", data)

    def value(self):
        r = self.read()
        return None if r is None else r[0]

    def close(self):
        os.close(self.fd)


# ----------------------------------------------------------- topology

def _pci_cap_type(bdf_path):
    """PCIe device/port type of a function (PCI_EXP_TYPE_*), or None."""
    try:
        cfg = open(os.path.join(bdf_path, "config"), "rb").read()
    except OSError:
        return None
    if len(cfg) < 64 or not cfg[6] & 0x10:
        return None
    pos, seen = cfg[0x34] & 0xfc, 0
    while pos and pos + 4 <= len(cfg) and seen < 48:
        if cfg[pos] == 0x10:
            return (cfg[pos + 2] >> 4) & 0xf
        pos, seen = cfg[pos + 1] & 0xfc, seen + 1
    return None


def bdf_of(name):
    """0000:bb:dd.f -> bus << 8 | dev << 3 | fn."""
    m = re.fullmatch(r"([0-9a-f]{4}):([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])", name)
    return int(m.group(2), 16) << 8 | int(m.group(3), 16) << 3 | int(m.group(4))


def bdf_name(bdf):
    return f"{bdf >> 8:02x}:{(bdf >> 3) & 0x1f:02x}.{bdf & 7}"


def root_ports():
    """BDFs of the PCIe Root Ports of domain 0000, in BDF order."""
    ports = []
    for path in glob.glob("/sys/bus/pci/devices/0000:*"):
        if _pci_cap_type(path) == 4:
            ports.append(bdf_of(os.path.basename(path)))
    return sorted(ports)


def pci_functions():
    return sorted(bdf_of(os.path.basename(p))
                  for p in glob.glob("/sys/bus/pci/devices/0000:*"))


class Endpoint:
    """A NIC: its PCI function, its Root Port and that port's bit."""

    def __init__(self, ifname, netns=None):
        cmd = ["readlink", "-f", f"/sys/class/net/{ifname}/device"]
        if netns:
            cmd = ["ip", "netns", "exec", netns] + cmd
        path = subprocess.run(cmd, capture_output=True, text=True,
                              check=True).stdout.strip()
        funcs = re.findall(r"[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]", path)
        ports = root_ports()
        self.ifname = ifname
        self.bdf = bdf_of(funcs[-1])
        self.rp = next(bdf_of(f) for f in funcs if bdf_of(f) in ports)
        self.port = ports.index(self.rp)

    def __repr__(self):
        return f"{self.ifname}({bdf_name(self.bdf)} below {bdf_name(self.rp)}, port bit {self.port})"


def endpoints():
    return Endpoint("eth0"), Endpoint("eth1", "peer")


# ------------------------------------------------------------- traffic

ETH_IP_UDP = 14 + 20 + 8     # header bytes of a test frame


def flow(count, size, src_ns=None, dst="198.51.100.2", dst_ns="peer",
         expect_rx=True, port=9000):
    """count UDP datagrams of size payload bytes (frames of size + 42 bytes)."""
    args = ["--to", dst, "--port", str(port), "--count", str(count), "--size", str(size), "--gap-us", "1000"]
    got = None
    if expect_rx and dst_ns and not src_ns:
        # One process: its receiving thread's socket is made in dst_ns.
        report = f"/tmp/pcie-flow-{os.getpid()}"
        if os.path.exists(report):
            os.unlink(report)
        r = subprocess.run([UDP_FLOW, "transfer", "--netns", dst_ns, "--timeout", "30", "--report", report] + args,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        got = open(report).read().strip() if os.path.exists(report) else r.stderr.strip()
    else:
        ready = f"/tmp/pcie-ready-{os.getpid()}"
        if os.path.exists(ready):
            os.unlink(ready)
        recv = None
        if expect_rx:
            # The receiver's timeout runs from its bind: it also covers the
            # sender's start, which took over 10 s in a guest under load.
            cmd = [UDP_FLOW, "recv", "--port", str(port), "--count", str(count),
                   "--timeout", "30", "--ready", ready]
            if dst_ns:
                cmd = ["ip", "netns", "exec", dst_ns] + cmd
            recv = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
            # Up to 20 s, as hns3_lib waits: a loaded TCG guest took over 4 s
            # to start the receiver, and the sender's datagrams found no socket.
            # A slow kernel's cell scales it, as udp_flow scales its timeout.
            deadline = time.monotonic() + 20 * TIMEOUT_SCALE
            while not os.path.exists(ready) and time.monotonic() < deadline:
                time.sleep(0.02)
        cmd = [UDP_FLOW, "send"] + args
        if src_ns:
            cmd = ["ip", "netns", "exec", src_ns] + cmd
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        if recv:
            got = recv.communicate(timeout=60 * TIMEOUT_SCALE)[0].strip()
    time.sleep(0.2)      # taps of the last frames have long run; be safe
    if expect_rx and got != f"received {count} datagrams {count * size} bytes":
        raise RuntimeError(f"flow incomplete: {got}")


def blackhole(ip="198.51.100.3", mac="02:00:00:00:00:99", ns=None, dev="eth0"):
    """A static neighbour nobody answers to: frames sent to ip leave one NIC
    and are dropped by the other NIC's MAC filter (QEMU), never DMA'd."""
    cmd = ["ip", "neigh", "replace", ip, "lladdr", mac, "dev", dev, "nud",
           "permanent"]
    if ns:
        cmd = ["ip", "-n", ns] + cmd[1:]
    subprocess.run(cmd, check=True)


# ---------------------------------------------------------- the model

def params():
    d = "/sys/module/netpmu/parameters/"
    return {k: int(open(d + "pcie_" + k).read())
            for k in ("clk_freq", "mps", "mrrs", "desc_bytes", "lat_base_ns",
                      "link_mbps")}


MEM_HDR, CPL_HDR, DOORBELL = 16, 12, 4


class Run:
    """count identical TLPs of one class."""

    def __init__(self, cls, port, req, count, nbytes, hdr):
        self.cls, self.port, self.req, self.count = cls, port, req, count
        self.len_dw = (nbytes + 3) // 4
        self.payload, self.hdr = nbytes, hdr

    def __repr__(self):
        return f"{self.count}x{self.cls}({self.payload}B+{self.hdr}B,{self.len_dw}DW,req={self.req:#x})"


def frame_tlps(p, ep, tx, length):
    """The TLPs of one frame of length bytes sent (tx) or received by ep."""
    runs = []

    def add(cls, req, count, nbytes, hdr):
        if count:
            runs.append(Run(cls, ep.port, req, count, nbytes, hdr))

    def split(cls, chunk, hdr):
        add(cls, ep.bdf, length // chunk, chunk, hdr)
        add(cls, ep.bdf, 1 if length % chunk else 0, length % chunk, hdr)

    d = p["desc_bytes"]
    add("tx_mwr", ep.rp, 1, DOORBELL, MEM_HDR)            # doorbell
    add("rx_mrd", ep.bdf, 1, d, MEM_HDR)                  # descriptor fetch
    add("tx_cpl", ep.bdf, 1, d, CPL_HDR)
    if tx:
        split("rx_mrd", p["mrrs"], MEM_HDR)               # data read
        split("tx_cpl", p["mps"], CPL_HDR)
    else:
        split("rx_mwr", p["mps"], MEM_HDR)                # data write
    add("rx_mwr", ep.bdf, 1, d, MEM_HDR)                  # write-back
    return runs


def flow_tlps(p, count, frame_len, sender, receiver):
    """A flow's TLPs, frame by frame: the sender's, then the receiver's."""
    runs = []
    for _ in range(count):
        runs += frame_tlps(p, sender, True, frame_len)
        if receiver:
            runs += frame_tlps(p, receiver, False, frame_len)
    return runs


def tlp_latency(p, run):
    base = p["lat_base_ns"] * p["clk_freq"] // 10**9
    return base + (run.hdr + run.payload) * 8 * p["clk_freq"] // (p["link_mbps"] * 10**6)


EVENT_CLASS = {0x0010: ("rx_mwr", True), 0x0210: ("rx_mrd", True),
               0x0011: ("tx_mrd", True), 0x0104: ("rx_mwr", False),
               0x0804: ("rx_mrd", False), 0x2004: ("rx_cpl", False),
               0x0105: ("tx_mwr", False), 0x0405: ("tx_mrd", False),
               0x1005: ("tx_cpl", False)}


def expected(p, runs, config, config1=0, config2=0):
    """What the model counts for an event over runs; None for *_time."""
    code, ext = config & 0xffff, (config >> 16) & 1
    thr_len, thr_mode = config1 & 0xf, (config1 >> 4) & 1
    trig_len, trig_mode = (config1 >> 5) & 0xf, (config1 >> 9) & 1
    len_mode = ((config1 >> 10) & 3) or 3
    port, bdf = config2 & 0xffff, (config2 >> 16) & 0xffff
    if code not in EVENT_CLASS:
        return 0
    cls, latency = EVENT_CLASS[code]
    if ext and not latency:
        return None
    triggered, total = trig_len == 0, 0
    for r in runs:
        if r.cls != cls:
            continue
        if port and not (port >> r.port) & 1:
            continue
        if not port and r.req != bdf:
            continue
        if not triggered:
            limit = 1 << trig_len
            if not (r.len_dw < limit if trig_mode else r.len_dw > limit):
                continue
            triggered = True
        if thr_len:
            limit = 1 << thr_len
            if not (r.len_dw < limit if thr_mode else r.len_dw >= limit):
                continue
        if latency:
            total += r.count * (1 if ext else tlp_latency(p, r))
        else:
            total += r.count * ((r.payload if len_mode & 1 else 0) +
                                (r.hdr if len_mode & 2 else 0))
    return total


def parse_event(text, evs=None):
    """'rx_mwr_flux,bdf=0x201,len_mode=1' -> (config, config1, config2)."""
    evs = evs or events()
    fields = {"event": (0, 0, 17), "thr_len": (1, 0, 4), "thr_mode": (1, 4, 1),
              "trig_len": (1, 5, 4), "trig_mode": (1, 9, 1),
              "len_mode": (1, 10, 2), "port": (2, 0, 16), "bdf": (2, 16, 16)}
    cfg = [0, 0, 0]
    for term in text.split(","):
        if "=" not in term:
            cfg[0] |= evs[term]
            continue
        k, v = term.split("=")
        which, shift, width = fields[k]
        cfg[which] |= (int(v, 0) & ((1 << width) - 1)) << shift
    return tuple(cfg)


def measure(specs, traffic, batch=8):
    """Open each event (own group), enable, run traffic(), disable, read:
    {spec: (value, time_enabled, time_running)}. Events beyond the 8
    counters would be multiplexed: they go in further batches, each with its
    own run of traffic(). An event that did not count all the time is None."""
    values = {}
    specs = list(dict.fromkeys(specs))
    for i in range(0, len(specs), batch):
        counters = [Counter(*parse_event(s), name=s) for s in specs[i:i + batch]]
        for c in counters:
            c.enable()
        try:
            traffic()
        finally:
            for c in counters:
                c.disable()
        for c in counters:
            r = c.read()
            values[c.name] = r if r and r[1] and r[1] == r[2] else None
            c.close()
    return values


if __name__ == "__main__":
    # Quick look: python3 tests/lib/pcie_pmu.py
    print("root ports:", [bdf_name(b) for b in root_ports()])
    print("endpoints:", endpoints())
    print("params:", params())
    sys.exit(0)
