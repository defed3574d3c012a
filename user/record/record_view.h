/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A record from the BPF ring buffer seen as named fields, so that printing,
 * --where, --by and --hist work the same for every record kind.
 */
#ifndef NETPMU_RECORD_VIEW_H
#define NETPMU_RECORD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "netpmu_records.h"

#define RECORD_MAX_FIELDS 20

struct record_field {
	const char *name;
	int64_t value;
};

struct record_view {
	enum netpmu_record_kind kind;
	const char *kind_name;		/* "poll", "queue", "cpu", "counters", "core" */
	uint64_t ts_ns;
	const char *dev;		/* NULL for records of no device */
	struct record_field fields[RECORD_MAX_FIELDS];
	size_t nr_fields;
	/* Counters: reads for poll records, deltas for the interval kinds. */
	const struct netpmu_counter_read *reads;
	const struct netpmu_counter_delta *deltas;
	uint32_t counter_mask;		/* which of the counters the record carries */
	/* Core counters: per poll, per NAPI instance, per CPU (core records, with NET_RX's share). */
	const struct netpmu_core_delta *core;
	const struct netpmu_core_delta *core_net_rx;
	unsigned int nr_core;		/* core[]'s length */
	uint32_t core_mask;		/* which the record shows; set by trace_core_view() */
	const char *const *core_names;
};

/* Fills VIEW from a ring buffer record; false for a record too short or unknown. */
bool record_view_from(const void *data, size_t size, struct record_view *view);

/* The field NAME, or NULL if this kind of record has none. */
const struct record_field *record_view_field(const struct record_view *view, const char *name);

/* Every field name of every kind, for error messages: "cpu, irq, ...". */
const char *record_field_names(void);

/*
 * Counter I's value as the record shows it (a poll's read, an interval's
 * delta, scaled as perf scales a multiplexed one); false if the record
 * carries none or it was unreadable.
 */
bool record_view_counter(const struct record_view *view, unsigned int i, int64_t *value);
/* Core event I's count in the record (the whole stretch, not its NET_RX share); false if none. */
bool record_view_core(const struct record_view *view, unsigned int i, int64_t *value);

/* The record kinds (bit 1 << enum netpmu_record_kind) that have field NAME ("dev" too); 0 if none. */
uint32_t record_field_kinds(const char *name);
/* "poll" for NETPMU_RECORD_POLL, ...; NULL for no kind. */
const char *record_kind_name(enum netpmu_record_kind kind);

#endif
