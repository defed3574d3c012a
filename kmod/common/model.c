// SPDX-License-Identifier: GPL-2.0
/* A model's overflow interrupt: see sim_irq.h. */

#include <linux/cpumask.h>

#include "sim_irq.h"

/* Runs in hard interrupt context, like the real MSI handler. */
static void netpmu_sim_irq_handle(struct netpmu_sim_irq *irq)
{
	if (irq->uc->ops->handle_irq(irq->uc) == IRQ_HANDLED)
		atomic_inc(&irq->handled);
}

static void netpmu_sim_irq_ipi(void *info)
{
	struct netpmu_sim_irq *irq = info;

	netpmu_sim_irq_handle(irq);
	atomic_dec(&irq->inflight);
}

static void netpmu_sim_irq_work(struct irq_work *work)
{
	struct netpmu_sim_irq *irq = container_of(work, struct netpmu_sim_irq,
						  work);
	int cpu = READ_ONCE(irq->cpu);
	int ret;

	if (cpu < 0 || cpu == smp_processor_id() || !cpu_online(cpu)) {
		netpmu_sim_irq_handle(irq);
		return;
	}

	atomic_inc(&irq->inflight);
	ret = smp_call_function_single_async(cpu, &irq->csd);
	if (ret) {
		atomic_dec(&irq->inflight);
		/* -EBUSY: one is already on its way and will see the status. */
		if (ret != -EBUSY)
			netpmu_sim_irq_handle(irq);
	}
}

static void netpmu_sim_irq_set_cpu(struct netpmu_uncore *uc, unsigned int cpu)
{
	struct netpmu_sim_irq *irq = uc->irq_data;

	WRITE_ONCE(irq->cpu, cpu);
}

void netpmu_sim_irq_init(struct netpmu_sim_irq *irq, struct netpmu_uncore *uc)
{
	irq->uc = uc;
	irq->cpu = -1;
	init_irq_work(&irq->work, netpmu_sim_irq_work);
	INIT_CSD(&irq->csd, netpmu_sim_irq_ipi, irq);
	atomic_set(&irq->inflight, 0);
	atomic_set(&irq->handled, 0);
	uc->set_irq_cpu = netpmu_sim_irq_set_cpu;
	uc->irq_data = irq;
}

void netpmu_sim_irq_sync(struct netpmu_sim_irq *irq)
{
	irq_work_sync(&irq->work);
	while (atomic_read(&irq->inflight))
		cpu_relax();
}
