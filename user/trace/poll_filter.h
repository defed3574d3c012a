/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace --where's part tested in the kernel: the comparisons of the
 * expression's top-level '&&' chain over a poll's own fields (cpu, ifindex,
 * napi_id, irq, work, budget, dev), with numbers or with each other, up to
 * NETPMU_MAX_POLL_FILTERS of them. The napi_poll program leaves out a poll
 * that fails one before it reserves a record or reads a counter; user space
 * still tests the whole expression, so what matches is the same.
 */
#ifndef NETPMU_POLL_FILTER_H
#define NETPMU_POLL_FILTER_H

#include <stdbool.h>
#include <stdio.h>

#include "netpmu_records.h"

struct predicate;

#define POLL_FILTER_MAX_PARTS 32

struct poll_filter_part {
	char text[512];
	const char *where;		/* "kernel" or why it stays in user space */
};

struct poll_filter_plan {
	struct netpmu_poll_filter filters[NETPMU_MAX_POLL_FILTERS];
	unsigned int nr_filters;
	struct poll_filter_part parts[POLL_FILTER_MAX_PARTS];
	unsigned int nr_parts;		/* parts past POLL_FILTER_MAX_PARTS are not listed */
	unsigned int nr_more_parts;
};

/*
 * The plan for P (NULL: no --where). PER_POLL: the run emits poll records;
 * KERNEL_ALLOWED: false with --no-kernel-filter.
 */
void poll_filter_plan(const struct predicate *p, bool per_poll, bool kernel_allowed,
		      struct poll_filter_plan *plan);

/* trace --explain: each part of the expression and where it is tested. */
void poll_filter_explain(FILE *out, const char *where, const struct poll_filter_plan *plan);

#endif
