// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregations printed as bpftrace prints its maps: each map sorted as
 * bpftrace sorts it (by value; averages and stats by their integer average,
 * histograms by their count), ties by key, so that the same records always
 * print the same.
 */
#include "trace/aggregation.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* bpftrace's bar: 52 '@' for the largest bucket. */
#define BAR_WIDTH 52

/* qsort() has no context argument: the map being sorted. */
static const struct agg_map *sorting;

static uint64_t sort_value(const struct agg_map *m, const struct agg_group *g)
{
	switch (m->func) {
	case AGG_SUM:
		return g->sum;
	case AGG_MIN:
		return g->min;
	case AGG_MAX:
		return g->max;
	case AGG_AVG:
	case AGG_STATS:
		return g->count ? (int64_t)g->sum / (int64_t)g->count : 0;
	default:
		return g->count;
	}
}

static int compare_keys(const struct agg_map *m, const struct agg_group *a, const struct agg_group *b)
{
	unsigned int k;
	int c;

	for (k = 0; k < m->nr_keys; k++) {
		if (m->keys[k].kind == REF_DEV)
			c = strcmp(a->keys[k].dev, b->keys[k].dev);
		else
			c = (a->keys[k].number > b->keys[k].number) - (a->keys[k].number < b->keys[k].number);
		if (c)
			return c;
	}
	return 0;
}

static int compare_groups(const void *x, const void *y)
{
	const struct agg_group *a = x, *b = y;
	int64_t va = sort_value(sorting, a), vb = sort_value(sorting, b);

	if (sorting->func != AGG_COUNT && sorting->func != AGG_HIST && sorting->func != AGG_LHIST) {
		if (va != vb)
			return va < vb ? -1 : 1;
	} else if ((uint64_t)va != (uint64_t)vb) {
		return (uint64_t)va < (uint64_t)vb ? -1 : 1;
	}
	return compare_keys(sorting, a, b);
}

static void sort_map(struct agg_map *m)
{
	sorting = m;
	if (m->nr_groups > 1)
		qsort(m->groups, m->nr_groups, sizeof(*m->groups), compare_groups);
	m->last_hit = 0;
}

/* "[eth0, 1]" (text) or "eth0,1" (JSON's key); "" without keys. */
static void key_text(const struct agg_map *m, const struct agg_group *g, bool json, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int k;

	buf[0] = '\0';
	for (k = 0; k < m->nr_keys && used < len; k++) {
		const char *sep = !k ? (json ? "" : "[") : json ? "," : ", ";

		if (m->keys[k].kind == REF_DEV)
			used += snprintf(buf + used, len - used, "%s%s", sep, g->keys[k].dev);
		else
			used += snprintf(buf + used, len - used, "%s%" PRId64, sep, g->keys[k].number);
	}
	if (m->nr_keys && !json && used < len)
		snprintf(buf + used, len - used, "]");
}

/* bpftrace's hist() labels: 1, 2, ..., 512, 1K, ..., 512K, 1M, ..., 1G, 1T, 1024T, ... */
static void hist_label(unsigned int power, char *buf, size_t len)
{
	static const char suffixes[] = "KMGT";
	unsigned int s = 0;

	while (power >= 10 && s < 4) {
		power -= 10;
		s++;
	}
	if (s)
		snprintf(buf, len, "%" PRIu64 "%c", (uint64_t)1 << power, suffixes[s - 1]);
	else
		snprintf(buf, len, "%" PRIu64, (uint64_t)1 << power);
}

/* bpftrace's lhist() labels: 0, a multiple of 1M as NM, of 1K as NK, else the number. */
static void lhist_label(int64_t n, char *buf, size_t len)
{
	if (n && !(n % 1048576))
		snprintf(buf, len, "%" PRId64 "M", n / 1048576);
	else if (n && !(n % 1024))
		snprintf(buf, len, "%" PRId64 "K", n / 1024);
	else
		snprintf(buf, len, "%" PRId64, n);
}

static void bucket_label(const struct agg_map *m, unsigned int b, char *buf, size_t len)
{
	char lo[32], hi[32];

	if (m->func == AGG_HIST) {
		if (b == 0) {
			snprintf(buf, len, "(..., 0)");
		} else if (b <= 2) {
			snprintf(buf, len, "[%u]", b - 1);
		} else {
			hist_label(b - 2, lo, sizeof(lo));
			hist_label(b - 1, hi, sizeof(hi));
			snprintf(buf, len, "[%s, %s)", lo, hi);
		}
		return;
	}
	if (b == 0) {
		lhist_label(m->lhist_min, lo, sizeof(lo));
		snprintf(buf, len, "(..., %s)", lo);
	} else if (b == m->nr_buckets - 1) {
		lhist_label(m->lhist_max, lo, sizeof(lo));
		snprintf(buf, len, "[%s, ...)", lo);
	} else {
		lhist_label(m->lhist_min + (int64_t)(b - 1) * m->lhist_step, lo, sizeof(lo));
		lhist_label(m->lhist_min + (int64_t)b * m->lhist_step, hi, sizeof(hi));
		snprintf(buf, len, "[%s, %s)", lo, hi);
	}
}

/* The first and last non-empty buckets; false if all are empty. */
static bool bucket_range(const struct agg_map *m, const struct agg_group *g, unsigned int *first,
			 unsigned int *last, uint64_t *most)
{
	unsigned int b;
	bool any = false;

	*most = 0;
	for (b = 0; g && b < m->nr_buckets; b++) {
		if (!g->buckets[b])
			continue;
		if (!any)
			*first = b;
		any = true;
		*last = b;
		if (g->buckets[b] > *most)
			*most = g->buckets[b];
	}
	return any;
}

static void print_buckets(const struct agg_map *m, const struct agg_group *g, FILE *out)
{
	unsigned int first, last, b;
	uint64_t most;
	char label[80];

	if (!bucket_range(m, g, &first, &last, &most))
		return;
	for (b = first; b <= last; b++) {
		int bar = (int)((float)g->buckets[b] / (float)most * BAR_WIDTH);

		bucket_label(m, b, label, sizeof(label));
		fprintf(out, "%-16s%8" PRIu64 " |%.*s%*s|\n", label, g->buckets[b], bar,
			"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", BAR_WIDTH - bar, "");
	}
}

static int64_t average(const struct agg_group *g)
{
	return g->count ? g->sum / (int64_t)g->count : 0;
}

static void print_value_text(const struct agg_map *m, const struct agg_group *g, FILE *out)
{
	static const struct agg_group none;

	g = g ? g : &none;
	switch (m->func) {
	case AGG_COUNT:
		fprintf(out, "%" PRIu64, g->count);
		break;
	case AGG_SUM:
		fprintf(out, "%" PRId64, g->sum);
		break;
	case AGG_AVG:
		fprintf(out, "%" PRId64, average(g));
		break;
	case AGG_MIN:
		fprintf(out, "%" PRId64, g->min);
		break;
	case AGG_MAX:
		fprintf(out, "%" PRId64, g->max);
		break;
	default:
		fprintf(out, "count %" PRIu64 ", average %" PRId64 ", total %" PRId64, g->count, average(g),
			g->sum);
	}
}

static bool is_hist(const struct agg_map *m)
{
	return m->func == AGG_HIST || m->func == AGG_LHIST;
}

static void print_map_text(struct agg_map *m, FILE *out)
{
	char key[256];
	size_t i;

	sort_map(m);
	/* A map without keys has its one value even with no record: 0, an empty histogram. */
	if (!m->nr_keys && !m->nr_groups) {
		fprintf(out, "%s:%s", m->name, is_hist(m) ? "\n" : " ");
		if (!is_hist(m))
			print_value_text(m, NULL, out);
		fprintf(out, "\n\n");
	}
	for (i = 0; i < m->nr_groups; i++) {
		key_text(m, &m->groups[i], false, key, sizeof(key));
		if (is_hist(m)) {
			fprintf(out, "%s%s:\n", m->name, key);
			print_buckets(m, &m->groups[i], out);
			fputc('\n', out);
			continue;
		}
		fprintf(out, "%s%s: ", m->name, key);
		print_value_text(m, &m->groups[i], out);
		fputc('\n', out);
	}
	if (m->nr_groups && !is_hist(m))
		fputc('\n', out);
	if (m->left_out)
		fprintf(out, "(%s: %" PRIu64 " records left out: more than %d keys, or out of memory)\n\n",
			m->name, m->left_out, AGG_MAX_GROUPS);
}

void aggregations_print_text(struct aggregations *a, FILE *out)
{
	unsigned int i;

	for (i = 0; i < a->nr_maps; i++)
		print_map_text(&a->maps[i], out);
}

static void json_quoted(const char *s, FILE *out)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* bpftrace's JSON buckets: {"min": LO, "max": HI, "count": N}, open ends without min or max. */
static void print_buckets_json(const struct agg_map *m, const struct agg_group *g, FILE *out)
{
	unsigned int first, last, b;
	uint64_t most;

	fputc('[', out);
	if (bucket_range(m, g, &first, &last, &most)) {
		for (b = first; b <= last; b++) {
			fprintf(out, "%s{", b > first ? ", " : "");
			if (m->func == AGG_HIST) {
				if (b == 0)
					fprintf(out, "\"max\": -1, ");
				else if (b <= 2)
					fprintf(out, "\"min\": %u, \"max\": %u, ", b - 1, b - 1);
				else
					fprintf(out, "\"min\": %" PRIu64 ", \"max\": %" PRIu64 ", ",
						(uint64_t)1 << (b - 2), ((uint64_t)1 << (b - 1)) - 1);
			} else if (b == 0) {
				fprintf(out, "\"max\": %" PRId64 ", ", m->lhist_min - 1);
			} else if (b == m->nr_buckets - 1) {
				fprintf(out, "\"min\": %" PRId64 ", ", m->lhist_max);
			} else {
				fprintf(out, "\"min\": %" PRId64 ", \"max\": %" PRId64 ", ",
					m->lhist_min + (int64_t)(b - 1) * m->lhist_step,
					m->lhist_min + (int64_t)b * m->lhist_step - 1);
			}
			fprintf(out, "\"count\": %" PRIu64 "}", g->buckets[b]);
		}
	}
	fputc(']', out);
}

static void print_value_json(const struct agg_map *m, const struct agg_group *g, FILE *out)
{
	static const struct agg_group none;

	if (is_hist(m))
		return print_buckets_json(m, g, out);
	g = g ? g : &none;
	if (m->func == AGG_STATS)
		fprintf(out, "{\"count\": %" PRIu64 ", \"average\": %" PRId64 ", \"total\": %" PRId64 "}",
			g->count, average(g), g->sum);
	else
		print_value_text(m, g, out);
}

/* bpftrace's message type: hist and lhist "hist", avg and stats "stats", the others "map". */
static const char *json_type(const struct agg_map *m)
{
	return is_hist(m) ? "hist" : m->func == AGG_AVG || m->func == AGG_STATS ? "stats" : "map";
}

static void print_map_json(struct agg_map *m, FILE *out)
{
	char key[256];
	size_t i;

	sort_map(m);
	fprintf(out, "{\"type\": \"%s\", \"data\": {", json_type(m));
	json_quoted(m->name, out);
	fprintf(out, ": ");
	if (!m->nr_keys) {
		print_value_json(m, m->nr_groups ? &m->groups[0] : NULL, out);
	} else {
		fputc('{', out);
		for (i = 0; i < m->nr_groups; i++) {
			key_text(m, &m->groups[i], true, key, sizeof(key));
			if (i)
				fprintf(out, ", ");
			json_quoted(key, out);
			fprintf(out, ": ");
			print_value_json(m, &m->groups[i], out);
		}
		fputc('}', out);
	}
	fprintf(out, "}}\n");
	if (m->left_out)
		fprintf(out, "{\"type\": \"left_out\", \"data\": {\"map\": \"%s\", \"records\": %" PRIu64 "}}\n",
			m->name + 1, m->left_out);
}

void aggregations_print_json(struct aggregations *a, FILE *out)
{
	unsigned int i;

	for (i = 0; i < a->nr_maps; i++)
		print_map_json(&a->maps[i], out);
}
