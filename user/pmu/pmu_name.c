// SPDX-License-Identifier: GPL-2.0
/* The names the HNS3 and PCIe PMU drivers register, and what they encode. */
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include "pmu/pmu_name.h"

const char *pmu_kind_name(enum pmu_kind kind)
{
	return kind == PMU_KIND_HNS3 ? "hns3" : "pcie";
}

/* Parses a run of decimal digits at *p as an unsigned int; advances *p. */
static bool parse_name_number(const char **p, unsigned int *value)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s - '0');
		if (v > UINT_MAX)
			return false;
		s++;
	}
	*value = v;
	*p = s;
	return true;
}

static bool match_prefix(const char **p, const char *prefix)
{
	size_t len = strlen(prefix);

	if (strncmp(*p, prefix, len))
		return false;
	*p += len;
	return true;
}

bool pmu_name_parse(const char *name, struct pmu_name_info *info)
{
	const char *p = name;

	memset(info, 0, sizeof(*info));
	if (match_prefix(&p, "hns3_pmu_")) {
		info->kind = PMU_KIND_HNS3;
		if (match_prefix(&p, "sicl_")) {
			info->naming = PMU_NAMED_BY_SICL;
			return parse_name_number(&p, &info->sicl_id) && !*p;
		}
		info->naming = PMU_NAMED_BY_DEVICE_ID;
		return parse_name_number(&p, &info->device_id) && !*p;
	}
	if (match_prefix(&p, "hisi_pcie")) {
		info->kind = PMU_KIND_PCIE;
		info->naming = PMU_NAMED_BY_SICL_CORE;
		return parse_name_number(&p, &info->sicl_id) &&
		       match_prefix(&p, "_core") &&
		       parse_name_number(&p, &info->core_id) && !*p;
	}
	return false;
}
