/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a device model of either PMU is made of besides its registers' side
 * effects: the register accessor the PMU core drives it through, and its
 * overflow interrupt, whose handler runs in hard-IRQ context on the counting
 * CPU like the real MSI with its affinity (an irq_work, forwarded by IPI).
 */
#ifndef NETPMU_COMMON_MODEL_H
#define NETPMU_COMMON_MODEL_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "uncore.h"

struct netpmu_model {
	struct netpmu_regs regs;
	/* The registers' state; taken inside perf's raw locks: raw. */
	raw_spinlock_t lock;
	struct netpmu_uncore *uc;
	int irq_cpu;			/* where the handler runs, -1: here */
	struct irq_work irq_work;
	call_single_data_t irq_csd;
	atomic_t irq_inflight;		/* IPIs sent, their handler not done */
	atomic_t irqs_handled;		/* the handler returned IRQ_HANDLED */
};

/*
 * Make uc a model's PMU: driven through ops (whose callbacks find their
 * model from the regs they get), counters of counter_mask's width, its
 * interrupt delivered to uc's handler on uc's counting CPU.
 */
void netpmu_model_init(struct netpmu_model *model, struct netpmu_uncore *uc,
		       const struct netpmu_regs_ops *ops, u64 counter_mask);
/* Wait until no interrupt is pending or running. */
void netpmu_model_sync_irq(struct netpmu_model *model);

/* Safe in any context, also with the model's raw lock held. */
static inline void netpmu_model_raise_irq(struct netpmu_model *model)
{
	irq_work_queue(&model->irq_work);
}

#endif /* NETPMU_COMMON_MODEL_H */
