/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What netpmu serve counts can go away while it serves: a PMU unregistered
 * (its PCI function unbound or removed) or a NIC's PCI function removed.
 * Each is looked up in sysfs once an interval; a removal is said once (a
 * line on stderr and in the JSON log) and counted in
 * netpmu_devices_removed_total. A removed PMU's counters are no longer
 * added: their series keep their last totals, as the NIC's do.
 */
#ifndef NETPMU_DEVICE_WATCH_H
#define NETPMU_DEVICE_WATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "netpmu_records.h"
#include "serve/json_log.h"
#include "serve/metric_store.h"
#include "serve/serve_records.h"

struct queue_map;

struct watched_nic {
	char bdf[16];
	char ifname[NETPMU_IFNAMSIZ + 1];	/* "" while unknown: another namespace, no record yet */
	bool gone;
};

struct watched_pmu {
	char name[64];
	unsigned int counters;		/* bit i: the session's counter i counts on it */
	bool gone;
};

struct device_watch {
	char pmu_dir[PATH_MAX];		/* <sysfs root>/bus/event_source/devices */
	struct watched_nic *nics;	/* per func_id - 1 of the queue map */
	size_t nr_nics;
	struct watched_pmu pmus[NETPMU_MAX_COUNTERS];
	unsigned int nr_pmus;
	unsigned int lost_counters;	/* bit i: counter i's PMU is gone */
};

/*
 * Watches the PCI functions of QUEUES and the PMUs of COUNTERS (NR of them;
 * SYSFS_ROOT NULL: /sys). 0, or -1 when out of memory (nothing held then).
 */
int device_watch_init(struct device_watch *w, const struct queue_map *queues,
		      const struct serve_counter *counters, unsigned int nr, const char *sysfs_root);

/* A queue record's interface name for FUNC_ID, the name a removal is said with. */
void device_watch_learn_name(struct device_watch *w, unsigned int func_id, const char *ifname, size_t len);

/* Looks for what went away since the last call: said on stderr (CMD) and LOG (NULL: none), counted in ST. */
void device_watch_check(struct device_watch *w, struct metric_store *st, struct json_log *log, const char *cmd);

void device_watch_release(struct device_watch *w);

#endif
