// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for trace's --where, --agg, --hist and --by (user/trace/):
 * reads records, one a line, and answers as netpmu trace does over them.
 *
 *   trace_query_dump [--per-poll] [-I] [--json] [--counter NAME]... [--where EXPR]
 *                    [--agg SPEC]... [--hist FIELD] [--by KEY] < RECORDS
 *
 * A record: KIND ts=NS [dev=NAME] [FIELD=N]... [cN=N (counter N's value)],
 * KIND poll, queue, cpu or counters (a queue, cpu or counters record is an
 * interval tick's). Without --agg/--hist/--by, prints "match LINE" for each
 * record --where keeps. A refused option: "error: WHY", status 2.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_query.h"

/* A poll record with room for every counter read (and no core delta). */
struct poll_with_reads {
	struct netpmu_poll_record head;
	struct netpmu_counter_read reads[NETPMU_MAX_COUNTERS];
};

union any_record {
	__u32 kind;
	struct poll_with_reads poll;
	struct netpmu_queue_record queue;
	struct netpmu_cpu_record cpu;
	struct netpmu_counters_record counters;
};

/* Sets FIELD of R (of its kind) to VALUE; 0, or -1 if the kind has no such field. */
static int set_field(union any_record *r, const char *field, const char *value)
{
	long long n = strtoll(value, NULL, 0);
	struct netpmu_counter_delta *deltas = NULL;

#define SET(kind_, member, name) \
	if (r->kind == (kind_) && !strcmp(field, name)) { member = n; return 0; }
	SET(NETPMU_RECORD_POLL, r->poll.head.ts_ns, "ts");
	SET(NETPMU_RECORD_POLL, r->poll.head.cpu, "cpu");
	SET(NETPMU_RECORD_POLL, r->poll.head.irq, "irq");
	SET(NETPMU_RECORD_POLL, r->poll.head.work, "work");
	SET(NETPMU_RECORD_POLL, r->poll.head.budget, "budget");
	SET(NETPMU_RECORD_POLL, r->poll.head.napi_id, "napi_id");
	SET(NETPMU_RECORD_QUEUE, r->queue.ts_ns, "ts");
	SET(NETPMU_RECORD_QUEUE, r->queue.cpu, "cpu");
	SET(NETPMU_RECORD_QUEUE, r->queue.irq, "irq");
	SET(NETPMU_RECORD_QUEUE, r->queue.queue, "queue");
	SET(NETPMU_RECORD_QUEUE, r->queue.polls, "polls");
	SET(NETPMU_RECORD_QUEUE, r->queue.packets, "packets");
	SET(NETPMU_RECORD_QUEUE, r->queue.budget_exhausted, "budget_exhausted");
	SET(NETPMU_RECORD_QUEUE, r->queue.irqs, "irqs");
	SET(NETPMU_RECORD_CPU, r->cpu.ts_ns, "ts");
	SET(NETPMU_RECORD_CPU, r->cpu.cpu, "cpu");
	SET(NETPMU_RECORD_CPU, r->cpu.net_rx, "net_rx");
	SET(NETPMU_RECORD_COUNTERS, r->counters.ts_ns, "ts");
#undef SET
	if (!strcmp(field, "dev") && (r->kind == NETPMU_RECORD_POLL || r->kind == NETPMU_RECORD_QUEUE)) {
		snprintf(r->kind == NETPMU_RECORD_POLL ? r->poll.head.ifname : r->queue.ifname,
			 NETPMU_IFNAMSIZ, "%s", value);
		return 0;
	}
	if (field[0] == 'c' && field[1] >= '0' && field[1] < '0' + NETPMU_MAX_COUNTERS && !field[2]) {
		unsigned int i = field[1] - '0';

		if (r->kind == NETPMU_RECORD_POLL) {
			r->poll.reads[i].value = n;
			return 0;
		}
		if (r->kind == NETPMU_RECORD_QUEUE) {
			r->queue.counter_mask |= 1u << i;
			deltas = r->queue.counters;
		} else if (r->kind == NETPMU_RECORD_COUNTERS) {
			deltas = r->counters.counters;
		}
		if (deltas) {
			deltas[i].delta = n;
			return 0;
		}
	}
	return -1;
}

static int parse_record(char *line, unsigned int nr_counters, union any_record *r)
{
	static const char *const kinds[] = { "", "poll", "queue", "cpu", "counters" };
	char *word = strtok(line, " \t\n");
	unsigned int k;

	memset(r, 0, sizeof(*r));
	for (k = 1; word && k < 5 && strcmp(word, kinds[k]); k++)
		;
	if (!word || k == 5)
		return -1;
	r->kind = k;
	if (k == NETPMU_RECORD_POLL)
		r->poll.head.nr_counters = nr_counters;
	if (k == NETPMU_RECORD_COUNTERS)
		r->counters.nr_counters = nr_counters;
	while ((word = strtok(NULL, " \t\n"))) {
		char *eq = strchr(word, '=');

		if (!eq)
			return -1;
		*eq = '\0';
		if (set_field(r, word, eq + 1))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "per-poll", no_argument, NULL, 'p' }, { "json", no_argument, NULL, 'j' },
		{ "counter", required_argument, NULL, 'c' }, { "where", required_argument, NULL, 'w' },
		{ "agg", required_argument, NULL, 'a' }, { "hist", required_argument, NULL, 'H' },
		{ "by", required_argument, NULL, 'b' }, { 0 },
	};
	const char *counters[NETPMU_MAX_COUNTERS];
	struct trace_query_options opts = { 0 };
	struct record_names names = { .counters = counters };
	struct trace_query q;
	bool per_poll = false;
	char line[1024], why[512];
	unsigned int nr = 0;
	int c;

	while ((c = getopt_long(argc, argv, "I", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': per_poll = true; break;
		case 'I': opts.per_interval = true; break;
		case 'j': opts.json = true; break;
		case 'c': if (names.nr_counters < NETPMU_MAX_COUNTERS) counters[names.nr_counters++] = optarg; break;
		case 'w': opts.where = optarg; break;
		case 'a': if (opts.nr_aggs < AGG_MAX_MAPS) opts.aggs[opts.nr_aggs++] = optarg; break;
		case 'H': opts.hist = optarg; break;
		case 'b': opts.by = optarg; break;
		default: return 2;
		}
	}
	/* The kinds as netpmu trace has them: polls with --per-poll, the interval kinds without it or with -I. */
	names.kinds = per_poll ? 1u << NETPMU_RECORD_POLL : 0;
	if (!per_poll || opts.per_interval)
		names.kinds |= (1u << NETPMU_RECORD_QUEUE) | (1u << NETPMU_RECORD_CPU) |
			       (1u << NETPMU_RECORD_COUNTERS);
	names.kinds_hint = !per_poll ? "--per-poll gives poll records" :
			   !opts.per_interval ? "-I gives the interval records too" : NULL;
	/* As trace: compiled before the events open, bound after. */
	names.events_pending = names.nr_counters;
	if (trace_query_compile(&q, &opts, &names, why, sizeof(why)) ||
	    (names.events_pending = false, trace_query_bind(&q, &names, why, sizeof(why)))) {
		printf("error: %s\n", why);
		trace_query_release(&q);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		union any_record r;
		struct record_view v;

		nr++;
		if (parse_record(line, names.nr_counters, &r) ||
		    !record_view_from(&r, sizeof(r), &v)) {
			fprintf(stderr, "line %u: not a record\n", nr);
			return 1;
		}
		if (v.kind != NETPMU_RECORD_POLL)
			trace_query_tick(&q, v.ts_ns, stdout);
		if (!trace_query_match(&q, &v))
			continue;
		if (trace_query_summarises(&q))
			trace_query_add(&q, &v);
		else
			printf("match %u\n", nr);
	}
	trace_query_finish(&q, stdout, counters, names.nr_counters);
	trace_query_release(&q);
	return 0;
}
