// SPDX-License-Identifier: GPL-2.0
#include "session/queue_reader.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lib/why_line.h"
#include "session/irq_queues.h"
#include "sys/clock.h"

/* The loader's one clock (sys/clock.h), as a deadline for pthread_cond_timedwait. */
static struct timespec after_period(void)
{
	uint64_t at = monotonic_ns() + (uint64_t)(IRQ_QUEUES_FOLLOW_PERIOD_S * 1e9);

	return (struct timespec){ .tv_sec = (time_t)(at / 1000000000ULL), .tv_nsec = (long)(at % 1000000000ULL) };
}

static void *read_queues(void *arg)
{
	struct queue_reader *r = arg;
	struct queue_map map;
	char unread[256];
	bool read;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		struct timespec until = after_period();

		while (!r->stop && !r->hurry &&
		       pthread_cond_timedwait(&r->wake, &r->lock, &until) != ETIMEDOUT)
			;
		if (r->stop)
			break;
		r->hurry = false;
		pthread_mutex_unlock(&r->lock);
		memset(&map, 0, sizeof(map));
		read = !queue_map_discover(NULL, NULL, &map, unread, sizeof(unread));
		if (!read)
			queue_map_release(&map);
		pthread_mutex_lock(&r->lock);
		/* A map that cannot be read now is no change: the next reading tries again. */
		if (!read)
			continue;
		if (r->have_latest)
			queue_map_release(&r->latest);
		r->latest = map;
		r->have_latest = true;
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int queue_reader_start(struct queue_reader *r, char *why, size_t why_len)
{
	pthread_condattr_t attr;
	sigset_t all, before;
	int err;

	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&r->wake, &attr);
	pthread_condattr_destroy(&attr);
	/* Ctrl-C and SIGTERM must reach the loop's thread, which answers them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &before);
	err = pthread_create(&r->thread, NULL, read_queues, r);
	pthread_sigmask(SIG_SETMASK, &before, NULL);
	if (err) {
		pthread_cond_destroy(&r->wake);
		pthread_mutex_destroy(&r->lock);
		return why_fail(why, why_len, "cannot start the queue map's reader: %s", strerror(err));
	}
	r->started = true;
	return 0;
}

bool queue_reader_take(struct queue_reader *r, struct queue_map *map)
{
	bool took = false;

	if (!r->started)
		return false;
	pthread_mutex_lock(&r->lock);
	if (r->have_latest) {
		*map = r->latest;
		memset(&r->latest, 0, sizeof(r->latest));
		r->have_latest = false;
		took = true;
	}
	pthread_mutex_unlock(&r->lock);
	return took;
}

void queue_reader_hurry(struct queue_reader *r)
{
	if (!r->started)
		return;
	pthread_mutex_lock(&r->lock);
	r->hurry = true;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
}

void queue_reader_stop(struct queue_reader *r)
{
	if (!r->started)
		return;
	pthread_mutex_lock(&r->lock);
	r->stop = true;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	pthread_join(r->thread, NULL);
	if (r->have_latest)
		queue_map_release(&r->latest);
	pthread_cond_destroy(&r->wake);
	pthread_mutex_destroy(&r->lock);
	r->started = false;
}
