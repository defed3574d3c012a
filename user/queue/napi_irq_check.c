// SPDX-License-Identifier: GPL-2.0
#include "queue/napi_irq_check.h"

#include <stdbool.h>

#include "queue/queue_map.h"

static bool already_warned(const struct napi_irq_check *check, unsigned int napi_id)
{
	unsigned int i;

	for (i = 0; i < check->nr_warned; i++)
		if (check->warned[i] == napi_id)
			return true;
	return false;
}

void napi_irq_check(struct napi_irq_check *check, const struct queue_map *queues,
		    const struct netpmu_queue_record *r, FILE *out)
{
	size_t i;

	if (!queues || !r->napi_id || !r->irq || already_warned(check, r->napi_id))
		return;
	for (i = 0; i < queues->nr_nl_napis; i++) {
		const struct queue_nl_napi *n = &queues->nl_napis[i];

		if (n->napi_id != (int)r->napi_id || n->irq < 0 || n->irq == (int)r->irq)
			continue;
		fprintf(out, "netpmu: NAPI %u of %s: the kernel says IRQ %d, but IRQ %u scheduled it; "
			"its queue is taken from IRQ %u\n", r->napi_id, r->ifname, n->irq, r->irq, r->irq);
		if (check->nr_warned < NAPI_IRQ_CHECK_MAX)
			check->warned[check->nr_warned++] = r->napi_id;
		return;
	}
}
