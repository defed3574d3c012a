/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one netpmu serve session serves: the options over the --config file.
 * A SIGHUP reads the file again; when the new plan needs the same session
 * (interval, events, devices and queues unchanged: logrotate's SIGHUP, a new
 * label) it is taken in place, so no poll goes uncounted.
 */
#ifndef NETPMU_SERVE_PLAN_H
#define NETPMU_SERVE_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "serve/serve_config.h"
#include "serve/serve_records.h"

struct serve_plan {
	struct serve_config file;
	struct serve_filter filter;
	char *const *events;
	size_t nr_events;
	unsigned int interval_ms;
	unsigned long max_series;
	bool software_only;	/* no PMU counters: what serves on when they cannot be opened */
};

/* NEXT can be served by PLAN's session: the same interval, events, devices and queues. */
bool serve_plan_same_session(const struct serve_plan *plan, const struct serve_plan *next);

/*
 * Takes NEXT's constant labels and series cap into PLAN (the rest is equal)
 * and frees what is left of NEXT.
 */
void serve_plan_take_in_place(struct serve_plan *plan, struct serve_plan *next);

#endif
