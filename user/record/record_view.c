// SPDX-License-Identifier: GPL-2.0
#include "record/record_view.h"

#include <string.h>

/* The kinds in the order record_view_from() knows them, for record_field_kinds(). */
static const enum netpmu_record_kind all_kinds[] = {
	NETPMU_RECORD_POLL, NETPMU_RECORD_QUEUE, NETPMU_RECORD_CPU, NETPMU_RECORD_COUNTERS, NETPMU_RECORD_CORE,
};

static void add(struct record_view *v, const char *name, int64_t value)
{
	if (v->nr_fields < RECORD_MAX_FIELDS)
		v->fields[v->nr_fields++] = (struct record_field){ name, value };
}

static uint32_t low_bits(unsigned int n)
{
	return n >= 32 ? ~0u : (1u << n) - 1;
}

static void view_poll(const struct netpmu_poll_record *r, struct record_view *v)
{
	v->dev = r->ifname;
	add(v, "cpu", r->cpu);
	add(v, "ifindex", r->ifindex);
	add(v, "napi_id", r->napi_id);
	add(v, "irq", r->irq);
	add(v, "work", r->work);
	add(v, "budget", r->budget);
	v->reads = netpmu_poll_reads(r);
	v->counter_mask = low_bits(r->nr_counters);
	v->core = r->nr_core ? netpmu_poll_core(r) : NULL;
	v->nr_core = r->nr_core;
}

static void view_queue(const struct netpmu_queue_record *r, struct record_view *v)
{
	v->dev = r->ifname;
	add(v, "cpu", r->cpu);
	add(v, "ifindex", r->ifindex);
	add(v, "napi_id", r->napi_id);
	add(v, "irq", r->irq);
	add(v, "queue", r->queue);
	add(v, "dir", r->dir);
	add(v, "interval_ns", r->interval_ns);
	add(v, "polls", r->polls);
	add(v, "packets", r->packets);
	add(v, "budget_exhausted", r->budget_exhausted);
	if (r->has_poll_time)
		add(v, "poll_ns", r->poll_ns);
	add(v, "irqs", r->irqs);
	add(v, "irq_ns", r->irq_ns);
	v->deltas = r->counters;
	v->counter_mask = r->counter_mask;
	v->core = r->core;
	v->nr_core = NETPMU_MAX_CORE_EVENTS;
}

static void view_cpu(const struct netpmu_cpu_record *r, struct record_view *v)
{
	add(v, "cpu", r->cpu);
	add(v, "interval_ns", r->interval_ns);
	add(v, "net_rx", r->net_rx);
	add(v, "net_rx_ns", r->net_rx_ns);
	add(v, "net_tx", r->net_tx);
	add(v, "net_tx_ns", r->net_tx_ns);
}

static void view_counters(const struct netpmu_counters_record *r, struct record_view *v)
{
	add(v, "cpu", r->cpu);
	add(v, "interval_ns", r->interval_ns);
	v->deltas = r->counters;
	v->counter_mask = low_bits(r->nr_counters);
}

static void view_core(const struct netpmu_core_record *r, struct record_view *v)
{
	add(v, "cpu", r->cpu);
	add(v, "interval_ns", r->interval_ns);
	v->core = r->total;
	v->core_net_rx = r->net_rx;
	v->nr_core = NETPMU_MAX_CORE_EVENTS;
}

/* A poll record is as long as its counts say, and they are within netpmu's limits. */
static bool poll_record_whole(const struct netpmu_poll_record *r, size_t size)
{
	return size >= sizeof(*r) && r->nr_counters <= NETPMU_MAX_COUNTERS &&
	       r->nr_core <= NETPMU_MAX_CORE_EVENTS &&
	       size >= netpmu_poll_record_size(r->nr_counters, r->nr_core);
}

bool record_view_from(const void *data, size_t size, struct record_view *v)
{
	const __u32 *kind = data;

	memset(v, 0, sizeof(*v));
	if (size < sizeof(*kind))
		return false;
	v->kind = *kind;
	v->kind_name = record_kind_name(v->kind);
	switch (*kind) {
	case NETPMU_RECORD_POLL:
		if (!poll_record_whole(data, size))
			return false;
		v->ts_ns = ((const struct netpmu_poll_record *)data)->ts_ns;
		view_poll(data, v);
		return true;
	case NETPMU_RECORD_QUEUE:
		if (size < sizeof(struct netpmu_queue_record))
			return false;
		v->ts_ns = ((const struct netpmu_queue_record *)data)->ts_ns;
		view_queue(data, v);
		return true;
	case NETPMU_RECORD_CPU:
		if (size < sizeof(struct netpmu_cpu_record))
			return false;
		v->ts_ns = ((const struct netpmu_cpu_record *)data)->ts_ns;
		view_cpu(data, v);
		return true;
	case NETPMU_RECORD_COUNTERS:
		if (size < sizeof(struct netpmu_counters_record))
			return false;
		v->ts_ns = ((const struct netpmu_counters_record *)data)->ts_ns;
		view_counters(data, v);
		return true;
	case NETPMU_RECORD_CORE:
		if (size < sizeof(struct netpmu_core_record))
			return false;
		v->ts_ns = ((const struct netpmu_core_record *)data)->ts_ns;
		view_core(data, v);
		return true;
	default:
		return false;
	}
}

const struct record_field *record_view_field(const struct record_view *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nr_fields; i++)
		if (!strcmp(v->fields[i].name, name))
			return &v->fields[i];
	return NULL;
}

const char *record_field_names(void)
{
	return "cpu, ifindex, napi_id, irq, queue, dir, work, budget, polls, packets, budget_exhausted, "
	       "poll_ns, irqs, irq_ns, interval_ns, net_rx, net_rx_ns, net_tx, net_tx_ns";
}

static int64_t scaled(uint64_t delta, uint64_t enabled_ns, uint64_t running_ns)
{
	if (running_ns >= enabled_ns)
		return delta;
	return running_ns ? (int64_t)((double)delta * enabled_ns / running_ns) : 0;
}

bool record_view_counter(const struct record_view *v, unsigned int i, int64_t *value)
{
	if (i >= NETPMU_MAX_COUNTERS || !(v->counter_mask & (1u << i)))
		return false;
	if (v->reads) {
		const struct netpmu_counter_read *r = &v->reads[i];

		if (r->err && !(r->flags & NETPMU_READ_SNAPSHOT))
			return false;
		*value = r->value;
		return true;
	}
	if (!v->deltas || v->deltas[i].err)
		return false;
	*value = scaled(v->deltas[i].delta, v->deltas[i].enabled_ns, v->deltas[i].running_ns);
	return true;
}

bool record_view_core(const struct record_view *v, unsigned int i, int64_t *value)
{
	const struct netpmu_core_delta *d;

	if (i >= v->nr_core || !(v->core_mask & (1u << i)) || !v->core)
		return false;
	d = &v->core[i];
	if (!d->measured)
		return false;
	*value = scaled(d->delta, d->enabled_ns, d->running_ns);
	return true;
}

/*
 * Views a zeroed record of each kind (with poll time, which adds poll_ns),
 * so that which kind has which field is said in one place: the view_*()
 * functions above.
 */
uint32_t record_field_kinds(const char *name)
{
	union {
		struct netpmu_poll_record poll;
		struct netpmu_queue_record queue;
		struct netpmu_cpu_record cpu;
		struct netpmu_counters_record counters;
		struct netpmu_core_record core;
	} r;
	struct record_view v;
	uint32_t kinds = 0;
	size_t k;

	for (k = 0; k < sizeof(all_kinds) / sizeof(all_kinds[0]); k++) {
		memset(&r, 0, sizeof(r));
		r.poll.kind = all_kinds[k];
		r.queue.has_poll_time = all_kinds[k] == NETPMU_RECORD_QUEUE;
		if (!record_view_from(&r, sizeof(r), &v))
			continue;
		if (!strcmp(name, "dev") ? v.dev != NULL : record_view_field(&v, name) != NULL)
			kinds |= 1u << all_kinds[k];
	}
	return kinds;
}

const char *record_kind_name(enum netpmu_record_kind kind)
{
	switch (kind) {
	case NETPMU_RECORD_POLL:
		return "poll";
	case NETPMU_RECORD_QUEUE:
		return "queue";
	case NETPMU_RECORD_CPU:
		return "cpu";
	case NETPMU_RECORD_COUNTERS:
		return "counters";
	case NETPMU_RECORD_CORE:
		return "core";
	}
	return NULL;
}
