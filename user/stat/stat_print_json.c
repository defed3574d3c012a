// SPDX-License-Identifier: GPL-2.0
/* netpmu stat -j: one JSON object per counter and line, with perf stat's keys. */
#include "lib/json_writer.h"
#include "stat/stat_output.h"

void stat_print_json_row(struct stat_output *o, const struct stat_row *row, uint64_t time_ns)
{
	struct json_writer w;
	char value[64];

	json_init(&w, o->out);
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
	}
	json_end_object(&w);
	fputc('\n', o->out);
}
