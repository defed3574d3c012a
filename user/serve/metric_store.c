// SPDX-License-Identifier: GPL-2.0
/* netpmu serve's series: a hash of (family, labels) -> 64-bit totals. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "serve/metric_store.h"

/* Buckets per series allowed: a short chain at the cap. */
#define BUCKETS_PER_SERIES 2
#define MIN_BUCKETS 1024

void metric_store_release(struct metric_store *st)
{
	for (int f = 0; f < FAM_NR; f++) {
		struct metric_series *s = st->first[f], *next;

		for (; s; s = next) {
			next = s->next_in_family;
			free(s);
		}
	}
	free(st->buckets);
	pthread_mutex_destroy(&st->lock);
	memset(st, 0, sizeof(*st));
}

void metric_store_set_limit(struct metric_store *st, unsigned long max_series)
{
	metric_store_lock(st);
	st->max_series = max_series;
	metric_store_unlock(st);
}

int metric_labels_add(char *buf, size_t len, const char *name, const char *value)
{
	size_t at = strlen(buf);
	int n = snprintf(buf + at, len - at, "%s%s=\"", at ? "," : "", name);

	if (n < 0 || (size_t)n >= len - at)
		return -1;
	at += n;
	for (; *value; value++) {
		const char *esc = *value == '\\' ? "\\\\" : *value == '"' ? "\\\"" : *value == '\n' ? "\\n" : NULL;
		size_t need = esc ? 2 : 1;

		if (at + need + 2 > len)
			return -1;
		if (esc) {
			memcpy(buf + at, esc, 2);
		} else {
			buf[at] = *value;
		}
		at += need;
	}
	buf[at++] = '"';
	buf[at] = '\0';
	return 0;
}

void metric_store_lock(struct metric_store *st)
{
	pthread_mutex_lock(&st->lock);
}

void metric_store_unlock(struct metric_store *st)
{
	pthread_mutex_unlock(&st->lock);
}

static size_t hash_of(enum metric_family_id fam, const char *labels)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)fam;	/* FNV-1a */

	for (; *labels; labels++)
		h = (h ^ (unsigned char)*labels) * 1099511628211ULL;
	return h;
}

static struct metric_series *series_new(struct metric_store *st, enum metric_family_id fam, const char *labels,
				       size_t b)
{
	size_t len = strlen(labels) + 1;
	struct metric_series *s = calloc(1, sizeof(*s) + len);

	if (!s)
		return NULL;
	s->family = fam;
	memcpy(s->labels, labels, len);
	s->next_in_bucket = st->buckets[b];
	st->buckets[b] = s;
	if (st->last[fam])
		st->last[fam]->next_in_family = s;
	else
		st->first[fam] = s;
	st->last[fam] = s;
	return s;
}

/* The series of (FAM, LABELS), created if the cap allows; NULL if not. */
static struct metric_series *series_of(struct metric_store *st, enum metric_family_id fam, const char *labels)
{
	size_t b = hash_of(fam, labels) & (st->nr_buckets - 1);
	struct metric_series *s;

	for (s = st->buckets[b]; s; s = s->next_in_bucket)
		if (s->family == fam && !strcmp(s->labels, labels))
			return s;
	s = st->nr_series < st->max_series ? series_new(st, fam, labels, b) : NULL;
	if (!s) {
		st->dropped->value++;
		return NULL;
	}
	st->nr_series++;
	st->series_gauge->gauge = st->nr_series;
	return s;
}

int metric_store_init(struct metric_store *st, unsigned long max_series)
{
	size_t n = MIN_BUCKETS;

	memset(st, 0, sizeof(*st));
	while (n < max_series * BUCKETS_PER_SERIES && n < (1UL << 24))
		n <<= 1;
	st->buckets = calloc(n, sizeof(*st->buckets));
	if (!st->buckets)
		return -ENOMEM;
	st->nr_buckets = n;
	st->max_series = max_series;
	pthread_mutex_init(&st->lock, NULL);
	st->dropped = series_new(st, FAM_SERIES_DROPPED, "", hash_of(FAM_SERIES_DROPPED, "") & (n - 1));
	st->series_gauge = series_new(st, FAM_SERIES, "", hash_of(FAM_SERIES, "") & (n - 1));
	if (!st->dropped || !st->series_gauge) {
		metric_store_release(st);
		return -ENOMEM;
	}
	return 0;
}

void metric_counter_add(struct metric_store *st, enum metric_family_id fam, const char *labels, uint64_t delta)
{
	struct metric_series *s = series_of(st, fam, labels);

	if (s)
		s->value += delta;
}

void metric_summary_add(struct metric_store *st, enum metric_family_id fam, const char *labels,
			double scale, uint64_t sum, uint64_t count)
{
	struct metric_series *s = series_of(st, fam, labels);

	if (!s)
		return;
	s->scale = scale;
	s->value += sum;
	s->count += count;
}

void metric_gauge_set(struct metric_store *st, enum metric_family_id fam, const char *labels, double value)
{
	struct metric_series *s = series_of(st, fam, labels);

	if (s)
		s->gauge = value;
}
