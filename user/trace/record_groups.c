// SPDX-License-Identifier: GPL-2.0
#include "trace/record_groups.h"
#include "lib/why_line.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Fields that add up over records; the others identify a record. */
static const char *const additive_fields[] = {
	"work", "polls", "packets", "budget_exhausted", "poll_ns", "irqs", "irq_ns",
	"net_rx", "net_rx_ns", "net_tx", "net_tx_ns",
};
#define NR_ADDITIVE (sizeof(additive_fields) / sizeof(additive_fields[0]))

struct record_group {
	char key[NETPMU_IFNAMSIZ + 8];
	uint64_t records;
	int64_t sums[NR_ADDITIVE];
	bool seen[NR_ADDITIVE];
	uint64_t counter_sums[NETPMU_MAX_COUNTERS];
};

struct record_groups {
	char key[16];
	struct record_group *groups;
	size_t nr_groups;
	bool out_of_memory;
};

struct record_groups *record_groups_new(const char *key, char *why, size_t why_len)
{
	struct record_groups *g;

	if (strcmp(key, "queue") && strcmp(key, "cpu") && strcmp(key, "irq") && strcmp(key, "dev")) {
		why_fail(why, why_len, "--by: '%s' is not a key (valid: queue, cpu, irq, dev)", key);
		return NULL;
	}
	g = calloc(1, sizeof(*g));
	if (!g) {
		why_fail(why, why_len, "out of memory");
		return NULL;
	}
	snprintf(g->key, sizeof(g->key), "%s", key);
	return g;
}

static struct record_group *find_group(struct record_groups *g, const char *key)
{
	struct record_group *grown;
	size_t i;

	for (i = 0; i < g->nr_groups; i++)
		if (!strcmp(g->groups[i].key, key))
			return &g->groups[i];
	grown = realloc(g->groups, (g->nr_groups + 1) * sizeof(*grown));
	if (!grown) {
		g->out_of_memory = true;
		return NULL;
	}
	g->groups = grown;
	memset(&grown[g->nr_groups], 0, sizeof(*grown));
	snprintf(grown[g->nr_groups].key, sizeof(grown->key), "%s", key);
	return &grown[g->nr_groups++];
}

void record_groups_add(struct record_groups *g, const struct record_view *v)
{
	const struct record_field *field;
	struct record_group *group;
	char key[sizeof(group->key)];
	unsigned int i;

	if (!strcmp(g->key, "dev")) {
		if (!v->dev)
			return;
		snprintf(key, sizeof(key), "%s", v->dev[0] ? v->dev : "-");
	} else {
		field = record_view_field(v, g->key);
		if (!field)
			return;
		snprintf(key, sizeof(key), "%" PRId64, field->value);
	}
	group = find_group(g, key);
	if (!group)
		return;
	group->records++;
	for (i = 0; i < NR_ADDITIVE; i++) {
		field = record_view_field(v, additive_fields[i]);
		if (field) {
			group->sums[i] += field->value;
			group->seen[i] = true;
		}
	}
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++)
		if ((v->counter_mask & (1u << i)) && v->deltas && !v->deltas[i].err)
			group->counter_sums[i] += v->deltas[i].delta;
}

void record_groups_print(const struct record_groups *g, FILE *out, const char *const *counter_names,
			 unsigned int nr_counters)
{
	size_t n, i;

	if (g->out_of_memory)
		fprintf(out, "(out of memory: some groups are missing)\n");
	for (n = 0; n < g->nr_groups; n++) {
		const struct record_group *group = &g->groups[n];

		fprintf(out, "%s=%s records=%" PRIu64, g->key, group->key, group->records);
		for (i = 0; i < NR_ADDITIVE; i++)
			if (group->seen[i])
				fprintf(out, " %s=%" PRId64, additive_fields[i], group->sums[i]);
		for (i = 0; i < nr_counters; i++)
			if (group->counter_sums[i])
				fprintf(out, " +%s=%" PRIu64, counter_names[i], group->counter_sums[i]);
		fputc('\n', out);
	}
}

void record_groups_free(struct record_groups *g)
{
	if (g)
		free(g->groups);
	free(g);
}
