// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: a removed PMU or NIC, said once and counted. */
#include <stdio.h>
#include <time.h>

#include "lib/json_writer.h"
#include "serve/metric_families.h"
#include "serve/serve_removals.h"

/* {"type":"removed","ts_ns":...,KEY:VALUE[,"bdf":BDF]}: ts_ns on the records' clock. */
static void log_removal(struct json_log *log, const struct device_removal *r)
{
	struct json_writer jw;
	struct timespec now;

	if (!log)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	json_init(&jw, log->file);
	json_begin_object(&jw, NULL);
	json_string(&jw, "type", "removed");
	json_uint(&jw, "ts_ns", (uint64_t)now.tv_sec * 1000000000ull + now.tv_nsec);
	json_string(&jw, r->kind, r->name);
	if (r->bdf)
		json_string(&jw, "bdf", r->bdf);
	json_end_object(&jw);
	fputc('\n', log->file);
	if (ferror(log->file))
		clearerr(log->file);	/* a full disk loses lines, not the exporter */
}

void serve_removal_say(void *ctx, const struct device_removal *r)
{
	const struct serve_removals *s = ctx;
	char labels[METRIC_LABELS_MAX] = "";

	if (!r->bdf)
		fprintf(stderr, "%s: PMU %s removed: its counters are no longer added, their series keep "
			"their last totals\n", s->cmd, r->name);
	else if (r->named)
		fprintf(stderr, "%s: NIC %s (%s) removed: its series keep their last totals\n", s->cmd,
			r->name, r->bdf);
	else
		fprintf(stderr, "%s: NIC %s removed: its series keep their last totals\n", s->cmd, r->bdf);
	log_removal(s->log, r);
	metric_labels_add(labels, sizeof(labels), r->kind, r->name);
	if (r->bdf)
		metric_labels_add(labels, sizeof(labels), "bdf", r->bdf);
	metric_store_lock(s->store);
	metric_counter_add(s->store, FAM_DEVICES_REMOVED, labels, 1);
	metric_store_unlock(s->store);
}
