// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu top: a live per-queue table of what the kernel joined each interval:
 * interrupts, polls, packets per poll, budget-exhausted polls, softirq time,
 * and the NIC's own per-queue bandwidth, packet rate and latency.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys/clock.h"
#include "session/bpf_session.h"
#include "lib/cli_values.h"
#include "cmd/commands.h"
#include "cmd/run_options.h"
#include "queue/napi_irq_check.h"
#include "queue/queue_map.h"
#include "top/queue_follow.h"
#include "top/top_counters.h"
#include "top/top_table.h"

#define CMD "netpmu top"

struct top_options {
	const char *dev;
	struct run_options run;		/* --count: tables */
};

struct top_state {
	const struct top_options *opts;
	struct top_table table;
	struct top_counters counters;
	const char *note;
	char note_text[600];
	bool terminal;
	bool frame_pending;
	uint64_t shown_ts;		/* interval of the last table printed */
	unsigned long frames;
	struct queue_map *queues;
	struct queue_follow follow;	/* the freed vectors' IRQs: their NAPIs' rows are no longer shown */
	struct napi_irq_check napi_irqs;
};

static void top_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu top [--dev IF|PCI-ADDRESS] [-I MS] [-d SECONDS] [--count N]\n"
		"\n"
		"A live per-queue table: CPU, IRQ/s, polls/s, packets per poll, budget-exhausted\n"
		"polls, NET_RX+NET_TX softirq time of the CPU, and from the HNS3 PMU the queue's\n"
		"RX/TX bytes/s and packets/s and RX latency, and from the PCIe PMU the function's\n"
		"DMA writes into memory (bytes/s). The PMU's counters measure one queue\n"
		"at a time, rotating every interval; '~' marks a value measured in an earlier\n"
		"interval or scaled after multiplexing. Redrawn on a terminal, plain otherwise.\n"
		"  --dev IF        only this interface (or PCI function)\n"
		"  -I, --interval MS  refresh interval (default %d)\n"
		"  -d, --duration S   stop after S seconds\n"
		"  --count N       stop after N tables\n"
		"  --sysfs-root DIR   read PMUs from DIR instead of /sys\n"
		RUN_HOOKS_USAGE
		RUN_HELP_USAGE,
		RUN_DEFAULT_INTERVAL_MS);
}

/* 0: run; 1: --help printed; -1: a usage error, said on stderr. */
static int parse_top_options(int argc, char **argv, struct top_options *opts)
{
	enum { OPT_DEV = RUN_OPT_NEXT };
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		RUN_LONG_OPTIONS,
		RUN_HOOKS_OPTION,
		{ 0 }
	};
	int c;

	run_options_init(&opts->run);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTIONS, longopts, NULL)) != -1) {
		if (c == 'h') {
			top_usage(stdout);
			return 1;	/* done: the caller returns 0 */
		}
		if (c == OPT_DEV) {
			opts->dev = optarg;
			continue;
		}
		if (run_option(CMD, c, optarg, &opts->run))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, CMD ": unexpected argument '%s' (see " CMD " --help)\n", argv[optind]);
		return -1;
	}
	return 0;
}

/* Prints TABLE; the loop rotates the hardware counters after each one. */
static void show_table(struct top_state *st, const struct top_table *table)
{
	top_table_render(table, stdout, st->terminal, &st->counters, st->opts->dev, st->note);
	st->shown_ts = table->ts_ns;
	st->frames++;
	if (st->opts->run.count && st->frames >= st->opts->run.count)
		run_stop_requested = 1;
}

static void handle_record(void *ctx, const void *record, size_t size)
{
	struct top_state *st = ctx;
	struct top_table previous;

	if (run_stop_requested)
		return;
	/* A record of a new interval completes the previous frame. */
	if (st->frame_pending && size >= sizeof(struct netpmu_cpu_record) &&
	    ((const struct netpmu_cpu_record *)record)->ts_ns != st->table.ts_ns) {
		previous = st->table;
		show_table(st, &previous);
	}
	if (size >= sizeof(struct netpmu_queue_record) && *(const __u32 *)record == NETPMU_RECORD_QUEUE) {
		if (queue_follow_irq_gone(&st->follow, ((const struct netpmu_queue_record *)record)->irq))
			return;
		napi_irq_check(&st->napi_irqs, st->queues, record, stderr);
	}
	top_table_add(&st->table, record, size, &st->counters);
	st->frame_pending = true;
}

static int top_loop(struct top_state *st, struct bpf_session *session)
{
	const struct top_options *opts = st->opts;
	double deadline = opts->run.duration_s > 0 ? monotonic_seconds() + opts->run.duration_s : 0;
	uint64_t rotated_at = 0;
	size_t targets;
	char why[512];
	int err;

	/* A failed write ends it: main() says why. */
	while (!run_stop_requested && !ferror(stdout) && (!deadline || monotonic_seconds() < deadline)) {
		err = bpf_session_poll(session, 50);
		if (err < 0) {
			fprintf(stderr, CMD ": reading the ring buffer failed: %s\n", strerror(-err));
			return 1;
		}
		/* The tick emits a frame at once: a quiet ring means the frame is whole. */
		if (!err && st->frame_pending) {
			show_table(st, &st->table);
			st->frame_pending = false;
		}
		/*
		 * After every table, however it was completed (a quiet ring or
		 * the next interval's first record), outside the ring's callback.
		 */
		if (st->shown_ts != rotated_at) {
			rotated_at = st->shown_ts;
			queue_follow(&st->follow, session, st->queues, &st->counters, st->opts->dev, CMD,
				     "the table and the rotation follow them");
			targets = st->counters.nr_targets;
			/* Losing the hardware columns is no reason to stop the software ones. */
			if (top_counters_rotate(&st->counters, session, opts->run.sysfs_root, st->queues,
						why, sizeof(why), CMD, stderr)) {
				snprintf(st->note_text, sizeof(st->note_text), "note: %s", why);
				st->note = st->note_text;
			}
			/* A queue that refused its counters may be gone with its vector: look now. */
			if (st->counters.nr_targets < targets)
				queue_follow_hurry(&st->follow);
		}
	}
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct top_options opts = { 0 };
	struct top_state st = { .opts = &opts };
	struct queue_map queues = { 0 };
	struct bpf_session session;
	struct bpf_session_options sopts = { 0 };
	struct netpmu_loss_counts losses;
	char why[512];
	int ret = 1;

	ret = parse_top_options(argc, argv, &opts);
	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = 1;
	if (queue_map_discover(NULL, NULL, &queues, why, sizeof(why)))
		fprintf(stderr, CMD ": warning: queues not mapped to IRQs: %s\n", why);
	why[0] = '\0';
	if (top_counters_init(&st.counters, opts.run.sysfs_root, &queues, opts.dev, true, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	if (!st.counters.nr_counters) {
		snprintf(st.note_text, sizeof(st.note_text), "note: %s", why);
		st.note = st.note_text;
	}
	st.terminal = isatty(STDOUT_FILENO);
	st.queues = &queues;
	sopts.interval_ms = opts.run.interval_ms;
	sopts.interval_records = true;
	sopts.counters = st.counters.counters;
	sopts.nr_counters = st.counters.nr_counters;
	sopts.queues = &queues;
	sopts.on_record = handle_record;
	sopts.ctx = &st;
	sopts.hooks = opts.run.hooks;
	if (bpf_session_start(&session, &sopts, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	if (queue_follow_start(&st.follow, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto stop_session;
	}
	run_catch_stop();
	ret = top_loop(&st, &session);
stop_session:
	bpf_session_losses(&session, &losses);
	bpf_session_stop(&session);
	/* After the detach: a reading in progress may take a slow kernel seconds. */
	queue_follow_stop(&st.follow);
	if (losses.ringbuf_full || losses.napi_table_full || losses.irq_table_full)
		fprintf(stderr, CMD ": lost %llu records (ring buffer full), %llu NAPI and %llu IRQ "
			"not tracked (tables full)\n", (unsigned long long)losses.ringbuf_full,
			(unsigned long long)losses.napi_table_full, (unsigned long long)losses.irq_table_full);
out:
	top_counters_release(&st.counters);
	queue_map_release(&queues);
	return ret;
}
