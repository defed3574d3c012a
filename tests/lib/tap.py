# SPDX-License-Identifier: GPL-2.0
"""TAP lines from python guest tests, as tests/lib/tap.sh prints them:
"ok - DESC", "not ok - DESC: WHY", "ok - DESC # SKIP WHY"; tests/run counts them."""

failures = 0


def ok(desc):
    print(f"ok - {desc}", flush=True)


def not_ok(desc, why):
    global failures
    failures += 1
    print(f"not ok - {desc}: {why}", flush=True)


def skip(desc, why):
    print(f"ok - {desc} # SKIP {why}", flush=True)


def note(text):
    print(f"  {text}", flush=True)


def check_eq(desc, expected, actual):
    if expected == actual:
        ok(desc)
    else:
        not_ok(desc, f"expected {expected!r}, got {actual!r}")


def check(desc, cond, why=""):
    if cond:
        ok(desc)
    else:
        not_ok(desc, why or "condition false")
