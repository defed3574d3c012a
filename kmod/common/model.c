// SPDX-License-Identifier: GPL-2.0
/* What both device models are made of: see model.h. */

#include <linux/cpumask.h>

#include "model.h"

/* Runs in hard interrupt context, like the real MSI handler. */
static void netpmu_model_handle_irq(struct netpmu_model *model)
{
	if (model->uc->ops->handle_irq(model->uc) == IRQ_HANDLED)
		atomic_inc(&model->irqs_handled);
}

static void netpmu_model_irq_ipi(void *info)
{
	struct netpmu_model *model = info;

	netpmu_model_handle_irq(model);
	atomic_dec(&model->irq_inflight);
}

static void netpmu_model_irq_work(struct irq_work *work)
{
	struct netpmu_model *model = container_of(work, struct netpmu_model,
						  irq_work);
	int cpu = READ_ONCE(model->irq_cpu);
	int ret;

	if (cpu < 0 || cpu == smp_processor_id() || !cpu_online(cpu)) {
		netpmu_model_handle_irq(model);
		return;
	}

	atomic_inc(&model->irq_inflight);
	ret = smp_call_function_single_async(cpu, &model->irq_csd);
	if (ret) {
		atomic_dec(&model->irq_inflight);
		/* -EBUSY: one is already on its way and will see the status. */
		if (ret != -EBUSY)
			netpmu_model_handle_irq(model);
	}
}

static void netpmu_model_set_irq_cpu(struct netpmu_uncore *uc,
				     unsigned int cpu)
{
	struct netpmu_model *model = uc->irq_data;

	WRITE_ONCE(model->irq_cpu, cpu);
}

void netpmu_model_init(struct netpmu_model *model, struct netpmu_uncore *uc,
		       const struct netpmu_regs_ops *ops, u64 counter_mask)
{
	model->regs.ops = ops;
	raw_spin_lock_init(&model->lock);
	model->uc = uc;
	model->irq_cpu = -1;
	init_irq_work(&model->irq_work, netpmu_model_irq_work);
	INIT_CSD(&model->irq_csd, netpmu_model_irq_ipi, model);
	atomic_set(&model->irq_inflight, 0);
	atomic_set(&model->irqs_handled, 0);

	uc->regs = &model->regs;
	uc->counter_mask = counter_mask;
	uc->set_irq_cpu = netpmu_model_set_irq_cpu;
	uc->irq_data = model;
	uc->model = true;
}

void netpmu_model_sync_irq(struct netpmu_model *model)
{
	irq_work_sync(&model->irq_work);
	while (atomic_read(&model->irq_inflight))
		cpu_relax();
}
