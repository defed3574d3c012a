/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU events netpmu serve counts (-e or the config's events): parsed as
 * trace parses them (a merged PMU name gives a counter per instance), bound
 * for the in-kernel join, and described for netpmu_pmu_event_total and for
 * what their pairs mean (serve_pairs.h).
 */
#ifndef NETPMU_SERVE_EVENTS_H
#define NETPMU_SERVE_EVENTS_H

#include <limits.h>
#include <stddef.h>

#include "event/event_parse.h"
#include "session/bpf_session.h"
#include "serve/serve_records.h"

struct queue_map;

struct serve_events {
	struct event_catalog catalog;
	struct parsed_event events[NETPMU_MAX_COUNTERS];
	struct session_counter counters[NETPMU_MAX_COUNTERS];
	struct serve_counter described[NETPMU_MAX_COUNTERS];
	unsigned int nr;
	char tick_pmu_dir[PATH_MAX];	/* the first counter's PMU: the tick follows its CPU */
};

/* Parses TEXTS (N of them). 0, or -1 with one line in WHY; SE is released then. */
int serve_events_prepare(struct serve_events *se, char *const *texts, size_t n, const char *sysfs_root,
			 const struct queue_map *queues, char *why, size_t why_len);

void serve_events_release(struct serve_events *se);

#endif
