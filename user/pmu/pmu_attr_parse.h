/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for the values of PMU sysfs attributes: numbers, cpumask (both the
 * "%d" and the cpulist forms), HNS3 filter modes and event alias terms ("config=0x10002").
 * Each returns 0, -ENOMEM, or -EINVAL with *why set to a static reason.
 */
#ifndef NETPMU_PMU_ATTR_PARSE_H
#define NETPMU_PMU_ATTR_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/parse_number.h"
#include "sys/pci_address.h"

/*
 * cpumask content: "%d" ("0", or "-1" for "no CPU yet") or a cpulist
 * ("12", "0-3,8", or empty). *first_cpu is the lowest CPU or -1 if none,
 * *nr_cpus the number of CPUs listed.
 */
int parse_cpumask(const char *s, int *first_cpu, unsigned int *nr_cpus,
		  const char **why);

/* HNS3 filter modes; the values are the hardware mode codes and mask bits. */
enum hns3_filter_mode {
	HNS3_FILTER_GLOBAL,
	HNS3_FILTER_PORT,
	HNS3_FILTER_PORT_TC,
	HNS3_FILTER_FUNC,
	HNS3_FILTER_FUNC_QUEUE,
	HNS3_FILTER_FUNC_INTR,
	HNS3_FILTER_NR_MODES,
};
#define HNS3_FILTER_BIT(mode) (1u << (mode))

/* "global", "port", "port-tc", "func", "func-queue", "func-intr". */
const char *hns3_filter_mode_name(enum hns3_filter_mode mode);

/*
 * filtermode/<event> content: "filter mode supported: " then mode names each
 * followed by a space (current driver) or a slash (early driver/doc).
 * *modes is a mask of HNS3_FILTER_BIT().
 */
int parse_hns3_filter_modes(const char *s, unsigned int *modes,
			    const char **why);

/* One term of an event alias: "config=0x10002" or a bare flag "edge". */
struct pmu_event_term {
	char *name;
	char *value;		/* as written; NULL for a bare flag */
	bool numeric;		/* value parsed as a number (bare flag: 1) */
	uint64_t number;
};

/* events/<event> content: comma-separated terms. */
int parse_event_terms(const char *s, struct pmu_event_term **terms,
		      size_t *nr_terms, const char **why);

void free_event_terms(struct pmu_event_term *terms, size_t nr_terms);

#endif
