# SPDX-License-Identifier: GPL-2.0
"""perf_event_open(2) from python (ctypes), for the guest PMU tests: the UAPI
struct perf_event_attr, flag bits and ioctls. Shared by tests/lib/pcie_pmu.py
and tests/guest/hns3_lib.py."""

import ctypes
import platform

PERF_FLAG_FD_CLOEXEC = 1 << 3
FMT_ENABLED, FMT_RUNNING, FMT_ID, FMT_GROUP = 1, 2, 4, 8
IOC_ENABLE, IOC_DISABLE, IOC_RESET = 0x2400, 0x2401, 0x2403
F_DISABLED, F_INHERIT, F_PINNED, F_EXCLUSIVE = 1 << 0, 1 << 1, 1 << 2, 1 << 3
F_EXCLUDE_USER, F_EXCLUDE_KERNEL, F_EXCLUDE_HV = 1 << 4, 1 << 5, 1 << 6
F_FREQ = 1 << 10
NR_PERF_EVENT_OPEN = {"x86_64": 298, "aarch64": 241}[platform.machine()]


class Attr(ctypes.Structure):
    """struct perf_event_attr up to sig_data (PERF_ATTR_SIZE_VER7, 128 bytes)."""
    _fields_ = [
        ("type", ctypes.c_uint32), ("size", ctypes.c_uint32),
        ("config", ctypes.c_uint64), ("sample_period", ctypes.c_uint64),
        ("sample_type", ctypes.c_uint64), ("read_format", ctypes.c_uint64),
        ("flags", ctypes.c_uint64), ("wakeup_events", ctypes.c_uint32),
        ("bp_type", ctypes.c_uint32), ("config1", ctypes.c_uint64),
        ("config2", ctypes.c_uint64), ("branch_sample_type", ctypes.c_uint64),
        ("sample_regs_user", ctypes.c_uint64),
        ("sample_stack_user", ctypes.c_uint32), ("clockid", ctypes.c_int32),
        ("sample_regs_intr", ctypes.c_uint64),
        ("aux_watermark", ctypes.c_uint32),
        ("sample_max_stack", ctypes.c_uint16), ("reserved_2", ctypes.c_uint16),
        ("aux_sample_size", ctypes.c_uint32), ("reserved_3", ctypes.c_uint32),
        ("sig_data", ctypes.c_uint64),
    ]


assert ctypes.sizeof(Attr) == 128

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong]

# Bits of attr.flags the perf core refuses (-EINVAL) on a PMU with
# PERF_PMU_CAP_NO_EXCLUDE (event_has_any_exclude_flag: exclude_user, _kernel,
# _hv, _idle, _host, _guest), as both uncore PMUs declare.
EXCLUDE_BITS = (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7) | (1 << 19) | (1 << 20)


def uncore_refusal(attr, pid, cpu, ncpus):
    """Why the perf core or an uncore PMU's event_init (upstream hns3_pmu and
    hisi_pcie_pmu alike) must refuse this open, or None: a fuzzer's oracle
    for the opens it saw accepted (an accepted open must have no reason)."""
    if pid != -1:
        return "task attach (event_init: EOPNOTSUPP)"
    if cpu < 0 or cpu >= ncpus:
        return f"cpu {cpu} (perf core)"
    if attr.sample_period:
        return "sampling (event_init: EOPNOTSUPP)"
    if attr.flags & EXCLUDE_BITS:
        return "exclude bits (PERF_PMU_CAP_NO_EXCLUDE: EINVAL)"
    return None
