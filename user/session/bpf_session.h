/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of netpmu's BPF programs: open -> configure -> load -> open the PMU
 * counters -> attach, then records from the ring buffer until stopped.
 */
#ifndef NETPMU_BPF_SESSION_H
#define NETPMU_BPF_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "netpmu_records.h"
#include "sys/perf_counter.h"
#include "session/kernel_hooks.h"

struct netpmu_bpf;
struct ring_buffer;
struct bpf_link;
struct queue_map;
struct core_counters;

/* Called for every record; SIZE is the record's size. */
typedef void (*bpf_session_record_fn)(void *ctx, const void *record, size_t size);

/* One hardware counter, and what it measures for the in-kernel join. */
struct session_counter {
	const char *name;			/* for messages */
	struct perf_counter_spec spec;
	struct netpmu_counter_binding binding;
	int group_with;				/* index of the group leader, -1: own group */
};

struct bpf_session_options {
	bool per_poll;			/* one record per NAPI poll */
	unsigned int interval_ms;	/* the tick's period; 0: no tick */
	const char *tick_pmu_dir;	/* sysfs dir of the PMU whose counting CPU the
					 * tick follows when that CPU goes offline; may be NULL */
	bool interval_records;		/* the tick emits records (else only snapshots) */
	unsigned int ringbuf_kb;	/* 0: the default size */
	const struct session_counter *counters;
	unsigned int nr_counters;
	const struct queue_map *queues;	/* IRQ -> queue, for the join; may be NULL */
	struct core_counters *core;	/* core events, open on every CPU; may be NULL */
	bpf_session_record_fn on_record;
	void *ctx;
	enum kernel_hooks_mode hooks;	/* 0: auto */
	/* With per_poll: comparisons a poll must pass to be emitted (trace --where). */
	const struct netpmu_poll_filter *poll_filters;
	unsigned int nr_poll_filters;	/* at most NETPMU_MAX_POLL_FILTERS */
};

struct bpf_session {
	struct netpmu_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link *tick_link;
	int tick_fd;
	unsigned int tick_interval_ms;
	const char *tick_pmu_dir;
	int counter_fds[NETPMU_MAX_COUNTERS];
	unsigned int nr_counters;
	int nr_cpus;
	int tick_cpu;
	bool poll_time;			/* hooks on __napi_poll entry and exit attached */
	bool poll_entry;		/* a hook on __napi_poll's entry attached (core counts per poll) */
	struct core_counters *core;
	bool learns_irqs;		/* hooks on __napi_schedule*() attached */
	enum kernel_hooks_mode hooks_mode;
	const char *hooks;		/* what attached, in words (kernel_hooks_attached) */
	bpf_session_record_fn on_record;
	void *ctx;
};

/*
 * Starts a session. Returns 0, or -1 with one line in WHY saying what is
 * wrong and what would be right; everything taken is released then.
 */
int bpf_session_start(struct bpf_session *s, const struct bpf_session_options *opts,
		      char *why, size_t why_len);

/*
 * Waits up to TIMEOUT_MS for records and hands them to on_record; first moves
 * the interval tick after the PMU's counting CPU if that went offline.
 */
int bpf_session_poll(struct bpf_session *s, int timeout_ms);

/*
 * Stops the interval tick for good (before a last drain, so that no tick
 * writes records nobody will read).
 */
void bpf_session_stop_tick(struct bpf_session *s);

/* Hands over the records still in the ring buffer. */
void bpf_session_drain(struct bpf_session *s);

/*
 * Makes the interval tick fire within TICK_SOON_NS, closing the interval in
 * progress early: a run stopped by Ctrl-C prints its partial interval as
 * perf stat -I does, without waiting for the interval's end. Returns 0 or
 * -errno (no tick, or the kernel refused the new period).
 */
#define TICK_SOON_NS 1000000ULL
int bpf_session_tick_soon(struct bpf_session *s);

/*
 * Replaces counters FIRST .. FIRST + N - 1, a whole group (e.g. for the next
 * queue of a rotation), with COUNTERS. The binding's generation tells the
 * kernel that the new counters start from zero. Returns 0, or -1 with WHY.
 */
int bpf_session_replace_group(struct bpf_session *s, unsigned int first, unsigned int n,
			      const struct session_counter *counters, char *why, size_t why_len);

void bpf_session_losses(const struct bpf_session *s, struct netpmu_loss_counts *out);
/* Polls the kernel filter left out (bpf_session_options.poll_filters). */
unsigned long long bpf_session_polls_filtered(const struct bpf_session *s);

/* Detaches and closes everything. */
void bpf_session_stop(struct bpf_session *s);

#endif
