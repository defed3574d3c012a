// SPDX-License-Identifier: GPL-2.0
#include "trace/record_query.h"
#include "lib/why_line.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_attr_parse.h"

/* NAME is one whole entry of record_field_names()' "a, b, c" list. */
static bool is_field_name(const char *name)
{
	const char *p = record_field_names();
	size_t len = strlen(name);

	while (len && *p) {
		size_t entry = strcspn(p, ",");

		if (entry == len && !strncmp(p, name, len))
			return true;
		p += entry;
		p += strspn(p, ", ");
	}
	return false;
}

int record_filter_parse(const char *spec, struct record_filter *f, char *why, size_t why_len)
{
	char *copy = strdup(spec), *rest, *term;
	int ret = 0;

	memset(f, 0, sizeof(*f));
	if (!copy)
		return why_fail(why, why_len, "out of memory");
	/* strsep(), not strtok(): an empty term ("", "a=1,,b=2") is a mistake to name. */
	for (rest = copy; (term = strsep(&rest, ","));) {
		char *value = strchr(term, '=');
		const char *reason;
		uint64_t number;
		unsigned int i;

		if (f->nr_terms == RECORD_FILTER_MAX_TERMS) {
			ret = why_fail(why, why_len, "--where: at most %d terms", RECORD_FILTER_MAX_TERMS);
			break;
		}
		if (!value || value == term || !value[1]) {
			ret = why_fail(why, why_len, "--where: '%s' is not FIELD=VALUE (e.g. dev=eth0,queue=0)", term);
			break;
		}
		*value++ = '\0';
		if (strcmp(term, "dev") && !is_field_name(term)) {
			ret = why_fail(why, why_len, "--where: unknown field '%s' (valid: dev, %s)", term,
				   record_field_names());
			break;
		}
		for (i = 0; i < f->nr_terms && strcmp(f->terms[i].field, term); i++)
			;
		if (i < f->nr_terms) {
			ret = why_fail(why, why_len, "--where: %s given twice: no record has two values "
				       "of it; give it once", term);
			break;
		}
		snprintf(f->terms[f->nr_terms].field, sizeof(f->terms[0].field), "%s", term);
		if (!strcmp(term, "dev")) {
			if (strlen(value) >= NETPMU_IFNAMSIZ) {
				ret = why_fail(why, why_len, "--where: device name '%s' is longer than %d characters",
					   value, NETPMU_IFNAMSIZ - 1);
				break;
			}
			snprintf(f->terms[f->nr_terms].dev, NETPMU_IFNAMSIZ, "%s", value);
		} else if (parse_u64(value, &number, &reason)) {
			ret = why_fail(why, why_len, "--where: %s=%s: %s", term, value, reason);
			break;
		} else {
			f->terms[f->nr_terms].value = number;
		}
		f->nr_terms++;
	}
	free(copy);
	return ret;
}

bool record_filter_match(const struct record_filter *f, const struct record_view *v)
{
	unsigned int i;

	for (i = 0; i < f->nr_terms; i++) {
		const struct record_field *field;

		if (!strcmp(f->terms[i].field, "dev")) {
			if (!v->dev || strcmp(v->dev, f->terms[i].dev))
				return false;
			continue;
		}
		field = record_view_field(v, f->terms[i].field);
		if (!field || field->value != f->terms[i].value)
			return false;
	}
	return true;
}

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

/* Bucket 0 holds 0, bucket 1 holds 1, bucket k holds [2^(k-1), 2^k); negatives are counted apart. */
#define HIST_BUCKETS 65

struct record_hist {
	char field[24];
	uint64_t buckets[HIST_BUCKETS];
	uint64_t negative;
};

struct record_hist *record_hist_new(const char *field, char *why, size_t why_len)
{
	struct record_hist *h;

	if (!is_field_name(field)) {
		why_fail(why, why_len, "--hist: unknown field '%s' (valid: %s)", field, record_field_names());
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		why_fail(why, why_len, "out of memory");
		return NULL;
	}
	snprintf(h->field, sizeof(h->field), "%s", field);
	return h;
}

void record_hist_add(struct record_hist *h, const struct record_view *v)
{
	const struct record_field *field = record_view_field(v, h->field);
	uint64_t value;
	unsigned int bucket = 0;

	if (!field)
		return;
	if (field->value < 0) {
		h->negative++;
		return;
	}
	value = field->value;
	while (value) {
		bucket++;
		value >>= 1;
	}
	h->buckets[bucket]++;
}

/* bpftrace's bucket labels: 1023 -> "1023", 1024 -> "1K", 1 << 20 -> "1M". */
static void bound_label(uint64_t n, char *buf, size_t len)
{
	static const char suffixes[] = "KMGTPE";
	unsigned int s = 0;

	while (n >= 1024 && !(n % 1024) && s < sizeof(suffixes) - 1) {
		n /= 1024;
		s++;
	}
	if (s)
		snprintf(buf, len, "%" PRIu64 "%c", n, suffixes[s - 1]);
	else
		snprintf(buf, len, "%" PRIu64, n);
}

void record_hist_print(const struct record_hist *h, FILE *out)
{
	const int width = 52;
	uint64_t max = 0;
	int first = -1, last = -1, b, i;

	for (b = 0; b < HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		if (first < 0)
			first = b;
		last = b;
		if (h->buckets[b] > max)
			max = h->buckets[b];
	}
	fprintf(out, "@%s:\n", h->field);
	if (h->negative)
		fprintf(out, "(%" PRIu64 " negative values not shown)\n", h->negative);
	for (b = first; b >= 0 && b <= last; b++) {
		char label[64], lo[24], hi[24];
		int bar = max ? (int)(h->buckets[b] * width / max) : 0;

		if (b <= 1) {
			snprintf(label, sizeof(label), "[%d]", b);
		} else {
			bound_label(1ull << (b - 1), lo, sizeof(lo));
			if (b < 64)
				bound_label(1ull << b, hi, sizeof(hi));
			else
				snprintf(hi, sizeof(hi), "...");
			snprintf(label, sizeof(label), "[%s, %s)", lo, hi);
		}
		fprintf(out, "%-20s%8" PRIu64 " |", label, h->buckets[b]);
		for (i = 0; i < width; i++)
			fputc(i < bar ? '@' : ' ', out);
		fprintf(out, "|\n");
	}
	fputc('\n', out);
}

void record_hist_free(struct record_hist *h)
{
	free(h);
}
