# SPDX-License-Identifier: GPL-2.0
"""TAP lines from python tests, as tests/lib/tap.sh prints them:
"ok - DESC [KIND]", "not ok - DESC [KIND]: WHY", "ok - DESC [KIND] # SKIP WHY";
tests/run counts them. KIND is the calling script's (tap.sh's `kind`,
exported as TAP_KIND) until kind() here sets another."""
import contextlib
import os

failures = 0
_kind = os.environ.get("TAP_KIND", "untagged")


def kind(k, reason=""):
    """exact, golden, model, or weak with its reason (see tests/lib/tap.sh)."""
    global _kind
    if k not in ("exact", "golden", "model", "weak") or (k == "weak") != bool(reason):
        raise ValueError(f"kind {k!r} {reason!r}")
    _kind = f"weak: {reason}" if reason else k


@contextlib.contextmanager
def as_kind(k, reason=""):
    """The kind of the checks inside a with block only."""
    global _kind
    before = _kind
    kind(k, reason)
    try:
        yield
    finally:
        _kind = before


NO_WARNING = "an absence: no kernel warning, BUG or oops (tests/vm/run fails the run on one too)"


def plan(n):
    print(f"1..{n}", flush=True)


def ok(desc):
    print(f"ok - {desc} [{_kind}]", flush=True)


def not_ok(desc, why):
    global failures
    failures += 1
    print(f"not ok - {desc} [{_kind}]: {why}", flush=True)


def skip(desc, why):
    print(f"ok - {desc} [{_kind}] # SKIP {why}", flush=True)


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
