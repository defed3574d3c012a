// SPDX-License-Identifier: GPL-2.0
#include "trace/trace_core.h"

#include <stdio.h>
#include <string.h>

#include "session/bpf_session.h"

int trace_core_parse(struct trace_core *tc, const char **events, unsigned int *nr,
		     const char *sysfs_root, char *why, size_t why_len)
{
	unsigned int i, kept = 0;
	struct core_event ev;
	int got;

	memset(tc, 0, sizeof(*tc));
	for (i = 0; i < *nr; i++) {
		got = core_event_parse(events[i], sysfs_root, &ev, why, why_len);
		if (got < 0) {
			trace_core_close(tc);
			return -1;
		}
		if (!got) {
			events[kept++] = events[i];
			continue;
		}
		if (tc->nr_parsed == NETPMU_MAX_CORE_EVENTS) {
			snprintf(why, why_len, "%s: at most %d core events (cycles, instructions, "
				 "...) are read per poll", ev.text, NETPMU_MAX_CORE_EVENTS);
			core_event_release(&ev);
			trace_core_close(tc);
			return -1;
		}
		tc->parsed[tc->nr_parsed++] = ev;
	}
	*nr = kept;
	return 0;
}

int trace_core_open(struct trace_core *tc, const char *sysfs_root, char *notice, size_t notice_len,
		    char *why, size_t why_len)
{
	unsigned int i;

	*notice = '\0';
	if (!tc->nr_parsed)
		return 0;
	/* The counters take the parsed events over, whatever happens. */
	if (core_counters_open(&tc->counters, tc->parsed, tc->nr_parsed, sysfs_root,
			       notice, notice_len, why, why_len)) {
		tc->nr_parsed = 0;
		return -1;
	}
	tc->nr_parsed = 0;
	for (i = 0; i < tc->counters.nr_events; i++)
		tc->names[i] = tc->counters.events[i].text;
	return 0;
}

const char *trace_core_started(struct trace_core *tc, const struct bpf_session *s)
{
	if (!tc->counters.nr_events)
		return NULL;
	tc->per_poll = s->poll_entry;
	if (tc->per_poll)
		return NULL;
	return "no core counts per poll or per NAPI: they start at __napi_poll's entry, which "
	       "this kernel lets BPF hook neither with fentry nor with a kprobe; per CPU and per "
	       "NET_RX softirq, per interval, only";
}

void trace_core_view(const struct trace_core *tc, struct record_view *view)
{
	unsigned int n = tc->counters.nr_events < view->nr_core ? tc->counters.nr_events : view->nr_core;

	view->core_names = tc->names;
	/* Core records always; polls and NAPI instances where their start is seen. */
	if (view->core && (view->kind == NETPMU_RECORD_CORE || tc->per_poll))
		view->core_mask = (1u << n) - 1;
}

void trace_core_close(struct trace_core *tc)
{
	unsigned int i;

	for (i = 0; i < tc->nr_parsed; i++)
		core_event_release(&tc->parsed[i]);
	core_counters_close(&tc->counters);
	memset(tc, 0, sizeof(*tc));
}
