/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a --where or --agg name refers to in a record: a field, the device
 * name, a PMU counter or a core event, checked against the record kinds the
 * run produces.
 */
#ifndef NETPMU_RECORD_REF_H
#define NETPMU_RECORD_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "record/record_view.h"

/* REF_EVENT: an -e event not known yet, to be bound to a counter or core event. */
enum record_ref_kind { REF_FIELD, REF_DEV, REF_COUNTER, REF_CORE, REF_EVENT };

struct record_ref {
	enum record_ref_kind kind;
	char name[96];			/* as written */
	unsigned int index;		/* REF_COUNTER, REF_CORE */
	unsigned int column;		/* where it was written, for errors at binding */
};

/* The names a run's records carry beyond their fields, and the kinds it produces. */
struct record_names {
	const char *const *counters;	/* the -e texts, as the records show them */
	unsigned int nr_counters;
	const char *const *core;
	unsigned int nr_core;
	uint32_t kinds;			/* bit 1 << enum netpmu_record_kind */
	const char *kinds_hint;		/* how to get the others, e.g. "--per-poll" */
	bool events_pending;		/* -e events given, not opened yet: names become REF_EVENT */
};

/*
 * NAME: a field (cpu, work, ...), dev, a counter by its -e text or by its
 * event's name when one counter has it (bw_ssu_rpu_byte_num), a core event
 * (cycles:k). Returns 0, or -1 with WHY (no such name; no record of this run
 * has it, with the kinds that do).
 */
int record_ref_resolve(const struct record_names *names, const char *name, struct record_ref *ref,
		       char *why, size_t why_len);
/* A REF_EVENT, once NAMES has the events that opened; other refs are left as they are. */
int record_ref_bind(const struct record_names *names, struct record_ref *ref, char *why, size_t why_len);

/* The numeric value in VIEW; false if the record has none (or REF is dev). */
bool record_ref_value(const struct record_ref *ref, const struct record_view *view, int64_t *value);

#endif
