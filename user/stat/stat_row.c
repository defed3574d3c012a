// SPDX-License-Identifier: GPL-2.0
/*
 * The rows of netpmu stat: one per counter, except that the instances of a
 * merged PMU name share one row with their sum, as perf stat merges them:
 * counts scaled one by one and added up, enabled and running times added up.
 * With per_instance (--no-merge) every counter has its row and its CPU.
 */
#include <string.h>

#include "pmu/metric.h"
#include "stat/stat_output.h"

/* Counters summed into one row: one event string's counter on each instance. */
static bool same_merged_row(const struct parsed_event *a, const struct parsed_event *b)
{
	return a->merged_text && b->merged_text && a->item == b->item &&
	       a->metric_counter == b->metric_counter;
}

bool stat_row_shown(const struct stat_counters *sc, size_t i, bool per_instance)
{
	for (size_t j = 0; j < i && !per_instance; j++) {
		if (same_merged_row(sc->counters[j].ev, sc->counters[i].ev))
			return false;
	}
	return true;
}

void stat_row_fill(const struct stat_counters *sc, size_t i, bool delta, bool per_instance,
		   struct stat_row *row)
{
	const struct parsed_event *ev = sc->counters[i].ev;
	bool merged = ev->merged_text && !per_instance, paired = false;
	struct metric_sum metric = { 0 };
	struct stat_count total = { 0 };

	memset(row, 0, sizeof(*row));
	row->event = merged ? ev->merged_text : ev->text;
	row->cpu = per_instance ? ev->spec.cpu : -1;
	for (size_t j = i; j < sc->nr_counters; j++) {
		const struct parsed_event *member = sc->counters[j].ev;
		struct stat_count count, partner;
		double value;

		if (j != i && !(merged && same_merged_row(ev, member)))
			continue;
		count = stat_count_period(&sc->counters[j], delta);
		value = stat_count_scale(&count);
		row->value += value;
		total.enabled_ns += count.enabled_ns;
		total.running_ns += count.running_ns;
		if (!count.running_ns || member->partner < 0 || member->metric_counter != 0)
			continue;
		paired = true;
		partner = stat_count_period(&sc->counters[member->partner], delta);
		if (partner.running_ns)
			metric_sum_add(&metric, member->metric, value, stat_count_scale(&partner));
	}
	row->counted = total.running_ns != 0;
	row->running_ns = total.running_ns;
	row->running_pct = total.enabled_ns ? 100.0 * total.running_ns / total.enabled_ns : 0;
	if (paired) {
		row->has_metric = metric_sum_value(&metric, ev->metric, &row->metric_value);
		row->metric_unit = metric_unit(ev->metric);
		row->metric_name = ev->metric->name;
	}
}
