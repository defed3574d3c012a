// SPDX-License-Identifier: GPL-2.0
/* netpmu serve's main loop: records, rotation, self-metrics, signals. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "queue/queue_map.h"
#include "session/bpf_session.h"
#include "session/irq_queues.h"
#include "serve/serve_loop.h"
#include "serve/serve_removals.h"
#include "sys/clock.h"

/* How long a poll of the ring buffer waits: a stop is answered within it. */
#define POLL_MS 100

static volatile sig_atomic_t stop_requested, hup_received;

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		hup_received = 1;
	else
		stop_requested = 1;
}

void serve_catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* A counters record without what the removed PMUs' counters would add. */
static const void *without_lost_counters(const struct serve_loop *loop, const void *record, size_t *size,
					 struct netpmu_counters_record *copy)
{
	unsigned int lost = loop->watch.lost_counters;

	if (!lost || *size < sizeof(*copy))
		return record;
	memcpy(copy, record, sizeof(*copy));
	for (unsigned int i = 0; i < NETPMU_MAX_COUNTERS; i++)
		if (lost & (1u << i))
			memset(&copy->counters[i], 0, sizeof(copy->counters[i]));
	*size = sizeof(*copy);
	return copy;
}

void serve_loop_record(void *ctx, const void *record, size_t size)
{
	struct serve_loop *loop = ctx;
	const __u32 *kind = record;
	struct netpmu_counters_record copy;

	if (size < sizeof(*kind))
		return;
	if (*kind == NETPMU_RECORD_COUNTERS)
		record = without_lost_counters(loop, record, &size, &copy);
	else if (*kind == NETPMU_RECORD_QUEUE && size >= sizeof(struct netpmu_queue_record)) {
		const struct netpmu_queue_record *q = record;

		device_watch_learn_name(&loop->watch, q->func_id, q->ifname, sizeof(q->ifname));
	}
	serve_records_add(loop->records, record, size);
	if (loop->log && json_log_write(loop->log, record, size, loop->counter_names))
		clearerr(loop->log->file);	/* a full disk loses lines, not the exporter */
	/* The tick writes the counters record first: the interval's records follow at once. */
	if (*kind == NETPMU_RECORD_COUNTERS)
		loop->interval_closed = true;
}

/* Losses of the session, added as they grow. */
static void update_self_metrics(struct serve_loop *loop)
{
	struct netpmu_loss_counts now;
	struct netpmu_loss_counts *seen = &loop->losses_seen;

	bpf_session_losses(loop->session, &now);
	metric_store_lock(loop->store);
	metric_counter_add(loop->store, FAM_RINGBUF_DROPPED, "", now.ringbuf_full - seen->ringbuf_full);
	metric_counter_add(loop->store, FAM_TABLE_FULL, "table=\"napi\"", now.napi_table_full - seen->napi_table_full);
	metric_counter_add(loop->store, FAM_TABLE_FULL, "table=\"irq\"", now.irq_table_full - seen->irq_table_full);
	metric_store_unlock(loop->store);
	*seen = now;
	bpf_prog_stats_update(&loop->prog_stats, loop->store);
}

static void count_session_error(struct serve_loop *loop, const char *what)
{
	char labels[METRIC_LABELS_MAX] = "";

	metric_labels_add(labels, sizeof(labels), "what", what);
	metric_store_lock(loop->store);
	metric_counter_add(loop->store, FAM_SESSION_ERRORS, labels, 1);
	metric_store_unlock(loop->store);
}

/*
 * ethtool -L frees a NIC's vectors and requests new ones: the join's IRQ map
 * and the rotation follow them, so the new queues' series carry their names
 * and the rotation does not open counters for queues that are gone.
 */
static void follow_queues(struct serve_loop *loop, const char *cmd)
{
	struct queue_map before = { 0 };
	char why[512];
	int changed;

	if (!loop->queues)
		return;
	changed = irq_queues_follow(loop->session, loop->queues, &before, why, sizeof(why));
	if (changed < 0) {
		fprintf(stderr, "%s: the queue vectors changed, but %s: the IRQs keep their old queues\n", cmd, why);
		count_session_error(loop, "queue_map");
	}
	if (changed <= 0)
		return;
	fprintf(stderr, "%s: the queue vectors changed (%zu now, %zu before): the series and the rotation "
		"follow them\n", cmd, loop->queues->nr_vectors, before.nr_vectors);
	queue_map_release(&before);
	if (loop->rotate && loop->retarget)
		loop->retarget(loop->rotate_ctx);
}

/* After an interval: rotation, self-metrics; false when the run is over. */
static bool close_interval(struct serve_loop *loop, const char *cmd)
{
	struct serve_removals say = { .store = loop->store, .log = loop->log, .cmd = cmd };
	char why[512];

	loop->interval_closed = false;
	loop->intervals++;
	device_watch_check(&loop->watch, serve_removal_say, &say);
	/* Reopening on a removed PMU would fail queue after queue: its counters stay where they are. */
	if (loop->watch.lost_counters)
		loop->rotate = NULL;
	if (monotonic_seconds() >= loop->next_follow_s) {
		follow_queues(loop, cmd);
		loop->next_follow_s = monotonic_seconds() + IRQ_QUEUES_FOLLOW_PERIOD_S;
	}
	if (loop->rotate && loop->rotate(loop->rotate_ctx, loop->session, why, sizeof(why))) {
		/* The software series go on without the hardware ones. */
		fprintf(stderr, "%s: %s\n", cmd, why);
		count_session_error(loop, "rotation");
		loop->rotate = NULL;
	}
	update_self_metrics(loop);
	return !loop->max_intervals || loop->intervals < loop->max_intervals;
}

enum serve_end serve_loop_run(struct serve_loop *loop, const char *cmd)
{
	const char *counter_pmus[NETPMU_MAX_COUNTERS];
	unsigned int nr = loop->records->nr_counters;
	enum serve_end end = SERVE_END_STOP;
	char why[512];
	int err;

	for (unsigned int i = 0; i < nr && i < NETPMU_MAX_COUNTERS; i++)
		counter_pmus[i] = loop->records->counters[i].pmu;
	if (device_watch_init(&loop->watch, loop->queues, counter_pmus, nr, loop->sysfs_root)) {
		fprintf(stderr, "%s: out of memory\n", cmd);
		return SERVE_END_ERROR;
	}
	update_self_metrics(loop);
	loop->next_follow_s = monotonic_seconds() + IRQ_QUEUES_FOLLOW_PERIOD_S;
	while (!stop_requested && (!loop->deadline || monotonic_seconds() < loop->deadline)) {
		if (hup_received) {
			hup_received = 0;
			if (loop->log && json_log_reopen(loop->log, why, sizeof(why)))
				fprintf(stderr, "%s: %s\n", cmd, why);
			if (loop->reload && !loop->reload(loop->reload_ctx, !loop->watch.lost_counters)) {
				end = SERVE_END_RELOAD;
				break;
			}
		}
		err = bpf_session_poll(loop->session, POLL_MS);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "%s: reading the ring buffer failed: %s\n", cmd, strerror(-err));
			end = SERVE_END_ERROR;
			break;
		}
		/* A quiet ring after the counters record: the interval's records are all in. */
		if (err == 0 && loop->interval_closed && !close_interval(loop, cmd))
			break;
	}
	device_watch_release(&loop->watch);
	return end;
}

enum serve_end serve_wait_signal(struct json_log *log, double deadline, const char *cmd)
{
	const struct timespec pause = { .tv_nsec = POLL_MS * 1000000L };
	char why[512];

	while (!stop_requested && (!deadline || monotonic_seconds() < deadline)) {
		if (hup_received) {
			hup_received = 0;
			if (log && json_log_reopen(log, why, sizeof(why)))
				fprintf(stderr, "%s: %s\n", cmd, why);
			return SERVE_END_RELOAD;
		}
		nanosleep(&pause, NULL);
	}
	return SERVE_END_STOP;
}
