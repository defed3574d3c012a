// SPDX-License-Identifier: GPL-2.0
/* netpmu stat's output: rows with their metrics, header, notes and footer. */
#include <string.h>

#include "metric.h"
#include "stat_output.h"

/* perf repeats the interval header every 25 intervals. */
#define STD_HEADER_EVERY 25

static void print_notes(struct stat_output *o, const struct stat_counters *sc)
{
	bool noted[METRIC_NR_KINDS] = { false };

	for (size_t i = 0; i < sc->nr_counters; i++) {
		const struct parsed_event *ev = sc->counters[i].ev;
		const struct metric_kind_info *info;

		if (ev->partner < 0 || ev->metric_counter != 0 || noted[ev->metric->kind])
			continue;
		info = metric_kind_info(ev->metric->kind);
		noted[ev->metric->kind] = true;
		if (info->undocumented)
			fprintf(o->out, " # %s %s (%s) in %s: %s\n", pmu_kind_name(ev->pmu->name_info.kind),
				info->title, metric_formula(ev->metric), metric_unit(ev->metric),
				info->undocumented);
		else if (!ev->pmu->has_hw_clk_freq)
			fprintf(o->out, " # %s has no hw_clk_freq: %s shown in %s, not %s\n",
				ev->pmu->name, info->title, info->unit_without_clock, info->unit);
	}
}

/* perf prints its header with the counts, after the command's own output. */
static void output_begin(struct stat_output *o, const struct stat_counters *sc)
{
	o->begun = true;
	if (o->format != STAT_FORMAT_STD)
		return;
	if (!o->interval)
		fprintf(o->out, "\n Performance counter stats for '%s':\n\n", o->target);
	print_notes(o, sc);
}

static void fill_row(const struct stat_counters *sc, size_t i, bool delta, struct stat_row *row)
{
	const struct stat_counter *c = &sc->counters[i];
	const struct parsed_event *ev = c->ev;

	memset(row, 0, sizeof(*row));
	row->event = ev->text;
	row->value = stat_count_scaled(c, delta, &row->counted, &row->running_ns,
				       &row->running_pct);
	if (row->counted && ev->partner >= 0 && ev->metric_counter == 0) {
		const struct stat_counter *partner = &sc->counters[ev->partner];
		uint64_t running;
		double pct, counter1;
		bool counted;

		counter1 = stat_count_scaled(partner, delta, &counted, &running, &pct);
		row->has_metric = counted &&
				  metric_value(ev->metric, row->value, counter1, &row->metric_value);
		row->metric_unit = metric_unit(ev->metric);
		row->metric_name = ev->metric->name;
	}
}

void stat_output_counts(struct stat_output *o, const struct stat_counters *sc, bool delta,
			uint64_t time_ns)
{
	struct stat_row row;

	if (!o->begun)
		output_begin(o, sc);
	if (o->format == STAT_FORMAT_STD && o->interval &&
	    o->intervals_printed % STD_HEADER_EVERY == 0)
		fprintf(o->out, "#           time             counts unit events\n");
	for (size_t i = 0; i < sc->nr_counters; i++) {
		fill_row(sc, i, delta, &row);
		switch (o->format) {
		case STAT_FORMAT_STD:
			stat_print_std_row(o, &row, time_ns);
			break;
		case STAT_FORMAT_CSV:
			stat_print_csv_row(o, &row, time_ns);
			break;
		case STAT_FORMAT_JSON:
			stat_print_json_row(o, &row, time_ns);
			break;
		}
	}
	o->intervals_printed++;
	fflush(o->out);
}

void stat_output_end(struct stat_output *o, uint64_t elapsed_ns)
{
	if (o->format == STAT_FORMAT_STD && !o->interval)
		fprintf(o->out, "\n %17.9f seconds time elapsed\n\n", elapsed_ns / 1e9);
	fflush(o->out);
}
