#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: a GRO train is counted as the frames the device received.
# A TCP transfer from eth2 to eth3 (the igb pair) is merged by GRO into fewer
# skbs than frames; with netpmu.ko reloaded with pcie_mps=2048 every frame is
# one data write, so the data writes of eth3 (TLPs of at least 8 DW: no
# descriptors) must equal the frames eth3's driver received, not the skbs
# the stack saw (counted by the net:netif_receive_skb tracepoint).
# netpmu.ko is reloaded with its default parameters at the end.
. "$(dirname "$0")/../lib/tap.sh"
plan 5
kind exact
kmod=${NETPMU_KO:?set by tests/vm/run}

if ! ip netns exec peer test -e /sys/class/net/eth3; then
	skip "GRO trains count as their frames" "no eth3 (igb pair) in this guest"
	exit 0
fi
reload() {
	rmmod netpmu && insmod "$kmod" "$@"
}
TAP_KIND="weak: setup step" check_cmd "netpmu.ko reloads with pcie_mps=2048" reload pcie_mps=2048
ip netns exec peer ethtool -K eth3 gro on >/dev/null 2>&1

PYTHONPATH=$REPO/tests/lib python3 - <<'PY'
import ctypes, fcntl, socket, threading
from pcie_pmu import *

eth3 = Endpoint("eth3", "peer")
spec = f"rx_mwr_cnt,bdf={eth3.bdf:#x},thr_len=3"
nbytes = 4 << 20

def stat(name):
    out = subprocess.run(["ip", "netns", "exec", "peer", "cat",
                          f"/sys/class/net/eth3/statistics/{name}"],
                         capture_output=True, text=True, check=True).stdout
    return int(out)

# skbs eth3 hands to the stack after GRO, on every CPU.
libc = ctypes.CDLL(None, use_errno=True)
tp_id = int(open("/sys/kernel/tracing/events/net/netif_receive_skb/id").read())
skb_fds = []
for cpu in range(os.cpu_count()):
    a = attr_for(tp_id, type_=2, flags=F_DISABLED, read_format=0)
    fd = perf_event_open(a, cpu=cpu)
    filt = ctypes.create_string_buffer(b'name == "eth3"')
    libc.ioctl(fd, 0x40082406, filt)         # PERF_EVENT_IOC_SET_FILTER
    skb_fds.append(fd)

server = subprocess.Popen(["ip", "netns", "exec", "peer", "python3", "-c", f"""
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("203.0.113.2", 9300)); s.listen(1); print("ready", flush=True)
c, _ = s.accept(); n = 0
while True:
    d = c.recv(1 << 16)
    if not d: break
    n += len(d)
print(n, flush=True)
"""], stdout=subprocess.PIPE, text=True)
server.stdout.readline()

c = Counter(*parse_event(spec), name=spec)
rx0 = stat("rx_packets")
for fd in skb_fds:
    fcntl.ioctl(fd, IOC_ENABLE, 0)
c.enable()
s = socket.create_connection(("203.0.113.2", 9300))
s.sendall(bytes(nbytes))
s.close()
got = int(server.communicate(timeout=60)[0])
time.sleep(0.3)
c.disable()
for fd in skb_fds:
    fcntl.ioctl(fd, IOC_DISABLE, 0)
frames = stat("rx_packets") - rx0
skbs = sum(struct.unpack("Q", os.read(fd, 8))[0] for fd in skb_fds)
tlps = c.value()
c.close()
for fd in skb_fds:
    os.close(fd)
print(f"  {got} bytes over TCP: eth3 received {frames} frames, the stack saw {skbs} skbs, "
      f"{tlps} data writes counted")
check_eq(f"the server received all {nbytes} bytes", nbytes, got)
kind("weak", "setup: how many skbs GRO makes is the stack's; the data writes are checked exactly against the frames")
check("GRO merged frames: fewer skbs than frames", 0 < skbs < frames, f"{skbs} skbs, {frames} frames")
kind("exact")
check_eq(f"{spec} = the frames eth3 received (one write each with MPS 2048)", frames, tlps)
sys.exit(0)
PY

TAP_KIND="weak: setup step" check_cmd "netpmu.ko reloads with its default parameters" reload
