// SPDX-License-Identifier: GPL-2.0
/* netpmu stat --dry-run: the attrs it would open, in perf stat -vv's layout. */
#include <inttypes.h>
#include <string.h>

#include "stat/stat_counters.h"
#include "stat/stat_dry_run.h"

#define RULE "------------------------------------------------------------\n"

static void field_hex(FILE *out, const char *name, uint64_t value)
{
	if (value)
		fprintf(out, "  %-32s %#" PRIx64 "\n", name, value);
}

static void field_dec(FILE *out, const char *name, uint64_t value)
{
	if (value)
		fprintf(out, "  %-32s %" PRIu64 "\n", name, value);
}

static void print_attr(FILE *out, const struct perf_event_attr *attr)
{
	fprintf(out, "perf_event_attr:\n");
	fprintf(out, "  %-32s %u\n", "type", attr->type);
	field_dec(out, "size", attr->size);
	field_hex(out, "config", attr->config);
	field_hex(out, "config1", attr->config1);
	field_hex(out, "config2", attr->config2);
	if (attr->read_format == (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING))
		fprintf(out, "  %-32s %s\n", "read_format", "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING");
	else
		field_hex(out, "read_format", attr->read_format);
	field_dec(out, "disabled", attr->disabled);
}

void stat_dry_run_print(FILE *out, const struct event_list *list)
{
	size_t leader = 0;

	for (size_t i = 0; i < list->nr_events; i++) {
		const struct parsed_event *ev = &list->events[i];
		struct perf_event_attr attr;

		if (ev->group_leader)
			leader = i;
		stat_attr_init(ev, &attr);
		/* The string in perf's syntax: a metric's counter by its name, not a name= alias. */
		fprintf(out, "# event %zu: %s (group %u%s", i, ev->from_metric ? ev->text : ev->written,
			ev->group, ev->group_leader ? ", leader" : "");
		if (!ev->from_metric && strcmp(ev->text, ev->written))
			fprintf(out, ", shown as %s", ev->text);
		if (ev->merged_text)
			fprintf(out, ", instance of %s", ev->merged_text);
		fprintf(out, ")\n");
		fprintf(out, RULE);
		print_attr(out, &attr);
		fprintf(out, RULE);
		if (ev->group_leader)
			fprintf(out, "sys_perf_event_open: pid -1  cpu %d  group_fd -1  flags %#x\n",
				ev->spec.cpu, (unsigned int)PERF_FLAG_FD_CLOEXEC);
		else
			fprintf(out, "sys_perf_event_open: pid -1  cpu %d  group_fd <event %zu>  "
				"flags %#x\n", ev->spec.cpu, leader, (unsigned int)PERF_FLAG_FD_CLOEXEC);
	}
	for (size_t i = 0; i < list->nr_skipped; i++)
		fprintf(out, "# left out: %s: %s\n", list->skipped[i].text, list->skipped[i].reason);
}
