/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discovery of the HiSilicon HNS3 PMUs (hns3_pmu_sicl_<N>, and the early
 * driver's hns3_pmu_<device_id>) and PCIe PMUs (hisi_pcie<S>_core<C>) under
 * <sysfs root>/bus/event_source/devices, with everything their sysfs
 * directory says: perf type, identifier, counting CPU, BDF range, bus,
 * hardware clock, events, format fields and HNS3 filter modes.
 *
 * Absent files leave their field marked absent; unreadable or malformed files
 * are recorded as problems of the PMU ("<path>: <reason>") and discovery goes
 * on. Only an unreadable devices directory or lack of memory fails it.
 */
#ifndef NETPMU_PMU_DISCOVERY_H
#define NETPMU_PMU_DISCOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/pmu_attr_parse.h"
#include "pmu/pmu_format.h"
#include "pmu/pmu_name.h"

#define PMU_SYSFS_ROOT_DEFAULT "/sys"
#define PMU_DEVICES_SUBDIR "bus/event_source/devices"

struct pmu_event {
	char *name;
	char *spec;			/* events/<name> content, e.g. "config=0x10002" */
	struct pmu_event_term *terms;	/* spec split into terms */
	size_t nr_terms;
	char *filtermode_spec;		/* filtermode/<name> content, NULL if absent */
	unsigned int filter_modes;	/* HNS3_FILTER_BIT() mask ... */
	bool filter_modes_valid;	/* ... valid if the file parsed */
};

struct pmu {
	char *name;
	char *dir;			/* <devices dir>/<name> */
	struct pmu_name_info name_info;

	int type;			/* perf_event_attr.type, -1 if unknown */
	char *identifier;		/* as in the file, NULL if absent */
	char *cpumask;			/* as in the file, NULL if absent */
	int cpu;			/* counting CPU (first of cpumask), -1 if none */
	char *bdf_min_spec, *bdf_max_spec;	/* as in the files, NULL if absent */
	int bdf_min, bdf_max;		/* bus << 8 | dev << 3 | fn, -1 if unknown */
	int bus;			/* PCIe "bus" file, -1 if unknown */
	bool has_hw_clk_freq;		/* HNS3 "hw_clk_freq" file */
	uint64_t hw_clk_freq;		/* Hz of the timer counting "cycles" */

	struct pmu_event *events;	/* sorted by name (strverscmp) */
	size_t nr_events;
	struct pmu_format_field *formats;	/* sorted by name (strverscmp) */
	size_t nr_formats;

	char **problems;		/* "<path>: <reason>" */
	size_t nr_problems;
};

struct pmu_set {
	char *devices_dir;		/* the directory that was scanned */
	struct pmu *pmus;		/* HNS3 first, then PCIe; by name within */
	size_t nr_pmus;
};

/*
 * Scans SYSFS_ROOT (NULL: PMU_SYSFS_ROOT_DEFAULT) + "/" PMU_DEVICES_SUBDIR.
 * Returns 0, or -errno with a one-line message naming the path in ERR.
 * On success release SET with pmu_set_release().
 */
int pmu_discover(const char *sysfs_root, struct pmu_set *set,
		 char *err, size_t err_len);
void pmu_set_release(struct pmu_set *set);

/* Lookups by exact name; NULL if absent. */
const struct pmu *pmu_set_find(const struct pmu_set *set, const char *name);
const struct pmu_event *pmu_find_event(const struct pmu *pmu, const char *name);
const struct pmu_format_field *pmu_find_format(const struct pmu *pmu,
					       const char *name);

/* Value of term NAME of EVENT (e.g. "config"); false if absent or not numeric. */
bool pmu_event_term_value(const struct pmu_event *event, const char *name,
			  uint64_t *value);

#endif
