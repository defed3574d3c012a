#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: every `perf stat` command line of the HNS3 PMU documentation
# (../shared/seeds/hns3-pmu-zh.txt), read from the document at test time with
# its placeholder BDF 0x3500 replaced by eth0's real one, runs under the
# guest's perf around a known ping and counts exactly; so does the older
# document's syntax (hns3-pmu-v1.rst.txt: event=,subevent=, every filter mode)
# with events the current ABI publishes, while its dropped names fail.
. "$(dirname "$0")/../lib/tap.sh"

PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import shlex
from hns3_lib import *

SEEDS = os.path.join(REPO, "../shared/seeds")
nic = nics()
e0, e1 = nic["eth0"], nic["eth1"]
N, S = 4, 200
F = frame(S)          # ping -s S: ICMP echo, S + 8 + 20 + 14 bytes per frame
hz = int(pmu_read("hw_clk_freq"))
PING = f"ping -q -c {N} -s {S} -i 0.02 {e1.addr} >/dev/null"
note(f"workload: {PING} ({N} requests {e0.name}->{e1.name}, {N} replies back, {F} B frames); "
     f"0x3500 -> {e0.bdf:#x} ({e0.name}), port 0 is {[n.name for n in nic.values() if n.port == 0]}")

def doc_lines(path, prefix):
    out = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith(prefix):
            out.append(line[len(prefix):].strip())
    return out

def run_doc(cmdline):
    """Runs a documented perf stat line (plus -x/-o and the workload);
    returns ({event: summed count}, {event: run time ns}) or raises."""
    argv = shlex.split(cmdline)
    assert argv[:2] == ["perf", "stat"], argv
    tmp = tempfile.mkdtemp()
    out = os.path.join(tmp, "out")
    before = proc_interrupts()
    r = subprocess.run(argv + ["-x", ";", "-o", out, "--", "sh", "-c", PING + "; sleep 0.2"],
                       capture_output=True, text=True)
    after = proc_interrupts()
    if r.returncode:
        raise RuntimeError(f"exit {r.returncode}: {(r.stderr + read(out) if os.path.exists(out) else r.stderr).strip()[-300:]}")
    counts, times = {}, {}
    for line in read(out).splitlines():
        f = line.strip().split(";")
        if "-I" in argv:
            f = f[1:]
        if len(f) >= 4 and f[2].startswith("hns3_pmu"):
            if not f[0].isdigit():
                raise RuntimeError(f"{f[2]}: {f[0]}")
            counts[f[2]] = counts.get(f[2], 0) + int(f[0])
            times[f[2]] = times.get(f[2], 0) + int(f[3])
    return counts, times, {irq: after.get(irq, 0) - before.get(irq, 0) for irq in after}

def expected(spec, deltas):
    """What hns3_pmu_sicl_0/<spec>/ must count for the ping, or ('time', None)."""
    kv = dict(x.split("=") if "=" in x else (x, "1") for x in spec.split(","))
    name = [x for x in spec.split(",") if "=" not in x]
    if name:
        cfg = int(read(os.path.join(pmu_dir(), "events", name[0])).split("=")[1], 16)
    elif "config" in kv:
        cfg = int(kv["config"], 16)
    else:
        cfg = int(kv["event"], 0) << 8 | int(kv["subevent"], 0)
    if cfg == 0x10002:
        return "time", None
    bdf, q = int(kv.get("bdf", "0"), 16), int(kv.get("queue", "0"), 16)
    if cfg == 0x301:
        irq = e0.vectors.get(int(kv.get("intr", "0"), 0))
        return f"/proc/interrupts delta of {e0.name} MSI-X entry {kv.get('intr')} (IRQ {irq})", deltas.get(irq, 0)
    per_nic = {0x2: F, 0x1020f: 1}[cfg]   # RX bytes / TX packets: N per NIC each way
    what = "RX bytes" if cfg == 0x2 else "TX packets"
    if kv.get("global") == "1":
        return f"2x{N}x{per_nic} {what} (both NICs)", 2 * N * per_nic
    if bdf:
        return f"{N}x{per_nic} {what} of bdf {bdf:#x}", N * per_nic if bdf == e0.bdf else 0
    port = int(kv.get("port", "0"), 0)
    hit = any(n.port == port for n in (e0, e1))
    return f"{N}x{per_nic} {what} of port {port}", N * per_nic if hit else 0

def check_line(title, cmdline):
    try:
        counts, times, deltas = run_doc(cmdline)
    except RuntimeError as e:
        not_ok(f"{title}: {cmdline}", str(e))
        return
    specs = re.findall(r"hns3_pmu_sicl_0/([^/ ]+)/", cmdline)
    for spec in specs:
        ev = f"hns3_pmu_sicl_0/{spec}/"
        formula, want = expected(spec, deltas)
        got = counts.get(ev)
        if formula == "time":
            ok_ = got is not None and times.get(ev) and abs(got / hz - times[ev] / 1e9) <= 0.01 * times[ev] / 1e9
            check(f"{title}: {cmdline}: {spec} / {hz} Hz = enabled time within 1%", ok_,
                  f"{got} cycles, {times.get(ev)} ns")
        else:
            check_eq(f"{title}: {cmdline}: {spec} = {formula} = {want}", want, got)

zh = doc_lines(os.path.join(SEEDS, "hns3-pmu-zh.txt"), "$#")
zh = [l for l in zh if l.startswith("perf stat")]
check_eq("hns3-pmu-zh.txt has 8 perf stat command lines", 8, len(zh))
for line in zh:
    check_line("zh doc", line.replace("0x3500", f"{e0.bdf:#x}"))

v1 = [l for l in doc_lines(os.path.join(SEEDS, "hns3-pmu-v1.rst.txt"), "+  $#") if l.startswith("perf stat")]
check_eq("hns3-pmu-v1.rst.txt has 8 perf stat command lines", 8, len(v1))
for line in sorted(set(v1), key=v1.index):
    cur = line.replace("hns3_pmu_0/", "hns3_pmu_sicl_0/").replace("0x3500", f"{e0.bdf:#x}")
    cur = cur.replace("bw_igu_ssu", "bw_ssu_rpu_byte_num")
    # subevent 0 of event 0 (bw_igu_ssu) is gone: bw_ssu_rpu_byte_num is
    # event 0 subevent 2; the func-intr example needs the 0x301 pair.
    cur = cur.replace("event=0,subevent=0,bdf", "event=3,subevent=1,bdf") if "intr=" in cur else \
        cur.replace("event=0,subevent=0", "event=0,subevent=2")
    check_line("v1 doc syntax", cur)

r = subprocess.run(["perf", "stat", "-a", "-e", "hns3_pmu_0/bw_igu_ssu,global=1/", "--", "true"],
                   capture_output=True, text=True)
check("the v1 doc's PMU name hns3_pmu_0 and event bw_igu_ssu are refused by perf (dropped upstream)",
      r.returncode != 0, r.stderr.strip()[-200:])
r = subprocess.run(["perf", "stat", "-a", "-e", "hns3_pmu_sicl_0/event=0,subevent=0,global=1/", "--", "true"],
                   capture_output=True, text=True)
check("the v1 doc's event=0,subevent=0 (config 0x0) is refused: perf reports <not supported> (ENOENT: not published)",
      r.returncode != 0 or "<not supported>" in r.stderr, r.stderr.strip()[-200:])
finish()
PY
