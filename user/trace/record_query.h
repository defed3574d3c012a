/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ad hoc questions over records, bpftrace style, with no compiler at run
 * time: --where (filter), --by (sums per key), --hist (log2 histogram).
 */
#ifndef NETPMU_RECORD_QUERY_H
#define NETPMU_RECORD_QUERY_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record_view.h"

#define RECORD_FILTER_MAX_TERMS 8

struct record_filter {
	struct {
		char field[16];		/* "dev" or a numeric field */
		char dev[NETPMU_IFNAMSIZ];
		int64_t value;
	} terms[RECORD_FILTER_MAX_TERMS];
	unsigned int nr_terms;
};

/* SPEC: "dev=eth0,queue=1,cpu=0,irq=27". Returns 0, or -1 with WHY. */
int record_filter_parse(const char *spec, struct record_filter *filter, char *why, size_t why_len);
/* A record lacking a field the filter names does not match. */
bool record_filter_match(const struct record_filter *filter, const struct record_view *v);

/* Sums of the additive fields and counter deltas per value of one key. */
struct record_groups;
/* KEY: queue, cpu, irq or dev. Returns NULL with WHY if KEY is not one of them. */
struct record_groups *record_groups_new(const char *key, char *why, size_t why_len);
void record_groups_add(struct record_groups *g, const struct record_view *v);
void record_groups_print(const struct record_groups *g, FILE *out, const char *const *counter_names,
			 unsigned int nr_counters);
void record_groups_free(struct record_groups *g);

/* A log2 histogram of one field's values, printed like bpftrace's hist(). */
struct record_hist;
/* Returns NULL with WHY if FIELD is no record field. */
struct record_hist *record_hist_new(const char *field, char *why, size_t why_len);
void record_hist_add(struct record_hist *h, const struct record_view *v);
void record_hist_print(const struct record_hist *h, FILE *out);
void record_hist_free(struct record_hist *h);

#endif
