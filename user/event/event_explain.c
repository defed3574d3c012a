// SPDX-License-Identifier: GPL-2.0
/* netpmu stat --explain: what each event string makes the driver count. */
#include <errno.h>
#include <string.h>

#include "event/event_check.h"
#include "event/event_explain.h"
#include "pmu/metric.h"
#include "pmu/pmu_attr_parse.h"

#define WHY_LEN 1024

static void print_event_line(FILE *out, const struct parsed_event *ev,
			     const struct event_parse_ctx *ctx)
{
	const struct metric *m;
	unsigned int c;

	if (!ev->event) {
		fprintf(out, "  %-10s config 0x%llx (not a published event of %s)\n", "event:",
			(unsigned long long)ev->spec.config[0], ev->pmu->name);
		return;
	}
	m = metric_of_event(ctx->metrics, ev->pmu, ev->event, &c);
	if (m)
		fprintf(out, "  %-10s %s (config 0x%llx: counter %u of the %s pair %s, counts %s)\n",
			"event:", ev->event->name, (unsigned long long)ev->spec.config[0], c,
			metric_kind_info(m->kind)->title, m->name, metric_kind_info(m->kind)->counts[c]);
	else
		fprintf(out, "  %-10s %s (config 0x%llx)\n", "event:", ev->event->name,
			(unsigned long long)ev->spec.config[0]);
}

static void print_modes_line(FILE *out, const struct parsed_event *ev)
{
	if (ev->pmu->name_info.kind != PMU_KIND_HNS3 || !ev->event)
		return;
	fprintf(out, "  %-10s", "modes:");
	if (!ev->event->filter_modes_valid) {
		fprintf(out, " unknown (no filtermode/%s)\n", ev->event->name);
		return;
	}
	for (enum hns3_filter_mode m = 0; m < HNS3_FILTER_NR_MODES; m++) {
		if (ev->event->filter_modes & HNS3_FILTER_BIT(m))
			fprintf(out, " %s", hns3_filter_mode_name(m));
	}
	fputc('\n', out);
}

static void print_metric_line(FILE *out, const struct event_list *list,
			      const struct parsed_event *ev)
{
	const struct metric_kind_info *info;

	if (!ev->metric || ev->partner < 0)
		return;
	info = metric_kind_info(ev->metric->kind);
	fprintf(out, "  %-10s %s %s = %s in %s, with %s in the same group%s%s\n", "metric:",
		ev->metric->name, info->title, metric_formula(ev->metric), metric_unit(ev->metric),
		list->events[ev->partner].text, info->undocumented ? "; " : "",
		info->undocumented ? info->undocumented : "");
}

unsigned int event_explain_print(FILE *out, struct event_list *list,
				 const struct event_parse_ctx *ctx)
{
	unsigned int refused = 0;
	struct filter_choice choice;
	char why[WHY_LEN];

	/* Pairs are known once the whole list passed; without that, no metric lines. */
	if (event_list_check(list, ctx, why, sizeof(why)))
		for (size_t i = 0; i < list->nr_events; i++)
			list->events[i].partner = -1;
	for (size_t i = 0; i < list->nr_events; i++) {
		const struct parsed_event *ev = &list->events[i];

		fprintf(out, "%s\n", ev->text);
		print_event_line(out, ev, ctx);
		print_modes_line(out, ev);
		if (event_check_one(ev, ctx, &choice, why, sizeof(why))) {
			/* The reason starts with the event string, already printed above. */
			size_t prefix = strlen(ev->written);
			const char *reason = strncmp(why, ev->written, prefix) ? why : why + prefix + 2;

			fprintf(out, "  %-10s %s\n", "refused:", reason);
			refused++;
			continue;
		}
		fprintf(out, "  %-10s %s (%s)\n", "mode:", choice.mode, choice.rule);
		fprintf(out, "  %-10s %s\n", "counts:", choice.target);
		if (*choice.condition)
			fprintf(out, "  %-10s %s\n", "condition:", choice.condition);
		fprintf(out, "  %-10s %s\n", "registers:", choice.registers);
		print_metric_line(out, list, ev);
	}
	/* Instances of a merged name that cannot count the string: not a refusal, perf leaves them out too. */
	for (size_t i = 0; i < list->nr_skipped; i++)
		fprintf(out, "%s\n  %-10s %s\n", list->skipped[i].text, "left out:",
			list->skipped[i].reason);
	if (!refused && event_list_check(list, ctx, why, sizeof(why))) {
		fprintf(out, "refused: %s\n", why);
		refused++;
	}
	return refused;
}
