// SPDX-License-Identifier: GPL-2.0
/* Removed PMUs and NICs, found in sysfs, each reported once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/pmu_discovery.h"
#include "queue/queue_map.h"
#include "session/device_watch.h"

/* The NICs' functions are found through the real /sys, as the queue map is. */
#define PCI_DEVICES_DIR "/sys/bus/pci/devices"

static struct watched_pmu *pmu_of(struct device_watch *w, const char *name)
{
	for (unsigned int i = 0; i < w->nr_pmus; i++)
		if (!strcmp(w->pmus[i].name, name))
			return &w->pmus[i];
	return NULL;
}

int device_watch_init(struct device_watch *w, const struct queue_map *queues, const char *const *counter_pmus,
		      unsigned int nr, const char *sysfs_root)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->pmu_dir, sizeof(w->pmu_dir), "%s/%s", sysfs_root ? sysfs_root : PMU_SYSFS_ROOT_DEFAULT,
		 PMU_DEVICES_SUBDIR);
	for (unsigned int i = 0; i < nr && i < NETPMU_MAX_COUNTERS; i++) {
		struct watched_pmu *p = pmu_of(w, counter_pmus[i]);

		if (!p) {
			p = &w->pmus[w->nr_pmus++];
			snprintf(p->name, sizeof(p->name), "%s", counter_pmus[i]);
		}
		p->counters |= 1u << i;
	}
	if (!queues || !queues->nr_functions)
		return 0;
	w->nics = calloc(queues->nr_functions, sizeof(*w->nics));
	if (!w->nics)
		return -1;
	w->nr_nics = queues->nr_functions;
	for (size_t f = 0; f < w->nr_nics; f++)
		snprintf(w->nics[f].bdf, sizeof(w->nics[f].bdf), "%s", queues->functions[f]);
	/* Names of this namespace now; those of others come with their records. */
	for (size_t v = 0; v < queues->nr_vectors; v++) {
		const struct queue_vector *qv = &queues->vectors[v];

		if (qv->func_id && qv->ifname[0])
			snprintf(w->nics[qv->func_id - 1].ifname, sizeof(w->nics->ifname), "%s", qv->ifname);
	}
	return 0;
}

void device_watch_learn_name(struct device_watch *w, unsigned int func_id, const char *ifname, size_t len)
{
	struct watched_nic *n;

	if (!func_id || func_id > w->nr_nics || !len || !ifname[0])
		return;
	n = &w->nics[func_id - 1];
	if (!n->gone)
		snprintf(n->ifname, sizeof(n->ifname), "%.*s", (int)len, ifname);
}

static bool present(const char *dir, const char *name)
{
	char path[PATH_MAX];

	/* A name too long for a path is no sysfs entry: taken as present, never said removed. */
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return true;
	return access(path, F_OK) == 0;
}

static void check_pmus(struct device_watch *w, device_removed_fn removed, void *ctx)
{
	for (unsigned int i = 0; i < w->nr_pmus; i++) {
		struct watched_pmu *p = &w->pmus[i];
		struct device_removal r = { .kind = "pmu", .name = p->name };

		if (p->gone || present(w->pmu_dir, p->name))
			continue;
		p->gone = true;
		w->lost_counters |= p->counters;
		removed(ctx, &r);
	}
}

static void check_nics(struct device_watch *w, device_removed_fn removed, void *ctx)
{
	for (size_t f = 0; f < w->nr_nics; f++) {
		struct watched_nic *n = &w->nics[f];
		struct device_removal r = {
			.kind = "dev",
			.name = n->ifname[0] ? n->ifname : n->bdf,
			.bdf = n->bdf,
			.named = n->ifname[0],
		};

		if (n->gone || present(PCI_DEVICES_DIR, n->bdf))
			continue;
		n->gone = true;
		removed(ctx, &r);
	}
}

void device_watch_check(struct device_watch *w, device_removed_fn removed, void *ctx)
{
	check_pmus(w, removed, ctx);
	check_nics(w, removed, ctx);
}

void device_watch_release(struct device_watch *w)
{
	free(w->nics);
	memset(w, 0, sizeof(*w));
}
