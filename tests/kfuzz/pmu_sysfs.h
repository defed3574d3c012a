/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer's view of netpmu's PMUs, read from their sysfs directories:
 * perf type, format fields, events, counting CPU, BDF range and, for the
 * HNS3 PMU, each event's filter modes. Also the machine's PCI functions and
 * CPUs, which the fuzzer draws values from and the rules are checked with.
 */
#ifndef PMU_SYSFS_H
#define PMU_SYSFS_H

#include <stdbool.h>
#include <stdint.h>

#define PMU_MAX_FIELDS		16
#define PMU_MAX_RANGES		4
#define PMU_MAX_EVENTS		160
#define PMU_MAX			16
#define PCI_MAX_FUNCS		256

enum pmu_kind { PMU_HNS3, PMU_PCIE };

/* The HNS3 filter modes, bits in the order of filtermode/ (upstream's rule order). */
enum hns3_filter_mode {
	HNS3_MODE_GLOBAL = 1 << 0,
	HNS3_MODE_PORT = 1 << 1,
	HNS3_MODE_PORT_TC = 1 << 2,
	HNS3_MODE_FUNC = 1 << 3,
	HNS3_MODE_FUNC_QUEUE = 1 << 4,
	HNS3_MODE_FUNC_INTR = 1 << 5,
};

/* One format/ file: "configN:lo-hi[,lo-hi...]", low bits first. */
struct pmu_field {
	char name[32];
	int word;		/* 0: config, 1: config1, 2: config2, 3: config3 */
	int nr_ranges;
	struct { int lo, hi; } ranges[PMU_MAX_RANGES];
	int width;
};

struct pmu_event {
	char name[64];
	uint64_t config;
	unsigned int filter_modes;	/* HNS3 only */
};

struct fuzz_pmu {
	char name[64];
	enum pmu_kind kind;
	uint32_t type;
	int counting_cpu;
	uint32_t bdf_min, bdf_max;	/* HNS3 only */
	int nr_fields;
	struct pmu_field fields[PMU_MAX_FIELDS];
	int nr_events;
	struct pmu_event events[PMU_MAX_EVENTS];
};

struct fuzz_machine {
	int nr_pmus;
	struct fuzz_pmu pmus[PMU_MAX];
	int nr_online;
	int online[64];
	int nr_possible;		/* highest possible CPU + 1 */
	int nr_funcs;
	uint32_t funcs[PCI_MAX_FUNCS];	/* bus << 8 | devfn, any domain */
};

/* Fills m from /sys; 0, or -1 with one line on stderr. */
int machine_discover(struct fuzz_machine *m);

const struct pmu_field *pmu_field(const struct fuzz_pmu *pmu, const char *name);
uint64_t pmu_field_get(const struct pmu_field *f, const uint64_t words[4]);
void pmu_field_put(const struct pmu_field *f, uint64_t words[4], uint64_t value);
const struct pmu_event *pmu_event_by_config(const struct fuzz_pmu *pmu, uint64_t config);
bool machine_has_func(const struct fuzz_machine *m, uint32_t bdf);

#endif
