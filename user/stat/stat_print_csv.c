// SPDX-License-Identifier: GPL-2.0
/* netpmu stat -x SEP: perf stat's CSV columns. */
#include <inttypes.h>

#include "stat/stat_output.h"

/*
 * [interval SEP] [CPU<n> SEP (-A)] counter-value SEP unit SEP event SEP event-runtime SEP
 * pcnt-running SEP metric-value SEP metric-unit, as perf stat -x writes them.
 */
void stat_print_csv_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns)
{
	const char *sep = o->separator;

	if (o->interval)
		fprintf(o->out, "%6" PRIu64 ".%09" PRIu64 "%s", time_ns / 1000000000,
			time_ns % 1000000000, sep);
	if (row->cpu >= 0)
		fprintf(o->out, "CPU%d%s", row->cpu, sep);
	if (row->counted)
		fprintf(o->out, "%.0f%s", row->value, sep);
	else
		fprintf(o->out, "<not counted>%s", sep);
	fprintf(o->out, "%s%s%s%" PRIu64 "%s%.2f%s", sep, row->event, sep, row->running_ns, sep,
		row->running_pct, sep);
	if (row->has_metric)
		fprintf(o->out, "%.3f%s%s %s", row->metric_value, sep, row->metric_unit,
			row->metric_name);
	else
		fprintf(o->out, "%s", sep);
	fputc('\n', o->out);
}
