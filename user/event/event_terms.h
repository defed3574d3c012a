/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The terms of one event string (PMU/TERM[=VALUE],.../) turned into the
 * perf_event_attr config words, as perf turns them (see event_parse.h).
 */
#ifndef NETPMU_EVENT_TERMS_H
#define NETPMU_EVENT_TERMS_H

#include <stddef.h>
#include <stdint.h>

#include "event/parsed_event.h"

struct event_term {
	char *name;
	char *value;		/* as written; NULL for a bare term */
};

/* A term that names an event or metric: bare, or "=1" as perf allows. */
bool event_term_is_name(const struct event_term *t);

/*
 * Applies TERMS (of the event string TEXT, on PMU) to EV: spec, given, event,
 * dev. METRIC_COUNTER is the event a metric term stands for (NULL if TERMS
 * names no metric). Returns 0, -ENOMEM or -EINVAL with one line in WHY.
 */
int event_terms_apply(const struct event_parse_ctx *ctx, const struct pmu *pmu,
		      const char *text, const struct event_term *terms, size_t nr_terms,
		      const struct pmu_event *metric_counter, struct parsed_event *ev,
		      char *why, size_t why_len);

/* The published event whose config equals CONFIG's event bits (0-16), or NULL. */
const struct pmu_event *pmu_event_by_config(const struct pmu *pmu, uint64_t config);

#endif
