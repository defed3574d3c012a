/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core events' counters for netpmu trace: each event opened on every CPU
 * (pid -1, cpu N), before the BPF programs load (their number is a load-time
 * constant); handed to the programs in one perf event array per event,
 * indexed by CPU, which they read with BPF_F_CURRENT_CPU; and the per-CPU
 * ticks that read every CPU's counters once an interval (core_pmu.bpf.c).
 */
#ifndef NETPMU_CORE_COUNTERS_H
#define NETPMU_CORE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "pmu/core_events.h"
#include "netpmu_records.h"

struct netpmu_bpf;
struct bpf_link;

struct core_counters {
	struct core_event events[NETPMU_MAX_CORE_EVENTS];
	unsigned int nr_events;
	int nr_cpus;			/* possible CPUs */
	uint64_t opened_ns;		/* CLOCK_MONOTONIC when opening began: counting starts there */
	int *fds;			/* event e on CPU c at e * nr_cpus + c; -1: not open there */
	int *tick_fds;			/* per CPU; -1: no tick there */
	struct bpf_link **tick_links;	/* per CPU */
};

/*
 * Takes over EVENTS (NR of them, at most NETPMU_MAX_CORE_EVENTS) and opens
 * each on every CPU, with SYSFS_ROOT (NULL: /sys) to name the core PMU in
 * messages. An event no CPU can count (ENOENT, EOPNOTSUPP: no core PMU, or
 * not this event) is dropped with one line in NOTICE saying so; NOTICE is
 * empty when every event opened. Returns 0, or -1 with one line in WHY (and
 * nothing left open).
 */
int core_counters_open(struct core_counters *cc, struct core_event *events, unsigned int nr,
		       const char *sysfs_root, char *notice, size_t notice_len,
		       char *why, size_t why_len);

/*
 * Makes every CPU's core tick fire within PERIOD_NS, closing its interval
 * early, as bpf_session_tick_soon() does with the interval tick.
 */
void core_counters_tick_soon(const struct core_counters *cc, uint64_t period_ns);

/* Hands the open counters to the loaded programs. Returns 0, or -1 with WHY. */
int core_counters_publish(const struct core_counters *cc, struct netpmu_bpf *skel,
			  char *why, size_t why_len);

/*
 * Starts the core tick every INTERVAL_MS on every online CPU; the first
 * interval runs from opened_ns. Returns 0, or -1 with WHY.
 */
int core_counters_start_ticks(struct core_counters *cc, struct netpmu_bpf *skel,
			      unsigned int interval_ms, char *why, size_t why_len);

/* Detaches and closes the ticks; before the programs are destroyed. */
void core_counters_stop_ticks(struct core_counters *cc);

/* Closes the counters and frees the events. */
void core_counters_close(struct core_counters *cc);

#endif
