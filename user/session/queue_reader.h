/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queue map read again in a thread of its own, every
 * IRQ_QUEUES_FOLLOW_PERIOD_S after the last reading ended. A reading walks
 * sysfs, /proc/interrupts and netlink: on a slow kernel (the debug cell's
 * KASAN and lockdep under TCG) it takes seconds, which the loop that prints
 * the intervals and rotates the counters cannot spend between two ticks.
 */
#ifndef NETPMU_QUEUE_READER_H
#define NETPMU_QUEUE_READER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "queue/queue_map.h"

struct queue_reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct queue_map latest;	/* the last reading, not taken yet */
	bool have_latest;
	bool hurry;			/* read again now */
	bool stop;
	bool started;
};

/* Starts the thread (signals stay with the caller's). 0, or -1 with WHY. */
int queue_reader_start(struct queue_reader *r, char *why, size_t why_len);

/*
 * Moves the reading made since the last take, if any, to *MAP (released by
 * the caller). Never waits for a reading.
 */
bool queue_reader_take(struct queue_reader *r, struct queue_map *map);

/* Reads again at once: a queue that refused its counters may be gone. */
void queue_reader_hurry(struct queue_reader *r);

/* Stops the thread (waits for a reading in progress) and frees what it read. */
void queue_reader_stop(struct queue_reader *r);

#endif
