/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The question a trace run answers over its records: which records (--where),
 * and what of them (--agg, --hist; --by): printed at the end, or with -I per
 * interval as bpftrace's interval:s:N { time(); print(@); clear(@); } prints.
 */
#ifndef NETPMU_TRACE_QUERY_H
#define NETPMU_TRACE_QUERY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/aggregation.h"
#include "trace/predicate.h"
#include "trace/record_groups.h"

struct trace_query_options {
	const char *where;
	const char *aggs[AGG_MAX_MAPS];
	unsigned int nr_aggs;
	const char *hist;		/* --hist F: @F = hist(F) */
	const char *by;
	bool json;
	bool per_interval;		/* -I given: print and clear the maps each interval */
};

struct trace_query {
	const struct trace_query_options *opts;
	struct predicate *where;
	/*
	 * Per interval: the records up to the last interval tick, and those
	 * after it, which the next tick's records close.
	 */
	struct aggregations closed, pending;
	uint64_t tick_ns;
	struct record_groups *groups;
};

/*
 * Compiles OPTS against NAMES (events_pending: the -e events are not open
 * yet). Returns 0, or -1 with one line in WHY naming the option.
 */
int trace_query_compile(struct trace_query *q, const struct trace_query_options *opts,
			const struct record_names *names, char *why, size_t why_len);
/* Binds the -e events named, once NAMES has the ones that opened. */
int trace_query_bind(struct trace_query *q, const struct record_names *names, char *why, size_t why_len);
/* Whether the run prints summaries instead of the records. */
bool trace_query_summarises(const struct trace_query *q);
bool trace_query_match(const struct trace_query *q, const struct record_view *view);
/*
 * An interval tick's record, matching or not: with -I, the first of a tick
 * prints the interval before the last tick and clears it; the records since
 * the last tick, up to this one, are now the interval this tick closes.
 */
void trace_query_tick(struct trace_query *q, uint64_t ts_ns, FILE *out);
/* Adds a matching record (after its tick's trace_query_tick()). */
void trace_query_add(struct trace_query *q, const struct record_view *view);
/* Prints what is left: the whole run, or the interval the stop closed. */
void trace_query_finish(struct trace_query *q, FILE *out, const char *const *counter_names,
			unsigned int nr_counters);
void trace_query_release(struct trace_query *q);

#endif
