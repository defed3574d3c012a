// SPDX-License-Identifier: GPL-2.0
/* netpmu stat's output: rows with their metrics, header, notes and footer. */

#include "pmu/metric.h"
#include "stat/stat_output.h"

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

void stat_output_counts(struct stat_output *o, const struct stat_counters *sc, bool delta,
			uint64_t time_ns)
{
	struct stat_row row;

	if (!o->begun)
		output_begin(o, sc);
	if (o->format == STAT_FORMAT_STD && o->interval &&
	    o->intervals_printed % STD_HEADER_EVERY == 0) {
		fprintf(o->out, "#%15s", "time");
		if (o->per_instance)
			fprintf(o->out, " %-6s", "cpu");
		fprintf(o->out, " %18s %4s events\n", "counts", "unit");
	}
	for (size_t i = 0; i < sc->nr_counters; i++) {
		if (!stat_row_shown(sc, i, o->per_instance))
			continue;
		stat_row_fill(sc, i, delta, o->per_instance, &row);
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
