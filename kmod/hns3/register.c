// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU core: the PMU's life. Identification, registration with perf,
 * and the CPU the PMU counts on, kept across CPU hotplug by the PMU's own
 * dynamic multi-instance hotplug state.
 */

#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "core.h"

static enum cpuhp_state hns3_pmu_cpuhp_state;

/*
 * The counting CPU, as upstream: the first online CPU, or (model extension)
 * the CPU the device is local to while it is online; when it goes offline
 * the events move to the local CPU if online, else to any other. The same
 * on every kernel: remote reads do not give the choice to the perf core
 * (common/netpmu.h).
 */
static int hns3_pmu_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hns3_pmu *hns3_pmu = hlist_entry_safe(node, struct hns3_pmu,
						     node);
	int local;

	if (!hns3_pmu || hns3_pmu->on_cpu >= 0)
		return 0;

	/* An online local CPU is visited too: leave the choice to it. */
	local = hns3_pmu->local_cpu;
	if (local >= 0 && local != cpu && cpu_online(local))
		return 0;

	WRITE_ONCE(hns3_pmu->on_cpu, cpu);
	hns3_pmu->set_irq_cpu(hns3_pmu, cpu);
	return 0;
}

static int hns3_pmu_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hns3_pmu *hns3_pmu = hlist_entry_safe(node, struct hns3_pmu,
						     node);
	unsigned int target;
	int local;

	if (!hns3_pmu || hns3_pmu->on_cpu != cpu)
		return 0;

	local = hns3_pmu->local_cpu;
	if (local >= 0 && local != cpu && cpu_online(local))
		target = local;
	else
		target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;

	/* Before registration there is no perf context to move. */
	if (READ_ONCE(hns3_pmu->registered))
		netpmu_migrate_context(&hns3_pmu->pmu, cpu, target);
	WRITE_ONCE(hns3_pmu->on_cpu, target);
	hns3_pmu->set_irq_cpu(hns3_pmu, target);
	return 0;
}

/* Read the identification registers and name the PMU. */
void hns3_pmu_init(struct hns3_pmu *hns3_pmu)
{
	u32 bdf = netpmu_read32(hns3_pmu->regs, HNS3_PMU_REG_BDF);

	hns3_pmu->bdf_min = bdf & 0xffff;
	hns3_pmu->bdf_max = bdf >> 16;
	hns3_pmu->identifier = netpmu_read32(hns3_pmu->regs,
					     HNS3_PMU_REG_VERSION);
	hns3_pmu->hw_clk_freq = netpmu_read32(hns3_pmu->regs,
					      HNS3_PMU_REG_CLOCK_FREQ);
	hns3_pmu->sicl_id = netpmu_read32(hns3_pmu->regs,
					  HNS3_PMU_REG_DEVICE_ID) & 0xffff;
	snprintf(hns3_pmu->name, sizeof(hns3_pmu->name), HNS3_PMU_NAME_FMT,
		 hns3_pmu->sicl_id);
	hns3_pmu->on_cpu = -1;
	hns3_pmu->registered = false;
	raw_spin_lock_init(&hns3_pmu->lock);
	spin_lock_init(&hns3_pmu->users_lock);
	hns3_pmu->nr_users = 0;
	hns3_pmu->closing = false;
}

int hns3_pmu_register(struct hns3_pmu *hns3_pmu)
{
	int ret;

	if (netpmu_pmu_name_taken(hns3_pmu->name)) {
		pr_err("PMU %s already exists (upstream hns3_pmu driver bound?), not registering\n",
		       hns3_pmu->name);
		return -EEXIST;
	}

	hns3_pmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.event_init	= hns3_pmu_event_init,
		.pmu_enable	= hns3_pmu_enable,
		.pmu_disable	= hns3_pmu_disable,
		.add		= hns3_pmu_add,
		.del		= hns3_pmu_del,
		.start		= hns3_pmu_start,
		.stop		= hns3_pmu_stop,
		.read		= hns3_pmu_read,
		.attr_groups	= hns3_pmu_attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
#ifdef NETPMU_HAVE_PMU_PARENT
		.parent		= hns3_pmu->dev,
#endif
	};

	ret = cpuhp_state_add_instance(hns3_pmu_cpuhp_state, &hns3_pmu->node);
	if (ret)
		return ret;

	ret = perf_pmu_register(&hns3_pmu->pmu, hns3_pmu->name, -1);
	if (ret) {
		if (ret == -EEXIST)
			pr_err("PMU %s already exists, not registering\n",
			       hns3_pmu->name);
		goto err_remove_cpuhp_instance;
	}
	WRITE_ONCE(hns3_pmu->registered, true);
	netpmu_pmu_allow_remote_reads(&hns3_pmu->pmu);
	return 0;

err_remove_cpuhp_instance:
	cpuhp_state_remove_instance_nocalls(hns3_pmu_cpuhp_state,
					    &hns3_pmu->node);
	return ret;
}

void hns3_pmu_unregister(struct hns3_pmu *hns3_pmu)
{
	WRITE_ONCE(hns3_pmu->registered, false);
	perf_pmu_unregister(&hns3_pmu->pmu);
	cpuhp_state_remove_instance_nocalls(hns3_pmu_cpuhp_state,
					    &hns3_pmu->node);
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
	hns3_pmu_unregister(hns3_pmu);
	return 0;
}

int hns3_pmu_cpuhp_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
				      "perf/netpmu/hns3_pmu:online",
				      hns3_pmu_online_cpu,
				      hns3_pmu_offline_cpu);
	if (ret < 0)
		return ret;
	hns3_pmu_cpuhp_state = ret;
	return 0;
}

void hns3_pmu_cpuhp_exit(void)
{
	cpuhp_remove_multi_state(hns3_pmu_cpuhp_state);
}
