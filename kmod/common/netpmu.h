/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What both PMUs of netpmu.ko share: the log prefix, the real PMUs' PCI IDs
 * and the model-or-not rule, the PMU-name check, group validation, remote
 * reads and hotplug migration. Depends on no PMU.
 */
#ifndef NETPMU_COMMON_NETPMU_H
#define NETPMU_COMMON_NETPMU_H

/* Every message of the module says where it comes from, spelled once. */
#undef pr_fmt
#define pr_fmt(fmt) "netpmu: " fmt

#include <linux/perf_event.h>
#include <linux/types.h>

/* The PCI functions of the real PMUs (Hip09 RCiEPs). */
#define NETPMU_PCI_VENDOR_HUAWEI	0x19e5
#define NETPMU_PCI_DEVICE_HNS3_PMU	0xa22b
#define NETPMU_PCI_DEVICE_PCIE_PMU	0xa12d

enum netpmu_pmu_kind {
	NETPMU_HNS3_PMU,
	NETPMU_PCIE_PMU,
};

/* real_pmu.c: may a model take the names of this kind of PMU? */
bool netpmu_real_pmu_present(enum netpmu_pmu_kind kind);
bool netpmu_model_at_load(enum netpmu_pmu_kind kind, int model_param);

/* pmu.c */
bool netpmu_pmu_name_taken(const char *name);
void netpmu_migrate_context(struct pmu *pmu, unsigned int cpu,
			    unsigned int target);

/* Counters of one PMU: the most a group may need. */
#define NETPMU_MAX_COUNTERS		8

/*
 * A group fits when its members are all of the PMU (or software events) and
 * need at most nr_counters counters; members whose key(event) is equal share
 * one counter.
 */
bool netpmu_validate_group(struct perf_event *event, unsigned int nr_counters,
			   u64 (*key)(struct perf_event *event));

/*
 * Let any CPU read the PMU's counters (bpf_perf_event_read_value() on the CPU
 * a NAPI poll runs on): where the kernel has PMU scopes, an event of a PMU
 * with the system-wide scope gets PERF_EV_CAP_READ_SCOPE. Set only once the
 * PMU is registered: the perf core decides when it adds the PMU's device
 * whether to show its own cpumask (that of the one CPU it counts every
 * system-wide PMU on), so the driver's own cpumask stays, with upstream's
 * meaning (for the PCIe PMU a CPU of the device's NUMA node), and events
 * count where it says. When the core's CPU goes offline it migrates this
 * PMU's events too, after the driver's own callback moved them: it finds
 * none left.
 */
static inline void netpmu_pmu_allow_remote_reads(struct pmu *pmu)
{
#ifdef NETPMU_HAVE_PMU_SCOPE
	WRITE_ONCE(pmu->scope, PERF_PMU_SCOPE_SYS_WIDE);
#endif
}

#endif /* NETPMU_COMMON_NETPMU_H */
