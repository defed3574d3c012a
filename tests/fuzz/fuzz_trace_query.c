// SPDX-License-Identifier: GPL-2.0
/*
 * netpmu trace's --where expressions and --agg aggregations: the input is
 * compiled as both (with one counter and one core event to name, their
 * binding pending as in trace), then run over a poll and a queue record.
 * An expression's part the kernel would test (poll_filter.h) must never
 * leave out a poll the whole expression keeps: the napi_poll program's
 * comparisons, written again here as the oracle, are checked against it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace/poll_filter.h"
#include "trace/trace_query.h"
#include "fuzz_common.h"

static const char *const counters[] = { "hns3_pmu_sicl_0/bw_ssu_rpu_byte_num,global=1/" };
static const char *const core[] = { "cycles:k" };

static int64_t poll_value(const struct netpmu_poll_record *r, uint32_t field, int64_t value)
{
	switch (field) {
	case NETPMU_POLL_CPU: return r->cpu;
	case NETPMU_POLL_IFINDEX: return r->ifindex;
	case NETPMU_POLL_NAPI_ID: return r->napi_id;
	case NETPMU_POLL_IRQ: return r->irq;
	case NETPMU_POLL_WORK: return r->work;
	case NETPMU_POLL_BUDGET: return r->budget;
	default: return value;
	}
}

/* What napi_poll.bpf.c's poll_wanted() answers for R. */
static bool kernel_keeps(const struct poll_filter_plan *plan, const struct netpmu_poll_record *r)
{
	for (unsigned int i = 0; i < plan->nr_filters; i++) {
		const struct netpmu_poll_filter *f = &plan->filters[i];
		int64_t l = poll_value(r, f->left, 0), v = poll_value(r, f->right, f->value);
		bool ok;

		if (f->left == NETPMU_POLL_DEV) {
			ok = !memcmp(r->ifname, f->dev, sizeof(f->dev)) == (f->op == NETPMU_OP_EQ);
		} else {
			switch (f->op) {
			case NETPMU_OP_EQ: ok = l == v; break;
			case NETPMU_OP_NE: ok = l != v; break;
			case NETPMU_OP_LT: ok = l < v; break;
			case NETPMU_OP_LE: ok = l <= v; break;
			case NETPMU_OP_GT: ok = l > v; break;
			default: ok = l >= v; break;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

static void run_over_records(struct trace_query *q, const uint8_t *data, size_t size, bool check_kernel)
{
	struct {
		struct netpmu_poll_record head;
		struct netpmu_counter_read reads[1];
	} poll = { .head = { .kind = NETPMU_RECORD_POLL, .ts_ns = 5, .work = 64, .budget = 64,
			     .ifname = "eth1", .nr_counters = 1 } };
	/* The input as a ring buffer record too: its counts must not lead the reader astray. */
	union {
		uint64_t align;
		uint8_t bytes[2 * sizeof(struct netpmu_queue_record)];
	} raw = { 0 };
	size_t raw_size = size < sizeof(raw) ? size : sizeof(raw);
	struct poll_filter_plan plan;
	struct netpmu_queue_record queue = { .kind = NETPMU_RECORD_QUEUE, .ts_ns = 10, .queue = -1,
					     .ifname = "eth1", .packets = 3, .counter_mask = 1 };
	struct record_view v;
	FILE *sink = fopen("/dev/null", "w");

	if (!sink)
		return;
	/* The poll's fields from the input's last bytes, so that comparisons go both ways. */
	if (size >= 4) {
		poll.head.cpu = data[size - 1] % 4;
		poll.head.work = data[size - 2] % 70;
		poll.head.irq = data[size - 3] % 40;
		poll.head.napi_id = data[size - 4];
	}
	memcpy(raw.bytes, data, raw_size);
	if (record_view_from(raw.bytes, raw_size, &v) && trace_query_match(q, &v))
		trace_query_add(q, &v);
	record_view_from(&poll, sizeof(poll), &v);
	poll_filter_plan(q->where, true, true, &plan);
	poll_filter_explain(sink, "fuzz", &plan);
	if (trace_query_match(q, &v)) {
		if (check_kernel && !kernel_keeps(&plan, &poll.head))
			__builtin_trap();
		trace_query_add(q, &v);
	}
	record_view_from(&queue, sizeof(queue), &v);
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
				run_over_records(&q, data, size, i == 0);
		}
		/* Every refusal is one line. */
		if (strchr(why, '\n'))
			__builtin_trap();
		trace_query_release(&q);
	}
	free(s);
	return 0;
}
