// SPDX-License-Identifier: GPL-2.0
#include "doctor/doctor_totals.h"

#include <stdlib.h>
#include <string.h>

static struct doctor_queue *queue_of(struct doctor_totals *t, const struct netpmu_queue_record *r)
{
	struct doctor_queue *q;
	unsigned int i;

	for (i = 0; i < t->nr_queues; i++)
		if (t->queues[i].napi_key == r->napi_key)
			return &t->queues[i];
	if (t->nr_queues == DOCTOR_MAX_QUEUES) {
		t->queues_dropped++;
		return NULL;
	}
	q = &t->queues[t->nr_queues++];
	memset(q, 0, sizeof(*q));
	q->napi_key = r->napi_key;
	return q;
}

void doctor_queue_add_cpu(struct doctor_queue *q, unsigned int cpu, uint64_t polls, uint64_t packets)
{
	struct doctor_cpu_share *s = NULL;
	unsigned int i;

	for (i = 0; i < q->nr_cpus; i++)
		if (q->cpus[i].cpu == cpu)
			s = &q->cpus[i];
	if (!s && q->nr_cpus < DOCTOR_QUEUE_CPUS) {
		s = &q->cpus[q->nr_cpus++];
		s->cpu = cpu;
	}
	if (!s)
		s = &q->cpus[DOCTOR_QUEUE_CPUS - 1];
	s->polls += polls;
	s->packets += packets;
}

unsigned int doctor_queue_cpu(const struct doctor_queue *q)
{
	const struct doctor_cpu_share *best = NULL;
	unsigned int i;

	for (i = 0; i < q->nr_cpus; i++) {
		const struct doctor_cpu_share *s = &q->cpus[i];

		if (!best || s->packets > best->packets ||
		    (s->packets == best->packets && s->polls > best->polls))
			best = s;
	}
	return best ? best->cpu : 0;
}

/*
 * A counter reopened by the rotation counted only part of the interval it was
 * opened in: an interval counts when the queue's previous one had the same
 * counters (the joined delta then runs from that record to this one, and the
 * NAPI packets of the intervals between, without a record, were none).
 */
static void add_hw(struct doctor_hw *hw, const struct netpmu_queue_record *r,
		   const struct doctor_counter_roles *roles)
{
	const struct netpmu_counter_delta *d = r->counters;
	uint32_t generation;
	int idx[] = { roles->rx_packets, roles->rx_bytes, roles->tx_packets,
		      roles->rx_latency_cycles, roles->rx_latency_packets };
	unsigned int i;

	if (roles->rx_packets < 0 || !(r->counter_mask & (1u << roles->rx_packets))) {
		hw->last_generation = 0;
		return;
	}
	generation = d[roles->rx_packets].generation;
	for (i = 0; i < sizeof(idx) / sizeof(idx[0]); i++)
		if (idx[i] >= 0 && (!(r->counter_mask & (1u << idx[i])) || d[idx[i]].err ||
				    d[idx[i]].generation != generation))
			generation = 0;	/* unreadable, or read in the middle of a rotation */
	if (!generation || generation != hw->last_generation) {
		hw->last_generation = generation;
		return;
	}
	hw->intervals++;
	hw->ns += r->interval_ns;
	hw->rx_packets += d[roles->rx_packets].delta;
	hw->napi_packets += r->packets;
	if (roles->rx_bytes >= 0)
		hw->rx_bytes += d[roles->rx_bytes].delta;
	if (roles->tx_packets >= 0)
		hw->tx_packets += d[roles->tx_packets].delta;
	if (roles->rx_latency_cycles >= 0 && roles->rx_latency_packets >= 0) {
		hw->latency_cycles += d[roles->rx_latency_cycles].delta;
		hw->latency_packets += d[roles->rx_latency_packets].delta;
	}
}

/* Whether R is of a NAPI known before the last restart that has not polled since (it polls now: no more). */
static bool stale(struct doctor_totals *t, const struct netpmu_queue_record *r)
{
	unsigned int i;

	for (i = 0; i < t->nr_stale_napis; i++) {
		if (t->stale_napis[i] != r->napi_key)
			continue;
		if (!r->polls)
			return true;
		t->stale_napis[i] = t->stale_napis[--t->nr_stale_napis];
		return false;
	}
	return false;
}

void doctor_totals_add_queue(struct doctor_totals *t, const struct netpmu_queue_record *r,
			     const struct doctor_counter_roles *roles)
{
	struct doctor_queue *q;

	if (!r->ifname[0] || stale(t, r))
		return;	/* the per-CPU backlog, not a NIC queue; or an idle NAPI of before a restart */
	q = queue_of(t, r);
	if (!q)
		return;
	memcpy(q->ifname, r->ifname, sizeof(q->ifname));
	q->ifname[sizeof(q->ifname) - 1] = '\0';
	q->queue = r->queue;
	q->dir = r->dir;
	q->func_id = r->func_id;
	if (r->irq)
		q->irq = r->irq;
	q->polls += r->polls;
	q->packets += r->packets;
	q->budget_exhausted += r->budget_exhausted;
	q->poll_ns += r->poll_ns;
	q->irqs += r->irqs;
	q->irq_ns += r->irq_ns;
	if (r->packets)
		q->busy_ns += r->interval_ns;
	q->has_poll_time |= r->has_poll_time;
	/* The record names the CPU of the interval's last poll: its polls are put there. */
	if (r->polls)
		doctor_queue_add_cpu(q, r->cpu, r->polls, r->packets);
	/* The NIC's RX counts are compared with the RX NAPI's packets only. */
	if (r->dir != NETPMU_QUEUE_TX)
		add_hw(&q->hw, r, roles);
}

void doctor_totals_add_cpu(struct doctor_totals *t, const struct netpmu_cpu_record *r)
{
	if (r->cpu >= DOCTOR_MAX_CPUS)
		return;
	t->cpus[r->cpu].net_rx += r->net_rx;
	t->cpus[r->cpu].net_rx_ns += r->net_rx_ns;
}

void doctor_totals_consumer_seen(struct doctor_totals *t, unsigned int cpu)
{
	struct doctor_consumer *c = &t->consumer;

	if (cpu >= DOCTOR_MAX_CPUS)
		return;
	c->samples++;
	if (++c->seen[cpu] > c->samples_on_cpu || cpu == c->cpu) {
		c->cpu = cpu;
		c->samples_on_cpu = c->seen[cpu];
	}
}

void doctor_totals_add_idle(struct doctor_totals *t, unsigned int func_id, int queue, unsigned int dir,
			    unsigned int irq)
{
	const struct doctor_queue *sibling = NULL;
	struct doctor_queue *q;
	unsigned int i;

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *s = &t->queues[i];

		if (s->func_id != func_id)
			continue;
		if (s->queue == queue && s->dir == dir)
			return;
		sibling = s;
	}
	if (!func_id || !sibling || t->nr_queues == DOCTOR_MAX_QUEUES)
		return;
	q = &t->queues[t->nr_queues++];
	memset(q, 0, sizeof(*q));
	memcpy(q->ifname, sibling->ifname, sizeof(q->ifname));
	q->func_id = func_id;
	q->queue = queue;
	q->dir = dir;
	q->irq = irq;
}

void doctor_totals_restart(struct doctor_totals *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_queues; i++)
		t->stale_napis[i] = t->queues[i].napi_key;
	t->nr_stale_napis = t->nr_queues;
	t->nr_queues = 0;
	t->queues_dropped = 0;
	memset(t->cpus, 0, sizeof(t->cpus));
}

static int queue_order(const void *a, const void *b)
{
	const struct doctor_queue *x = a, *y = b;
	int c = strcmp(x->ifname, y->ifname);

	if (c)
		return c;
	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->napi_key < y->napi_key ? -1 : x->napi_key > y->napi_key;
}

void doctor_totals_sort(struct doctor_totals *t)
{
	qsort(t->queues, t->nr_queues, sizeof(t->queues[0]), queue_order);
}
