#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A known UDP flow for tests: exactly COUNT datagrams of SIZE payload bytes.

  udp_flow.py recv --port P --count N [--timeout S]   prints datagrams and bytes received
  udp_flow.py send --to IP --port P --count N --size S [--gap-us U]

The receiver binds first, so no datagram draws an ICMP error: the only frames
on the wire are the COUNT datagrams (each SIZE + 8 UDP + 20 IPv4 + 14 Ethernet
bytes long).
"""
import argparse
import socket
import sys
import time


def recv(args):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    sock.bind(("0.0.0.0", args.port))
    sock.settimeout(args.timeout)
    if args.ready:
        open(args.ready, "w").close()
    got = nbytes = 0
    try:
        while got < args.count:
            data = sock.recv(65536)
            got += 1
            nbytes += len(data)
    except socket.timeout:
        pass
    print(f"received {got} datagrams {nbytes} bytes")
    return 0 if got == args.count else 1


def send(args):
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    payload = bytes(args.size)
    for _ in range(args.count):
        sock.sendto(payload, (args.to, args.port))
        if args.gap_us:
            time.sleep(args.gap_us / 1e6)
    print(f"sent {args.count} datagrams {args.count * args.size} bytes")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("recv")
    r.add_argument("--port", type=int, required=True)
    r.add_argument("--count", type=int, required=True)
    r.add_argument("--timeout", type=float, default=10)
    r.add_argument("--ready", help="file to create once bound")
    s = sub.add_parser("send")
    s.add_argument("--to", required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--count", type=int, required=True)
    s.add_argument("--size", type=int, required=True)
    s.add_argument("--gap-us", type=int, default=0)
    args = p.parse_args()
    return recv(args) if args.mode == "recv" else send(args)


if __name__ == "__main__":
    sys.exit(main())
