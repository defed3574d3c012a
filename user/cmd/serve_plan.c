// SPDX-License-Identifier: GPL-2.0
/* netpmu serve's plan: whether a reload needs a new session. */
#include <string.h>

#include "cmd/serve_plan.h"

static bool same_strings(char *const *a, size_t na, char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

static bool same_numbers(const unsigned int *a, size_t na, const unsigned int *b, size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
}

bool serve_plan_same_session(const struct serve_plan *plan, const struct serve_plan *next)
{
	const struct serve_filter *a = &plan->filter, *b = &next->filter;

	return plan->interval_ms == next->interval_ms && plan->software_only == next->software_only &&
	       same_strings(plan->events, plan->nr_events, next->events, next->nr_events) &&
	       same_strings(a->include_devs, a->nr_include_devs, b->include_devs, b->nr_include_devs) &&
	       same_strings(a->exclude_devs, a->nr_exclude_devs, b->exclude_devs, b->nr_exclude_devs) &&
	       same_numbers(a->include_queues, a->nr_include_queues, b->include_queues, b->nr_include_queues) &&
	       same_numbers(a->exclude_queues, a->nr_exclude_queues, b->exclude_queues, b->nr_exclude_queues);
}

void serve_plan_take_in_place(struct serve_plan *plan, struct serve_plan *next)
{
	struct serve_label *labels = plan->file.labels;
	size_t nr_labels = plan->file.nr_labels;

	plan->file.labels = next->file.labels;
	plan->file.nr_labels = next->file.nr_labels;
	next->file.labels = labels;
	next->file.nr_labels = nr_labels;
	plan->max_series = next->max_series;
	serve_config_free(&next->file);
}
