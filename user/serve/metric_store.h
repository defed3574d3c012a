/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The series netpmu serve exports, accumulated from the session's interval
 * records into 64-bit totals that live as long as the process: a scrape reads
 * them, and nothing (rotation, reopen, reload) resets them. Thread-safe: the
 * HTTP thread renders while the main thread adds.
 */
#ifndef NETPMU_METRIC_STORE_H
#define NETPMU_METRIC_STORE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "serve/metric_families.h"

/* Room for a series' labels, rendered: name="value",... */
#define METRIC_LABELS_MAX 512

struct metric_series {
	struct metric_series *next_in_family;
	struct metric_series *next_in_bucket;
	enum metric_family_id family;
	uint64_t value;		/* counter total, summary sum */
	uint64_t count;		/* summary count */
	double gauge;
	double scale;		/* of a summary's sum */
	char labels[];
};

struct metric_store {
	pthread_mutex_t lock;
	struct metric_series **buckets;
	size_t nr_buckets;
	struct metric_series *first[FAM_NR], *last[FAM_NR];
	unsigned long nr_series;
	unsigned long max_series;	/* beyond it, new series are counted as dropped */
	/* Outside the cap, created first: the updates it dropped, the series there are. */
	struct metric_series *dropped, *series_gauge;
	char const_labels[METRIC_LABELS_MAX];	/* the config's labels, on every series */
};

/* 0, or -ENOMEM. */
int metric_store_init(struct metric_store *st, unsigned long max_series);
void metric_store_release(struct metric_store *st);

/*
 * Appends name="value" to the labels in BUF (escaped as the text format
 * wants). Returns -1 when BUF is too small.
 */
int metric_labels_add(char *buf, size_t len, const char *name, const char *value);

/* The callers hold st->lock around these: one record's series at once. */
void metric_store_lock(struct metric_store *st);
void metric_store_unlock(struct metric_store *st);
void metric_counter_add(struct metric_store *st, enum metric_family_id fam, const char *labels, uint64_t delta);
void metric_summary_add(struct metric_store *st, enum metric_family_id fam, const char *labels,
			double scale, uint64_t sum, uint64_t count);
void metric_gauge_set(struct metric_store *st, enum metric_family_id fam, const char *labels, double value);

/* Changes the cap (a reload); series already there stay. */
void metric_store_set_limit(struct metric_store *st, unsigned long max_series);

/* Walks the series of FAM in creation order; lock held by the caller. */
static inline const struct metric_series *metric_store_first(const struct metric_store *st,
							      enum metric_family_id fam)
{
	return st->first[fam];
}

#endif
