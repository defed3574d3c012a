/* SPDX-License-Identifier: GPL-2.0 */
/* What netpmu serve needs of the kernel's capabilities, checked before it starts. */
#ifndef NETPMU_PRIVILEGES_H
#define NETPMU_PRIVILEGES_H

#include <stddef.h>

/*
 * 0 when this process holds CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN) and
 * kernel.perf_event_paranoid lets CAP_PERFMON count, else -1 with one line
 * in WHY naming what is missing.
 */
int privileges_check(char *why, size_t why_len);

#endif
