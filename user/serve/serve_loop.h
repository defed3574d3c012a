/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu serve's main loop over one BPF session: records into the store
 * (and the JSON log), the counters' rotation after every interval, the
 * self-metrics, and the signals: SIGTERM/SIGINT stop, SIGHUP reloads.
 */
#ifndef NETPMU_SERVE_LOOP_H
#define NETPMU_SERVE_LOOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "netpmu_records.h"
#include "serve/bpf_prog_stats.h"
#include "serve/json_log.h"
#include "serve/metric_store.h"
#include "serve/serve_records.h"
#include "session/device_watch.h"

struct bpf_session;
struct queue_map;

/* Moves rotated counters to their next target; -1 with WHY when it failed. */
typedef int (*serve_rotate_fn)(void *ctx, struct bpf_session *session, char *why, size_t why_len);
/* The queue map changed under the session: the rotation's targets follow it. */
typedef void (*serve_retarget_fn)(void *ctx);
/*
 * SIGHUP: the config read again; false when it needs a new session, as it
 * does whenever the session is not WHOLE (a PMU of its counters removed: a
 * SIGHUP is how the operator has them opened again).
 */
typedef bool (*serve_reload_fn)(void *ctx, bool whole);

struct serve_loop {
	struct bpf_session *session;
	struct metric_store *store;
	struct serve_records *records;
	struct json_log *log;			/* NULL: no --json-log */
	const char *counter_names[NETPMU_MAX_COUNTERS];
	serve_rotate_fn rotate;			/* NULL: nothing rotates */
	serve_retarget_fn retarget;		/* NULL: nothing rotates */
	void *rotate_ctx;
	/* The NICs watched for removal; read again as ethtool -L remakes their vectors. */
	struct queue_map *queues;
	const char *sysfs_root;			/* the PMUs' (NULL: /sys) */
	serve_reload_fn reload;			/* NULL: no --config to read again */
	void *reload_ctx;
	double deadline;			/* monotonic seconds; 0: none */
	unsigned long max_intervals;		/* 0: no limit */
	/* state */
	unsigned long intervals;
	bool interval_closed;
	struct netpmu_loss_counts losses_seen;	/* of this session, already added */
	struct bpf_prog_stats prog_stats;
	struct device_watch watch;
	double next_follow_s;			/* monotonic seconds of the next queue map read */
};

enum serve_end {
	SERVE_END_STOP,		/* SIGTERM, SIGINT, -d or --count */
	SERVE_END_RELOAD,	/* SIGHUP: a config for a new session */
	SERVE_END_ERROR,	/* said on stderr */
};

/* From now on SIGTERM and SIGINT stop the loop, SIGHUP reloads. */
void serve_catch_signals(void);

/* The session's on_record: CTX is the struct serve_loop. */
void serve_loop_record(void *ctx, const void *record, size_t size);

/*
 * Runs until a stop, a reload or an error (LOOP->session started, CMD for
 * messages). A PMU or NIC removed meanwhile is said, counted, and served on.
 */
enum serve_end serve_loop_run(struct serve_loop *loop, const char *cmd);

/*
 * With no session (nothing can be counted now): waits for a stop, the
 * deadline or SIGHUP (LOG reopened, then SERVE_END_RELOAD) while the HTTP
 * server serves the last totals.
 */
enum serve_end serve_wait_signal(struct json_log *log, double deadline, const char *cmd);

#endif
