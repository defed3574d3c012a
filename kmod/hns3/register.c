// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU core: the PMU's life. Identification, the choice of counting CPU
 * and the ops table through which the uncore core (common/uncore.c)
 * registers the PMU and keeps it counting across CPU hotplug.
 */

#include <linux/cpumask.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "core.h"

static enum cpuhp_state hns3_pmu_cpuhp_state;

/*
 * The counting CPU, as upstream: the first online CPU, or (model extension)
 * the CPU the device is local to while it is online; when it goes offline
 * the events move to the local CPU if online, else to any other.
 */
static bool hns3_pmu_local_cpu_online(struct netpmu_uncore *uc,
				      unsigned int cpu)
{
	int local = uc->local_cpu;

	return local >= 0 && local != cpu && cpu_online(local);
}

static unsigned int hns3_pmu_online_target(struct netpmu_uncore *uc,
					   unsigned int cpu)
{
	/* An online local CPU is visited too: leave the choice to it. */
	return hns3_pmu_local_cpu_online(uc, cpu) ? nr_cpu_ids : cpu;
}

static unsigned int hns3_pmu_offline_target(struct netpmu_uncore *uc,
					    unsigned int cpu)
{
	if (hns3_pmu_local_cpu_online(uc, cpu))
		return uc->local_cpu;
	return cpumask_any_but(cpu_online_mask, cpu);
}

static const struct netpmu_uncore_ops hns3_pmu_ops = {
	.upstream_driver	= "hns3_pmu",
	.attr_groups		= hns3_pmu_attr_groups,
	.event_init		= hns3_pmu_event_init,
	.pmu_enable		= hns3_pmu_enable,
	.pmu_disable		= hns3_pmu_disable,
	.start			= hns3_pmu_start,
	.stop			= hns3_pmu_stop,
	.read_counter		= hns3_pmu_read_counter,
	.related		= hns3_pmu_related,
	.handle_irq		= hns3_pmu_handle_irq,
	.online_target		= hns3_pmu_online_target,
	.offline_target		= hns3_pmu_offline_target,
};

/* Read the identification registers, name the PMU, set up its core. */
void hns3_pmu_init(struct netpmu_uncore *uc)
{
	struct hns3_pmu *hns3_pmu = container_of(uc, struct hns3_pmu, uc);
	u32 bdf = netpmu_read32(uc->regs, HNS3_PMU_REG_BDF);

	uc->bdf_min = bdf & 0xffff;
	uc->bdf_max = bdf >> 16;
	uc->identifier = netpmu_read32(uc->regs, HNS3_PMU_REG_VERSION);
	uc->sicl_id = netpmu_read32(uc->regs, HNS3_PMU_REG_DEVICE_ID) & 0xffff;
	snprintf(uc->name, sizeof(uc->name), HNS3_PMU_NAME_FMT, uc->sicl_id);
	hns3_pmu->hw_clk_freq = netpmu_read32(uc->regs,
					      HNS3_PMU_REG_CLOCK_FREQ);
	spin_lock_init(&hns3_pmu->users_lock);
	hns3_pmu->nr_users = 0;
	hns3_pmu->closing = false;
	netpmu_uncore_init(uc, &hns3_pmu_ops, hns3_pmu_cpuhp_state);
}

/*
 * Unregister only while no event uses the PMU; -EBUSY otherwise. New events
 * are refused from here on. The perf core still touches the PMU for a moment
 * after an event's destroy(): a grace period lets that finish.
 */
int hns3_pmu_unregister_idle(struct hns3_pmu *hns3_pmu)
{
	unsigned long flags;

	spin_lock_irqsave(&hns3_pmu->users_lock, flags);
	if (hns3_pmu->nr_users) {
		spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);
		return -EBUSY;
	}
	hns3_pmu->closing = true;
	spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);

	synchronize_rcu();
	netpmu_uncore_unregister(&hns3_pmu->uc);
	return 0;
}

int hns3_pmu_cpuhp_init(void)
{
	return netpmu_uncore_cpuhp_setup(&hns3_pmu_cpuhp_state,
					 "perf/netpmu/hns3_pmu:online");
}

void hns3_pmu_cpuhp_exit(void)
{
	netpmu_uncore_cpuhp_remove(hns3_pmu_cpuhp_state);
}
