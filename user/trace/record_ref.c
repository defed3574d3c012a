// SPDX-License-Identifier: GPL-2.0
#include "trace/record_ref.h"

#include <stdio.h>
#include <string.h>

#include "lib/why_line.h"

/* The kinds a counter or a core event shows in. */
#define COUNTER_KINDS ((1u << NETPMU_RECORD_POLL) | (1u << NETPMU_RECORD_QUEUE) | \
		       (1u << NETPMU_RECORD_COUNTERS))
#define CORE_KINDS ((1u << NETPMU_RECORD_POLL) | (1u << NETPMU_RECORD_QUEUE) | (1u << NETPMU_RECORD_CORE))

/* "pmu/EVENT,term=v/" -> EVENT matches NAME; a core event's text is matched whole. */
static bool event_part_is(const char *text, const char *name)
{
	const char *slash = strchr(text, '/');
	size_t len;

	if (!slash)
		return false;
	slash++;
	len = strcspn(slash, ",/");
	return len == strlen(name) && !strncmp(slash, name, len);
}

static int find_counter(const struct record_names *names, const char *name, int *found,
			char *why, size_t why_len)
{
	unsigned int i, matches = 0;

	*found = -1;
	for (i = 0; i < names->nr_counters; i++)
		if (!strcmp(names->counters[i], name)) {
			*found = i;
			return 0;
		}
	for (i = 0; i < names->nr_counters; i++)
		if (event_part_is(names->counters[i], name)) {
			matches++;
			*found = i;
		}
	if (matches > 1)
		return why_fail(why, why_len, "'%s' names %u counters: give one's -e text in full "
				"in double quotes", name, matches);
	return 0;
}

static void kinds_list(uint32_t kinds, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = NETPMU_RECORD_POLL; k <= NETPMU_RECORD_CORE; k++)
		if (kinds & (1u << k))
			used += snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? ", " : "", record_kind_name(k));
}

static int check_kinds(const struct record_names *names, const char *name, uint32_t kinds,
		       char *why, size_t why_len)
{
	char have[64], run[64];

	if (kinds & names->kinds)
		return 0;
	kinds_list(kinds, have, sizeof(have));
	kinds_list(names->kinds, run, sizeof(run));
	return why_fail(why, why_len, "%s is a field of %s records, and this run's are %s%s%s",
			name, have, run, names->kinds_hint ? ": " : "",
			names->kinds_hint ? names->kinds_hint : "");
}

static int unknown(const struct record_names *names, const char *name, char *why, size_t why_len)
{
	return why_fail(why, why_len, "unknown field '%s' (valid: dev, %s%s)", name, record_field_names(),
			names->events_pending || names->nr_counters + names->nr_core ? ", or an -e event" : "");
}

int record_ref_resolve(const struct record_names *names, const char *name, struct record_ref *ref,
		       char *why, size_t why_len)
{
	uint32_t kinds = record_field_kinds(name);

	memset(ref, 0, sizeof(*ref));
	if (strlen(name) >= sizeof(ref->name))
		return unknown(names, name, why, why_len);
	snprintf(ref->name, sizeof(ref->name), "%s", name);
	if (kinds) {
		ref->kind = strcmp(name, "dev") ? REF_FIELD : REF_DEV;
		return check_kinds(names, name, kinds, why, why_len);
	}
	ref->kind = REF_EVENT;
	if (names->events_pending)
		return 0;
	return record_ref_bind(names, ref, why, why_len);
}

int record_ref_bind(const struct record_names *names, struct record_ref *ref, char *why, size_t why_len)
{
	unsigned int i;
	int counter;

	if (ref->kind != REF_EVENT)
		return 0;
	if (find_counter(names, ref->name, &counter, why, why_len))
		return -1;
	if (counter >= 0) {
		ref->kind = REF_COUNTER;
		ref->index = counter;
		return check_kinds(names, ref->name, COUNTER_KINDS, why, why_len);
	}
	for (i = 0; i < names->nr_core; i++) {
		if (!strcmp(names->core[i], ref->name)) {
			ref->kind = REF_CORE;
			ref->index = i;
			return check_kinds(names, ref->name, CORE_KINDS, why, why_len);
		}
	}
	return unknown(names, ref->name, why, why_len);
}

bool record_ref_value(const struct record_ref *ref, const struct record_view *v, int64_t *value)
{
	const struct record_field *f;

	switch (ref->kind) {
	case REF_FIELD:
		f = record_view_field(v, ref->name);
		if (!f)
			return false;
		*value = f->value;
		return true;
	case REF_COUNTER:
		return record_view_counter(v, ref->index, value);
	case REF_CORE:
		return record_view_core(v, ref->index, value);
	case REF_DEV:
	case REF_EVENT:
		break;
	}
	return false;
}
