// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU core tick: a periodic software event on every CPU reads that
 * CPU's core counters (a per-CPU counter is readable only there) and emits
 * one record with their change over the CPU's interval and the share of it
 * inside NET_RX softirqs (summed by softirq.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"
#include "core_pmu.bpf.h"

/* Set by the loader: when the counters were opened, the start of every CPU's first interval. */
__u64 core_ticks_start_ns;

/*
 * The tick interrupts whatever runs on the CPU, possibly a NET_RX softirq
 * half-way through adding to its sums: that interval then misses part of one
 * softirq, which the next one carries. Nothing is lost over the run.
 */
SEC("perf_event")
int core_tick(struct bpf_perf_event_data *ctx)
{
	struct core_reading now[NETPMU_MAX_CORE_EVENTS] = {};
	struct netpmu_core_record *rec;
	struct cpu_core *c = this_cpu_core();
	__u64 ts = bpf_ktime_get_ns();
	__u32 i;

	if (!c)
		return 0;
	read_core_counters(now);
	rec = bpf_ringbuf_reserve(&records, sizeof(*rec), 0);
	if (!rec) {
		/* The next record covers this interval too. */
		__sync_fetch_and_add(&losses.ringbuf_full, 1);
		return 0;
	}
	rec->kind = NETPMU_RECORD_CORE;
	rec->cpu = bpf_get_smp_processor_id();
	rec->ts_ns = ts;
	rec->interval_ns = ts - (c->tick_ns ?: core_ticks_start_ns);
	__builtin_memset(rec->total, 0, sizeof(rec->total));
	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		struct netpmu_core_delta *d = &rec->total[i];

		if (i >= nr_core_events)
			break;
		d->err = now[i].err;
		if (d->err)
			continue;
		d->delta = now[i].value - c->tick_total[i].value;
		d->enabled_ns = now[i].enabled_ns - c->tick_total[i].enabled_ns;
		d->running_ns = now[i].running_ns - c->tick_total[i].running_ns;
		d->measured = 1;
		c->tick_total[i] = now[i];
	}
	core_sums_diff(c->net_rx, c->tick_net_rx, rec->net_rx);
	bpf_ringbuf_submit(rec, 0);
	__builtin_memcpy(c->tick_net_rx, c->net_rx, sizeof(c->tick_net_rx));
	c->tick_ns = ts;
	return 0;
}
