// SPDX-License-Identifier: GPL-2.0
/* netpmu trace's command line: its options, --help, and their checks. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "lib/cli_values.h"
#include "cmd/trace_options.h"

#define CMD TRACE_CMD
/* --ringbuf-kb: 1 GiB; its size in bytes must fit the map's 32-bit max_entries. */
#define RINGBUF_MAX_KB 1048576UL

void trace_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu trace [--per-poll] [-e EVENT]... [-I MS] [-d SECONDS] [--count N] [-j]\n"
		"                    [--where EXPR] [--agg AGGREGATION]... [--hist FIELD] [--by KEY]\n"
		"                    [-- COMMAND...]\n"
		"\n"
		"Streams what the kernel joined: per interval, one record per NAPI instance (queue)\n"
		"with its polls, packets, interrupts and the NIC PMU counter deltas of its queue,\n"
		"function and vector; one per CPU with its NET_RX/NET_TX softirq time; one with\n"
		"every counter's delta; with core events, one per CPU with their counts, in all\n"
		"and inside NET_RX softirqs.\n"
		"  -e, --event EVENT  a PMU counter in perf syntax (at most %d), e.g.\n"
		"                     hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/; a PMU name\n"
		"                     without its instance number (hns3_pmu_sicl) gives a counter\n"
		"                     on each instance, shown by the instance's own name\n"
		"                     or, counted on every CPU, a core event: cycles,\n"
		"                     instructions, ... with perf's :u, :k, :h (at most %d),\n"
		"                     per poll, per NAPI instance and per CPU\n"
		"  -I, --interval MS  interval length (default %d)\n"
		"  --per-poll         one record per NAPI poll instead, with the counters read at\n"
		"                     that moment, or the last snapshot (marked ~) where the\n"
		"                     counter is not readable on the poll's CPU; with -I, the\n"
		"                     interval records too\n"
		"  -d, --duration S   stop after S seconds (default: Ctrl-C, or COMMAND's end)\n"
		"  --count N          stop after N records\n"
		"  -j, --json         JSON lines instead of text\n"
		"  --where EXPR       only the records EXPR holds for: == != < <= > >= && || !\n"
		"                     ( ) over fields, -e events and numbers (42, 0x2a, 1e6),\n"
		"                     dev with a \"name\"; e.g. 'work == budget && dev == \"eth1\"';\n"
		"                     dev=eth1,queue=0 is dev == \"eth1\" && queue == 0; with\n"
		"                     --per-poll, the comparisons of its top-level && over a\n"
		"                     poll's cpu, ifindex, napi_id, irq, work, budget and dev are\n"
		"                     tested in the kernel first (at most 8)\n"
		"  --explain          print where each part of --where is tested, and exit\n"
		"  --no-kernel-filter test all of --where in user space\n"
		"  --agg AGGREGATION  a bpftrace map of the records kept, printed at the end (with\n"
		"                     -I, each interval) as bpftrace prints it (--json: its JSON):\n"
		"                     [@NAME[KEY,...] =] FUNC(FIELD) [by KEY,...], FUNC count() sum\n"
		"                     avg min max stats hist lhist(F,MIN,MAX,STEP), KEY dev, queue,\n"
		"                     cpu, irq, ...; e.g. '@[dev, cpu] = count()',\n"
		"                     'lhist(work, 0, 64, 8) by dev'; repeatable\n"
		"  --hist FIELD       --agg '@FIELD = hist(FIELD)': a log2 histogram (e.g. work)\n"
		"  --by KEY           print sums per queue, cpu, irq or dev at the end\n"
		"  --ringbuf-kb N     ring buffer size in KiB (power of 2; default 1024)\n"
		"  --sysfs-root DIR   read PMUs from DIR instead of /sys\n"
		RUN_HOOKS_USAGE
		RUN_HELP_USAGE,
		NETPMU_MAX_COUNTERS, NETPMU_MAX_CORE_EVENTS, RUN_DEFAULT_INTERVAL_MS);
}

int parse_trace_options(int argc, char **argv, struct trace_options *opts)
{
	enum {
		OPT_PER_POLL = RUN_OPT_NEXT, OPT_WHERE, OPT_AGG, OPT_BY, OPT_HIST, OPT_RINGBUF, OPT_EXPLAIN,
		OPT_NO_KERNEL_FILTER,
	};
	static const struct option longopts[] = {
		{ "per-poll", no_argument, NULL, OPT_PER_POLL },
		{ "event", required_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "where", required_argument, NULL, OPT_WHERE },
		{ "agg", required_argument, NULL, OPT_AGG },
		{ "by", required_argument, NULL, OPT_BY },
		{ "hist", required_argument, NULL, OPT_HIST },
		{ "ringbuf-kb", required_argument, NULL, OPT_RINGBUF },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "no-kernel-filter", no_argument, NULL, OPT_NO_KERNEL_FILTER },
		RUN_LONG_OPTIONS,
		RUN_HOOKS_OPTION,
		{ 0 }
	};
	unsigned long number;
	int c;

	run_options_init(&opts->run);
	/* "+": stop at the first non-option, so COMMAND keeps its own options. */
	while ((c = getopt_long(argc, argv, "+e:j" RUN_SHORT_OPTIONS, longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PER_POLL:
			opts->per_poll = true;
			break;
		case 'e':
			if (opts->nr_events == NETPMU_MAX_COUNTERS) {
				fprintf(stderr, CMD ": at most %d events (a PMU has %d counters)\n",
					NETPMU_MAX_COUNTERS, NETPMU_MAX_COUNTERS);
				return -1;
			}
			opts->events[opts->nr_events++] = optarg;
			break;
		case 'j':
			opts->json = true;
			break;
		case OPT_WHERE:
			opts->query.where = optarg;
			break;
		case OPT_AGG:
			if (opts->query.nr_aggs == AGG_MAX_MAPS) {
				fprintf(stderr, CMD ": at most %d --agg\n", AGG_MAX_MAPS);
				return -1;
			}
			opts->query.aggs[opts->query.nr_aggs++] = optarg;
			break;
		case OPT_BY:
			opts->query.by = optarg;
			break;
		case OPT_HIST:
			opts->query.hist = optarg;
			break;
		case OPT_RINGBUF:
			if (cli_whole_number(CMD, "--ringbuf-kb", optarg, 1, RINGBUF_MAX_KB, &number))
				return -1;
			opts->ringbuf_kb = number;
			break;
		case OPT_EXPLAIN:
			opts->explain = true;
			break;
		case OPT_NO_KERNEL_FILTER:
			opts->no_kernel_filter = true;
			break;
		case 'h':
			trace_usage(stdout);
			return 1;	/* done: the caller returns 0 */
		default:
			if (run_option(CMD, c, optarg, &opts->run))
				return -1;
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--")) {
			fprintf(stderr, CMD ": unexpected argument '%s' (a command goes after --)\n",
				argv[optind]);
			return -1;
		}
		opts->command = &argv[optind];
	}
	return 0;
}