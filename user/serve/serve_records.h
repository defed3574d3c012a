/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The session's interval records (queue, CPU, counters) added into the
 * store's series, with the device and queue filters applied.
 */
#ifndef NETPMU_SERVE_RECORDS_H
#define NETPMU_SERVE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netpmu_records.h"
#include "serve/metric_store.h"

struct queue_map;

/* What a counter of the session measures. */
enum serve_counter_role {
	SERVE_EVENT,			/* an -e event: netpmu_pmu_event_total with its labels */
	SERVE_QUEUE_RX_BYTES,		/* the rotated func-queue counters of top */
	SERVE_QUEUE_TX_BYTES,
	SERVE_QUEUE_RX_PACKETS,
	SERVE_QUEUE_TX_PACKETS,
	SERVE_QUEUE_RX_LATENCY_CYCLES,	/* followed by its packets counter */
	SERVE_QUEUE_RX_LATENCY_PACKETS,
	SERVE_FUNC_PCIE_WRITE_BYTES,
	SERVE_FUNC_PCIE_WRITE_TIME,	/* not exported: the PCIe pair's time */
};

struct serve_counter {
	enum serve_counter_role role;
	char pmu[64];
	char labels[METRIC_LABELS_MAX];	/* SERVE_EVENT: pmu, event, filter terms */
	/* SERVE_EVENT: the family its pair gives the count a meaning in (FAM_NR: none), its series' labels */
	enum metric_family_id meaning;
	char meaning_labels[METRIC_LABELS_MAX];
	int partner;			/* a latency pair's packet counter (its index), or -1 */
	double seconds_per_cycle;	/* a latency pair's: 1 / its PMU's hw_clk_freq */
};

/* The queue a rotated counter of GENERATION measured: false if no longer known. */
typedef bool (*serve_target_fn)(void *ctx, unsigned int generation, unsigned int *func_id, int *queue);

struct serve_filter {
	char **include_devs;		/* names or PCI addresses; none: all */
	size_t nr_include_devs;
	char **exclude_devs;
	size_t nr_exclude_devs;
	unsigned int *include_queues;	/* none: all */
	size_t nr_include_queues;
	unsigned int *exclude_queues;
	size_t nr_exclude_queues;
};

struct serve_records {
	struct metric_store *store;
	const struct serve_filter *filter;
	const struct queue_map *queues;	/* func_id -> PCI address and name */
	const struct serve_counter *counters;
	unsigned int nr_counters;
	serve_target_fn target;
	void *target_ctx;
	double latency_seconds_per_cycle;	/* 1 / the HNS3 PMU's hw_clk_freq */
	uint64_t served_ns;		/* intervals counted, for the coverage ratio */
};

void serve_records_add(struct serve_records *sr, const void *record, size_t size);

/* Appends the label pairs of an event string's filter terms (bdf, queue, port, tc, intr, global, ...). */
int serve_event_labels(const char *pmu, const char *event_name, const char *text, char *labels, size_t len);

/* Appends the filter terms of the event string TEXT named in NAMES (N of them), as written. */
int serve_term_labels(char *labels, size_t len, const char *text, const char *const *names, size_t n);

/* The interface of the PCI function FUNC_ID of Q in this namespace, or its PCI address. */
const char *serve_func_dev(const struct queue_map *q, unsigned int func_id);

#endif
