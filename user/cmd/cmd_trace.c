// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu trace: the kernel's joined interval records (per queue, per CPU, all
 * counters), or with --per-poll one record per NAPI poll with the counters
 * read at that moment; as text or JSON lines, or summed up with --by/--hist.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sys/clock.h"
#include "session/bpf_session.h"
#include "lib/child_command.h"
#include "cmd/commands.h"
#include "cmd/run_options.h"
#include "cmd/trace_options.h"
#include "session/counter_binding.h"
#include "session/device_watch.h"
#include "event/event_parse.h"
#include "queue/napi_irq_check.h"
#include "pmu/pmu_discovery.h"
#include "queue/queue_map.h"
#include "record/record_output.h"
#include "trace/poll_filter.h"
#include "trace/trace_query.h"
#include "record/record_view.h"
#include "trace/trace_core.h"

#define CMD TRACE_CMD
/* --per-poll: how fresh the snapshot of a counter not readable on the poll's CPU is. */
#define PER_POLL_SNAPSHOT_MS 100
/* CPUs whose core ticks' closing records are told apart; beyond, all are kept. */
#define TRACE_MAX_CPUS 1024
/*
 * After a stop, how long to wait at most for the tick that closes the
 * interval: it comes within a millisecond or two, but a loaded machine (a
 * TCG guest on a busy host) can be hundreds of milliseconds late, and
 * without it the run's last counts are lost.
 */
#define STOP_WAIT_S 0.5
/* How often sysfs is asked whether a traced NIC or PMU went away. */
#define WATCH_PERIOD_S 1.0

struct trace_state {
	const struct trace_options *opts;
	struct trace_query query;
	struct poll_filter_plan poll_filter;	/* --where's part tested in the kernel */
	const struct queue_map *queues;
	struct napi_irq_check napi_irqs;
	const char *counter_names[NETPMU_MAX_COUNTERS];
	const char *counter_pmus[NETPMU_MAX_COUNTERS];
	unsigned int nr_counters;
	struct device_watch watch;
	double next_watch_s;
	struct trace_core core;
	unsigned long records;
	unsigned long handed;		/* every record the ring buffer handed over, shown or not */
	uint64_t last_tick_ns;		/* newest interval record seen */
	uint64_t stop_ns;		/* when the run was told to stop; 0 while running */
	uint64_t closing_tick_ns;	/* the first tick after stop_ns: later ones are dropped */
	uint64_t core_closed[TRACE_MAX_CPUS / 64];	/* CPUs whose core tick closed after stop_ns */
	char tick_pmu_dir[PATH_MAX];	/* the first counter's PMU: the tick follows its CPU */
};

/*
 * After a stop every CPU's core tick fires each millisecond: its first record
 * closes the CPU's interval, the later ones are dropped.
 */
static bool core_tick_closed(struct trace_state *st, const struct record_view *v)
{
	const struct record_field *cpu = record_view_field(v, "cpu");
	uint64_t bit;

	if (v->kind != NETPMU_RECORD_CORE || !st->stop_ns || v->ts_ns < st->stop_ns || !cpu ||
	    cpu->value < 0 || cpu->value >= TRACE_MAX_CPUS)
		return false;
	bit = 1ULL << (cpu->value % 64);
	if (st->core_closed[cpu->value / 64] & bit)
		return true;
	st->core_closed[cpu->value / 64] |= bit;
	return false;
}

static void handle_record(void *ctx, const void *data, size_t size)
{
	struct trace_state *st = ctx;
	const struct trace_options *opts = st->opts;
	struct record_view view;

	st->handed++;
	if (run_stop_requested && opts->run.count && st->records >= opts->run.count)
		return;
	if (!record_view_from(data, size, &view) || core_tick_closed(st, &view))
		return;
	trace_core_view(&st->core, &view);
	if (view.kind == NETPMU_RECORD_QUEUE) {
		const struct netpmu_queue_record *q = data;

		napi_irq_check(&st->napi_irqs, st->queues, data, stderr);
		device_watch_learn_name(&st->watch, q->func_id, q->ifname, sizeof(q->ifname));
	}
	/*
	 * The interval tick's records (per-CPU core ticks run apart), followed
	 * whether shown or filtered out: the stop waits for the closing tick.
	 */
	if (view.kind != NETPMU_RECORD_POLL && view.kind != NETPMU_RECORD_CORE) {
		/* The tick fires every millisecond once told to close the interval. */
		if (st->closing_tick_ns && view.ts_ns > st->closing_tick_ns)
			return;
		if (st->stop_ns && view.ts_ns >= st->stop_ns)
			st->closing_tick_ns = view.ts_ns;
		if (view.ts_ns > st->last_tick_ns)
			st->last_tick_ns = view.ts_ns;
		trace_query_tick(&st->query, view.ts_ns, stdout);
	}
	if (!trace_query_match(&st->query, &view))
		return;
	st->records++;
	if (trace_query_summarises(&st->query)) {
		trace_query_add(&st->query, &view);
	} else {
		if (opts->json)
			record_print_json(stdout, &view, st->counter_names);
		else
			record_print_text(stdout, &view, st->counter_names);
	}
	if (opts->run.count && st->records >= opts->run.count)
		run_stop_requested = 1;
}

/*
 * The names --where and --agg may use, and the record kinds this run
 * produces: polls with --per-poll, the interval kinds without it or with -I,
 * core records with core events.
 */
static void record_names_for(const struct trace_options *opts, const struct trace_state *st,
			     struct record_names *names)
{
	bool intervals = !opts->per_poll || opts->run.interval_given;

	memset(names, 0, sizeof(*names));
	names->counters = st->counter_names;
	names->nr_counters = st->nr_counters;
	names->core = st->core.names;
	names->nr_core = st->core.counters.nr_events;
	if (opts->per_poll)
		names->kinds |= 1u << NETPMU_RECORD_POLL;
	if (intervals)
		names->kinds |= (1u << NETPMU_RECORD_QUEUE) | (1u << NETPMU_RECORD_CPU) |
				(1u << NETPMU_RECORD_COUNTERS);
	if (intervals && (st->core.nr_parsed || st->core.counters.nr_events))
		names->kinds |= 1u << NETPMU_RECORD_CORE;
	names->kinds_hint = !opts->per_poll ? "--per-poll gives poll records" :
			    !intervals ? "-I gives the interval records too" : NULL;
}

/*
 * Parses the event strings against one discovery of the PMUs, CAT (a merged
 * PMU name gives a counter per instance), and works out what each counter
 * measures.
 */
static int prepare_counters(const struct trace_options *opts, const struct queue_map *queues,
			    struct event_catalog *cat, struct parsed_event *events,
			    struct session_counter *counters, unsigned int *nr_parsed)
{
	char why[512];

	*nr_parsed = 0;
	if (opts->nr_events && event_catalog_discover(cat, opts->run.sysfs_root, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		return -1;
	}
	for (unsigned int e = 0; e < opts->nr_events; e++) {
		unsigned int first = *nr_parsed;
		size_t nr;

		if (event_parse_instances(opts->events[e], cat, &events[first],
					  NETPMU_MAX_COUNTERS - first, &nr, why, sizeof(why))) {
			fprintf(stderr, CMD ": %s\n", why);
			return -1;
		}
		*nr_parsed += nr;
		for (unsigned int i = first; i < *nr_parsed; i++) {
			counter_binding_derive(&events[i], opts->run.sysfs_root, queues, &counters[i].binding);
			counters[i].name = events[i].text;
			counters[i].spec = events[i].spec;
			counters[i].group_with = -1;
		}
	}
	return 0;
}

/* A traced NIC or PMU went away: said once, and the trace goes on for the rest. */
static void say_removal(void *ctx, const struct device_removal *r)
{
	(void)ctx;
	if (!r->bdf)
		fprintf(stderr, CMD ": PMU %s removed: its counters read nothing more, tracing goes on\n", r->name);
	else if (r->named)
		fprintf(stderr, CMD ": NIC %s (%s) removed: tracing goes on for the others\n", r->name, r->bdf);
	else
		fprintf(stderr, CMD ": NIC %s removed: tracing goes on for the others\n", r->bdf);
}

static int trace_loop(struct trace_state *st, struct bpf_session *session, struct child_command *child)
{
	const struct trace_options *opts = st->opts;
	double deadline = opts->run.duration_s > 0 ? monotonic_seconds() + opts->run.duration_s : 0;
	int err;

	while (!run_stop_requested && (!deadline || monotonic_seconds() < deadline)) {
		if (child && child_command_done(child))
			break;
		err = bpf_session_poll(session, 100);
		if (err < 0) {
			fprintf(stderr, CMD ": reading the ring buffer failed: %s\n", strerror(-err));
			return -1;
		}
		/* main() says why; nobody reads what would follow. */
		if (fflush(stdout))
			return -1;
		if (monotonic_seconds() >= st->next_watch_s) {
			device_watch_check(&st->watch, say_removal, NULL);
			st->next_watch_s = monotonic_seconds() + WATCH_PERIOD_S;
		}
	}
	/*
	 * Interval records cover the whole run only with the interval in which
	 * it stopped: have the tick close it now (a partial interval, as perf
	 * stat -I prints one) and wait for it, not for the next interval, so
	 * that Ctrl-C is answered at once even with -I 20000.
	 */
	if ((!opts->per_poll || opts->run.interval_given) &&
	    !(opts->run.count && st->records >= opts->run.count)) {
		double stop = monotonic_seconds(), limit = stop + STOP_WAIT_S;

		st->stop_ns = (uint64_t)(stop * 1e9);
		err = bpf_session_tick_soon(session);
		core_counters_tick_soon(&st->core.counters, TICK_SOON_NS);
		if (err)
			fprintf(stderr, CMD ": warning: cannot close the interval early (%s): "
				"its records are not shown\n", strerror(-err));
		while (!err && st->last_tick_ns < st->stop_ns && monotonic_seconds() < limit)
			if (bpf_session_poll(session, 5) < 0)
				break;
		if (!err && st->last_tick_ns < st->stop_ns)
			fprintf(stderr, CMD ": warning: the interval closed at the stop did not come within "
				"%.0f ms: its records are not shown\n", STOP_WAIT_S * 1000);
	}
	/* What is already in the buffer was collected: keep it, and no more. */
	bpf_session_stop_tick(session);
	bpf_session_drain(session);
	return 0;
}

static int run_trace(struct trace_state *st, const struct queue_map *queues,
		     struct session_counter *counters)
{
	const struct trace_options *opts = st->opts;
	struct bpf_session_options sopts = {
		.per_poll = opts->per_poll,
		.interval_ms = opts->per_poll && !opts->run.interval_given ? PER_POLL_SNAPSHOT_MS :
			       opts->run.interval_ms,
		.interval_records = !opts->per_poll || opts->run.interval_given,
		.tick_pmu_dir = st->tick_pmu_dir[0] ? st->tick_pmu_dir : NULL,
		.ringbuf_kb = opts->ringbuf_kb,
		.counters = counters,
		.nr_counters = st->nr_counters,
		.queues = queues,
		.core = &st->core.counters,
		.on_record = handle_record,
		.ctx = st,
		.hooks = opts->run.hooks,
		.poll_filters = st->poll_filter.filters,
		.nr_poll_filters = st->poll_filter.nr_filters,
	};
	struct child_command child, *running = NULL;
	struct netpmu_loss_counts losses;
	unsigned long long filtered;
	struct bpf_session session;
	const char *notice;
	char why[512];
	int ret = 0;

	if (device_watch_init(&st->watch, queues, st->counter_pmus, st->nr_counters, opts->run.sysfs_root)) {
		fprintf(stderr, CMD ": out of memory\n");
		return 1;
	}
	if (bpf_session_start(&session, &sopts, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		device_watch_release(&st->watch);
		return 1;
	}
	notice = trace_core_started(&st->core, &session);
	if (notice)
		fprintf(stderr, CMD ": %s\n", notice);
	run_catch_stop();
	fprintf(stderr, CMD ": tracing NAPI polls, IRQs and softirqs with %u counter%s, hooks: %s%s (Ctrl-C to stop)\n",
		st->nr_counters, st->nr_counters == 1 ? "" : "s", session.hooks,
		session.poll_time ? "" : opts->run.hooks == KERNEL_HOOKS_TRACEPOINT ?
		"; no poll time (--hooks tracepoint)" :
		"; no poll time: this kernel lets BPF hook neither __napi_poll's entry nor its exit");
	if (opts->command) {
		if (child_command_start(&child, opts->command, why, sizeof(why))) {
			fprintf(stderr, CMD ": %s\n", why);
			bpf_session_stop(&session);
			device_watch_release(&st->watch);
			return 1;
		}
		running = &child;
	}
	if (trace_loop(st, &session, running))
		ret = 1;
	bpf_session_losses(&session, &losses);
	filtered = bpf_session_polls_filtered(&session);
	/* The answer first: detaching takes tens of milliseconds (RCU grace periods). */
	trace_query_finish(&st->query, stdout, st->counter_names, st->nr_counters);
	fflush(stdout);
	bpf_session_stop(&session);
	device_watch_release(&st->watch);
	if (running) {
		child_command_stop(running);
		if (!ret)
			ret = child_command_exit_code(running);
	}
	fprintf(stderr, CMD ": %lu records, %llu dropped (ring buffer full), "
		"%llu NAPI and %llu IRQ not tracked (tables full), %lu not shown (filtered or after the end)\n",
		st->records, (unsigned long long)losses.ringbuf_full,
		(unsigned long long)losses.napi_table_full, (unsigned long long)losses.irq_table_full,
		st->handed - st->records);
	if (st->poll_filter.nr_filters)
		fprintf(stderr, CMD ": %llu polls left out in the kernel by %u of --where's comparisons\n",
			filtered, st->poll_filter.nr_filters);
	return ret;
}

int cmd_trace(int argc, char **argv)
{
	struct parsed_event events[NETPMU_MAX_COUNTERS] = { 0 };
	struct event_catalog catalog = { 0 };
	struct session_counter counters[NETPMU_MAX_COUNTERS] = { 0 };
	struct trace_options opts = { 0 };
	struct trace_state st = { .opts = &opts };
	struct queue_map queues = { 0 };
	struct record_names names;
	unsigned int i, nr_parsed = 0;
	char why[512], notice[1024];
	int ret = 1;

	ret = parse_trace_options(argc, argv, &opts);
	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	opts.query.json = opts.json;
	opts.query.per_interval = opts.run.interval_given;
	ret = 1;
	if (trace_core_parse(&st.core, opts.events, &opts.nr_events, opts.run.sysfs_root,
			     why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		return EXIT_USAGE;
	}
	record_names_for(&opts, &st, &names);
	names.events_pending = opts.nr_events || st.core.nr_parsed;
	if (trace_query_compile(&st.query, &opts.query, &names, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		ret = EXIT_USAGE;
		goto out;
	}
	poll_filter_plan(st.query.where, opts.per_poll, !opts.no_kernel_filter, &st.poll_filter);
	if (opts.explain) {
		poll_filter_explain(stdout, opts.query.where, &st.poll_filter);
		ret = ferror(stdout) ? 1 : 0;
		goto out;
	}
	if (queue_map_discover(NULL, NULL, &queues, why, sizeof(why)))
		fprintf(stderr, CMD ": warning: queues not mapped to IRQs: %s\n", why);
	if (prepare_counters(&opts, &queues, &catalog, events, counters, &nr_parsed))
		goto out;
	for (i = 0; i < nr_parsed; i++) {
		st.counter_names[i] = events[i].text;
		st.counter_pmus[i] = events[i].pmu_name;
	}
	st.nr_counters = nr_parsed;
	st.queues = &queues;
	if (nr_parsed)
		snprintf(st.tick_pmu_dir, sizeof(st.tick_pmu_dir), "%s/%s/%s",
			 opts.run.sysfs_root ? opts.run.sysfs_root : PMU_SYSFS_ROOT_DEFAULT, PMU_DEVICES_SUBDIR,
			 events[0].pmu_name);
	if (trace_core_open(&st.core, opts.run.sysfs_root, notice, sizeof(notice), why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	if (*notice)
		fprintf(stderr, CMD ": %s\n", notice);
	record_names_for(&opts, &st, &names);
	if (trace_query_bind(&st.query, &names, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		ret = EXIT_USAGE;
		goto out;
	}
	ret = run_trace(&st, &queues, counters);
out:
	for (i = 0; i < nr_parsed; i++)
		parsed_event_release(&events[i]);
	event_catalog_release(&catalog);
	queue_map_release(&queues);
	trace_core_close(&st.core);
	trace_query_release(&st.query);
	return ret;
}
