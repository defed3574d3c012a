// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu doctor: a short joined session, as netpmu top runs it (the HNS3
 * counters rotated over the queues), summed per queue over the run, then
 * diagnosed (user/doctor/) and printed as findings with their evidence.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "cmd/doctor_pcie.h"
#include "cmd/run_options.h"
#include "doctor/doctor_report.h"
#include "doctor/doctor_rules.h"
#include "doctor/doctor_totals.h"
#include "lib/cli_values.h"
#include "queue/queue_map.h"
#include "session/bpf_session.h"
#include "sys/clock.h"
#include "sys/proc_cpus.h"
#include "top/queue_follow.h"
#include "top/top_counters.h"

#define CMD "netpmu doctor"
#define DOCTOR_DEFAULT_SECONDS 10.0
#define DOCTOR_DEFAULT_INTERVAL_MS 500
/*
 * Intervals the counters stay on a queue: the first, in which they were
 * opened, counts part of it only and is not compared with NAPI's counts.
 */
#define DOCTOR_INTERVALS_PER_QUEUE 3

struct doctor_options {
	const char *dev;
	bool json;
	int pid;
	unsigned long pcie_port;	/* --pcie-port: the Root Port's bit(s); 0: by the function's bdf */
	struct doctor_thresholds thresholds;
	struct run_options run;
};

struct doctor_state {
	const struct doctor_options *opts;
	struct doctor_totals *totals;
	struct doctor_counter_roles roles;
	struct doctor_pcie_counters pcie;
	struct queue_follow follow;	/* the freed vectors' IRQs: their NAPIs' records are left out */
	unsigned int dev_func;
	uint64_t first_start_ns, last_ts_ns;
	unsigned long long consumer_run_ns;	/* --pid's run time at the last look */
};

static void doctor_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu doctor [--dev IF|PCI-ADDRESS] [-d SECONDS] [-I MS] [--pid PID]\n"
		"                     [--pcie-port BITMAP] [--threshold NAME=VALUE]... [--json]\n"
		"\n"
		"Watches the NIC queues for a while (NAPI polls, interrupts, softirq time, and the\n"
		"HNS3 PMU's own per-queue counters, rotated over the queues), then says what looks\n"
		"wrong: each finding with its evidence, how sure it is and why, and what to do next;\n"
		"or that nothing was found, with the figures that show why. Checks: budget_exhausted,\n"
		"imbalance, shared_cpu, irq_affinity, consumer_cpu, coalescing, coalescing_loose,\n"
		"hw_sw_mismatch, nic_latency, pcie_bandwidth, pcie_latency.\n"
		"  --dev IF        only this interface (or PCI function); its Root Port's PCIe link is measured\n"
		"  -d, --duration S   watch S seconds (default %.0f)\n"
		"  -I, --interval MS  interval of the records and the counters' rotation (default %d)\n"
		"  --pid PID       the process consuming the packets: compared with the queues' CPUs\n"
		"  --pcie-port BITMAP  the PCIe PMU's port bit of --dev's Root Port (sysfs cannot tell it):\n"
		"                  the whole link's bytes and its write latency (default: --dev's own bytes)\n"
		"  --threshold NAME=VALUE  change a threshold (repeatable); the names and defaults:\n",
		DOCTOR_DEFAULT_SECONDS, DOCTOR_DEFAULT_INTERVAL_MS);
	doctor_thresholds_usage(out);
	fprintf(out,
		"  --json          one JSON object instead of text\n"
		"  --sysfs-root DIR   read PMUs from DIR instead of /sys\n"
		RUN_HOOKS_USAGE
		RUN_HELP_USAGE);
}

/* 0: run; 1: --help printed; -1: a usage error, said on stderr. */
static int parse_doctor_options(int argc, char **argv, struct doctor_options *opts)
{
	enum { OPT_DEV = RUN_OPT_NEXT, OPT_JSON, OPT_PID, OPT_PCIE_PORT, OPT_THRESHOLD };
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "pid", required_argument, NULL, OPT_PID },
		{ "pcie-port", required_argument, NULL, OPT_PCIE_PORT },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "interval", required_argument, NULL, 'I' },
		{ "duration", required_argument, NULL, 'd' },
		{ "sysfs-root", required_argument, NULL, RUN_OPT_SYSFS_ROOT },
		{ "help", no_argument, NULL, 'h' },
		RUN_HOOKS_OPTION,
		{ 0 }
	};
	unsigned long pid;
	char why[512], *end;
	int c;

	run_options_init(&opts->run);
	opts->run.interval_ms = DOCTOR_DEFAULT_INTERVAL_MS;
	opts->run.duration_s = DOCTOR_DEFAULT_SECONDS;
	doctor_thresholds_init(&opts->thresholds);
	while ((c = getopt_long(argc, argv, RUN_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			doctor_usage(stdout);
			return 1;	/* done: the caller returns 0 */
		case OPT_DEV:
			opts->dev = optarg;
			break;
		case OPT_JSON:
			opts->json = true;
			break;
		case OPT_PID:
			if (cli_whole_number(CMD, "--pid", optarg, 1, 4194304, &pid))
				return -1;
			opts->pid = pid;
			break;
		case OPT_PCIE_PORT:
			opts->pcie_port = strtoul(optarg, &end, 0);
			if (!isdigit((unsigned char)optarg[0]) || *end || !opts->pcie_port || opts->pcie_port > 0xffff) {
				fprintf(stderr, CMD ": --pcie-port wants the Root Port's bitmap from 0x1 to 0xffff "
					"(bit i: Root Port i), not '%s'\n", optarg);
				return -1;
			}
			break;
		case OPT_THRESHOLD:
			if (doctor_threshold_set(&opts->thresholds, optarg, why, sizeof(why))) {
				fprintf(stderr, CMD ": %s\n", why);
				return -1;
			}
			break;
		default:
			if (run_option(CMD, c, optarg, &opts->run))
				return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, CMD ": unexpected argument '%s' (see " CMD " --help)\n", argv[optind]);
		return -1;
	}
	if (opts->pcie_port && !opts->dev) {
		fprintf(stderr, CMD ": --pcie-port names the Root Port above --dev: give --dev too\n");
		return -1;
	}
	return 0;
}

static void handle_record(void *ctx, const void *record, size_t size)
{
	struct doctor_state *st = ctx;
	const struct netpmu_cpu_record *any = record;

	if (size < sizeof(struct netpmu_cpu_record))
		return;
	/* Every interval record has kind, cpu, ts_ns and interval_ns first. */
	if (!st->first_start_ns)
		st->first_start_ns = any->ts_ns - any->interval_ns;
	if (any->ts_ns > st->last_ts_ns)
		st->last_ts_ns = any->ts_ns;
	if (any->kind == NETPMU_RECORD_CPU) {
		doctor_totals_add_cpu(st->totals, record);
	} else if (any->kind == NETPMU_RECORD_QUEUE && size >= sizeof(struct netpmu_queue_record)) {
		const struct netpmu_queue_record *q = record;

		if (queue_follow_irq_gone(&st->follow, q->irq))
			return;
		if (st->opts->dev && strcmp(st->opts->dev, q->ifname) &&
		    !(st->dev_func && q->func_id == st->dev_func))
			return;
		doctor_totals_add_queue(st->totals, q, &st->roles);
	}
}

/*
 * Where the consumer runs: its last CPU, taken when it ran since the last
 * look (a task asleep keeps the CPU it last ran on, even after its affinity
 * changed).
 */
static void sample_consumer(struct doctor_state *st)
{
	struct doctor_consumer *c = &st->totals->consumer;
	unsigned long long run_ns = 0;
	unsigned int cpu;
	bool ran;

	if (!c->pid || proc_task_cpu(c->pid, &cpu, c->comm, sizeof(c->comm)))
		return;
	if (proc_task_run_ns(c->pid, &run_ns)) {
		doctor_totals_consumer_seen(st->totals, cpu);
		return;
	}
	ran = st->consumer_run_ns && run_ns != st->consumer_run_ns;
	st->consumer_run_ns = run_ns;
	if (ran)
		doctor_totals_consumer_seen(st->totals, cpu);
}

/*
 * A NIC's queue vectors changed (ethtool -L): the IRQ map and the rotation
 * follow them, and the sums start again, so that the report covers the
 * queues there are, over the time they were there.
 */
static void follow_queues(struct doctor_state *st, struct bpf_session *session, struct top_counters *tc,
			  struct queue_map *queues)
{
	if (!queue_follow(&st->follow, session, queues, tc, st->opts->dev, CMD,
			  "the rotation follows them, the sums start again over the queues there are now"))
		return;
	doctor_totals_restart(st->totals);
	st->first_start_ns = 0;
}

static int doctor_loop(struct doctor_state *st, struct bpf_session *session, struct top_counters *tc,
		       struct queue_map *queues)
{
	const struct doctor_options *opts = st->opts;
	double deadline = monotonic_seconds() + opts->run.duration_s;
	uint64_t seen_ts = 0;
	unsigned int intervals = 0;
	char why[512];
	int err;

	while (!run_stop_requested && monotonic_seconds() < deadline) {
		err = bpf_session_poll(session, 50);
		if (err < 0) {
			fprintf(stderr, CMD ": reading the ring buffer failed: %s\n", strerror(-err));
			return 1;
		}
		sample_consumer(st);
		/* A quiet ring after an interval's records: the interval is whole. */
		if (err || st->last_ts_ns == seen_ts)
			continue;
		seen_ts = st->last_ts_ns;
		doctor_pcie_read(&st->pcie, &st->totals->pcie);
		follow_queues(st, session, tc, queues);
		if (++intervals % DOCTOR_INTERVALS_PER_QUEUE == 0) {
			if (top_counters_rotate(tc, session, opts->run.sysfs_root, queues, why, sizeof(why), CMD,
						stderr))
				fprintf(stderr, CMD ": %s\n", why);
		}
	}
	/* The interval in progress is closed and read, so that the run's end is counted. */
	if (!bpf_session_tick_soon(session)) {
		double until = monotonic_seconds() + 1.0;
		uint64_t last = st->last_ts_ns;

		while (st->last_ts_ns == last && monotonic_seconds() < until)
			bpf_session_poll(session, 20);
		bpf_session_poll(session, 20);
	}
	doctor_pcie_read(&st->pcie, &st->totals->pcie);
	return 0;
}

/* What the session cannot see: the IRQs' affinities, the queues that never polled. */
static void complete_totals(struct doctor_totals *t, const struct queue_map *queues)
{
	unsigned int i, k;
	size_t v;

	for (v = 0; v < queues->nr_vectors; v++) {
		const struct queue_vector *qv = &queues->vectors[v];

		for (k = 0; k < qv->nr_queues && qv->queue >= 0; k++)
			doctor_totals_add_idle(t, qv->func_id, qv->queues[k], qv->dir, qv->irq);
	}
	for (i = 0; i < t->nr_queues; i++)
		if (t->queues[i].irq)
			proc_irq_affinity(t->queues[i].irq, t->queues[i].affinity, sizeof(t->queues[i].affinity));
	t->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	doctor_totals_sort(t);
}

int cmd_doctor(int argc, char **argv)
{
	struct doctor_options opts = { 0 };
	struct doctor_state st = { .opts = &opts };
	struct top_counters tc = { 0 };
	struct queue_map queues = { 0 };
	struct bpf_session session;
	struct bpf_session_options sopts = { 0 };
	struct netpmu_loss_counts losses;
	struct doctor_report *report = NULL;
	unsigned int cpu;
	char why[512];
	int ret;

	ret = parse_doctor_options(argc, argv, &opts);
	if (ret)
		return ret > 0 ? 0 : EXIT_USAGE;
	ret = 1;
	st.totals = calloc(1, sizeof(*st.totals));
	report = calloc(1, sizeof(*report));
	if (!st.totals || !report) {
		fprintf(stderr, CMD ": out of memory\n");
		goto out;
	}
	st.totals->consumer.pid = opts.pid;
	if (opts.pid && proc_task_cpu(opts.pid, &cpu, st.totals->consumer.comm, sizeof(st.totals->consumer.comm))) {
		fprintf(stderr, CMD ": --pid %d: no such process\n", opts.pid);
		ret = EXIT_USAGE;
		goto out;
	}
	if (queue_map_discover(NULL, NULL, &queues, why, sizeof(why)))
		fprintf(stderr, CMD ": warning: queues not mapped to IRQs: %s\n", why);
	why[0] = '\0';
	/*
	 * No PCIe counters in the rotation: doctor reads none of them, and every
	 * one added or removed stops the PMU a moment (the perf core disables it
	 * around the change), so the run's own PCIe group would miss the frames of
	 * those moments.
	 */
	if (top_counters_init(&tc, opts.run.sysfs_root, &queues, opts.dev, false, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out;
	}
	st.dev_func = tc.dev_func;
	st.roles = (struct doctor_counter_roles){ -1, -1, -1, -1, -1 };
	if (tc.nr_counters) {
		st.roles = (struct doctor_counter_roles){ TOP_RX_PACKETS, TOP_RX_BYTES, TOP_TX_PACKETS,
							  TOP_RX_LATENCY_CYCLES, TOP_RX_LATENCY_PACKETS };
		snprintf(st.totals->hw_pmu, sizeof(st.totals->hw_pmu), "%s", tc.pmu);
		st.totals->hw_clk_freq = tc.hw_clk_freq;
	} else if (!opts.json) {
		fprintf(stderr, CMD ": note: %s\n", why);
	}
	/* Counting from here, as the session's first interval does. */
	if (opts.dev)
		doctor_pcie_open(&st.pcie, &st.totals->pcie, opts.run.sysfs_root, queues.functions[tc.dev_func - 1],
				 opts.pcie_port, opts.thresholds.value[DT_PCIE_LINK_MBPS]);
	sopts.interval_ms = opts.run.interval_ms;
	sopts.interval_records = true;
	sopts.counters = tc.counters;
	sopts.nr_counters = tc.nr_counters;
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
	/* The findings come at the end: say that it started, and for how long. */
	fprintf(stderr, CMD ": watching for %g s (%s)\n", opts.run.duration_s, session.hooks);
	ret = doctor_loop(&st, &session, &tc, &queues);
stop_session:
	bpf_session_losses(&session, &losses);
	bpf_session_stop(&session);
	/* After the detach: a reading in progress may take a slow kernel seconds. */
	queue_follow_stop(&st.follow);
	if (losses.ringbuf_full || losses.napi_table_full || losses.irq_table_full)
		fprintf(stderr, CMD ": lost %llu records (ring buffer full), %llu NAPI and %llu IRQ "
			"not tracked (tables full): the figures below miss them\n",
			(unsigned long long)losses.ringbuf_full, (unsigned long long)losses.napi_table_full,
			(unsigned long long)losses.irq_table_full);
	if (ret)
		goto out;
	st.totals->duration_s = st.last_ts_ns > st.first_start_ns ? (st.last_ts_ns - st.first_start_ns) / 1e9 : 0;
	complete_totals(st.totals, &queues);
	doctor_diagnose(st.totals, &opts.thresholds, report);
	if (opts.json)
		doctor_report_json(stdout, st.totals, report);
	else
		doctor_report_text(stdout, st.totals, report);
out:
	doctor_pcie_close(&st.pcie);
	top_counters_release(&tc);
	queue_map_release(&queues);
	free(report);
	free(st.totals);
	return ret;
}
