/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A model's overflow interrupt, the same for both PMUs: the PMU's handler
 * runs in hard-IRQ context on the counting CPU, like the real MSI with its
 * affinity (an irq_work, forwarded by IPI).
 */
#ifndef NETPMU_COMMON_SIM_IRQ_H
#define NETPMU_COMMON_SIM_IRQ_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/smp.h>

#include "uncore.h"

struct netpmu_sim_irq {
	struct netpmu_uncore *uc;
	int cpu;			/* where the handler runs, -1: here */
	struct irq_work work;
	call_single_data_t csd;
	atomic_t inflight;		/* IPIs sent, their handler not done */
	atomic_t handled;		/* the handler returned IRQ_HANDLED */
};

/* Deliver to uc's handler, following uc's counting CPU. */
void netpmu_sim_irq_init(struct netpmu_sim_irq *irq, struct netpmu_uncore *uc);
/* Wait until no interrupt is pending or running. */
void netpmu_sim_irq_sync(struct netpmu_sim_irq *irq);

/* Safe in any context, also with the model's raw lock held. */
static inline void netpmu_sim_irq_raise(struct netpmu_sim_irq *irq)
{
	irq_work_queue(&irq->work);
}

#endif /* NETPMU_COMMON_SIM_IRQ_H */
