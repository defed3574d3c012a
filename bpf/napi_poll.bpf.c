// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI polls: per-instance polls, packets, budget-exhausted polls and time in
 * polls; with --per-poll, one record per poll with the PMU counters read then.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"

/*
 * Fills C from the counter if it is readable on this CPU, else from the last
 * tick's snapshot, marked as such.
 */
static __always_inline void read_counter_or_snapshot(__u32 i, __u32 cpu,
						     struct netpmu_counter_read *c)
{
	struct bpf_perf_event_value v = {};
	struct counter_state *snap;

	c->err = read_counter(i, cpu, &v);
	c->flags = 0;
	if (!c->err) {
		c->value = v.counter;
		c->enabled_ns = v.enabled;
		c->running_ns = v.running;
		return;
	}
	snap = bpf_map_lookup_elem(&counter_state, &i);
	if (snap && snap->valid) {
		c->value = snap->last.value;
		c->enabled_ns = snap->last.enabled_ns;
		c->running_ns = snap->last.running_ns;
		c->flags = NETPMU_READ_SNAPSHOT;
	} else {
		c->value = c->enabled_ns = c->running_ns = 0;
	}
}

static __always_inline void emit_poll_record(struct napi_struct *napi, struct napi_activity *act,
					     int work, int budget, __u32 cpu)
{
	struct netpmu_poll_record *rec;
	__u32 i;

	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return;
	}
	rec->kind = NETPMU_RECORD_POLL;
	rec->cpu = cpu;
	rec->ts_ns = bpf_ktime_get_ns();
	rec->napi_id = act->napi_id;
	rec->ifindex = act->ifindex;
	__builtin_memcpy(rec->ifname, act->ifname, sizeof(rec->ifname));
	rec->work = work;
	rec->budget = budget;
	rec->nr_counters = nr_counters;
	rec->irq = act->irq;
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		if (i < nr_counters)
			read_counter_or_snapshot(i, cpu, &rec->counters[i]);
		else
			__builtin_memset(&rec->counters[i], 0, sizeof(rec->counters[i]));
	}
	bpf_ringbuf_submit(rec, 0);
}

SEC("tp_btf/napi_poll")
int BPF_PROG(napi_poll, struct napi_struct *napi, int work, int budget)
{
	struct napi_activity *act = napi_activity_get(napi);
	__u32 cpu = bpf_get_smp_processor_id();

	if (!act)
		return 0;
	act->polls++;
	act->packets += work;
	if (work >= budget)
		act->budget_exhausted++;
	act->last_cpu = cpu;
	/* Since 6.10 the driver may tell the kernel its IRQ; learnt links win. */
	if (!act->irq && bpf_core_field_exists(napi->irq)) {
		/* A BTF-typed argument: a direct (CO-RE relocated) load, no helper call. */
		int irq = napi->irq;

		if (irq > 0)
			act->irq = irq;
	}
	if (per_poll_records)
		emit_poll_record(napi, act, work, budget, cpu);
	return 0;
}

/*
 * Time in polls: __napi_poll() wraps the driver's poll. fentry/fexit where the
 * kernel has BPF trampolines, kprobe/kretprobe elsewhere; the loader picks.
 */
static __always_inline void poll_enter(struct napi_struct *napi)
{
	struct cpu_context *here = this_cpu_context();

	if (!here)
		return;
	here->poll_napi = (__u64)napi;
	here->poll_entry_ns = bpf_ktime_get_ns();
}

static __always_inline void poll_exit(void)
{
	struct cpu_context *here = this_cpu_context();
	struct napi_activity *act;
	__u64 key;

	if (!here || !here->poll_entry_ns)
		return;
	key = here->poll_napi;
	act = bpf_map_lookup_elem(&napi_activity, &key);
	if (act)
		__sync_fetch_and_add(&act->poll_ns, bpf_ktime_get_ns() - here->poll_entry_ns);
	here->poll_entry_ns = 0;
}

SEC("fentry/__napi_poll")
int BPF_PROG(napi_poll_enter, struct napi_struct *napi)
{
	poll_enter(napi);
	return 0;
}

SEC("fexit/__napi_poll")
int BPF_PROG(napi_poll_exit)
{
	poll_exit();
	return 0;
}

SEC("kprobe/__napi_poll")
int BPF_KPROBE(napi_poll_enter_kprobe, struct napi_struct *napi)
{
	poll_enter(napi);
	return 0;
}

SEC("kretprobe/__napi_poll")
int BPF_KRETPROBE(napi_poll_exit_kprobe)
{
	poll_exit();
	return 0;
}
