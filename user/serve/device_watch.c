// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: removed PMUs and NICs, said once and counted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/json_writer.h"
#include "pmu/pmu_discovery.h"
#include "queue/queue_map.h"
#include "serve/device_watch.h"

/* The NICs' functions are found through the real /sys, as the queue map is. */
#define PCI_DEVICES_DIR "/sys/bus/pci/devices"

static struct watched_pmu *pmu_of(struct device_watch *w, const char *name)
{
	for (unsigned int i = 0; i < w->nr_pmus; i++)
		if (!strcmp(w->pmus[i].name, name))
			return &w->pmus[i];
	return NULL;
}

int device_watch_init(struct device_watch *w, const struct queue_map *queues,
		      const struct serve_counter *counters, unsigned int nr, const char *sysfs_root)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->pmu_dir, sizeof(w->pmu_dir), "%s/%s", sysfs_root ? sysfs_root : PMU_SYSFS_ROOT_DEFAULT,
		 PMU_DEVICES_SUBDIR);
	for (unsigned int i = 0; i < nr && i < NETPMU_MAX_COUNTERS; i++) {
		struct watched_pmu *p = pmu_of(w, counters[i].pmu);

		if (!p) {
			p = &w->pmus[w->nr_pmus++];
			snprintf(p->name, sizeof(p->name), "%s", counters[i].pmu);
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

/* {"type":"removed","ts_ns":...,KEY:VALUE[,"bdf":BDF]}: ts_ns on the records' clock. */
static void log_removal(struct json_log *log, const char *key, const char *value, const char *bdf)
{
	struct json_writer jw;
	struct timespec now;

	if (!log)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	json_init(&jw, log->file);
	json_begin_object(&jw, NULL);
	json_string(&jw, "type", "removed");
	json_uint(&jw, "ts_ns", (uint64_t)now.tv_sec * 1000000000ull + now.tv_nsec);
	json_string(&jw, key, value);
	if (bdf)
		json_string(&jw, "bdf", bdf);
	json_end_object(&jw);
	fputc('\n', log->file);
	if (ferror(log->file))
		clearerr(log->file);	/* a full disk loses lines, not the exporter */
}

static void count_removal(struct metric_store *st, const char *labels)
{
	metric_store_lock(st);
	metric_counter_add(st, FAM_DEVICES_REMOVED, labels, 1);
	metric_store_unlock(st);
}

static void check_pmus(struct device_watch *w, struct metric_store *st, struct json_log *log, const char *cmd)
{
	char labels[METRIC_LABELS_MAX];

	for (unsigned int i = 0; i < w->nr_pmus; i++) {
		struct watched_pmu *p = &w->pmus[i];

		if (p->gone || present(w->pmu_dir, p->name))
			continue;
		p->gone = true;
		w->lost_counters |= p->counters;
		fprintf(stderr, "%s: PMU %s removed: its counters are no longer added, their series keep "
			"their last totals\n", cmd, p->name);
		log_removal(log, "pmu", p->name, NULL);
		labels[0] = '\0';
		metric_labels_add(labels, sizeof(labels), "pmu", p->name);
		count_removal(st, labels);
	}
}

static void check_nics(struct device_watch *w, struct metric_store *st, struct json_log *log, const char *cmd)
{
	char labels[METRIC_LABELS_MAX];

	for (size_t f = 0; f < w->nr_nics; f++) {
		struct watched_nic *n = &w->nics[f];
		const char *dev = n->ifname[0] ? n->ifname : n->bdf;

		if (n->gone || present(PCI_DEVICES_DIR, n->bdf))
			continue;
		n->gone = true;
		if (n->ifname[0])
			fprintf(stderr, "%s: NIC %s (%s) removed: its series keep their last totals\n", cmd,
				n->ifname, n->bdf);
		else
			fprintf(stderr, "%s: NIC %s removed: its series keep their last totals\n", cmd, n->bdf);
		log_removal(log, "dev", dev, n->bdf);
		labels[0] = '\0';
		metric_labels_add(labels, sizeof(labels), "dev", dev);
		metric_labels_add(labels, sizeof(labels), "bdf", n->bdf);
		count_removal(st, labels);
	}
}

void device_watch_check(struct device_watch *w, struct metric_store *st, struct json_log *log, const char *cmd)
{
	check_pmus(w, st, log, cmd);
	check_nics(w, st, log, cmd);
}

void device_watch_release(struct device_watch *w)
{
	free(w->nics);
	memset(w, 0, sizeof(*w));
}
