/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A running top or doctor following a NIC's channels (ethtool -L frees its
 * queue vectors and requests new ones): the join's IRQ map, the rotation's
 * targets, and the IRQs that no longer serve a queue, whose NAPIs stay in
 * the kernel's table and whose records are left out until a vector has that
 * IRQ again.
 */
#ifndef NETPMU_QUEUE_FOLLOW_H
#define NETPMU_QUEUE_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "session/queue_reader.h"

struct bpf_session;
struct queue_map;
struct top_counters;

#define QUEUE_FOLLOW_MAX_GONE_IRQS 256

struct queue_follow {
	struct queue_reader reader;	/* reads the map again, off the loop */
	unsigned int gone_irqs[QUEUE_FOLLOW_MAX_GONE_IRQS];
	unsigned int nr_gone_irqs;
};

/* Starts reading the queue map again every IRQ_QUEUES_FOLLOW_PERIOD_S. 0, or -1 with WHY. */
int queue_follow_start(struct queue_follow *f, char *why, size_t why_len);

/*
 * Takes the latest reading of the queue map, if one finished (never waits);
 * when the vectors changed, says so in one line on stderr ("CMD: the queue
 * vectors changed (N now, M before): WHAT"), and the IRQ map, the gone IRQs
 * and TC's targets (of DEV, NULL: all) follow. 1 when they changed, else 0
 * (a failure to follow is said on stderr).
 */
int queue_follow(struct queue_follow *f, struct bpf_session *session, struct queue_map *queues,
		 struct top_counters *tc, const char *dev, const char *cmd, const char *what);

/* Reads the map again at once: a queue that refused its counters may be gone with its vector. */
void queue_follow_hurry(struct queue_follow *f);

void queue_follow_stop(struct queue_follow *f);

/* Whether IRQ served a queue that is gone: its NAPIs' records are left out. */
bool queue_follow_irq_gone(const struct queue_follow *f, unsigned int irq);

#endif
