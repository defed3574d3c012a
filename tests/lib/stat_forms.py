#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The layout of a perf stat output, with what varies from run to run masked,
so that netpmu stat's and the real perf's outputs of the same events over the
same flow can be compared field by field:
  stat_forms.py csv|json|plain [--interval] [--first] [--mask-counts] FILE
  stat_forms.py separators FILE         (of JSON lines)
  stat_forms.py stamps --interval-ms MS FILE   (of -I -x';' lines)
With --as-perf-6.12, a perf 6.1 output is first written as perf 6.12 writes
it, the form netpmu follows: a metric value in JSON as a string, a CSV
interval time stamp without its padding (as_perf_612).
prints one line per output line (with --first, of the header and the first
interval only; --mask-counts keeps only the form of the counts, which an
interval's timing decides). Kept as they are: event names, units, keys
and their order, empty fields, and the counts (the same flow gives the same
counts). Masked, with their form kept: times (event-runtime, the interval
time stamp, elapsed/user/sys seconds), as INT or FLOAT.<decimals>; the
running share, as PCT.<decimals> (it is 100.00 unless multiplexed)."""
import json
import re
import sys


def number_form(text):
    """INT or FLOAT.<decimals> for a number, the text itself otherwise."""
    if re.fullmatch(r"-?\d+", text):
        return "INT"
    m = re.fullmatch(r"-?\d+\.(\d+)", text)
    return f"FLOAT.{len(m.group(1))}" if m else text


def csv_form(lines, sep, interval, mask):
    """Fields: [time;]value;unit;event;runtime;pcnt;metric-value;metric-unit."""
    out = []
    for line in lines:
        f = line.split(sep)
        if interval and f:
            pad = f[0][:len(f[0]) - len(f[0].lstrip())]
            f[0] = "TIME:" + pad + number_form(f[0].lstrip())
        base = 1 if interval else 0
        if mask and len(f) > base:
            f[base] = "COUNT:" + number_form(f[base])
        if len(f) > base + 4:
            f[base + 3] = "RUNTIME:" + number_form(f[base + 3])
            f[base + 4] = "PCT:" + number_form(f[base + 4])
        out.append(sep.join(f))
    return out


def json_form(lines, mask):
    """Keys in order, each with its value's JSON type and form (the
    separators are separators_form's)."""
    out = []
    for line in lines:
        # Key order and the literal form of numbers matter: parse by hand
        # into (key, raw value) pairs as well as with json for types.
        doc = json.loads(line)
        raw = dict(re.findall(r'"([^"]+)"\s*:\s*("[^"]*"|[^,}]+)', line))
        fields = []
        for key in doc:
            v = raw.get(key, "?").strip()
            if key in ("interval", "event-runtime", "pcnt-running") or (mask and key == "counter-value"):
                v = ("str " if v.startswith('"') else "num ") + number_form(v.strip('"'))
            fields.append(f"{key}={v}")
        out.append(", ".join(fields))
    return out


def separators_form(lines):
    """The separators of a JSON line as written: between a key and its value,
    and between two members."""
    m = re.search(r'"[^"]+"(\s*:\s*)("[^"]*"|[^,}]+)(\s*,\s*)"', lines[0]) if lines else None
    return [f"key{m.group(1)}value{m.group(3)}key" if m else "no JSON line"]


def stamps_form(lines, interval_ms):
    """Whether the interval time stamps (9 decimals) are measured times or
    the nominal multiples of the interval (the last one, a command's end,
    left out). With no stamp before the end there is nothing to tell."""
    stamps = sorted({line.split(";")[0].strip() for line in lines}, key=float)[:-1]
    if not stamps:
        return ["no interval closed before the command's end"]
    nominal = all(int(s.replace(".", "")) % (interval_ms * 10**6) == 0 for s in stamps)
    return ["nominal multiples of the interval" if nominal else "measured"]


def plain_form(lines, mask):
    """The lines as printed, the times of the elapsed/user/sys lines and the
    interval stamps masked with their widths kept; counts masked as a C where
    they end (perf right-aligns them)."""
    out = []
    for line in lines:
        if mask:
            line = re.sub(r"^(\s*(?:\d+\.\d{9})?)(\s+)([\d,.]+)(?= )",
                          lambda m: m.group(1) + " " * (len(m.group(2)) + len(m.group(3)) - 1) + "C", line)
        line = re.sub(r"^(\s*)(\d+\.\d+)(?= +seconds (time elapsed|user|sys))",
                      lambda m: m.group(1) + "T" * len(m.group(2)), line)
        line = re.sub(r"^(\s*)(\d+\.\d{9})(?= )", lambda m: m.group(1) + "T" * len(m.group(2)), line)
        out.append(line.rstrip())
    return out


def as_perf_612(line):
    """A line of perf 6.1's in perf 6.12's form (the two differences of
    their -j and -I -x outputs)."""
    line = re.sub(r'"metric-value" : (-?[0-9.]+)', r'"metric-value" : "\1"', line)
    return line.lstrip() if re.match(r"\s+\d+\.\d{9};", line) else line


def first_interval(form, lines):
    """The lines up to the end of the first interval: the header, then the
    lines of the first time stamp."""
    def stamp(line):
        if form == "json":
            return json.loads(line).get("interval") if line.startswith("{") else None
        m = re.match(r"\s*(\d+\.\d+)[;, ]", line)
        return m.group(1) if m else None
    first, out = None, []
    for line in lines:
        s = stamp(line)
        if s is None and first is None:
            out.append(line)
        elif s is not None and first in (None, s):
            first = s
            out.append(line)
        elif s is not None:
            break
    return out


def main():
    form, path = sys.argv[1], sys.argv[-1]
    sep = ";"
    interval, mask = "--interval" in sys.argv, "--mask-counts" in sys.argv
    lines = [line.rstrip("\n") for line in open(path)]
    if "--as-perf-6.12" in sys.argv:
        lines = [as_perf_612(line) for line in lines]
    if form != "plain":
        lines = [line for line in lines if line.strip() and not line.startswith("#")]
    if "--first" in sys.argv:
        lines = first_interval(form, lines)
    if form == "csv":
        out = csv_form(lines, sep, interval, mask)
    elif form == "separators":
        out = separators_form(lines)
    elif form == "stamps":
        out = stamps_form(lines, int(sys.argv[sys.argv.index("--interval-ms") + 1]))
    elif form == "json":
        out = json_form(lines, mask)
    else:
        out = plain_form(lines, mask)
    print("\n".join(out))


if __name__ == "__main__":
    main()
