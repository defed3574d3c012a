// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for netpmu serve's -e events as what their pairs mean
 * (user/serve/serve_pairs.c), for tests/unit/serve-pairs.sh:
 *   serve_pairs_dump SYSFS_ROOT NICS EVENT...
 * NICS is the queue map's PCI functions, "ADDR=IFNAME,..." (IFNAME may be
 * empty: a NIC of another namespace). Prepares the events as netpmu serve
 * does (serve_events_prepare) and prints one line per counter:
 *   counter I group_with G meaning FAMILY|- partner P labels {LABELS}
 * then reads intervals from stdin, one line of deltas per line (one per
 * counter, "err" for a failed read), adds each as a counters record and
 * prints the /metrics body in the text format. A refused event prints its
 * line and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue/queue_map.h"
#include "serve/exposition.h"
#include "serve/serve_events.h"

#define MAX_NICS 16

/* "ADDR=IFNAME,...": the map's functions, each with one vector naming its interface. */
static size_t parse_nics(char *spec, char **functions, struct queue_vector *vectors)
{
	size_t n = 0;
	char *save, *item;

	for (item = strtok_r(spec, ",", &save); item && n < MAX_NICS; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (eq)
			*eq = '\0';
		functions[n] = item;
		memset(&vectors[n], 0, sizeof(vectors[n]));
		vectors[n].func_id = n + 1;
		snprintf(vectors[n].pci_bdf, sizeof(vectors[n].pci_bdf), "%s", item);
		snprintf(vectors[n].ifname, sizeof(vectors[n].ifname), "%s", eq ? eq + 1 : "");
		n++;
	}
	return n;
}

static void print_counters(const struct serve_events *se)
{
	for (unsigned int i = 0; i < se->nr; i++) {
		const struct serve_counter *c = &se->described[i];

		printf("counter %u group_with %d meaning %s partner %d labels {%s}\n", i,
		       se->counters[i].group_with, c->meaning == FAM_NR ? "-" : metric_families[c->meaning].name,
		       c->meaning == FAM_NR ? -1 : c->partner, c->meaning == FAM_NR ? "" : c->meaning_labels);
	}
}

/* One line of deltas into a counters record; false at the end of input. */
static bool read_interval(const struct serve_events *se, struct netpmu_counters_record *r)
{
	char line[1024], *save, *tok;
	unsigned int i = 0;

	if (!fgets(line, sizeof(line), stdin))
		return false;
	memset(r, 0, sizeof(*r));
	r->kind = NETPMU_RECORD_COUNTERS;
	r->nr_counters = se->nr;
	r->interval_ns = 1000000000;
	for (tok = strtok_r(line, " \n", &save); tok && i < se->nr; tok = strtok_r(NULL, " \n", &save), i++) {
		if (!strcmp(tok, "err"))
			r->counters[i].err = -5;
		else
			r->counters[i].delta = strtoull(tok, NULL, 0);
	}
	return true;
}

int main(int argc, char **argv)
{
	char *functions[MAX_NICS];
	struct queue_vector vectors[MAX_NICS];
	struct queue_map queues = { .vectors = vectors, .functions = functions };
	struct serve_events se;
	struct serve_filter filter = { 0 };
	struct metric_store store;
	struct serve_records rec = { .store = &store, .filter = &filter, .queues = &queues };
	struct netpmu_counters_record r;
	char why[512], *body;
	size_t len;
	int ret = 1;

	if (argc < 4) {
		fprintf(stderr, "usage: %s SYSFS_ROOT ADDR=IFNAME,... EVENT...\n", argv[0]);
		return 2;
	}
	queues.nr_functions = queues.nr_vectors = parse_nics(argv[2], functions, vectors);
	if (serve_events_prepare(&se, argv + 3, argc - 3, argv[1], &queues, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	print_counters(&se);
	if (metric_store_init(&store, 1000))
		goto out;
	rec.counters = se.described;
	rec.nr_counters = se.nr;
	while (read_interval(&se, &r))
		serve_records_add(&rec, &r, sizeof(r));
	if (!exposition_render(&store, false, &body, &len)) {
		fwrite(body, 1, len, stdout);
		free(body);
		ret = 0;
	}
	metric_store_release(&store);
out:
	serve_events_release(&se);
	return ret;
}
