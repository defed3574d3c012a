// SPDX-License-Identifier: GPL-2.0
/*
 * Hardirqs: per-IRQ count and handler time, and which NAPI each IRQ schedules,
 * learnt from __napi_schedule() calls made inside its handler.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(irq_entry, int irq, struct irqaction *action)
{
	struct netpmu_cpu_state *here = this_cpu_context();

	if (here) {
		here->irq = irq;
		here->irq_entry_ns = bpf_ktime_get_ns();
	}
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(irq_exit, int irq, struct irqaction *action, int ret)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct irq_activity *act;
	__u64 ns;

	if (!here || here->irq != (__u32)irq)
		return 0;
	ns = bpf_ktime_get_ns() - here->irq_entry_ns;
	here->irq = 0;
	act = irq_activity_get(irq);
	if (!act)
		return 0;
	/* Atomics: a per-CPU IRQ runs its handler on several CPUs at once. */
	__sync_fetch_and_add(&act->count, 1);
	__sync_fetch_and_add(&act->ns, ns);
	return 0;
}

static __always_inline void learn_irq(struct napi_struct *napi)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct napi_activity *act;

	if (!here || !here->irq)
		return;
	act = napi_activity_get(napi);
	if (act)
		act->irq = here->irq;
}

NETPMU_NAPI_HOOK(napi_schedule, __napi_schedule, learn_irq)
NETPMU_NAPI_HOOK(napi_schedule_irqoff, __napi_schedule_irqoff, learn_irq)
