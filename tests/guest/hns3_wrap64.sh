#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# In the guest: a 64-bit (unnarrowed, upstream) HNS3 counter wraps past 2^64.
# The driver starts a counter at 0 and takes deltas as new - prev mod 2^64;
# the overflow interrupt only clears the status. The model's debugfs "inject"
# hook (kmod/README.md) puts slot 0's byte counter 1000 below 2^64, real
# frames carry it past: the counts of a perf_event_open reader, of perf stat
# and of netpmu stat stay exact (oracle: datagrams sent x frame size), the
# wrap raises exactly one overflow interrupt, counting goes on exactly; the
# time counter of a slot-sharing pair wraps the same way. Malformed inject
# lines are refused with -EINVAL (-ERANGE for a number too large).
. "$(dirname "$0")/../lib/tap.sh"
plan 17
kind exact
dbg=/sys/kernel/debug/netpmu_sim0

if [ ! -w $dbg/inject ]; then
	fail "the HNS3 model's debugfs hooks exist" "no $dbg/inject"
	exit 0
fi

PYTHONPATH=$REPO/tests/guest:$REPO/tests/lib python3 - "$dbg" <<'PY'
import errno
from hns3_lib import *
from time_counter import check_time

dbg = sys.argv[1]
nic = nics()
e0, e1 = nic["eth0"], nic["eth1"]
M = 1 << 64
EV = f"{PMU0}/bw_ssu_rpu_byte_num,global=1/"       # config 0x2: bytes eth1 receives
clk = int(pmu_read("hw_clk_freq"))


def irqs():
    return int(read(dbg + "/irqs"))


def inject(text):
    """0, or the errno of the write."""
    return write_errno(dbg + "/inject", text)


def irqs_after(want):
    """The interrupt count once it reached want (5 s at most), and 0.2 s
    later, so that one too many shows."""
    deadline = time.monotonic() + 5
    while irqs() < want and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    return irqs()


def value(fd):
    return read_counter(fd)[0]


dmesg_mark("hns3 wrap64")

# ---- malformed lines: refused, nothing counted
kind("golden")
bad = [("8 0 1\n", errno.EINVAL, "slot 8 (there are 0-7)"), ("0 2 1\n", errno.EINVAL, "register 2"),
       ("0 0\n", errno.EINVAL, "two fields"), ("0 0 1 1\n", errno.EINVAL, "four fields"),
       ("0 0 -1\n", errno.EINVAL, "a negative delta"), ("x 0 1\n", errno.EINVAL, "not a number"),
       ("\n", errno.EINVAL, "an empty line"),
       ("0 0 18446744073709551616\n", errno.ERANGE, "a delta of 2^64")]
check_eq("inject refuses " + ", ".join(w for _, _, w in bad) + " (EINVAL, ERANGE for the last)",
         [e for _, e, _ in bad], [inject(t) for t, _, _ in bad])

# ---- a perf_event_open reader (ctypes): alone on the PMU, the event takes slot 0
kind("exact")
fd = open_fd(attr(0x2, G))
if fd < 0:
    not_ok(f"open {EV}", os.strerror(-fd))
    finish()
check_eq(f"{EV} opened, no datagram sent yet: 0", 0, value(fd))
before = irqs()
inject(f"0 0 {M - 1000}\n")
c1 = value(fd)
kind("model")
check_eq(f"inject '0 0 2^64-1000': the count reads C1 = 2^64 - 1000 = {M - 1000}", M - 1000, c1)
time.sleep(0.2)
check_eq("no wrap yet: no overflow interrupt", before, irqs())
kind("exact")
run_flows([Flow(e0, e1, 3, 1000, 9601)])
c2 = value(fd)
check_eq("3 datagrams of 1000 bytes (3 x 1042 = 3126 frame bytes) carry the counter past 2^64: "
         "C2 = 3126 - 1000 = 2126", 2126, c2)
check_eq("(C2 - C1) mod 2^64 = 3126, the frame bytes sent", 3126, (c2 - c1) % M)
kind("model")
check_eq("the wrap raised exactly one overflow interrupt, handled", before + 1, irqs_after(before + 1))
kind("exact")
run_flows([Flow(e0, e1, 5, 500, 9602)])
check_eq("counting goes on after the wrap: 5 x 542 = 2710 more, C3 = 2126 + 2710 = 4836", 4836, value(fd))
kind("model")
check_eq("no further interrupt", before + 1, irqs())
close_all([fd])

# ---- EXT_COUNTER: the time counter of a slot-sharing pair wraps
lead = open_fd(attr(0x2, G))
tfd = open_fd(attr(0x10002, G), group=lead)
if lead < 0 or tfd < 0:
    not_ok("open the group bw_ssu_rpu_byte_num + bw_ssu_rpu_time (global)", f"fds {lead}, {tfd}")
    finish()
time.sleep(0.1)
before = irqs()
inj = M - value(tfd) - clk // 10           # 0.1 s before 2^64
inject(f"0 1 {inj}\n")
time.sleep(0.5)
value(tfd)                                 # the model notices a time wrap at an access
check_eq("the time counter (EXT_COUNTER) wraps: exactly one overflow interrupt", before + 1,
         irqs_after(before + 1))
kind("exact")
run_flows([Flow(e0, e1, 2, 1000, 9603)])
check_eq("its pair member sharing the slot counts on exactly: 2 x 1042 = 2084", 2084, value(lead))
t, _, running = read_counter(tfd)
cycles = (t - inj) % M
good, dev, tol = check_time(cycles, clk, running, folds=10)
kind("weak", "a tolerance: the clock's resolution and the add/del path, derived in tests/lib/time_counter.py")
check(f"bw_ssu_rpu_time past the wrap: (count - injected) mod 2^64 / {clk} Hz = its running time",
      good, f"{cycles} cycles, {running} ns: {dev} ns off (> {tol})")
close_all([tfd, lead])


# ---- perf stat and netpmu stat: the injection inside the run, then the flow
def stat_over(tool, port):
    before = irqs()
    try:
        values, _ = perf_stat([EV], [Flow(e0, e1, 3, 1000, port)], tool=tool,
                              before=f"echo '0 0 {M - 1000}' > {dbg}/inject && ")
    except RuntimeError as e:
        values = {}
        note(str(e))
    return values.get(EV, (None, 0))[0], irqs_after(before + 1) - before


for tool, port in ((("perf", "stat", "-a"), 9604), ((os.environ["NETPMU"], "stat"), 9605)):
    name = f"{os.path.basename(tool[0])} stat"
    count, n_irqs = stat_over(tool, port)
    kind("exact")
    check_eq(f"{name} over inject 2^64-1000 and 3 x 1042 bytes: 3126 - 1000 = 2126", 2126, count)
    kind("model")
    check_eq(f"{name}: the wrap raised exactly one overflow interrupt", 1, n_irqs)

with as_kind("weak", NO_WARNING):
    check_eq("kernel log: no warning", [], kernel_problems(dmesg_since("hns3 wrap64")))
finish()
PY
