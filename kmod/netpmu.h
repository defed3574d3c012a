/* SPDX-License-Identifier: GPL-2.0 */
/* Module-wide services shared by every PMU of netpmu.ko. */
#ifndef NETPMU_H
#define NETPMU_H

#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define NETPMU_MOD_NAME "netpmu"

/* The PCI functions of the real PMUs (Hip09 RCiEPs). */
#define NETPMU_PCI_VENDOR_HUAWEI	0x19e5
#define NETPMU_PCI_DEVICE_HNS3_PMU	0xa22b
#define NETPMU_PCI_DEVICE_PCIE_PMU	0xa12d

enum netpmu_pmu_kind {
	NETPMU_HNS3_PMU,
	NETPMU_PCIE_PMU,
};

bool netpmu_real_pmu_present(enum netpmu_pmu_kind kind);

/* Dynamic multi-instance hotplug state of the HNS3 PMUs. */
extern enum cpuhp_state hns3_pmu_cpuhp_state;

bool netpmu_pmu_name_taken(const char *name);

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

void netpmu_migrate_context(struct pmu *pmu, unsigned int cpu,
			    unsigned int target);

#endif /* NETPMU_H */
