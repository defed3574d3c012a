// SPDX-License-Identifier: GPL-2.0
#include "top/queue_follow.h"

#include <stdio.h>

#include "queue/queue_map.h"
#include "session/irq_queues.h"
#include "top/top_counters.h"

bool queue_follow_irq_gone(const struct queue_follow *f, unsigned int irq)
{
	for (unsigned int i = 0; i < f->nr_gone_irqs; i++)
		if (f->gone_irqs[i] == irq)
			return true;
	return false;
}

/* A freed vector's IRQ is remembered until a vector has that IRQ again. */
static void note_gone_irqs(struct queue_follow *f, const struct queue_map *old, const struct queue_map *now)
{
	unsigned int i, kept = 0;
	size_t v;

	for (i = 0; i < f->nr_gone_irqs; i++)
		if (!queue_map_find_irq(now, f->gone_irqs[i]))
			f->gone_irqs[kept++] = f->gone_irqs[i];
	f->nr_gone_irqs = kept;
	for (v = 0; v < old->nr_vectors && f->nr_gone_irqs < QUEUE_FOLLOW_MAX_GONE_IRQS; v++) {
		unsigned int irq = old->vectors[v].irq;
		const struct queue_vector *still = queue_map_find_irq(now, irq);

		if (old->vectors[v].queue >= 0 && (!still || still->queue < 0) && !queue_follow_irq_gone(f, irq))
			f->gone_irqs[f->nr_gone_irqs++] = irq;
	}
}

int queue_follow_start(struct queue_follow *f, char *why, size_t why_len)
{
	return queue_reader_start(&f->reader, why, why_len);
}

void queue_follow_hurry(struct queue_follow *f)
{
	queue_reader_hurry(&f->reader);
}

void queue_follow_stop(struct queue_follow *f)
{
	queue_reader_stop(&f->reader);
}

int queue_follow(struct queue_follow *f, struct bpf_session *session, struct queue_map *queues,
		 struct top_counters *tc, const char *dev, const char *cmd, const char *what)
{
	struct queue_map now, before = { 0 };
	char why[512];
	int changed;

	if (!queue_reader_take(&f->reader, &now))
		return 0;
	changed = irq_queues_adopt(session, queues, &now, &before, why, sizeof(why));

	if (changed < 0)
		fprintf(stderr, "%s: the queue vectors changed, but %s: the IRQs keep their old queues\n", cmd, why);
	if (changed <= 0)
		return 0;
	fprintf(stderr, "%s: the queue vectors changed (%zu now, %zu before): %s\n", cmd, queues->nr_vectors,
		before.nr_vectors, what);
	note_gone_irqs(f, &before, queues);
	queue_map_release(&before);
	if (top_counters_retarget(tc, queues, dev))
		fprintf(stderr, "%s: out of memory: no queue left to count\n", cmd);
	return 1;
}
