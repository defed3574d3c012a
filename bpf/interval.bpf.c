// SPDX-License-Identifier: GPL-2.0
/*
 * The interval tick: a periodic software event on the PMUs' counting CPU reads
 * every open counter there (where a CPU-bound uncore counter is readable),
 * then joins, per NAPI instance, the hardware deltas of its queue, function
 * and vector with the software activity of the same interval, and emits one
 * record per queue, one per CPU and one with all counters.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"
#include "core_pmu.bpf.h"

/* Written by the tick only (one perf event, one CPU): plain globals suffice. */
__u64 tick_last_ns;	/* the loader sets it to the start time */
static struct netpmu_counter_delta tick_deltas[NETPMU_MAX_COUNTERS];
static struct netpmu_counter_binding tick_bindings[NETPMU_MAX_COUNTERS];
/* Per counter: the change since it was last joined, this reading, and whether a queue took it. */
static struct netpmu_counter_delta tick_joined_deltas[NETPMU_MAX_COUNTERS];
static struct bpf_perf_event_value tick_reads[NETPMU_MAX_COUNTERS];
static __u32 tick_joined_mask;

struct tick_ctx {
	__u64 now;
	__u64 interval_ns;
	__u32 cpu;
};

static __always_inline void read_counters(__u32 cpu)
{
	__u32 i;

	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		struct netpmu_counter_delta *d = &tick_deltas[i];
		struct netpmu_counter_binding *b;
		struct bpf_perf_event_value v = {};
		struct counter_state *st;
		__u32 key = i;

		__builtin_memset(d, 0, sizeof(*d));
		__builtin_memset(&tick_joined_deltas[i], 0, sizeof(tick_joined_deltas[i]));
		__builtin_memset(&tick_bindings[i], 0, sizeof(tick_bindings[i]));
		if (i >= nr_counters)
			continue;
		b = bpf_map_lookup_elem(&counter_bindings, &key);
		st = bpf_map_lookup_elem(&counter_state, &key);
		if (!b || !st)
			continue;
		tick_bindings[i] = *b;
		d->generation = b->generation;
		d->err = read_counter(i, cpu, &v);
		tick_joined_deltas[i].generation = d->generation;
		tick_joined_deltas[i].err = d->err;
		if (d->err)
			continue;
		tick_reads[i] = v;
		if (st->joined_valid && st->joined_generation == b->generation) {
			tick_joined_deltas[i].delta = v.counter - st->joined.value;
			tick_joined_deltas[i].enabled_ns = v.enabled - st->joined.enabled_ns;
			tick_joined_deltas[i].running_ns = v.running - st->joined.running_ns;
		} else {
			tick_joined_deltas[i].delta = v.counter;
			tick_joined_deltas[i].enabled_ns = v.enabled;
			tick_joined_deltas[i].running_ns = v.running;
		}
		/* A reopened counter starts from zero: its reading is the delta. */
		if (st->valid && st->generation == b->generation) {
			d->delta = v.counter - st->last.value;
			d->enabled_ns = v.enabled - st->last.enabled_ns;
			d->running_ns = v.running - st->last.running_ns;
		} else {
			d->delta = v.counter;
			d->enabled_ns = v.enabled;
			d->running_ns = v.running;
		}
		st->last.value = v.counter;
		st->last.enabled_ns = v.enabled;
		st->last.running_ns = v.running;
		st->last.err = 0;
		st->generation = b->generation;
		st->valid = 1;
	}
}

static __always_inline void emit_counters(struct tick_ctx *t)
{
	struct netpmu_counters_record *rec;

	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return;
	}
	rec->kind = NETPMU_RECORD_COUNTERS;
	rec->cpu = t->cpu;
	rec->ts_ns = t->now;
	rec->interval_ns = t->interval_ns;
	rec->nr_counters = nr_counters;
	rec->reserved = 0;
	__builtin_memcpy(rec->counters, tick_deltas, sizeof(rec->counters));
	bpf_ringbuf_submit(rec, 0);
}

static long emit_cpu(struct bpf_map *map, __u32 *cpu, struct cpu_softirq *s, struct tick_ctx *t)
{
	struct netpmu_cpu_record *rec;
	__u64 rx = s->net_rx, rx_ns = s->net_rx_ns, tx = s->net_tx, tx_ns = s->net_tx_ns;

	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return 0;
	}
	rec->kind = NETPMU_RECORD_CPU;
	rec->cpu = *cpu;
	rec->ts_ns = t->now;
	rec->interval_ns = t->interval_ns;
	rec->net_rx = rx - s->tick_net_rx;
	rec->net_rx_ns = rx_ns - s->tick_net_rx_ns;
	rec->net_tx = tx - s->tick_net_tx;
	rec->net_tx_ns = tx_ns - s->tick_net_tx_ns;
	bpf_ringbuf_submit(rec, 0);
	s->tick_net_rx = rx;
	s->tick_net_rx_ns = rx_ns;
	s->tick_net_tx = tx;
	s->tick_net_tx_ns = tx_ns;
	return 0;
}

static __always_inline bool serves_queue(const struct netpmu_irq_queue *q, __u32 queue)
{
	__u32 k;

	if (queue < q->queue || !q->queue_stride)
		return queue == q->queue;
	k = (queue - q->queue) / q->queue_stride;
	return k < q->nr_queues && q->queue + k * q->queue_stride == queue;
}

/* Does counter I measure the queue, function or vector of this NAPI? */
static __always_inline bool counter_joins(__u32 i, __u32 irq, struct netpmu_irq_queue *q)
{
	struct netpmu_counter_binding *b = &tick_bindings[i & (NETPMU_MAX_COUNTERS - 1)];

	switch (b->scope) {
	case NETPMU_SCOPE_FUNC:
		return q && b->func_id == q->func_id;
	case NETPMU_SCOPE_QUEUE:
		return q && b->func_id == q->func_id && serves_queue(q, b->queue);
	case NETPMU_SCOPE_INTR:
		return irq && b->irq == irq;
	default:
		return false;
	}
}

static long emit_queue(struct bpf_map *map, __u32 *slot, struct napi_activity *act,
		       struct tick_ctx *t)
{
	__u64 polls = act->polls, packets = act->packets;
	__u64 exhausted = act->budget_exhausted, poll_ns = act->poll_ns;
	struct netpmu_core_delta core[NETPMU_MAX_CORE_EVENTS];
	__u64 irqs = 0, irq_ns = 0;
	struct netpmu_queue_record *rec;
	struct netpmu_irq_queue *q = NULL;
	struct netpmu_irq_activity *ia;
	__u32 irq = act->irq, i;

	/* Slots are handed out in order: none in use past the last one given. */
	if (*slot >= napi_slots_used)
		return 1;
	if (!act->napi_key)
		return 0;
	__builtin_memcpy(core, act->core, sizeof(core));
	if (irq) {
		ia = irq_activity_find(irq);
		if (ia) {
			irqs = ia->count;
			irq_ns = ia->ns;
		}
		q = bpf_map_lookup_elem(&irq_queue, &irq);
	}
	/*
	 * The first IRQ learnt counts from the start of the run (its earlier
	 * interrupts were this NAPI's too); a changed IRQ from the change on.
	 */
	if (irq != act->tick_irq) {
		act->tick_irqs = act->tick_irq ? irqs : 0;
		act->tick_irq_ns = act->tick_irq ? irq_ns : 0;
		act->tick_irq = irq;
	}

	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return 0;
	}
	rec->kind = NETPMU_RECORD_QUEUE;
	rec->cpu = act->last_cpu;
	rec->ts_ns = t->now;
	rec->interval_ns = t->interval_ns;
	rec->napi_key = act->napi_key;
	rec->napi_id = act->napi_id;
	rec->ifindex = act->ifindex;
	__builtin_memcpy(rec->ifname, act->ifname, sizeof(rec->ifname));
	rec->irq = irq;
	rec->queue = q ? (__s32)q->queue : -1;
	rec->func_id = q ? q->func_id : 0;
	rec->dir = q ? q->dir : NETPMU_QUEUE_RXTX;
	rec->polls = polls - act->tick_polls;
	rec->packets = packets - act->tick_packets;
	rec->budget_exhausted = exhausted - act->tick_budget_exhausted;
	rec->poll_ns = poll_ns - act->tick_poll_ns;
	rec->irqs = irqs - act->tick_irqs;
	rec->irq_ns = irq_ns - act->tick_irq_ns;
	rec->has_poll_time = poll_time_enabled;
	core_sums_diff(core, act->tick_core, rec->core);
	rec->counter_mask = 0;
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		if (i < nr_counters && counter_joins(i, irq, q)) {
			rec->counter_mask |= 1u << i;
			rec->counters[i] = tick_joined_deltas[i];
			tick_joined_mask |= 1u << i;
		} else {
			__builtin_memset(&rec->counters[i], 0, sizeof(rec->counters[i]));
		}
	}
	bpf_ringbuf_submit(rec, 0);

	act->tick_polls = polls;
	act->tick_packets = packets;
	act->tick_budget_exhausted = exhausted;
	act->tick_poll_ns = poll_ns;
	act->tick_irqs = irqs;
	act->tick_irq_ns = irq_ns;
	__builtin_memcpy(act->tick_core, core, sizeof(act->tick_core));
	return 0;
}

/*
 * Per-poll records wake the reader only now and then (napi_poll.bpf.c): wake
 * it for any left waiting, with a record discarded at once (the reader skips it).
 */
static __always_inline void wake_reader(void)
{
	void *nudge;

	if (!bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA))
		return;
	nudge = bpf_ringbuf_reserve(&records, 8, 0);
	if (nudge)
		bpf_ringbuf_discard(nudge, BPF_RB_FORCE_WAKEUP);
}

/* Counters that queue records took this tick start their next change from this reading. */
static __always_inline void advance_joined(void)
{
	__u32 i;

	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		struct counter_state *st;
		__u32 key = i;

		if (!(tick_joined_mask & (1u << i)) || tick_joined_deltas[i].err)
			continue;
		st = bpf_map_lookup_elem(&counter_state, &key);
		if (!st)
			continue;
		st->joined.value = tick_reads[i].counter;
		st->joined.enabled_ns = tick_reads[i].enabled;
		st->joined.running_ns = tick_reads[i].running;
		st->joined_generation = tick_joined_deltas[i].generation;
		st->joined_valid = 1;
	}
}

SEC("perf_event")
int interval_tick(struct bpf_perf_event_data *ctx)
{
	struct tick_ctx t;

	t.now = bpf_ktime_get_ns();
	t.interval_ns = t.now - tick_last_ns;
	t.cpu = bpf_get_smp_processor_id();
	tick_last_ns = t.now;

	read_counters(t.cpu);
	if (per_poll_records)
		wake_reader();
	if (!interval_records)
		return 0;
	emit_counters(&t);
	bpf_for_each_map_elem(&cpu_softirq, emit_cpu, &t, 0);
	tick_joined_mask = 0;
	bpf_for_each_map_elem(&napi_activity, emit_queue, &t, 0);
	advance_joined();
	return 0;
}
