#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: every rejection rule of hns3_pmu_sicl_0 (the upstream driver's)
# with its errno, through perf_event_open directly; the slot and group rules;
# then 10,000+ random attrs (config, config1, config2, flags, sampling, CPU,
# task, group) against two HNS3 PMUs, ending with no kernel warning, all 8
# slots of each PMU free (8 distinct events open) and no event left holding
# the run-time instance (del_device succeeds).
. "$(dirname "$0")/../lib/tap.sh"
plan 62
kind exact

PYTHONPATH=$REPO/tests/guest python3 - <<'PY'
import errno, random
from hns3_lib import *

nic = nics()
remove_at_exit(7)
e0, e1 = nic["eth0"], nic["eth1"]
bdf_min = min(n.bdf for n in nic.values())
bdf_max = max(n.bdf for n in nic.values())
cpu0 = counting_cpu()
other_cpu = 1 - cpu0 if os.path.exists("/sys/devices/system/cpu/cpu1") else cpu0
E = {**errno.errorcode, errno.EOPNOTSUPP: "EOPNOTSUPP"}   # 95: Python names it ENOTSUP
name = lambda e: E.get(e, str(e)) if e else "0 (opens)"

def expect(desc, want, a, **kw):
    got = open_errno(a, **kw)
    check_eq(f"{desc} -> {name(want)}", name(want), name(got))

# Not a device in the range: the lowest devfn of bdf_min's bus that no
# function uses.
used = set(n.bdf for n in nic.values())
hole = next(b for b in range(bdf_min, bdf_max) if b not in used and
            not os.path.exists("/sys/bus/pci/devices/0000:%02x:%02x.%x" % (b >> 8, (b >> 3) & 31, b & 7)))

# ---- attr-level rules (perf core NO_EXCLUDE)
expect("sampling (sample_period=1000)", errno.EOPNOTSUPP, attr(0x2, G, sample_period=1000))
expect("frequency sampling (freq=1, sample_freq=100)", errno.EOPNOTSUPP,
       attr(0x2, G, sample_period=100, flags=1 << 10))
expect("task attach (pid=0, cpu=-1)", errno.EOPNOTSUPP, attr(0x2, G), pid=0, cpu=-1)
expect("task attach on a CPU (pid=0, cpu=counting CPU)", errno.EOPNOTSUPP, attr(0x2, G), pid=0)
for bit, flag in ((4, "exclude_user"), (5, "exclude_kernel"), (6, "exclude_hv"), (7, "exclude_idle"),
                  (19, "exclude_host"), (20, "exclude_guest")):
    expect(f"{flag}=1 (uncore PMU: PERF_PMU_CAP_NO_EXCLUDE)", errno.EINVAL, attr(0x2, G, flags=1 << bit))
# PERF_TYPE_RAW is the CPU's own PMU's (arm64's armv8_pmuv3: type 4 on 6.12,
# reached through the perf core's fallback over every PMU on 6.1): it opens
# there where there is one, never here; without one (x86 TCG), nobody claims it.
raw_owner = [d for d in os.listdir(EVENT_SOURCE)
             if d in ("cpu", "cpu_core", "cpu_atom") or d.startswith("armv8_")]
expect("attr.type PERF_TYPE_RAW with an HNS3 config (not this PMU's type"
       + (f"; {raw_owner[0]}'s)" if raw_owner else ")"), 0 if raw_owner else errno.ENOENT,
       attr(0x2, G, type_=4))

# ---- event ids
for cfg, why in ((0x0, "v1 doc's bw_igu_ssu, dropped upstream"), (0x7, "unpublished bandwidth code"),
                 (0x111 | 0x10000 | 0x20, "unpublished"), (0x203, "unpublished latency code"),
                 (0x302, "unpublished interrupt code"), (0x10000, "ext of unpublished 0x0"),
                 (0x400, "event_type 4")):
    expect(f"config={cfg:#x} ({why}), global=1", errno.ENOENT, attr(cfg, G))
expect("config bits above 16 ignored (0x2 | 0xfff << 20, global=1)", 0, attr(0x2 | 0xfff << 20, G))
expect("config2 ignored (0x2, global=1, config2=~0)", 0, attr(0x2, G, config2=(1 << 64) - 1))

# ---- filter-mode selection
expect("global-only event (bw_rd_fbd_byte_num 0xb) with every filter field 0", errno.ENOENT, attr(0xb, 0))
expect("global-only event with port=0,tc=0xf", errno.ENOENT, attr(0xb, cfg1(tc=0xf)))
expect("every field 0 on a port-tc event selects port-tc 0/0", 0, attr(0x2, 0))
expect(f"func: bdf={hole:#x} in range but no device there", errno.ENOENT,
       attr(0x2, cfg1(bdf=hole, queue=0xffff)))
expect(f"func: bdf={bdf_max + 1:#x} above bdf_max", errno.ENOENT, attr(0x2, cfg1(bdf=bdf_max + 1, queue=0xffff)))
below = next((b for b in range(bdf_min - 1, 0, -1) if os.path.exists(
    "/sys/bus/pci/devices/0000:%02x:%02x.%x" % (b >> 8, (b >> 3) & 31, b & 7))), None)
if below:
    expect(f"func: bdf={below:#x}, a real device below bdf_min", errno.ENOENT,
           attr(0x2, cfg1(bdf=below, queue=0xffff)))
expect(f"func: {e0.name} bdf={e0.bdf:#x},queue=0xffff", 0, attr(0x2, cfg1(bdf=e0.bdf, queue=0xffff)))
expect("bdf=0,queue=0xffff never selects func: 0x2 falls through to port-tc 0/0 (upstream)", 0,
       attr(0x2, cfg1(queue=0xffff)))
expect("bdf=0,queue=0xffff,tc=0 on bw_wr_fbd (0x9: global port func func-queue, no port-tc)", errno.ENOENT,
       attr(0x9, cfg1(queue=0xffff)))
expect("bdf=0,queue=0xffff,tc=0xf on bw_wr_fbd selects port", 0, attr(0x9, cfg1(queue=0xffff, tc=0xf)))
expect(f"bdf={e0.bdf:#x},queue=0 on bw_ssu_roce (0x3, no func-queue) silently selects port-tc (upstream)", 0,
       attr(0x3, cfg1(bdf=e0.bdf, queue=0)))
expect(f"func-queue: {e0.name} queue=0 (it has 1 queue pair)", 0, attr(0x2, cfg1(bdf=e0.bdf, queue=0)))
expect(f"func-queue: {e0.name} queue=1 fails the QID probe", errno.ENOENT, attr(0x2, cfg1(bdf=e0.bdf, queue=1)))
expect(f"func-queue: {e0.name} queue=0xfffe fails the QID probe", errno.ENOENT,
       attr(0x2, cfg1(bdf=e0.bdf, queue=0xfffe)))
if "eth2" in nic:
    e2 = nic["eth2"]
    nq = len([q for q in os.listdir(f"/sys/class/net/{e2.name}/queues") if q.startswith("rx-")])
    expect(f"func-queue: {e2.name} queue={nq - 1} (last of its {nq} RX queues)", 0,
           attr(0x2, cfg1(bdf=e2.bdf, queue=nq - 1)))
    expect(f"func-queue: {e2.name} queue={nq} (one past its queues)", errno.ENOENT,
           attr(0x2, cfg1(bdf=e2.bdf, queue=nq)))
expect("func-queue-only event (bw_rpu_rcbrx 0x6) with queue=0xffff", errno.ENOENT,
       attr(0x6, cfg1(bdf=e0.bdf, queue=0xffff)))
expect(f"func-queue-only event with bdf={hole:#x} (no device)", errno.ENOENT, attr(0x6, cfg1(bdf=hole, queue=0)))

# ---- func-intr (the module's 0x301/0x10301 pair)
expect("0x301 with every filter field 0 (bdf 0 is no valid function)", errno.ENOENT, attr(0x301, 0))
expect(f"0x301 bdf={e0.bdf:#x},intr=0 (the documented example) selects func-intr", 0,
       attr(0x301, cfg1(bdf=e0.bdf, intr=0)))
expect(f"0x10301 bdf={e1.bdf:#x},intr=1", 0, attr(0x10301, cfg1(bdf=e1.bdf, intr=1)))
expect("0x301 intr=0xfff: intr is not range-checked (upstream)", 0, attr(0x301, cfg1(bdf=e0.bdf, intr=0xfff)))
expect(f"0x301 bdf={hole:#x} (no device)", errno.ENOENT, attr(0x301, cfg1(bdf=hole, intr=0)))
expect(f"0x301 bdf={bdf_max + 1:#x} (out of range)", errno.ENOENT, attr(0x301, cfg1(bdf=bdf_max + 1, intr=0)))
expect("0x301 global=1", 0, attr(0x301, G))
expect(f"0x300 (global only) with bdf={e0.bdf:#x},intr=0", errno.ENOENT, attr(0x300, cfg1(bdf=e0.bdf, intr=0)))

# ---- CPU: events always count on the counting CPU
expect(f"cpu={other_cpu} is accepted (the event moves to CPU {cpu0})", 0, attr(0x2, G), cpu=other_cpu)

# ---- groups: 8 distinct codes, pairs share, foreign leaders
codes = [0x1, 0x2, 0x5, 0x6, 0x8, 0x100, 0x101, 0x102, 0x105]
lead = open_fd(attr(codes[0], G, flags=F_DISABLED))
fds = [lead] + [open_fd(attr(c, G), group=lead) for c in codes[1:8]]
fds += [open_fd(attr(0x10002, G), group=lead), open_fd(attr(0x2, cfg1(tc=0xf)), group=lead)]
check_eq("a group of 8 distinct codes plus 0x10002 and 0x2 again (sharing 0x2's slot) opens",
         [True] * 10, [f >= 0 for f in fds])
check_eq("a 9th distinct code (0x105) in that group -> EINVAL", "EINVAL",
         name(open_errno(attr(codes[8], G), group=lead)))
enable(lead)
check_eq("another event while the enabled group holds all 8 slots -> EBUSY (event_init, upstream)", "EBUSY",
         name(open_errno(attr(0x106, G))))
close_all(fds)

fds = [open_fd(attr(c, G)) for c in codes[:8]]
check_eq("8 separate enabled events open", [True] * 8, [f >= 0 for f in fds])
check_eq("a 9th separate event -> EBUSY", "EBUSY", name(open_errno(attr(codes[8], G))))
check_eq("the same code again is no pair outside a group -> EBUSY", "EBUSY", name(open_errno(attr(0x10002, G))))
close_all(fds)

check_eq("run-time instance 7 added for foreign-PMU groups", 0, sim_new("7"))
P7 = "hns3_pmu_sicl_7"
lead = open_fd(attr(0x2, G, pmu=P7, flags=F_DISABLED), pmu=P7)
check_eq(f"an HNS3 event in a group led by {P7} (another PMU) -> EINVAL", "EINVAL",
         name(open_errno(attr(0x1, G), group=lead)))
close_all([lead])
sw = open_fd(attr(0, type_=1, flags=F_DISABLED), cpu=cpu0)   # cpu-clock
got = open_errno(attr(0x2, G), group=sw)
check_eq("an HNS3 event in a group led by a software event (cpu-clock) is accepted (software ignored)",
         "0 (opens)", name(got))
close_all([sw])

# ---- fuzz: random attrs against sicl_0 and sicl_7
random.seed(int(os.environ.get("HNS3_FUZZ_SEED", "20261129")))
published = [c for _, c, _ in spec_events()] + [c for _, c, _ in EXTENSION_EVENTS]
bdfs = [n.bdf for n in nic.values()] + [0, hole, bdf_max + 1, 0xffff]
M64 = (1 << 64) - 1
pmus = [(PMU0, pmu_type(PMU0)), (P7, pmu_type(P7))]
cpus = sorted(set([cpu0, other_cpu]))

def r64():
    k = random.random()
    return random.getrandbits(64) if k < 0.3 else random.getrandbits(random.randint(1, 64)) if k < 0.6 else 0

dmesg_mark("hns3 fuzz start")
N = 10000
opened, errs, live, wrongly = 0, {}, [], []
published_set = set(published)
for i in range(N):
    pmu, typ = random.choice(pmus)
    if random.random() < 0.75:
        config = random.choice(published) | (random.getrandbits(47) << 17 if random.random() < 0.2 else 0)
    else:
        config = r64()
    c1 = r64() if random.random() < 0.3 else cfg1(port=random.getrandbits(4), tc=random.choice([0, 3, 0xf]),
                                                   bdf=random.choice(bdfs),
                                                   queue=random.choice([0, 1, 2, 0xffff, random.getrandbits(16)]),
                                                   intr=random.choice([0, 1, 2, random.getrandbits(12)]),
                                                   glob=random.random() < 0.4)
    flags = r64() if random.random() < 0.2 else random.choice([0, 1, 1 << 4, 1 << 20, 3])
    a = attr(config & M64, c1 & M64, r64(), flags=flags & M64, type_=typ,
             sample_period=r64() if random.random() < 0.05 else 0,
             read_format=random.choice([3, 3, 0, 15, r64() & 0xff]))
    pid, cpu = random.choice([(-1, c) for c in cpus] * 3 + [(0, -1), (0, cpus[0])])
    group = random.choice(live)[1] if live and random.random() < 0.3 else -1
    fd = open_fd(a, pid=pid, cpu=cpu, group=group, pmu=pmu)
    if fd >= 0:
        opened += 1
        # oracle: the perf core's and hns3_pmu's event_init rules (upstream):
        # config bits 0-16 must be a published event (bits above ignored).
        why = uncore_refusal(a, pid, cpu, os.cpu_count())
        if not why and (a.config & 0x1ffff) not in published_set:
            why = f"config {a.config:#x}: event {a.config & 0x1ffff:#x} not published (ENOENT)"
        if why:
            wrongly.append(f"#{i} {pmu}: {why}")
        live.append((pmu, fd))
        op = random.random()
        if op < 0.3:
            enable(fd)
        elif op < 0.4:
            disable(fd)
        if random.random() < 0.5:
            try:
                os.read(fd, 64)
            except OSError:
                pass
        if len(live) > 12 or random.random() < 0.2:
            close_all([f for _, f in live])
            live = []
    else:
        errs[E.get(-fd, -fd)] = errs.get(E.get(-fd, -fd), 0) + 1
close_all([f for _, f in live])
note(f"fuzz: {N} attrs, {opened} opened, errors {dict(sorted(errs.items()))}")
kind("weak", "setup of the next check: random attrs have no expected outcome")
check("fuzz: the random attrs reached both outcomes, opened and refused (else the next check proves nothing)",
      opened > 0 and sum(errs.values()) > 0, f"{opened} opened, {errs}")
kind("exact")
check_eq("fuzz: no accepted open breaks a rule that refuses it: task, CPU, sampling, exclude bits, unpublished event "
         "(oracle: perf core and upstream hns3_pmu event_init)", [], wrongly[:5])
problems = kernel_problems(dmesg_since("hns3 fuzz start"))
kind("weak", NO_WARNING)
check_eq("fuzz: no kernel warning, BUG or oops in dmesg", [], problems)
kind("exact")
for pmu, _ in pmus:
    fds = [open_fd(attr(c, G, pmu=pmu), pmu=pmu) for c in codes[:8]]
    check_eq(f"after the fuzz, 8 distinct events open on {pmu} (no leaked slot)", [True] * 8,
             [f >= 0 for f in fds])
    close_all(fds)
check_eq(f"after the fuzz, {P7} can be removed (no event left counted as its user)", 0, sim_del(7))
finish()
PY
