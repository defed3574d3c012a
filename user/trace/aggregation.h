/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace --agg: bpftrace's map aggregations over the records that --where
 * keeps, keyed by record fields, printed in bpftrace's text or JSON form.
 *   [@NAME[KEY, ...] =] FUNC(ARGS) [by KEY,...]
 *   FUNC: count(), sum(F), avg(F), min(F), max(F), stats(F), hist(F),
 *         lhist(F, MIN, MAX, STEP)
 * Without @NAME the map is named after FUNC and F: @count, @sum_work, ...
 */
#ifndef NETPMU_AGGREGATION_H
#define NETPMU_AGGREGATION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/record_ref.h"

#define AGG_MAX_MAPS 16
#define AGG_MAX_KEYS 4
/* Beyond these many keys a map counts what it leaves out. */
#define AGG_MAX_GROUPS 65536
#define AGG_MAX_LHIST_BUCKETS 1000
/* hist(): (..., 0), [0], [1], then [2^k, 2^(k+1)) up to 2^62 */
#define AGG_HIST_BUCKETS 65

enum agg_func { AGG_COUNT, AGG_SUM, AGG_AVG, AGG_MIN, AGG_MAX, AGG_STATS, AGG_HIST, AGG_LHIST };

struct agg_key {
	int64_t number;
	char dev[NETPMU_IFNAMSIZ];	/* for a dev key */
};

struct agg_group {
	struct agg_key keys[AGG_MAX_KEYS];
	uint64_t count;
	int64_t sum, min, max;
	uint64_t *buckets;		/* hist, lhist */
};

struct agg_map {
	char name[100];		/* with its @ */
	enum agg_func func;
	struct record_ref value;	/* all but count() */
	struct record_ref keys[AGG_MAX_KEYS];
	unsigned int nr_keys;
	int64_t lhist_min, lhist_max, lhist_step;
	unsigned int nr_buckets;	/* hist, lhist: with the two outer ones */
	struct agg_group *groups;
	size_t nr_groups, last_hit;
	uint64_t left_out;		/* records beyond AGG_MAX_GROUPS keys, or out of memory */
};

struct aggregations {
	struct agg_map maps[AGG_MAX_MAPS];
	unsigned int nr_maps;
};

/* Adds the map SPEC says. Returns 0, or -1 with WHY: "column N: ...". */
int aggregations_add(struct aggregations *a, const char *spec, const struct record_names *names,
		     char *why, size_t why_len);
/* Binds the -e events the maps name, once they are open (record_ref_bind()). */
int aggregations_bind(struct aggregations *a, const struct record_names *names, char *why, size_t why_len);
/* Empty maps of the same specs as FROM, into TO. */
void aggregations_twin(struct aggregations *to, const struct aggregations *from);
void aggregations_record(struct aggregations *a, const struct record_view *view);
/* Empties every map, keeping what each aggregates. */
void aggregations_clear(struct aggregations *a);
void aggregations_release(struct aggregations *a);

/* bpftrace's text: "@name[k1, k2]: value" lines, histograms as its hist(). */
void aggregations_print_text(struct aggregations *a, FILE *out);
/* bpftrace -f json's lines: {"type": "map", "data": {"@name": {"k1,k2": value}}}. */
void aggregations_print_json(struct aggregations *a, FILE *out);

#endif
