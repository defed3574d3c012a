#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The perf command lines of the HNS3 and PCIe PMU documentation, as
tests/fixtures/abi/doc-commands.tsv holds them, for the tests that run or
check them. `doc_commands.py strings` prints every -e string of the
documented perf stat lines, one a line."""
import os
import shlex
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "abi", "doc-commands.tsv")


def rows(doc=None):
    """[(doc, section, outcome, line)] of the table, of one document's lines
    only when doc is given."""
    out = []
    with open(TABLE, encoding="utf-8") as f:
        for row in f.read().splitlines():
            if row and not row.startswith("#"):
                d, section, outcome, line = row.split("\t")
                if doc in (None, d):
                    out.append((d, section, outcome, line))
    return out


def event_strings(line):
    """The -e strings of one perf stat line."""
    args = shlex.split(line)
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-e"]


if __name__ == "__main__" and sys.argv[1:] == ["strings"]:
    for _, _, _, line in rows():
        if line.startswith("perf stat "):
            print("\n".join(event_strings(line)))
