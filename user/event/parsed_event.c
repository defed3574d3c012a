// SPDX-License-Identifier: GPL-2.0
/* A parsed event and its list: growing, releasing, reading its format fields. */
#include <stdlib.h>
#include <string.h>

#include "event/parsed_event.h"

struct parsed_event *event_list_add(struct event_list *list)
{
	struct parsed_event *grown = realloc(list->events, (list->nr_events + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	list->events = grown;
	memset(&grown[list->nr_events], 0, sizeof(*grown));
	grown[list->nr_events].partner = -1;
	return &grown[list->nr_events++];
}

void parsed_event_release(struct parsed_event *ev)
{
	free(ev->text);
	free(ev->written);
	free(ev->pmu_name);
	free(ev->dev);
	free(ev->merged_text);
	memset(ev, 0, sizeof(*ev));
}

void event_list_release(struct event_list *list)
{
	for (size_t i = 0; i < list->nr_events; i++)
		parsed_event_release(&list->events[i]);
	for (size_t i = 0; i < list->nr_skipped; i++) {
		free(list->skipped[i].text);
		free(list->skipped[i].reason);
	}
	free(list->events);
	free(list->skipped);
	memset(list, 0, sizeof(*list));
}

/* True if the user's terms set or named any bit of FIELD (format/<name>). */
static bool event_field_given(const struct parsed_event *ev, const char *field)
{
	const struct pmu_format_field *f = ev->pmu ? pmu_find_format(ev->pmu, field) : NULL;

	return f && f->word < PMU_CONFIG_WORDS && (ev->given[f->word] & f->mask);
}

/* The value of format field NAME in EV's config words; false if the PMU has no such field. */
static bool event_field_value(const struct parsed_event *ev, const char *field, uint64_t *value)
{
	const struct pmu_format_field *f = ev->pmu ? pmu_find_format(ev->pmu, field) : NULL;

	if (!f || !f->nr_ranges)
		return false;
	*value = pmu_format_unpack(f, ev->spec.config);
	return true;
}

void event_field_read(const struct parsed_event *ev, const char *field, uint64_t *value,
		      bool *given)
{
	if (!event_field_value(ev, field, value))
		*value = 0;
	*given = event_field_given(ev, field);
}
