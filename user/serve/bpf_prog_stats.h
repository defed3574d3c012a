/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run time and runs of this process's BPF programs, as the kernel counts them
 * while kernel.bpf_stats_enabled is 1, added into the store as deltas (a
 * reloaded program starts again from 0, the series do not).
 */
#ifndef NETPMU_BPF_PROG_STATS_H
#define NETPMU_BPF_PROG_STATS_H

#include <stdint.h>

#include "serve/metric_store.h"

#define BPF_PROG_STATS_MAX 64

struct bpf_prog_stats {
	struct {
		uint32_t id;
		uint64_t run_time_ns;
		uint64_t run_cnt;
	} seen[BPF_PROG_STATS_MAX];
	unsigned int nr_seen;
};

/* Adds what every program of this process ran since the last call. */
void bpf_prog_stats_update(struct bpf_prog_stats *ps, struct metric_store *store);

#endif
