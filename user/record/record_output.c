// SPDX-License-Identifier: GPL-2.0
#include "record/record_output.h"

#include <errno.h>
#include <inttypes.h>

#include "lib/json_writer.h"

static void print_read_text(FILE *out, const char *name, const struct netpmu_counter_read *c)
{
	if (c->flags & NETPMU_READ_SNAPSHOT)
		fprintf(out, " %s=~%" PRIu64 "(snapshot)", name, (uint64_t)c->value);
	else if (c->err)
		fprintf(out, " %s=<unreadable: %d>", name, c->err);
	else
		fprintf(out, " %s=%" PRIu64, name, (uint64_t)c->value);
}

static void print_delta_text(FILE *out, const char *name, const struct netpmu_counter_delta *d)
{
	if (d->err)
		fprintf(out, " %s=<unreadable: %d>", name, d->err);
	else if (d->running_ns < d->enabled_ns)
		/* Multiplexed: scaled as perf does, and marked. */
		fprintf(out, " %s=~%" PRIu64 "(%.0f%%)", name,
			d->running_ns ? (uint64_t)((double)d->delta * d->enabled_ns / d->running_ns) : 0,
			d->enabled_ns ? 100.0 * d->running_ns / d->enabled_ns : 0.0);
	else
		fprintf(out, " +%s=%" PRIu64, name, (uint64_t)d->delta);
}

/* perf's scaling of a multiplexed count: as if it had run all the time it was enabled. */
static uint64_t core_scaled(const struct netpmu_core_delta *d)
{
	return d->running_ns ? (uint64_t)((double)d->delta * d->enabled_ns / d->running_ns) : 0;
}

static bool core_multiplexed(const struct netpmu_core_delta *d)
{
	return d->running_ns < d->enabled_ns;
}

/* SUFFIX names the part of the stretch ("[net_rx]"); a poll whose start was not seen shows "-". */
static void print_core_text(FILE *out, const char *name, const char *suffix, bool poll,
			    const struct netpmu_core_delta *d)
{
	if (!d->measured && d->err)
		fprintf(out, " %s%s=<unreadable: %d>", name, suffix, d->err);
	else if (!d->measured && poll)
		fprintf(out, " %s%s=-", name, suffix);
	else if (core_multiplexed(d))
		fprintf(out, " %s%s=~%" PRIu64 "(%.0f%%)", name, suffix, core_scaled(d),
			d->enabled_ns ? 100.0 * d->running_ns / d->enabled_ns : 0.0);
	else
		fprintf(out, " +%s%s=%" PRIu64, name, suffix, (uint64_t)d->delta);
}

static void print_core_json(struct json_writer *w, const struct netpmu_core_delta *d)
{
	json_uint(w, "measured", d->measured);
	if (d->err)
		json_int(w, "error", d->err);
	json_uint(w, "delta", d->delta);
	json_uint(w, "enabled_ns", d->enabled_ns);
	json_uint(w, "running_ns", d->running_ns);
	if (core_multiplexed(d))
		json_uint(w, "scaled", core_scaled(d));
}

void record_print_text(FILE *out, const struct record_view *v, const char *const *counter_names)
{
	unsigned int i;
	size_t f;

	fprintf(out, "%" PRIu64 ".%09" PRIu64 " %-8s", v->ts_ns / 1000000000, v->ts_ns % 1000000000,
		v->kind_name);
	if (v->dev)
		fprintf(out, " dev=%s", v->dev[0] ? v->dev : "-");
	for (f = 0; f < v->nr_fields; f++)
		fprintf(out, " %s=%" PRId64, v->fields[f].name, v->fields[f].value);
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		if (!(v->counter_mask & (1u << i)))
			continue;
		if (v->reads)
			print_read_text(out, counter_names[i], &v->reads[i]);
		else
			print_delta_text(out, counter_names[i], &v->deltas[i]);
	}
	for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
		if (!(v->core_mask & (1u << i)))
			continue;
		print_core_text(out, v->core_names[i], "", v->kind == NETPMU_RECORD_POLL, &v->core[i]);
		if (v->core_net_rx)
			print_core_text(out, v->core_names[i], "[net_rx]", false, &v->core_net_rx[i]);
	}
	fputc('\n', out);
}

void record_print_json(FILE *out, const struct record_view *v, const char *const *counter_names)
{
	struct json_writer w;
	unsigned int i;
	size_t f;

	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_string(&w, "type", v->kind_name);
	json_uint(&w, "ts_ns", v->ts_ns);
	if (v->dev)
		json_string(&w, "dev", v->dev);
	for (f = 0; f < v->nr_fields; f++)
		json_int(&w, v->fields[f].name, v->fields[f].value);
	json_begin_array(&w, "counters");
	for (i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		if (!(v->counter_mask & (1u << i)))
			continue;
		json_begin_object(&w, NULL);
		json_string(&w, "event", counter_names[i]);
		if (v->reads) {
			const struct netpmu_counter_read *c = &v->reads[i];
			bool snapshot = c->flags & NETPMU_READ_SNAPSHOT;

			json_bool(&w, "readable", !c->err || snapshot);
			json_bool(&w, "snapshot", snapshot);
			if (c->err)
				json_int(&w, "error", c->err);
			if (!c->err || snapshot) {
				json_uint(&w, "value", c->value);
				json_uint(&w, "enabled_ns", c->enabled_ns);
				json_uint(&w, "running_ns", c->running_ns);
			}
		} else {
			const struct netpmu_counter_delta *d = &v->deltas[i];

			json_bool(&w, "readable", !d->err);
			if (d->err) {
				json_int(&w, "error", d->err);
			} else {
				json_uint(&w, "delta", d->delta);
				json_uint(&w, "enabled_ns", d->enabled_ns);
				json_uint(&w, "running_ns", d->running_ns);
			}
			json_uint(&w, "generation", d->generation);
		}
		json_end_object(&w);
	}
	json_end_array(&w);
	if (v->core_mask) {
		json_begin_array(&w, "core");
		for (i = 0; i < NETPMU_MAX_CORE_EVENTS; i++) {
			if (!(v->core_mask & (1u << i)))
				continue;
			json_begin_object(&w, NULL);
			json_string(&w, "event", v->core_names[i]);
			print_core_json(&w, &v->core[i]);
			if (v->core_net_rx) {
				json_begin_object(&w, "net_rx");
				print_core_json(&w, &v->core_net_rx[i]);
				json_end_object(&w);
			}
			json_end_object(&w);
		}
		json_end_array(&w);
	}
	json_end_object(&w);
	fputc('\n', out);
}
