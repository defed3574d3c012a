#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One HTTP GET of a test's exporter (the arm64 guest root has no curl).

  http_get.py URL          the body to stdout; exit 1 on any error
  http_get.py URL FILE     the body to FILE and the HTTP status to stdout
                           (0 when nothing answered), exit 0

The wait for an answer is 10 s times NETPMU_TIMEOUT_SCALE: a loaded or
debug-kernel guest answers slower than a normal one.
"""
import os
import sys
import urllib.error
import urllib.request

TIMEOUT = 10 * int(os.environ.get("NETPMU_TIMEOUT_SCALE", "1"))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: http_get.py URL [FILE]")
    url = sys.argv[1]
    if len(sys.argv) == 2:
        try:
            body = urllib.request.urlopen(url, timeout=TIMEOUT).read()
        except OSError as err:
            sys.exit("http_get.py: %s: %s" % (url, err))
        sys.stdout.write(body.decode())
        return
    try:
        answer = urllib.request.urlopen(url, timeout=TIMEOUT)
        status, body = answer.status, answer.read()
    except urllib.error.HTTPError as err:
        status, body = err.code, err.read()
    except OSError:
        status, body = 0, b""
    with open(sys.argv[2], "wb") as out:
        out.write(body)
    print(status)


if __name__ == "__main__":
    main()
