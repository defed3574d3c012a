/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF join's IRQ -> queue map, from the loader's queue map: written at
 * the session's start, and again when a NIC's channels change under a
 * running session (ethtool -L frees and requests its vectors anew).
 */
#ifndef NETPMU_IRQ_QUEUES_H
#define NETPMU_IRQ_QUEUES_H

#include <stdbool.h>
#include <stddef.h>

struct bpf_session;
struct queue_map;

/*
 * Maps every IRQ of QUEUES (NULL: none) that serves a known queue, and has the
 * hooks count it from now. 0, or -1 with WHY.
 */
int irq_queues_publish(struct bpf_session *s, const struct queue_map *queues, char *why, size_t why_len);
/* From OLD to NOW: NOW's IRQs mapped, OLD's that NOW lacks forgotten. 0, or -1 with WHY. */
int irq_queues_republish(struct bpf_session *s, const struct queue_map *old, const struct queue_map *now,
			 char *why, size_t why_len);
/* Whether A and B map the same IRQs to the same functions, queues and directions. */
bool irq_queues_same(const struct queue_map *a, const struct queue_map *b);

/* How often a running session reads the queue map again (top, serve). */
#define IRQ_QUEUES_FOLLOW_PERIOD_S 2.0

/*
 * Reads the queue map again. When the same NICs' vectors changed, the join's
 * IRQ map follows, *CURRENT becomes the new map and *BEFORE the old one, for
 * the caller to release: 1. 0: nothing to follow (the same vectors, a map
 * that cannot be read now, or NICs removed or added, which the device watch
 * says and whose function ids must not shift under the session). -1 with WHY:
 * the IRQ map cannot be written; *CURRENT is kept.
 */
int irq_queues_follow(struct bpf_session *s, struct queue_map *current, struct queue_map *before,
		      char *why, size_t why_len);

/* irq_queues_follow() with NOW already read (a queue_reader's): NOW is taken over, then zeroed. */
int irq_queues_adopt(struct bpf_session *s, struct queue_map *current, struct queue_map *now,
		     struct queue_map *before, char *why, size_t why_len);

#endif
