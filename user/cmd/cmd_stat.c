// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu stat: perf stat for the HNS3 and PCIe PMUs, with their pairs turned
 * into metrics, their filters checked before anything is opened, and perf's
 * command line and output forms.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include "sys/clock.h"
#include "lib/child_command.h"
#include "lib/cli_values.h"
#include "cmd/commands.h"
#include "event/event_check.h"
#include "event/event_explain.h"
#include "event/event_parse.h"
#include "pmu/metric.h"
#include "lib/output_check.h"
#include "stat/stat_counters.h"
#include "stat/stat_dry_run.h"
#include "stat/stat_output.h"

#define CMD "netpmu stat"
#define WHY_LEN 1024
/* perf stat refuses intervals below 10 ms. */
#define MIN_INTERVAL_MS 10

struct stat_options {
	const char **events;		/* the -e arguments */
	unsigned int nr_events;
	bool group_all;			/* -g */
	unsigned long interval_ms;	/* -I, 0: totals only */
	unsigned long interval_count;	/* --count, 0: no limit */
	const char *separator;		/* -x */
	bool json;
	const char *output_path;	/* -o */
	bool dry_run;
	bool explain;
	bool system_wide;		/* -a: accepted; these PMUs always count system-wide */
	bool per_instance;		/* --no-merge, -A: a line per counter, with its CPU */
	const char *sysfs_root;
	char **command;			/* NULL: until Ctrl-C or --count */
};

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	stop_requested = 1;
}

/* SIGCHLD only has to end the wait: child_command_done() then reaps the command. */
static void on_child_signal(int sig)
{
}

static void stat_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu stat -e EVENTS [-e EVENTS]... [-g] [-a] [--no-merge] [-I MS [--count N]]\n"
		"                   [-x SEP | -j] [-o FILE] [--dry-run] [--explain]\n"
		"                   [--sysfs-root DIR] [[--] COMMAND [ARG...]]\n"
		"\n"
		"Counts HNS3 and PCIe PMU events as perf stat does, over COMMAND's life, until\n"
		"Ctrl-C, or for N intervals. A metric name (a pair without its suffix, e.g.\n"
		"hns3_pmu_sicl_0/bw_ssu_rpu,global=1/) opens both counters of the pair in one\n"
		"group and shows the derived value: bandwidth, packet rate, latency, interrupt\n"
		"rate. Event strings the driver would refuse or silently count as something\n"
		"else are refused with the reason and the fix. As in perf 6.12, a PMU name\n"
		"without its instance number (hns3_pmu_sicl, hisi_pcie0_core) opens the event\n"
		"on every instance that can count it and shows their sum.\n"
		"\n"
		"  -e, --event EVENTS      events in perf syntax: PMU/TERM=VALUE,.../, {A,B} groups,\n"
		"                          several per -e separated by commas; terms: event and\n"
		"                          metric names, format fields (global, port, tc, bdf,\n"
		"                          queue, intr; event, thr_len, ...), config, config1,\n"
		"                          config2, name=NAME, dev=IFNAME (bdf of the netdev's\n"
		"                          PCI function); bdf also as BB:DD.F\n"
		"  -g, --group             put all events in one group\n"
		"  -a, --all-cpus          accepted for perf's sake: these PMUs count system-wide\n"
		"  --no-merge, -A, --no-aggr\n"
		"                          a line per instance instead of their sum, each led by\n"
		"                          its counting CPU (perf 6.12's -A form)\n"
		"  -I, --interval-print MS print the counts every MS milliseconds (>= %d)\n"
		"  --count, --interval-count N\n"
		"                          stop after N intervals\n"
		"  -x, --field-separator SEP\n"
		"                          CSV: [interval,]value,unit,event,runtime,pcnt-running,\n"
		"                          metric-value,metric-unit\n"
		"  -j, --json              JSON lines with perf stat's keys\n"
		"  -o, --output FILE       write the counts to FILE (default: stderr, as perf)\n"
		"  --dry-run               print the perf_event_attr of each counter (as perf\n"
		"                          stat -vv does) and exit without counting\n"
		"  --explain               print the filter mode and target each event selects,\n"
		"                          and exit without counting\n"
		"  --sysfs-root DIR        read the PMUs from DIR instead of /sys\n"
		"  -h, --help              this text\n"
		"\n"
		"Exit status: COMMAND's, else 0; 1 on an error, 2 on a usage error.\n",
		MIN_INTERVAL_MS);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, CMD ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

#define VALID_OPTIONS "-e, -g, -a, --no-merge, -A, -I, --count, -x, -j, -o, --dry-run, " \
		      "--explain, --sysfs-root, --help"

/* Returns -1 to go on, or the exit status. */
static int parse_stat_options(int argc, char **argv, struct stat_options *opts)
{
	enum { OPT_COUNT = 256, OPT_DRY_RUN, OPT_EXPLAIN, OPT_SYSFS_ROOT, OPT_NO_MERGE };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "group", no_argument, NULL, 'g' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "no-merge", no_argument, NULL, OPT_NO_MERGE },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "interval-count", required_argument, NULL, OPT_COUNT },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char **grown;
	int c;

	opterr = 0;
	optind = 1;
	/* "+": the first non-option starts COMMAND, which keeps its own options. */
	while ((c = getopt_long(argc, argv, "+:e:gaAI:x:jo:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			grown = realloc(opts->events, (opts->nr_events + 1) * sizeof(*grown));
			if (!grown) {
				fprintf(stderr, CMD ": out of memory\n");
				return 1;
			}
			opts->events = grown;
			opts->events[opts->nr_events++] = optarg;
			break;
		case 'g':
			opts->group_all = true;
			break;
		case 'a':
			opts->system_wide = true;
			break;
		case 'A':
		case OPT_NO_MERGE:
			opts->per_instance = true;
			break;
		case 'I':
			if (cli_whole_number(CMD, "-I", optarg, MIN_INTERVAL_MS, CLI_INTERVAL_MAX_MS,
					     &opts->interval_ms))
				return EXIT_USAGE;
			break;
		case OPT_COUNT:
			if (cli_whole_number(CMD, "--count", optarg, 1, CLI_COUNT_MAX, &opts->interval_count))
				return EXIT_USAGE;
			break;
		case 'x':
			/* Empty, the columns would run together: no reader could split them. */
			if (!*optarg) {
				fprintf(stderr, CMD ": -x needs a separator, e.g. -x, or -x';'\n");
				return EXIT_USAGE;
			}
			opts->separator = optarg;
			break;
		case 'j':
			opts->json = true;
			break;
		case 'o':
			opts->output_path = optarg;
			break;
		case OPT_DRY_RUN:
			opts->dry_run = true;
			break;
		case OPT_EXPLAIN:
			opts->explain = true;
			break;
		case OPT_SYSFS_ROOT:
			opts->sysfs_root = optarg;
			break;
		case 'h':
			stat_usage(stdout);
			return 0;
		case ':':
			return usage_error("%s needs a value (see netpmu stat --help)", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s' (valid: " VALID_OPTIONS ")",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		opts->command = &argv[optind];
	if (!opts->nr_events)
		return usage_error("no event: give -e EVENT, e.g. -e %s ('netpmu list --events' "
				   "shows them)", "hns3_pmu_sicl_0/bw_ssu_rpu,global=1/");
	if (opts->separator && opts->json)
		return usage_error("%s", "-x and -j choose different output forms: give one");
	if (opts->interval_count && !opts->interval_ms)
		return usage_error("%s", "--count N counts N intervals: give -I MS too");
	return -1;
}

/* "sleep 1" from COMMAND, for the header. */
static char *command_line(char **command)
{
	size_t len = 1;
	char *text;

	for (char **a = command; *a; a++)
		len += strlen(*a) + 1;
	text = calloc(1, len);
	for (char **a = command; text && *a; a++) {
		if (a != command)
			strcat(text, " ");
		strcat(text, *a);
	}
	return text;
}

static void install_signals(void)
{
	struct sigaction sa = { 0 };

	/* No SA_RESTART: a signal must end the sleep or the wait it interrupts. */
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child_signal;
	sigaction(SIGCHLD, &sa, NULL);
}

struct stat_run {
	const struct stat_options *opts;
	struct stat_counters *counters;
	struct stat_output *output;
	struct child_command child;
	bool has_child;
	uint64_t start_ns;
	sigset_t wait_mask;		/* the signal mask while waiting */
	char why[WHY_LEN];
};

static bool run_should_stop(struct stat_run *run)
{
	return stop_requested || (run->has_child && child_command_done(&run->child));
}

/*
 * Waits until DEADLINE_NS (0: no deadline) or a signal. Signals are blocked
 * outside this wait, so none is lost between a check and the wait.
 */
static void wait_for(struct stat_run *run, uint64_t deadline_ns)
{
	struct timespec timeout, *tp = NULL;
	uint64_t now = monotonic_ns();

	if (deadline_ns) {
		uint64_t left = deadline_ns > now ? deadline_ns - now : 0;

		timeout = (struct timespec){ left / 1000000000ULL, left % 1000000000ULL };
		tp = &timeout;
	}
	pselect(0, NULL, NULL, NULL, tp, &run->wait_mask);
}

/* Counts until the end: prints an interval every -I MS, the last one possibly shorter. */
static int count_intervals(struct stat_run *run)
{
	uint64_t step = run->opts->interval_ms * 1000000ULL, next = run->start_ns + step;
	unsigned long printed = 0;

	for (;;) {
		uint64_t now;
		bool last;

		while (!run_should_stop(run) && monotonic_ns() < next)
			wait_for(run, next);
		last = run_should_stop(run);
		/* The time stamp is when the interval was read, as perf prints it. */
		now = monotonic_ns();
		if (stat_counters_read(run->counters, run->why, sizeof(run->why)))
			return -1;
		stat_output_counts(run->output, run->counters, true, now - run->start_ns);
		printed++;
		/* A failed write ends the run; cmd_stat() reports it. */
		if (last || ferror(run->output->out) || (run->opts->interval_count && printed >= run->opts->interval_count))
			return 0;
		next += step;
	}
}

static int count_totals(struct stat_run *run)
{
	while (!run_should_stop(run))
		wait_for(run, 0);
	return 0;
}

/* The command's exit status; 0 if netpmu ended it (--count reached, or Ctrl-C to netpmu alone). */
static int finish_child(struct stat_run *run)
{
	bool ended_by_itself = child_command_done(&run->child);

	child_command_stop(&run->child);
	return ended_by_itself ? child_command_exit_code(&run->child) : 0;
}

/* Opens, starts COMMAND, counts, prints. Returns the exit status. */
static int run_stat(const struct stat_options *opts, const struct event_list *list, FILE *out)
{
	struct stat_counters counters;
	struct stat_output output = {
		.out = out, .format = opts->json ? STAT_FORMAT_JSON :
				      opts->separator ? STAT_FORMAT_CSV : STAT_FORMAT_STD,
		.separator = opts->separator, .interval = opts->interval_ms > 0,
		.per_instance = opts->per_instance,
	};
	struct stat_run run = { .opts = opts, .counters = &counters, .output = &output };
	char *target = NULL, ignored[WHY_LEN];
	sigset_t block, old;
	int status = 1, err;

	if (opts->command && !opts->system_wide)
		target = command_line(opts->command);
	output.target = target ? target : "system wide";
	/* Blocked except while waiting (wait_for), so that no stop or child exit is missed. */
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	run.wait_mask = old;
	sigdelset(&run.wait_mask, SIGCHLD);
	sigdelset(&run.wait_mask, SIGINT);
	sigdelset(&run.wait_mask, SIGTERM);
	install_signals();

	err = stat_counters_open(&counters, list, run.why, sizeof(run.why));
	if (!err)
		err = stat_counters_enable(&counters, true, run.why, sizeof(run.why));
	if (err)
		goto fail;
	run.start_ns = monotonic_ns();
	if (opts->command) {
		/* The command starts with the signal mask netpmu was given. */
		sigprocmask(SIG_SETMASK, &old, NULL);
		err = child_command_start(&run.child, opts->command, run.why, sizeof(run.why));
		sigprocmask(SIG_BLOCK, &block, NULL);
		if (err) {
			stat_counters_enable(&counters, false, ignored, sizeof(ignored));
			goto fail;
		}
		run.has_child = true;
	}
	if (output.interval)
		err = count_intervals(&run);
	else
		err = count_totals(&run);
	if (!err)
		err = stat_counters_enable(&counters, false, run.why, sizeof(run.why));
	if (!err && !output.interval) {
		uint64_t elapsed = monotonic_ns() - run.start_ns;

		err = stat_counters_read(&counters, run.why, sizeof(run.why));
		if (!err) {
			stat_output_counts(&output, &counters, false, 0);
			stat_output_end(&output, elapsed);
		}
	}
	if (err)
		goto fail;
	status = run.has_child ? finish_child(&run) : 0;
	goto out;
fail:
	fprintf(stderr, CMD ": %s\n", run.why);
	if (run.has_child)
		child_command_stop(&run.child);
out:
	stat_counters_close(&counters);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(target);
	return status;
}

static int explain_or_dry_run(const struct stat_options *opts, struct event_list *list,
			      const struct event_parse_ctx *ctx)
{
	char why[WHY_LEN];
	int status = 0;

	if (opts->explain && event_explain_print(stdout, list, ctx))
		status = 1;
	if (opts->dry_run) {
		if (!opts->explain && event_list_check(list, ctx, why, sizeof(why))) {
			fprintf(stderr, CMD ": %s\n", why);
			return 1;
		}
		if (!status)
			stat_dry_run_print(stdout, list);
	}
	return status;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_options opts = { 0 };
	struct event_list list = { 0 };
	struct event_catalog cat;
	char why[WHY_LEN];
	FILE *out = stderr;
	int status;

	status = parse_stat_options(argc, argv, &opts);
	if (status >= 0)
		goto out_options;
	status = 1;
	setlocale(LC_NUMERIC, "");	/* perf groups digits as the locale says */
	if (event_catalog_discover(&cat, opts.sysfs_root, why, sizeof(why))) {
		fprintf(stderr, CMD ": cannot read the PMUs: %s\n", why);
		goto out_options;
	}
	for (unsigned int i = 0; i < opts.nr_events; i++) {
		if (event_list_parse(&list, opts.events[i], &cat.ctx, why, sizeof(why))) {
			fprintf(stderr, CMD ": %s\n", why);
			goto out_list;
		}
	}
	if (opts.group_all)
		event_list_group_all(&list);
	if (opts.explain || opts.dry_run) {
		status = explain_or_dry_run(&opts, &list, &cat.ctx);
		goto out_list;
	}
	if (event_list_check(&list, &cat.ctx, why, sizeof(why))) {
		fprintf(stderr, CMD ": %s\n", why);
		goto out_list;
	}
	if (opts.output_path) {
		out = output_open(opts.output_path);
		if (!out) {
			fprintf(stderr, CMD ": cannot write %s: %s\n", opts.output_path, strerror(errno));
			goto out_list;
		}
	}
	status = run_stat(&opts, &list, out);
	if (out != stderr) {
		int err = output_close(out);

		if (err) {
			fprintf(stderr, CMD ": cannot write %s: %s\n", opts.output_path, strerror(err));
			status = status ? status : 1;
		}
	} else if (ferror(stderr)) {
		status = status ? status : 1;	/* where the counts went: no place to say it */
	}
out_list:
	event_list_release(&list);
	event_catalog_release(&cat);
out_options:
	free(opts.events);
	return status;
}
