// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: -e events into session counters and their series' labels. */
#include <stdio.h>
#include <string.h>

#include "lib/why_line.h"
#include "pmu/pmu_discovery.h"
#include "serve/serve_events.h"
#include "serve/serve_pairs.h"
#include "session/counter_binding.h"

int serve_events_prepare(struct serve_events *se, char *const *texts, size_t n, const char *sysfs_root,
			 const struct queue_map *queues, char *why, size_t why_len)
{
	memset(se, 0, sizeof(*se));
	if (!n)
		return 0;
	if (event_catalog_discover(&se->catalog, sysfs_root, why, why_len))
		return -1;
	for (size_t e = 0; e < n; e++) {
		unsigned int first = se->nr;
		size_t nr;

		if (event_parse_instances(texts[e], &se->catalog, &se->events[first], NETPMU_MAX_COUNTERS - first,
					  &nr, why, why_len))
			goto fail;
		se->nr += nr;
		for (unsigned int i = first; i < se->nr; i++) {
			struct parsed_event *ev = &se->events[i];
			struct serve_counter *c = &se->described[i];

			counter_binding_derive(ev, sysfs_root, queues, &se->counters[i].binding);
			se->counters[i].name = ev->text;
			se->counters[i].spec = ev->spec;
			se->counters[i].group_with = -1;
			c->role = SERVE_EVENT;
			snprintf(c->pmu, sizeof(c->pmu), "%s", ev->pmu_name);
			if (serve_event_labels(ev->pmu_name, ev->event ? ev->event->name : ev->text, ev->written,
					       c->labels, sizeof(c->labels))) {
				why_fail(why, why_len, "event '%s': its labels are too long", texts[e]);
				goto fail;
			}
		}
	}
	if (serve_pairs_describe(se->events, se->nr, &se->catalog.metrics, sysfs_root, queues, se->described,
				 se->counters, why, why_len))
		goto fail;
	snprintf(se->tick_pmu_dir, sizeof(se->tick_pmu_dir), "%s/%s/%s",
		 sysfs_root ? sysfs_root : PMU_SYSFS_ROOT_DEFAULT, PMU_DEVICES_SUBDIR, se->events[0].pmu_name);
	return 0;
fail:
	serve_events_release(se);
	return -1;
}

void serve_events_release(struct serve_events *se)
{
	for (unsigned int i = 0; i < se->nr; i++)
		parsed_event_release(&se->events[i]);
	event_catalog_release(&se->catalog);
	memset(se, 0, sizeof(*se));
}
