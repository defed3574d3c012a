// SPDX-License-Identifier: GPL-2.0
/* The PMU counters of one netpmu serve session: -e events or rotated ones. */
#include <stdio.h>

#include "cmd/serve_counters.h"
#include "queue/queue_map.h"
#include "session/bpf_session.h"

static const enum serve_counter_role top_roles[TOP_NR_ROLES] = {
	[TOP_RX_BYTES] = SERVE_QUEUE_RX_BYTES,
	[TOP_TX_BYTES] = SERVE_QUEUE_TX_BYTES,
	[TOP_RX_PACKETS] = SERVE_QUEUE_RX_PACKETS,
	[TOP_TX_PACKETS] = SERVE_QUEUE_TX_PACKETS,
	[TOP_RX_LATENCY_CYCLES] = SERVE_QUEUE_RX_LATENCY_CYCLES,
	[TOP_RX_LATENCY_PACKETS] = SERVE_QUEUE_RX_LATENCY_PACKETS,
	[TOP_PCIE_WRITE_FLUX] = SERVE_FUNC_PCIE_WRITE_BYTES,
	[TOP_PCIE_WRITE_TIME] = SERVE_FUNC_PCIE_WRITE_TIME,
};

static bool rotated_target(void *ctx, unsigned int generation, unsigned int *func_id, int *queue)
{
	const struct top_target *t = top_counters_target_of(ctx, generation);

	if (!t)
		return false;
	*func_id = t->func_id;
	*queue = t->queue;
	return true;
}

static int rotate(void *ctx, struct bpf_session *session, char *why, size_t why_len)
{
	struct serve_counters *sc = ctx;

	return top_counters_rotate(&sc->rotated, session, sc->sysfs_root, sc->queues, why, why_len,
				   "netpmu serve", stderr);
}

/* The queue vectors changed: the rotation starts again over the new ones. */
static void retarget(void *ctx)
{
	struct serve_counters *sc = ctx;

	if (top_counters_retarget(&sc->rotated, sc->queues, sc->rotated_dev))
		fprintf(stderr, "netpmu serve: out of memory: no queue left to count\n");
}

int serve_counters_prepare(struct serve_counters *sc, const struct serve_filter *filter, char *const *events,
			   size_t n, struct serve_records *rec, struct serve_loop *loop,
			   struct bpf_session_options *sopts, char *why, size_t why_len)
{
	const char *dev = filter->nr_include_devs == 1 ? filter->include_devs[0] : NULL;
	unsigned int i;

	/* Rotate over one device's queues only if it has some the map knows. */
	if (dev && queue_map_func_id(sc->queues, dev) <= 0)
		dev = NULL;

	if (n) {
		if (serve_events_prepare(&sc->events, events, n, sc->sysfs_root, sc->queues, why, why_len))
			return -1;
		rec->counters = sc->events.described;
		rec->nr_counters = sc->events.nr;
		sopts->counters = sc->events.counters;
		sopts->nr_counters = sc->events.nr;
		sopts->tick_pmu_dir = sc->events.tick_pmu_dir;
		for (i = 0; i < sc->events.nr; i++)
			loop->counter_names[i] = sc->events.events[i].text;
		return 0;
	}
	why[0] = '\0';
	/* Without the hardware series, the software ones still serve. */
	if (top_counters_init(&sc->rotated, sc->sysfs_root, sc->queues, dev, true, why, why_len)) {
		fprintf(stderr, "netpmu serve: no hardware series: %s\n", why);
		return 0;
	}
	sc->rotating = true;
	sc->rotated_dev = dev;
	if (!sc->rotated.nr_counters) {
		fprintf(stderr, "netpmu serve: no hardware series: %s\n", why);
		return 0;
	}
	for (i = 0; i < sc->rotated.nr_counters; i++) {
		sc->rotated_described[i].role = top_roles[i];
		snprintf(sc->rotated_described[i].pmu, sizeof(sc->rotated_described[i].pmu), "%s",
			 i < TOP_NR_HNS3_ROLES ? sc->rotated.pmu : sc->rotated.pcie_pmu);
		loop->counter_names[i] = sc->rotated.counters[i].name;
	}
	rec->counters = sc->rotated_described;
	rec->nr_counters = sc->rotated.nr_counters;
	rec->target = rotated_target;
	rec->target_ctx = &sc->rotated;
	rec->latency_seconds_per_cycle = sc->rotated.hw_clk_freq ? 1.0 / sc->rotated.hw_clk_freq : 0;
	sopts->counters = sc->rotated.counters;
	sopts->nr_counters = sc->rotated.nr_counters;
	loop->rotate = rotate;
	loop->retarget = retarget;
	loop->rotate_ctx = sc;
	return 0;
}

void serve_counters_release(struct serve_counters *sc)
{
	serve_events_release(&sc->events);
	if (sc->rotating)
		top_counters_release(&sc->rotated);
	sc->rotating = false;
}
