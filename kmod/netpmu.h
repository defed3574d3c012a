/* SPDX-License-Identifier: GPL-2.0 */
/* Module-wide services shared by every PMU of netpmu.ko. */
#ifndef NETPMU_H
#define NETPMU_H

#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#define NETPMU_MOD_NAME "netpmu"

/* Dynamic multi-instance hotplug state of the HNS3 PMUs. */
extern enum cpuhp_state hns3_pmu_cpuhp_state;

bool netpmu_pmu_name_taken(const char *name);

/*
 * Where the kernel has PMU scopes, netpmu's PMUs declare a system-wide one
 * (any CPU may read their counters), and the perf core owns their counting
 * CPU: it counts every such PMU on one CPU, publishes it as cpumask and, when
 * that CPU goes offline, moves to cpumask_any_but(cpu_online_mask, cpu) and
 * migrates the events (perf_event_clear_cpumask(), in CPUHP_AP_PERF_ONLINE).
 * It never moves back to a CPU coming online. The PMUs count where it does.
 */
static inline bool netpmu_pmu_scoped(void)
{
#ifdef NETPMU_HAVE_PMU_SCOPE
	return true;
#else
	return false;
#endif
}

int netpmu_scope_cpu(struct pmu *pmu);
void netpmu_migrate_context(struct pmu *pmu, unsigned int cpu,
			    unsigned int target);

#endif /* NETPMU_H */
