/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loader's one clock: CLOCK_MONOTONIC, which bpf_ktime_get_ns() reads
 * too, so that user-space times and record timestamps compare.
 */
#ifndef NETPMU_CLOCK_H
#define NETPMU_CLOCK_H

#include <stdint.h>

uint64_t monotonic_ns(void);

/* For durations and deadlines. */
double monotonic_seconds(void);

#endif
