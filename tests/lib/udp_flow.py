#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A known UDP flow for tests: exactly COUNT datagrams of SIZE payload bytes.

  udp_flow.py recv --port P --count N [--timeout S] [--drops]
      prints datagrams and bytes received (--drops: then "dropped D", the
      datagrams the socket's full buffer dropped: received + D arrived)
  udp_flow.py send --to IP --port P --count N --size S [--gap-us U] [--flows F]
  udp_flow.py transfer --netns NS --to IP --port P --count N --size S [...] [--report FILE]
      receives in network namespace NS (a socket made there, read by a thread
      of this process: one Python start-up, which costs about a second under
      TCG), sends, and returns once every datagram arrived (so their NAPI polls
      are over): exit 0 only if all did

The receiver binds first, so no datagram draws an ICMP error: the only frames
on the wire are the COUNT datagrams (each SIZE + 8 UDP + 20 IPv4 + 14 Ethernet
bytes long).
"""
import argparse
import os
import socket
import sys
import time

# A slow kernel's cell (the debug kernel: KASAN and lockdep under TCG) sets
# NETPMU_TIMEOUT_SCALE (tests/vm/run): a --timeout is a normal cell's seconds.
TIMEOUT_SCALE = int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))


# SO_RCVBUF is capped by net.core.rmem_max (208 KiB by default): a loaded host
# then drops datagrams a slow reader has not taken yet. As root,
# SO_RCVBUFFORCE (Linux's 33; Python names no constant) passes the cap.
SO_RCVBUFFORCE = getattr(socket, "SO_RCVBUFFORCE", 33)
RECV_BUFFER_BYTES = 4 << 20


def bound_socket(port, timeout):
    """A UDP socket bound to PORT, its buffer RECV_BUFFER_BYTES, reads timing out after TIMEOUT."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, RECV_BUFFER_BYTES)
    except PermissionError:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECV_BUFFER_BYTES)
    sock.bind(("0.0.0.0", port))
    sock.settimeout(timeout * TIMEOUT_SCALE)
    return sock


def receive(sock, count):
    """Reads up to COUNT datagrams (until a read times out): the datagrams and bytes read."""
    got = nbytes = 0
    try:
        while got < count:
            data = sock.recv(65536)
            got += 1
            nbytes += len(data)
    except socket.timeout:
        pass
    return got, nbytes


def received_line(got, nbytes):
    return f"received {got} datagrams {nbytes} bytes"


def recv(args):
    sock = bound_socket(args.port, args.timeout)
    if args.ready:
        open(args.ready, "w").close()
    got, nbytes = receive(sock, args.count)
    print(received_line(got, nbytes))
    if args.drops:
        print(f"dropped {socket_drops(args.port)}")
    return 0 if got == args.count else 1


def socket_drops(port):
    """The drops column of /proc/net/udp for the socket bound to PORT in this network namespace."""
    with open("/proc/net/udp") as f:
        next(f)
        for line in f:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                return int(fields[-1])
    return "unknown"


def send_datagrams(args):
    # F sockets, hence F source ports: F flows for receive-side scaling.
    socks = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(args.flows)]
    payload = bytes(args.size)
    for i in range(args.count):
        socks[i % args.flows].sendto(payload, (args.to, args.port))
        if args.gap_us:
            time.sleep(args.gap_us / 1e6)


def send(args):
    send_datagrams(args)
    print(f"sent {args.count} datagrams {args.count * args.size} bytes")
    return 0


CLONE_NEWNET = 0x40000000


def socket_in_netns(netns, port, timeout):
    """bound_socket() made inside network namespace NETNS (ip netns' name):
    setns(2) moves only the calling thread, and a socket keeps the namespace
    it was made in."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    with open("/proc/thread-self/ns/net") as home, open(f"/run/netns/{netns}") as there:
        if libc.setns(there.fileno(), CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), f"setns into network namespace {netns}")
        try:
            return bound_socket(port, timeout)
        finally:
            if libc.setns(home.fileno(), CLONE_NEWNET):
                raise OSError(ctypes.get_errno(), "setns back to this process's network namespace")


def transfer(args):
    import threading

    try:
        sock = socket_in_netns(args.netns, args.port, args.timeout)
    except OSError as err:
        print(f"udp_flow.py: no receiver in network namespace {args.netns}: {err}", file=sys.stderr)
        return 1
    received = []
    # A daemon: a send that fails ends the process, not a wait for the reader's timeout.
    reader = threading.Thread(target=lambda: received.extend(receive(sock, args.count)), daemon=True)
    reader.start()
    send_datagrams(args)
    reader.join()
    got, nbytes = received
    if args.report:
        with open(args.report, "w") as f:
            f.write(received_line(got, nbytes) + "\n")
    return 0 if got == args.count else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("recv")
    r.add_argument("--port", type=int, required=True)
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--timeout", type=float, default=10)
    r.add_argument("--ready", help="file to create once bound")
    r.add_argument("--drops", action="store_true", help="also print the socket's drops")
    s = sub.add_parser("send")
    s.add_argument("--to", required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--size", type=int, required=True)
    s.add_argument("--gap-us", type=int, default=0)
    s.add_argument("--flows", type=int, default=1)
    t = sub.add_parser("transfer")
    t.add_argument("--netns", required=True)
    t.add_argument("--to", required=True)
    t.add_argument("--port", type=int, required=True)
    t.add_argument("--count", type=int, required=True)
    t.add_argument("--size", type=int, required=True)
    t.add_argument("--gap-us", type=int, default=0)
    t.add_argument("--flows", type=int, default=1)
    t.add_argument("--timeout", type=float, default=60)
    t.add_argument("--report", help="file for the receiver's line")
    args = p.parse_args()
    return {"recv": recv, "send": send, "transfer": transfer}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
