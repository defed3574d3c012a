// SPDX-License-Identifier: GPL-2.0
/* netpmu serve --json-log: interval records as JSON lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json_writer.h"
#include "lib/why_line.h"
#include "netpmu_records.h"
#include "serve/json_log.h"

int json_log_open(struct json_log *log, const char *path, char *why, size_t why_len)
{
	memset(log, 0, sizeof(*log));
	log->path = strdup(path);
	if (!log->path)
		return why_fail(why, why_len, "out of memory");
	log->file = fopen(path, "ae");
	if (!log->file) {
		int err = errno;

		free(log->path);
		log->path = NULL;
		return why_fail(why, why_len, "--json-log %s: %s", path, strerror(err));
	}
	setvbuf(log->file, NULL, _IOLBF, 0);
	return 0;
}

int json_log_reopen(struct json_log *log, char *why, size_t why_len)
{
	FILE *f = fopen(log->path, "ae");

	if (!f)
		return why_fail(why, why_len, "cannot reopen --json-log %s: %s (writing on to the old file)",
				log->path, strerror(errno));
	fclose(log->file);
	log->file = f;
	setvbuf(log->file, NULL, _IOLBF, 0);
	return 0;
}

static void write_deltas(struct json_writer *w, const struct netpmu_counter_delta *deltas, unsigned int mask,
			 const char *const *names)
{
	json_begin_array(w, "counters");
	for (unsigned int i = 0; i < NETPMU_MAX_COUNTERS; i++) {
		const struct netpmu_counter_delta *d = &deltas[i];

		if (!(mask & (1u << i)))
			continue;
		json_begin_object(w, NULL);
		json_string(w, "event", names[i]);
		json_bool(w, "readable", !d->err);
		if (d->err) {
			json_int(w, "error", d->err);
		} else {
			json_uint(w, "delta", d->delta);
			json_uint(w, "enabled_ns", d->enabled_ns);
			json_uint(w, "running_ns", d->running_ns);
		}
		json_uint(w, "generation", d->generation);
		json_end_object(w);
	}
	json_end_array(w);
}

static void write_queue(struct json_writer *w, const struct netpmu_queue_record *r, const char *const *names)
{
	char dev[NETPMU_IFNAMSIZ + 1];

	snprintf(dev, sizeof(dev), "%.*s", NETPMU_IFNAMSIZ, r->ifname);
	json_string(w, "type", "queue");
	json_uint(w, "ts_ns", r->ts_ns);
	json_string(w, "dev", dev);
	json_int(w, "cpu", r->cpu);
	json_int(w, "ifindex", r->ifindex);
	json_int(w, "napi_id", r->napi_id);
	json_int(w, "irq", r->irq);
	json_int(w, "queue", r->queue);
	json_int(w, "dir", r->dir);
	json_uint(w, "interval_ns", r->interval_ns);
	json_uint(w, "polls", r->polls);
	json_uint(w, "packets", r->packets);
	json_uint(w, "budget_exhausted", r->budget_exhausted);
	if (r->has_poll_time)
		json_uint(w, "poll_ns", r->poll_ns);
	json_uint(w, "irqs", r->irqs);
	json_uint(w, "irq_ns", r->irq_ns);
	write_deltas(w, r->counters, r->counter_mask, names);
}

static void write_cpu(struct json_writer *w, const struct netpmu_cpu_record *r, const char *const *names)
{
	json_string(w, "type", "cpu");
	json_uint(w, "ts_ns", r->ts_ns);
	json_int(w, "cpu", r->cpu);
	json_uint(w, "interval_ns", r->interval_ns);
	json_uint(w, "net_rx", r->net_rx);
	json_uint(w, "net_rx_ns", r->net_rx_ns);
	json_uint(w, "net_tx", r->net_tx);
	json_uint(w, "net_tx_ns", r->net_tx_ns);
	write_deltas(w, NULL, 0, names);
}

static void write_counters(struct json_writer *w, const struct netpmu_counters_record *r,
			   const char *const *names)
{
	unsigned int n = r->nr_counters < NETPMU_MAX_COUNTERS ? r->nr_counters : NETPMU_MAX_COUNTERS;

	json_string(w, "type", "counters");
	json_uint(w, "ts_ns", r->ts_ns);
	json_int(w, "cpu", r->cpu);
	json_uint(w, "interval_ns", r->interval_ns);
	write_deltas(w, r->counters, (1u << n) - 1, names);
}

int json_log_write(struct json_log *log, const void *record, size_t size, const char *const *counter_names)
{
	const __u32 *kind = record;
	struct json_writer w;

	if (size < sizeof(struct netpmu_cpu_record) ||
	    (*kind != NETPMU_RECORD_QUEUE && *kind != NETPMU_RECORD_CPU && *kind != NETPMU_RECORD_COUNTERS))
		return 0;
	json_init(&w, log->file);
	json_begin_object(&w, NULL);
	if (*kind == NETPMU_RECORD_QUEUE && size >= sizeof(struct netpmu_queue_record))
		write_queue(&w, record, counter_names);
	else if (*kind == NETPMU_RECORD_CPU)
		write_cpu(&w, record, counter_names);
	else if (size >= sizeof(struct netpmu_counters_record))
		write_counters(&w, record, counter_names);
	json_end_object(&w);
	fputc('\n', log->file);
	return ferror(log->file) ? -EIO : 0;
}

void json_log_close(struct json_log *log)
{
	if (log->file)
		fclose(log->file);
	free(log->path);
	memset(log, 0, sizeof(*log));
}
