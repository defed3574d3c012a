/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a session counts can go away while it runs: a PMU unregistered (its
 * PCI function unbound or removed) or a NIC's PCI function removed. Each is
 * looked up in sysfs when the caller asks; each removal is reported once, to
 * the caller's function, which says it (serve and trace say it differently).
 */
#ifndef NETPMU_DEVICE_WATCH_H
#define NETPMU_DEVICE_WATCH_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "netpmu_records.h"

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

/* One removal: a PMU (bdf NULL) or a NIC (name: its interface, or its bdf while unknown). */
struct device_removal {
	const char *kind;		/* "pmu" or "dev": the label it is said with */
	const char *name;
	const char *bdf;
	bool named;			/* a NIC whose interface name is known */
};

typedef void (*device_removed_fn)(void *ctx, const struct device_removal *r);

/*
 * Watches the PCI functions of QUEUES (NULL: none) and the PMUs COUNTER_PMUS
 * (NR of them, counter i's PMU name at i; SYSFS_ROOT NULL: /sys). 0, or -1
 * when out of memory (nothing held then).
 */
int device_watch_init(struct device_watch *w, const struct queue_map *queues, const char *const *counter_pmus,
		      unsigned int nr, const char *sysfs_root);

/* A queue record's interface name for FUNC_ID, the name a removal is said with. */
void device_watch_learn_name(struct device_watch *w, unsigned int func_id, const char *ifname, size_t len);

/* Looks for what went away since the last call: each removal once to REMOVED, PMUs first. */
void device_watch_check(struct device_watch *w, device_removed_fn removed, void *ctx);

void device_watch_release(struct device_watch *w);

#endif
