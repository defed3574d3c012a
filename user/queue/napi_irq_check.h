/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-checks the IRQ -> NAPI link the BPF side learnt (the IRQ whose handler
 * scheduled the NAPI) against what the kernel's netdev netlink family says
 * (napi-get's irq, Linux 6.8 and later, where the driver tells it).
 */
#ifndef NETPMU_NAPI_IRQ_CHECK_H
#define NETPMU_NAPI_IRQ_CHECK_H

#include <stdio.h>

#include "netpmu_records.h"

struct queue_map;

#define NAPI_IRQ_CHECK_MAX 64

struct napi_irq_check {
	unsigned int warned[NAPI_IRQ_CHECK_MAX];	/* napi ids already reported */
	unsigned int nr_warned;
};

/* Prints one line on OUT, once per NAPI, when the two disagree. */
void napi_irq_check(struct napi_irq_check *check, const struct queue_map *queues,
		    const struct netpmu_queue_record *record, FILE *out);

#endif
