// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu trace --per-poll: one record per NAPI poll, with the NIC PMU counters
 * read by the BPF program at that moment, streamed from the ring buffer.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "event_parse.h"
#include "json_writer.h"
#include "napi_poll.skel.h"
#include "netpmu_records.h"
#include "perf_counter.h"

struct trace_options {
	bool per_poll;
	bool json;
	double duration_s;		/* 0: until Ctrl-C or --count */
	unsigned long max_records;	/* 0: no limit */
	const char *sysfs_root;
	const char *events[NETPMU_MAX_COUNTERS];
	unsigned int nr_events;
};

struct trace_state {
	const struct trace_options *opts;
	struct parsed_event events[NETPMU_MAX_COUNTERS];
	unsigned long records;
	int nr_cpus;
};

static volatile sig_atomic_t stop_requested;

static void request_stop(int sig)
{
	stop_requested = 1;
}

static void trace_usage(FILE *out)
{
	fprintf(out,
		"usage: netpmu trace --per-poll [-e EVENT]... [-d SECONDS] [--count N] [--json]\n"
		"\n"
		"Streams one record per NAPI poll with the NIC PMU counters read at that moment.\n"
		"  --per-poll        one record per NAPI poll\n"
		"  -e, --event EVENT a PMU counter to read, in perf syntax, e.g.\n"
		"                    hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/ (at most %d)\n"
		"  -d, --duration S  stop after S seconds (default: Ctrl-C)\n"
		"  --count N         stop after N records\n"
		"  -j, --json        JSON lines instead of text\n"
		"  --sysfs-root DIR  read PMUs from DIR instead of /sys\n"
		"A counter opened on its PMU's counting CPU is readable only by polls on that\n"
		"CPU, unless the PMU is system-wide; other polls show it as not readable.\n",
		NETPMU_MAX_COUNTERS);
}

static int parse_trace_options(int argc, char **argv, struct trace_options *opts)
{
	enum { OPT_PER_POLL = 256, OPT_COUNT, OPT_SYSFS_ROOT };
	static const struct option longopts[] = {
		{ "per-poll", no_argument, NULL, OPT_PER_POLL },
		{ "event", required_argument, NULL, 'e' },
		{ "duration", required_argument, NULL, 'd' },
		{ "count", required_argument, NULL, OPT_COUNT },
		{ "json", no_argument, NULL, 'j' },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS_ROOT },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "e:d:jh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PER_POLL:
			opts->per_poll = true;
			break;
		case 'e':
			if (opts->nr_events == NETPMU_MAX_COUNTERS) {
				fprintf(stderr, "netpmu trace: at most %d events (a PMU has %d counters)\n",
					NETPMU_MAX_COUNTERS, NETPMU_MAX_COUNTERS);
				return -1;
			}
			opts->events[opts->nr_events++] = optarg;
			break;
		case 'd':
			errno = 0;
			opts->duration_s = strtod(optarg, &end);
			if (errno || *end || opts->duration_s <= 0) {
				fprintf(stderr, "netpmu trace: -d wants a positive number of seconds, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case OPT_COUNT:
			errno = 0;
			opts->max_records = strtoul(optarg, &end, 10);
			if (errno || *end || !opts->max_records || optarg[0] == '-') {
				fprintf(stderr, "netpmu trace: --count wants a positive whole number, not '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'j':
			opts->json = true;
			break;
		case OPT_SYSFS_ROOT:
			opts->sysfs_root = optarg;
			break;
		case 'h':
			trace_usage(stdout);
			exit(0);
		default:
			trace_usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netpmu trace: unexpected argument '%s' (see netpmu trace --help)\n",
			argv[optind]);
		return -1;
	}
	if (!opts->per_poll) {
		fprintf(stderr, "netpmu trace: this version streams per-poll records only: add --per-poll\n");
		return -1;
	}
	return 0;
}

static void print_counter_text(const struct parsed_event *ev, const struct netpmu_counter_read *c,
			       const struct netpmu_poll_record *rec)
{
	if (c->err == -ENOENT)
		printf("  %s=<not readable on cpu %u>", ev->text, rec->cpu);
	else if (c->err)
		printf("  %s=<error %d>", ev->text, c->err);
	else
		printf("  %s=%llu", ev->text, (unsigned long long)c->value);
}

static void print_poll_text(const struct trace_state *st, const struct netpmu_poll_record *rec)
{
	unsigned int i;

	printf("%llu.%09llu cpu=%u dev=%s napi=%u work=%d/%d",
	       (unsigned long long)(rec->ts_ns / 1000000000ull),
	       (unsigned long long)(rec->ts_ns % 1000000000ull),
	       rec->cpu, rec->ifname[0] ? rec->ifname : "-", rec->napi_id,
	       rec->work, rec->budget);
	for (i = 0; i < st->opts->nr_events; i++)
		print_counter_text(&st->events[i], &rec->counters[i], rec);
	putchar('\n');
}

static void print_poll_json(const struct trace_state *st, const struct netpmu_poll_record *rec)
{
	struct json_writer w;
	unsigned int i;

	json_init(&w, stdout);
	json_begin_object(&w, NULL);
	json_string(&w, "type", "poll");
	json_uint(&w, "ts_ns", rec->ts_ns);
	json_uint(&w, "cpu", rec->cpu);
	json_string(&w, "dev", rec->ifname);
	json_int(&w, "ifindex", rec->ifindex);
	json_uint(&w, "napi_id", rec->napi_id);
	json_int(&w, "work", rec->work);
	json_int(&w, "budget", rec->budget);
	json_begin_array(&w, "counters");
	for (i = 0; i < st->opts->nr_events; i++) {
		const struct netpmu_counter_read *c = &rec->counters[i];

		json_begin_object(&w, NULL);
		json_string(&w, "event", st->events[i].text);
		json_bool(&w, "readable", !c->err);
		if (c->err) {
			json_int(&w, "error", c->err);
		} else {
			json_uint(&w, "value", c->value);
			json_uint(&w, "enabled_ns", c->enabled_ns);
			json_uint(&w, "running_ns", c->running_ns);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);
	putchar('\n');
}

static int handle_record(void *ctx, void *data, size_t size)
{
	struct trace_state *st = ctx;
	const struct netpmu_poll_record *rec = data;

	if (size < sizeof(*rec) || rec->kind != NETPMU_RECORD_POLL)
		return 0;
	if (st->opts->json)
		print_poll_json(st, rec);
	else
		print_poll_text(st, rec);
	st->records++;
	if (st->opts->max_records && st->records >= st->opts->max_records)
		stop_requested = 1;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Opens every event on its PMU's counting CPU and stores it where the BPF program looks. */
static int open_counters(struct trace_state *st, struct napi_poll_bpf *skel, int *fds)
{
	unsigned int i;

	for (i = 0; i < st->opts->nr_events; i++) {
		const struct parsed_event *ev = &st->events[i];
		__u32 key = i * st->nr_cpus + ev->spec.cpu;
		char why[256];
		int err;

		fds[i] = perf_counter_open(&ev->spec, -1, why, sizeof(why));
		if (fds[i] < 0) {
			fprintf(stderr, "netpmu trace: cannot open %s: %s\n", ev->text, why);
			return -1;
		}
		err = bpf_map__update_elem(skel->maps.pmu_counters, &key, sizeof(key),
					   &fds[i], sizeof(fds[i]), BPF_ANY);
		if (err) {
			fprintf(stderr, "netpmu trace: cannot hand %s to the BPF program: %s\n",
				ev->text, strerror(-err));
			return -1;
		}
	}
	return 0;
}

static int run_trace(struct trace_state *st)
{
	const struct trace_options *opts = st->opts;
	struct ring_buffer *rb = NULL;
	struct napi_poll_bpf *skel;
	int fds[NETPMU_MAX_COUNTERS];
	unsigned int i;
	double deadline;
	int err, ret = 1;

	for (i = 0; i < NETPMU_MAX_COUNTERS; i++)
		fds[i] = -1;

	skel = napi_poll_bpf__open();
	if (!skel) {
		fprintf(stderr, "netpmu trace: cannot open the BPF object: %s\n", strerror(errno));
		return 1;
	}
	skel->rodata->nr_cpus = st->nr_cpus;
	skel->rodata->nr_counters = opts->nr_events;
	bpf_map__set_max_entries(skel->maps.pmu_counters, NETPMU_MAX_COUNTERS * st->nr_cpus);

	err = napi_poll_bpf__load(skel);
	if (err) {
		fprintf(stderr, "netpmu trace: cannot load the BPF programs: %s%s\n", strerror(-err),
			access("/sys/kernel/btf/vmlinux", R_OK) ?
			" (this kernel has no BTF at /sys/kernel/btf/vmlinux: netpmu needs CONFIG_DEBUG_INFO_BTF=y)" :
			" (netpmu needs root or CAP_BPF + CAP_PERFMON)");
		goto out;
	}
	if (open_counters(st, skel, fds))
		goto out;
	err = napi_poll_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "netpmu trace: cannot attach to the napi_poll tracepoint: %s\n",
			strerror(-err));
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.records), handle_record, st, NULL);
	if (!rb) {
		fprintf(stderr, "netpmu trace: cannot open the ring buffer: %s\n", strerror(errno));
		goto out;
	}

	signal(SIGINT, request_stop);
	signal(SIGTERM, request_stop);
	fprintf(stderr, "netpmu trace: tracing NAPI polls with %u counter%s (Ctrl-C to stop)\n",
		opts->nr_events, opts->nr_events == 1 ? "" : "s");
	deadline = opts->duration_s > 0 ? now_s() + opts->duration_s : 0;
	while (!stop_requested && (!deadline || now_s() < deadline)) {
		err = ring_buffer__poll(rb, 100);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "netpmu trace: reading the ring buffer failed: %s\n", strerror(-err));
			goto out;
		}
		fflush(stdout);
	}
	/* Records already in the buffer were collected: print them too. */
	if (!opts->max_records || st->records < opts->max_records)
		ring_buffer__consume(rb);
	fprintf(stderr, "netpmu trace: %lu records, %llu dropped (ring buffer full)\n",
		st->records, (unsigned long long)skel->bss->ringbuf_drops);
	ret = 0;
out:
	ring_buffer__free(rb);
	napi_poll_bpf__destroy(skel);
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret;
}

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list args)
{
	/* libbpf's own warnings only with NETPMU_DEBUG set: netpmu prints one line itself. */
	if (!getenv("NETPMU_DEBUG"))
		return 0;
	return vfprintf(stderr, fmt, args);
}

int cmd_trace(int argc, char **argv)
{
	struct trace_options opts = { 0 };
	struct trace_state st = { .opts = &opts };
	unsigned int i, parsed = 0;
	int ret = 1;

	if (parse_trace_options(argc, argv, &opts))
		return 2;
	libbpf_set_print(quiet_libbpf);
	st.nr_cpus = libbpf_num_possible_cpus();
	if (st.nr_cpus <= 0) {
		fprintf(stderr, "netpmu trace: cannot count the possible CPUs: %s\n",
			strerror(-st.nr_cpus));
		return 1;
	}
	for (; parsed < opts.nr_events; parsed++) {
		char why[512];

		if (event_parse(opts.events[parsed], opts.sysfs_root, &st.events[parsed],
				why, sizeof(why))) {
			fprintf(stderr, "netpmu trace: %s\n", why);
			goto out;
		}
	}
	ret = run_trace(&st);
out:
	for (i = 0; i < parsed; i++)
		parsed_event_release(&st.events[i]);
	return ret;
}
