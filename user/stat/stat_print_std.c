// SPDX-License-Identifier: GPL-2.0
/* netpmu stat's human form, laid out as perf stat lays out its table. */
#include <inttypes.h>

#include "stat/stat_output.h"

/* perf: [CPU in 6 columns (-A),] value in 18 columns, unit in 4, event name in 32, then "# metric". */
void stat_print_std_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns)
{
	if (o->interval)
		fprintf(o->out, "%6" PRIu64 ".%09" PRIu64 " ", time_ns / 1000000000,
			time_ns % 1000000000);
	if (row->cpu >= 0)
		fprintf(o->out, "CPU%-3d ", row->cpu);
	if (row->counted)
		fprintf(o->out, "%'18.0f %-4s %-32s", row->value, "", row->event);
	else
		fprintf(o->out, "%18s %-4s %-32s", "<not counted>", "", row->event);
	if (row->has_metric)
		fprintf(o->out, " # %14.3f %s  %s", row->metric_value, row->metric_unit,
			row->metric_name);
	else if (row->metric_name)
		fprintf(o->out, " # %14s %s  %s", "-", row->metric_unit, row->metric_name);
	if (row->counted && row->running_pct < 100.0)
		fprintf(o->out, "  (%.2f%%)", row->running_pct);
	fputc('\n', o->out);
}
