/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace --by: the sums of every additive field and counter delta per value
 * of one key.
 */
#ifndef NETPMU_RECORD_GROUPS_H
#define NETPMU_RECORD_GROUPS_H

#include <stdbool.h>
#include <stdio.h>

#include "record/record_view.h"

/* Sums of the additive fields and counter deltas per value of one key. */
struct record_groups;
/* KEY: queue, cpu, irq or dev. Returns NULL with WHY if KEY is not one of them. */
struct record_groups *record_groups_new(const char *key, char *why, size_t why_len);
void record_groups_add(struct record_groups *g, const struct record_view *v);
void record_groups_print(const struct record_groups *g, FILE *out, const char *const *counter_names,
			 unsigned int nr_counters);
void record_groups_free(struct record_groups *g);

#endif
