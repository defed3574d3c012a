// SPDX-License-Identifier: GPL-2.0
/* netpmu stat's three forms of one row: perf stat's table, its CSV and its JSON. */
#include <inttypes.h>

#include "lib/json_writer.h"
#include "stat/stat_output.h"

/*
 * The human form, laid out as perf stat lays out its table: [CPU in 6 columns
 * (-A),] value in 18 columns, unit in 4, event name in 32, then "# metric".
 */
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

/*
 * -x SEP, perf stat's CSV columns as perf stat (6.12) -x writes them: [interval SEP]
 * [CPU<n> SEP (-A)] counter-value SEP unit SEP event SEP event-runtime SEP
 * pcnt-running SEP metric-value SEP metric-unit.
 */
void stat_print_csv_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns)
{
	const char *sep = o->separator;

	if (o->interval)
		fprintf(o->out, "%" PRIu64 ".%09" PRIu64 "%s", time_ns / 1000000000,
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

/* -j: one JSON object per counter and line, with perf stat's keys. */
void stat_print_json_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns)
{
	struct json_writer w;
	char value[64];

	json_init(&w, o->out);
	w.perf_spacing = true;
	json_begin_object(&w, NULL);
	if (o->interval)
		json_double(&w, "interval", time_ns / 1e9, 9);
	if (row->cpu >= 0) {
		/* perf -A writes the CPU as a string. */
		snprintf(value, sizeof(value), "%d", row->cpu);
		json_string(&w, "cpu", value);
	}
	/* perf writes the counter value as a string ("<not counted>" when it never ran). */
	if (row->counted)
		snprintf(value, sizeof(value), "%f", row->value);
	else
		snprintf(value, sizeof(value), "<not counted>");
	json_string(&w, "counter-value", value);
	json_string(&w, "unit", "");
	json_string(&w, "event", row->event);
	json_uint(&w, "event-runtime", row->running_ns);
	json_double(&w, "pcnt-running", row->running_pct, 2);
	if (row->metric_name) {
		if (row->has_metric)
			json_double(&w, "metric-value", row->metric_value, 6);
		else
			json_null(&w, "metric-value");
		json_string(&w, "metric-unit", row->metric_unit);
		json_string(&w, "metric-name", row->metric_name);
	} else {
		/* What perf (6.12) writes for a counter without a metric. */
		json_string(&w, "metric-value", "0.000000");
		json_string(&w, "metric-unit", "(null)");
	}
	json_end_object(&w);
	fputc('\n', o->out);
}
