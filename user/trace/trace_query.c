// SPDX-License-Identifier: GPL-2.0
#include "trace/trace_query.h"

#include <string.h>
#include <time.h>

#include "lib/why_line.h"

static int prefixed(char *why, size_t why_len, const char *option, const char *reason)
{
	return why_fail(why, why_len, "%s: %s", option, reason);
}

/* --hist F as the aggregation it stands for: @F = hist(F), a counter's text as @hist = hist("TEXT"). */
static int add_hist(struct trace_query *q, const struct record_names *names, char *why, size_t why_len)
{
	const char *f = q->opts->hist;
	struct record_ref ref;
	char spec[256], reason[320];

	if (record_ref_resolve(names, f, &ref, reason, sizeof(reason)))
		return prefixed(why, why_len, "--hist", reason);
	if (ref.kind == REF_DEV)
		return prefixed(why, why_len, "--hist", "dev is no number: count per dev with --agg 'count() by dev'");
	if (f[strspn(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
		snprintf(spec, sizeof(spec), "@hist = hist(\"%s\")", f);
	else
		snprintf(spec, sizeof(spec), "@%s = hist(%s)", f, f);
	if (aggregations_add(&q->closed, spec, names, reason, sizeof(reason)))
		return prefixed(why, why_len, "--hist", reason);
	return 0;
}

int trace_query_compile(struct trace_query *q, const struct trace_query_options *opts,
			const struct record_names *names, char *why, size_t why_len)
{
	char reason[400];
	struct record_ref key;
	unsigned int i;

	memset(q, 0, sizeof(*q));
	q->opts = opts;
	if (opts->where && !(q->where = predicate_compile(opts->where, names, reason, sizeof(reason))))
		return prefixed(why, why_len, "--where", reason);
	for (i = 0; i < opts->nr_aggs; i++)
		if (aggregations_add(&q->closed, opts->aggs[i], names, reason, sizeof(reason)))
			return prefixed(why, why_len, "--agg", reason);
	if (opts->hist && add_hist(q, names, why, why_len))
		return -1;
	if (opts->by) {
		q->groups = record_groups_new(opts->by, why, why_len);
		if (!q->groups)
			return -1;
		if (record_ref_resolve(names, opts->by, &key, reason, sizeof(reason)))
			return prefixed(why, why_len, "--by", reason);
	}
	return 0;
}

int trace_query_bind(struct trace_query *q, const struct record_names *names, char *why, size_t why_len)
{
	char reason[400];

	if (q->where && predicate_bind(q->where, names, reason, sizeof(reason)))
		return prefixed(why, why_len, "--where", reason);
	if (aggregations_bind(&q->closed, names, reason, sizeof(reason)))
		return prefixed(why, why_len, "--agg", reason);
	aggregations_twin(&q->pending, &q->closed);
	return 0;
}

bool trace_query_summarises(const struct trace_query *q)
{
	return q->groups || q->closed.nr_maps;
}

bool trace_query_match(const struct trace_query *q, const struct record_view *v)
{
	return !q->where || predicate_match(q->where, v);
}

/* bpftrace's time(): the local time as "%H:%M:%S", a line of text or a JSON message. */
static void print_time(FILE *out, bool json)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime_r(&now, &tm));
	if (json)
		fprintf(out, "{\"type\": \"time\", \"data\": \"%s\\n\"}\n", buf);
	else
		fprintf(out, "%s\n", buf);
}

static void print_maps(struct trace_query *q, struct aggregations *a, FILE *out)
{
	if (q->opts->json)
		aggregations_print_json(a, out);
	else
		aggregations_print_text(a, out);
}

void trace_query_tick(struct trace_query *q, uint64_t ts_ns, FILE *out)
{
	struct aggregations swap;

	if (!q->opts->per_interval || ts_ns <= q->tick_ns)
		return;
	/* Without maps -I only paces the records: no time line. */
	if (q->tick_ns && q->closed.nr_maps) {
		print_time(out, q->opts->json);
		print_maps(q, &q->closed, out);
	}
	aggregations_clear(&q->closed);
	swap = q->closed;
	q->closed = q->pending;
	q->pending = swap;
	q->tick_ns = ts_ns;
}

void trace_query_add(struct trace_query *q, const struct record_view *v)
{
	if (q->groups)
		record_groups_add(q->groups, v);
	/* Per interval, records after the last tick wait in pending for the next. */
	if (q->opts->per_interval && v->ts_ns > q->tick_ns)
		aggregations_record(&q->pending, v);
	else
		aggregations_record(&q->closed, v);
}

void trace_query_finish(struct trace_query *q, FILE *out, const char *const *counter_names,
			unsigned int nr_counters)
{
	if (q->groups)
		record_groups_print(q->groups, out, counter_names, nr_counters);
	if (!q->closed.nr_maps)
		return;
	if (q->opts->per_interval)
		print_time(out, q->opts->json);
	print_maps(q, &q->closed, out);
}

void trace_query_release(struct trace_query *q)
{
	predicate_free(q->where);
	aggregations_release(&q->closed);
	aggregations_release(&q->pending);
	record_groups_free(q->groups);
	memset(q, 0, sizeof(*q));
}
