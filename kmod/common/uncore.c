// SPDX-License-Identifier: GPL-2.0
/*
 * The uncore core's life: registration with perf, and the CPU a PMU counts
 * on, kept across CPU hotplug by the PMU's own dynamic multi-instance
 * hotplug state. The same on every kernel: remote reads do not give the
 * choice to the perf core (netpmu.h).
 */

#include <linux/cpumask.h>
#include <linux/module.h>

#include "uncore.h"

static int netpmu_uncore_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct netpmu_uncore *uc = hlist_entry_safe(node, struct netpmu_uncore,
						    node);
	unsigned int target;

	if (!uc || uc->on_cpu >= 0)
		return 0;

	target = uc->ops->online_target(uc, cpu);
	if (target >= nr_cpu_ids)
		return 0;
	WRITE_ONCE(uc->on_cpu, target);
	uc->set_irq_cpu(uc, target);
	return 0;
}

static int netpmu_uncore_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct netpmu_uncore *uc = hlist_entry_safe(node, struct netpmu_uncore,
						    node);
	unsigned int target;

	if (!uc || uc->on_cpu != cpu)
		return 0;

	target = uc->ops->offline_target(uc, cpu);
	if (target >= nr_cpu_ids) {
		pr_err("%s: there is no CPU to count on\n", uc->name);
		return 0;
	}

	/* Before registration there is no perf context to move. */
	if (READ_ONCE(uc->registered))
		netpmu_migrate_context(&uc->pmu, cpu, target);
	WRITE_ONCE(uc->on_cpu, target);
	uc->set_irq_cpu(uc, target);
	return 0;
}

/* The hotplug state of one kind of PMU, in *state. */
int netpmu_uncore_cpuhp_setup(enum cpuhp_state *state, const char *name)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, name,
				      netpmu_uncore_online_cpu,
				      netpmu_uncore_offline_cpu);
	if (ret < 0)
		return ret;
	*state = ret;
	return 0;
}

void netpmu_uncore_cpuhp_remove(enum cpuhp_state state)
{
	cpuhp_remove_multi_state(state);
}

void netpmu_uncore_init(struct netpmu_uncore *uc,
			const struct netpmu_uncore_ops *ops,
			enum cpuhp_state cpuhp_state)
{
	uc->ops = ops;
	uc->cpuhp_state = cpuhp_state;
	uc->on_cpu = -1;
	uc->registered = false;
	raw_spin_lock_init(&uc->lock);
}

int netpmu_uncore_register(struct netpmu_uncore *uc)
{
	const struct netpmu_uncore_ops *ops = uc->ops;
	int ret;

	if (netpmu_pmu_name_taken(uc->name)) {
		pr_err("PMU %s already exists (upstream %s driver bound?), not registering\n",
		       uc->name, ops->upstream_driver);
		return -EEXIST;
	}

	uc->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.event_init	= ops->event_init,
		.pmu_enable	= ops->pmu_enable,
		.pmu_disable	= ops->pmu_disable,
		.add		= netpmu_uncore_add,
		.del		= netpmu_uncore_del,
		.start		= ops->start,
		.stop		= ops->stop,
		.read		= netpmu_uncore_read,
		.attr_groups	= ops->attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
#ifdef NETPMU_HAVE_PMU_PARENT
		.parent		= uc->dev,
#endif
	};

	ret = cpuhp_state_add_instance(uc->cpuhp_state, &uc->node);
	if (ret)
		return ret;

	ret = perf_pmu_register(&uc->pmu, uc->name, -1);
	if (ret) {
		if (ret == -EEXIST)
			pr_err("PMU %s already exists, not registering\n",
			       uc->name);
		goto err_remove_cpuhp_instance;
	}
	WRITE_ONCE(uc->registered, true);
	netpmu_pmu_allow_remote_reads(&uc->pmu);
	return 0;

err_remove_cpuhp_instance:
	cpuhp_state_remove_instance_nocalls(uc->cpuhp_state, &uc->node);
	return ret;
}

void netpmu_uncore_unregister(struct netpmu_uncore *uc)
{
	WRITE_ONCE(uc->registered, false);
	perf_pmu_unregister(&uc->pmu);
	cpuhp_state_remove_instance_nocalls(uc->cpuhp_state, &uc->node);
}
