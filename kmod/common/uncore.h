/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uncore PMU core both PMUs share (as upstream's hisi_uncore_pmu does for
 * the HiSilicon uncore PMUs): one PMU instance's common state, its life
 * (registration, the counting CPU across hotplug), the counter slots and the
 * paths of counting that are the same for both (add, del, read). What
 * differs comes from the PMU's ops table.
 */
#ifndef NETPMU_COMMON_UNCORE_H
#define NETPMU_COMMON_UNCORE_H

#include <linux/cpuhotplug.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "netpmu.h"
#include "regs.h"

#define NETPMU_PMU_NAME_LEN		40

struct netpmu_uncore;

struct netpmu_uncore_ops {
	/* Upstream's driver of this PMU, named when its PMU name is taken. */
	const char *upstream_driver;
	const struct attribute_group **attr_groups;

	/* perf callbacks of the PMU's own */
	int (*event_init)(struct perf_event *event);
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);

	/* The value of the event's counter now. */
	u64 (*read_counter)(struct netpmu_uncore *uc, struct perf_event *event);
	/* Events of one group that are related share one counter. */
	bool (*related)(struct perf_event *a, struct perf_event *b);
	/* Optional: prepare a counter given to a new event; lock held. */
	void (*claim_counter)(struct netpmu_uncore *uc, unsigned int idx);
	/* The overflow interrupt, in hard-IRQ context. */
	irqreturn_t (*handle_irq)(struct netpmu_uncore *uc);

	/*
	 * The counting CPU when CPU comes online and none is chosen yet
	 * (nr_cpu_ids: not this one), and when CPU, the counting one, goes
	 * offline (nr_cpu_ids: none left).
	 */
	unsigned int (*online_target)(struct netpmu_uncore *uc,
				      unsigned int cpu);
	unsigned int (*offline_target)(struct netpmu_uncore *uc,
				       unsigned int cpu);
};

/*
 * One PMU instance, embedded in the PMU's own struct. A backend (the PCI
 * driver, a model) fills in the fields above the first line, the PMU's
 * identification those above the second, then registers it.
 */
struct netpmu_uncore {
	struct netpmu_regs *regs;
	struct device *dev;		/* parent device, may be NULL */
	int pci_domain;			/* where filters' BDFs are looked up */
	u64 counter_mask;		/* counter width; U64_MAX on hardware */
	int local_cpu;			/* CPU the device is local to, or -1 */
	/* Moves the overflow interrupt (irq_data) to the counting CPU. */
	void (*set_irq_cpu)(struct netpmu_uncore *uc, unsigned int cpu);
	void *irq_data;
	/* A model: publishes the extensions, says so in sysfs (netpmu_model). */
	bool model;
	/* ---- the PMU's identification ---- */
	char name[NETPMU_PMU_NAME_LEN];
	u32 sicl_id;
	u32 identifier;
	u32 bdf_min;
	u32 bdf_max;
	/* ---- owned by the core ---- */
	const struct netpmu_uncore_ops *ops;
	enum cpuhp_state cpuhp_state;
	struct pmu pmu;
	struct perf_event *hw_events[NETPMU_MAX_COUNTERS];
	struct hlist_node node;
	int on_cpu;
	bool registered;
	/*
	 * Counters, prev_count, the started state and slot ownership (and the
	 * PMU's own slot registers): reads come from any CPU (remote reads),
	 * the interrupt maybe from another.
	 */
	raw_spinlock_t lock;
};

#define to_netpmu_uncore(p) container_of(p, struct netpmu_uncore, pmu)

/* The PMU of a PMU device: perf sets its drvdata before adding it. */
static inline struct netpmu_uncore *netpmu_uncore_from_dev(struct device *dev)
{
	return to_netpmu_uncore((struct pmu *)dev_get_drvdata(dev));
}

/* life (uncore.c) */
int netpmu_uncore_cpuhp_setup(enum cpuhp_state *state, const char *name);
void netpmu_uncore_cpuhp_remove(enum cpuhp_state state);
void netpmu_uncore_init(struct netpmu_uncore *uc,
			const struct netpmu_uncore_ops *ops,
			enum cpuhp_state cpuhp_state);
int netpmu_uncore_register(struct netpmu_uncore *uc);
void netpmu_uncore_unregister(struct netpmu_uncore *uc);

/* counting (uncore_counting.c) */
int netpmu_uncore_first_free_counter(struct netpmu_uncore *uc);
int netpmu_uncore_add(struct perf_event *event, int flags);
void netpmu_uncore_del(struct perf_event *event, int flags);
void netpmu_uncore_read(struct perf_event *event);
void netpmu_uncore_update_locked(struct netpmu_uncore *uc,
				 struct perf_event *event);

/* sysfs files of every PMU (uncore_sysfs.c) */
extern const struct attribute_group netpmu_uncore_cpumask_group;
extern const struct attribute_group netpmu_uncore_model_group;

#endif /* NETPMU_COMMON_UNCORE_H */
