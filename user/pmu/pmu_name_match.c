// SPDX-License-Identifier: GPL-2.0
/* perf's rule for the PMUs a PMU name in an event string stands for. */
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

#include "pmu/pmu_name_match.h"

/* perf_pmu__match_ignoring_suffix(): WRITTEN, then nothing or [_]HEXDIGITS. */
static bool matches_ignoring_suffix(const char *pmu_name, const char *written)
{
	size_t len = strlen(written);
	const char *suffix, *p;
	bool has_hex = false;

	if (strncmp(pmu_name, written, len))
		return false;
	p = pmu_name + len;
	if (!*p)
		return true;
	if (*p == '_')
		p++;
	suffix = p;
	if (!*p)
		return false;
	for (; *p; p++) {
		if (!isxdigit((unsigned char)*p))
			return false;
		has_hex |= !isdigit((unsigned char)*p);
	}
	return !has_hex || p - suffix > 2;
}

bool pmu_name_matches(const char *pmu_name, const char *written)
{
	return matches_ignoring_suffix(pmu_name, written) ||
	       (strchr(written, '*') && !fnmatch(written, pmu_name, 0));
}

size_t pmu_set_resolve(const struct pmu_set *set, const char *written, const struct pmu **out,
		       bool *merged)
{
	const struct pmu *exact = pmu_set_find(set, written);
	size_t n = 0;

	*merged = !exact;
	if (exact) {
		out[0] = exact;
		return 1;
	}
	for (size_t i = 0; i < set->nr_pmus; i++) {
		if (pmu_name_matches(set->pmus[i].name, written))
			out[n++] = &set->pmus[i];
	}
	return n;
}
