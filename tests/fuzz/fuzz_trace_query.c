// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu trace's --where expressions and --agg aggregations: the input is
 * compiled as both (with one counter and one core event to name, their
 * binding pending as in trace), then run over a poll and a queue record.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace_query.h"
#include "fuzz_common.h"

static const char *const counters[] = { "hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/" };
static const char *const core[] = { "cycles:k" };

static void run_over_records(struct trace_query *q)
{
	struct netpmu_poll_record poll = { .kind = NETPMU_RECORD_POLL, .ts_ns = 5, .work = 64,
					   .budget = 64, .ifname = "eth1", .nr_counters = 1 };
	struct netpmu_queue_record queue = { .kind = NETPMU_RECORD_QUEUE, .ts_ns = 10, .queue = -1,
					     .ifname = "eth1", .packets = 3, .counter_mask = 1 };
	struct record_view v;
	FILE *sink = fopen("/dev/null", "w");

	if (!sink)
		return;
	record_view_from(&poll, sizeof(poll), 1, &v);
	if (trace_query_match(q, &v))
		trace_query_add(q, &v);
	record_view_from(&queue, sizeof(queue), 1, &v);
	trace_query_tick(q, v.ts_ns, sink);
	if (trace_query_match(q, &v))
		trace_query_add(q, &v);
	trace_query_finish(q, sink, counters, 1);
	fclose(sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), why[512];
	struct record_names names = {
		.counters = counters, .nr_counters = 1, .core = core, .nr_core = 1, .events_pending = true,
		.kinds = (1u << NETPMU_RECORD_POLL) | (1u << NETPMU_RECORD_QUEUE),
	};
	struct trace_query_options where = { .where = s, .per_interval = true };
	struct trace_query_options agg = { .aggs = { s }, .nr_aggs = 1, .json = size & 1 };
	const struct trace_query_options *each[] = { &where, &agg };
	struct trace_query q;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		why[0] = '\0';
		names.events_pending = true;
		if (!trace_query_compile(&q, each[i], &names, why, sizeof(why))) {
			names.events_pending = false;
			if (!trace_query_bind(&q, &names, why, sizeof(why)))
				run_over_records(&q);
		}
		/* Every refusal is one line. */
		if (strchr(why, '\n'))
			__builtin_trap();
		trace_query_release(&q);
	}
	free(s);
	return 0;
}
