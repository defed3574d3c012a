/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PMU counters of one netpmu serve session: the -e events, or else top's
 * func-queue counters rotated over the queues (and over their new vectors
 * when ethtool -L remakes them). In cmd/: it joins serve's layer with top's.
 */
#ifndef NETPMU_SERVE_COUNTERS_H
#define NETPMU_SERVE_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>

#include "serve/serve_events.h"
#include "serve/serve_loop.h"
#include "serve/serve_records.h"
#include "top/top_counters.h"

struct bpf_session_options;
struct queue_map;

struct serve_counters {
	struct serve_events events;
	struct top_counters rotated;
	struct serve_counter rotated_described[TOP_NR_ROLES];
	bool rotating;
	const char *rotated_dev;	/* the one device rotated over; NULL: every one */
	const struct queue_map *queues;
	const char *sysfs_root;
};

/*
 * Counters for EVENTS (N of them), or with none the rotated ones over the
 * queues FILTER lets through (only one device's if it names just one); wires
 * them into REC, LOOP and SOPTS. 0, or -1 with WHY. Without an HNS3 PMU the
 * software series serve alone: said once, 0.
 */
int serve_counters_prepare(struct serve_counters *sc, const struct serve_filter *filter, char *const *events,
			   size_t n, struct serve_records *rec, struct serve_loop *loop,
			   struct bpf_session_options *sopts, char *why, size_t why_len);

void serve_counters_release(struct serve_counters *sc);

#endif
