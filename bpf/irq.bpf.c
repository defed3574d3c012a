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

/*
 * Every handler is noted (learn_irq needs to know which IRQ it runs in), but
 * only an IRQ that serves a NAPI is timed and counted: a clock read at each
 * end costs most of these hooks, and no record reports any other IRQ.
 */
SEC("tp_btf/irq_handler_entry")
int BPF_PROG(irq_entry, int irq, struct irqaction *action)
{
	struct netpmu_cpu_state *here = this_cpu_context();

	if (!here)
		return 0;
	here->irq = irq;
	here->irq_entry_ns = irq_serves_napi(irq) ? bpf_ktime_get_ns() : 0;
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(irq_exit, int irq, struct irqaction *action, int ret)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct netpmu_irq_activity *act;
	__u64 ns = 0;

	if (!here || here->irq != (__u32)irq)
		return 0;
	here->irq = 0;
	if (!irq_serves_napi(irq))
		return 0;
	act = irq_activity_find(irq);
	if (!act)
		return 0;
	/* An IRQ learnt inside this handler is counted, its time from its next one. */
	if (here->irq_entry_ns)
		ns = bpf_ktime_get_ns() - here->irq_entry_ns;
	/* Atomics: a per-CPU IRQ runs its handler on several CPUs at once. */
	__sync_fetch_and_add(&act->count, 1);
	__sync_fetch_and_add(&act->ns, ns);
	return 0;
}

static __always_inline void learn_irq(struct napi_struct *napi)
{
	struct netpmu_cpu_state *here = this_cpu_context();
	struct napi_activity *act;
	__u32 irq;

	if (!here || !here->irq)
		return;
	irq = here->irq;
	act = napi_activity_get(napi);
	if (act)
		act->irq = irq;
	mark_irq_serves_napi(irq);
}

NETPMU_NAPI_HOOK(napi_schedule, __napi_schedule, learn_irq)
NETPMU_NAPI_HOOK(napi_schedule_irqoff, __napi_schedule_irqoff, learn_irq)
