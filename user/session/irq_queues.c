// SPDX-License-Identifier: GPL-2.0
/* The BPF join's IRQ -> queue map, written from the loader's queue map. */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "lib/why_line.h"
#include "queue/queue_map.h"
#include "session/bpf_session.h"
/* After bpf_session.h: the skeleton names the records' types. */
#include "netpmu.skel.h"
#include "session/irq_queues.h"

static bool evenly_spaced(const int *queues, unsigned int n)
{
	unsigned int i;

	for (i = 2; i < n; i++)
		if (queues[i] - queues[i - 1] != queues[1] - queues[0])
			return false;
	return queues[1] > queues[0];
}

/*
 * A queue's IRQ is counted and timed from now on (netpmu_records.h): the hooks
 * would learn it only when it first schedules its NAPI. The bit is set
 * atomically, as the hooks may set others of its word meanwhile.
 */
static int mark_serves_napi(struct bpf_session *s, __u32 irq, char *why, size_t why_len)
{
	struct netpmu_irq_activity fresh = { 0 };
	int err;

	if (irq < NETPMU_IRQ_ARRAY_SIZE) {
		__atomic_fetch_or(&s->skel->bss->irq_serves_napi_bits[irq / 64], 1ULL << (irq % 64),
				  __ATOMIC_RELAXED);
		return 0;
	}
	err = bpf_map__update_elem(s->skel->maps.irq_activity, &irq, sizeof(irq), &fresh, sizeof(fresh),
				   BPF_NOEXIST);
	/* A full hash: the hooks count that IRQ as not tracked when they meet it. */
	if (err && err != -EEXIST && err != -E2BIG)
		return why_fail(why, why_len, "cannot mark IRQ %u as a queue's: %s", irq, strerror(-err));
	return 0;
}

/*
 * A vector whose queues are not evenly spaced (no driver known to netpmu
 * does that) joins with its first queue only.
 */
int irq_queues_publish(struct bpf_session *s, const struct queue_map *queues, char *why, size_t why_len)
{
	size_t i;

	if (!queues)
		return 0;
	for (i = 0; i < queues->nr_vectors; i++) {
		const struct queue_vector *v = &queues->vectors[i];
		struct netpmu_irq_queue q = {
			.func_id = v->func_id,
			.queue = v->queue,
			.dir = v->dir,
			.nr_queues = 1,
		};
		__u32 irq = v->irq;
		int err;

		if (v->queue < 0)
			continue;
		if (v->nr_queues > 1 && evenly_spaced(v->queues, v->nr_queues)) {
			q.queue_stride = v->queues[1] - v->queues[0];
			q.nr_queues = v->nr_queues;
		}
		err = bpf_map__update_elem(s->skel->maps.irq_queue, &irq, sizeof(irq), &q,
					   sizeof(q), BPF_ANY);
		if (err)
			return why_fail(why, why_len, "cannot map IRQ %u to its queue: %s", irq,
					strerror(-err));
		if (mark_serves_napi(s, irq, why, why_len))
			return -1;
	}
	return 0;
}

static bool serves_queue(const struct queue_map *map, unsigned int irq)
{
	const struct queue_vector *v = queue_map_find_irq(map, irq);

	return v && v->queue >= 0;
}

int irq_queues_republish(struct bpf_session *s, const struct queue_map *old, const struct queue_map *now,
			 char *why, size_t why_len)
{
	size_t i;

	if (irq_queues_publish(s, now, why, why_len))
		return -1;
	for (i = 0; i < old->nr_vectors; i++) {
		__u32 irq = old->vectors[i].irq;
		int err;

		if (old->vectors[i].queue < 0 || serves_queue(now, irq))
			continue;
		err = bpf_map__delete_elem(s->skel->maps.irq_queue, &irq, sizeof(irq), 0);
		if (err && err != -ENOENT)
			return why_fail(why, why_len, "cannot forget IRQ %u's queue: %s", irq, strerror(-err));
	}
	return 0;
}

static bool same_vector(const struct queue_vector *a, const struct queue_vector *b)
{
	return a->irq == b->irq && a->func_id == b->func_id && a->queue == b->queue && a->dir == b->dir &&
	       a->nr_queues == b->nr_queues && !memcmp(a->queues, b->queues, sizeof(a->queues)) &&
	       !strcmp(a->pci_bdf, b->pci_bdf);
}

bool irq_queues_same(const struct queue_map *a, const struct queue_map *b)
{
	size_t i;

	if (a->nr_vectors != b->nr_vectors || a->nr_functions != b->nr_functions)
		return false;
	for (i = 0; i < a->nr_vectors; i++)
		if (!same_vector(&a->vectors[i], &b->vectors[i]))
			return false;
	return true;
}

static bool same_functions(const struct queue_map *a, const struct queue_map *b)
{
	size_t i;

	if (a->nr_functions != b->nr_functions)
		return false;
	for (i = 0; i < a->nr_functions; i++)
		if (strcmp(a->functions[i], b->functions[i]))
			return false;
	return true;
}

int irq_queues_adopt(struct bpf_session *s, struct queue_map *current, struct queue_map *now,
		     struct queue_map *before, char *why, size_t why_len)
{
	if (!same_functions(current, now) || irq_queues_same(current, now)) {
		queue_map_release(now);
		return 0;
	}
	if (irq_queues_republish(s, current, now, why, why_len)) {
		queue_map_release(now);
		return -1;
	}
	*before = *current;
	*current = *now;
	memset(now, 0, sizeof(*now));
	return 1;
}

int irq_queues_follow(struct bpf_session *s, struct queue_map *current, struct queue_map *before,
		      char *why, size_t why_len)
{
	struct queue_map now = { 0 };
	char unread[256];

	if (queue_map_discover(NULL, NULL, &now, unread, sizeof(unread))) {
		queue_map_release(&now);
		return 0;
	}
	return irq_queues_adopt(s, current, &now, before, why, why_len);
}
