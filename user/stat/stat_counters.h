/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counters of netpmu stat: one perf event per parsed event, opened as
 * perf stat opens them (system-wide on the PMU's counting CPU, groups led by
 * a disabled leader, read with the enabled and running times), so that
 * multiplexing shows and values can be scaled as perf scales them.
 */
#ifndef NETPMU_STAT_COUNTERS_H
#define NETPMU_STAT_COUNTERS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event/parsed_event.h"

struct stat_count {
	uint64_t value;
	uint64_t enabled_ns;
	uint64_t running_ns;
};

struct stat_counter {
	const struct parsed_event *ev;
	int fd;
	struct stat_count now;		/* at the last read */
	struct stat_count before;	/* at the read before it (interval start) */
};

struct stat_counters {
	struct stat_counter *counters;
	size_t nr_counters;
};

/* The attr netpmu opens for EV: what --dry-run prints. */
void stat_attr_init(const struct parsed_event *ev, struct perf_event_attr *attr);

/*
 * Opens every event of LIST, disabled. Returns 0, or -errno with one line in
 * WHY naming the event and what to do (permission, counters exhausted, ...).
 * Release with stat_counters_close() in both cases.
 */
int stat_counters_open(struct stat_counters *sc, const struct event_list *list,
		       char *why, size_t why_len);

/* Enables or disables every group. Returns 0 or -errno with WHY. */
int stat_counters_enable(struct stat_counters *sc, bool enable, char *why, size_t why_len);

/* Reads every counter: now moves to before, the new values to now. */
int stat_counters_read(struct stat_counters *sc, char *why, size_t why_len);

void stat_counters_close(struct stat_counters *sc);

/* The count, enabled and running time between before and now (DELTA) or since the start. */
struct stat_count stat_count_period(const struct stat_counter *c, bool delta);

/* COUNT's value scaled by enabled / running as perf does; 0 if it never ran. */
double stat_count_scale(const struct stat_count *count);

#endif
