// SPDX-License-Identifier: GPL-2.0
/* Parsers for the values of PMU sysfs attributes. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/pmu_attr_parse.h"

/* Parses a decimal CPU number at *p (at most INT_MAX) and advances *p. */
static int parse_cpu_number(const char **p, unsigned int *cpu)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return -ERANGE;
		s++;
	}
	*cpu = v;
	*p = s;
	return 0;
}

int parse_cpumask(const char *s, int *first_cpu, unsigned int *nr_cpus,
		  const char **why)
{
	unsigned int first = UINT_MAX, count = 0;
	const char *p = s;

	if (!strcmp(s, "-1") || *s == '\0') {
		*first_cpu = -1;
		*nr_cpus = 0;
		return 0;
	}
	for (;;) {
		unsigned int lo, hi;
		int err = parse_cpu_number(&p, &lo);

		hi = lo;
		if (!err && *p == '-') {
			p++;
			err = parse_cpu_number(&p, &hi);
		}
		if (err) {
			*why = err == -ERANGE ? "CPU number too large"
					      : "expected a CPU number or a cpulist such as 0-3,8";
			return -EINVAL;
		}
		if (hi < lo) {
			*why = "CPU range ends below its start";
			return -EINVAL;
		}
		if (lo < first)
			first = lo;
		count += hi - lo + 1;
		if (*p == '\0')
			break;
		if (*p != ',') {
			*why = "expected a CPU number or a cpulist such as 0-3,8";
			return -EINVAL;
		}
		p++;
	}
	*first_cpu = first;
	*nr_cpus = count;
	return 0;
}

static const char *const hns3_filter_mode_names[HNS3_FILTER_NR_MODES] = {
	[HNS3_FILTER_GLOBAL] = "global",
	[HNS3_FILTER_PORT] = "port",
	[HNS3_FILTER_PORT_TC] = "port-tc",
	[HNS3_FILTER_FUNC] = "func",
	[HNS3_FILTER_FUNC_QUEUE] = "func-queue",
	[HNS3_FILTER_FUNC_INTR] = "func-intr",
};

const char *hns3_filter_mode_name(enum hns3_filter_mode mode)
{
	return mode < HNS3_FILTER_NR_MODES ? hns3_filter_mode_names[mode] : "?";
}

#define FILTER_MODE_PREFIX "filter mode supported: "

int parse_hns3_filter_modes(const char *s, unsigned int *modes,
			    const char **why)
{
	const char *p = s + strlen(FILTER_MODE_PREFIX);
	unsigned int mask = 0;

	if (strncmp(s, FILTER_MODE_PREFIX, strlen(FILTER_MODE_PREFIX))) {
		*why = "expected \"" FILTER_MODE_PREFIX "\" then mode names";
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, " /");
		enum hns3_filter_mode m;

		if (len == 0) {
			*why = "empty filter mode name";
			return -EINVAL;
		}
		for (m = 0; m < HNS3_FILTER_NR_MODES; m++) {
			if (strlen(hns3_filter_mode_names[m]) == len &&
			    !strncmp(p, hns3_filter_mode_names[m], len))
				break;
		}
		if (m == HNS3_FILTER_NR_MODES) {
			*why = "unknown filter mode (valid: global, port, port-tc, func, func-queue, func-intr)";
			return -EINVAL;
		}
		mask |= HNS3_FILTER_BIT(m);
		p += len;
		if (*p == '\0')
			break;	/* the early form may omit the final separator */
		p++;
	}
	*modes = mask;
	return 0;
}

void free_event_terms(struct pmu_event_term *terms, size_t nr_terms)
{
	for (size_t i = 0; i < nr_terms; i++) {
		free(terms[i].name);
		free(terms[i].value);
	}
	free(terms);
}

static int parse_one_term(const char *s, size_t len, struct pmu_event_term *t,
			  const char **why)
{
	const char *eq;
	size_t name_len;

	/* Some drivers write "event=0x0, umask=0x3". */
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	eq = memchr(s, '=', len);
	name_len = eq ? (size_t)(eq - s) : len;

	if (name_len == 0) {
		*why = "empty term name";
		return -EINVAL;
	}
	for (size_t i = 0; i < name_len; i++) {
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-') {
			*why = "term name with a character other than letters, digits, _ and -";
			return -EINVAL;
		}
	}
	t->name = strndup(s, name_len);
	if (!t->name)
		return -ENOMEM;
	if (!eq) {
		t->numeric = true;
		t->number = 1;
		return 0;
	}
	t->value = strndup(eq + 1, len - name_len - 1);
	if (!t->value)
		return -ENOMEM;
	if (t->value[0] == '\0') {
		*why = "term with an empty value";
		return -EINVAL;
	}
	t->numeric = !parse_u64(t->value, &t->number, why);
	return 0;
}

int parse_event_terms(const char *s, struct pmu_event_term **terms,
		      size_t *nr_terms, const char **why)
{
	struct pmu_event_term *list = NULL;
	size_t nr = 0;
	int err;

	*terms = NULL;
	*nr_terms = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		struct pmu_event_term *grown;

		grown = realloc(list, (nr + 1) * sizeof(*list));
		if (!grown) {
			err = -ENOMEM;
			goto fail;
		}
		list = grown;
		memset(&list[nr], 0, sizeof(list[nr]));
		nr++;
		err = parse_one_term(s, len, &list[nr - 1], why);
		if (err)
			goto fail;
		s += len;
		if (*s == '\0')
			break;
		s++;
	}
	*terms = list;
	*nr_terms = nr;
	return 0;
fail:
	free_event_terms(list, nr);
	return err;
}
