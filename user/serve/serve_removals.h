/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How netpmu serve says a removal (session/device_watch.h finds them): one
 * line on stderr, a "removed" record in the JSON log, and
 * netpmu_devices_removed_total. A removed PMU's counters are no longer added:
 * their series keep their last totals, as the NIC's do.
 */
#ifndef NETPMU_SERVE_REMOVALS_H
#define NETPMU_SERVE_REMOVALS_H

#include "serve/json_log.h"
#include "serve/metric_store.h"
#include "session/device_watch.h"

struct serve_removals {
	struct metric_store *store;
	struct json_log *log;		/* NULL: none */
	const char *cmd;
};

/* A device_removed_fn: CTX is a struct serve_removals. */
void serve_removal_say(void *ctx, const struct device_removal *r);

#endif
