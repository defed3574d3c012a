// SPDX-License-Identifier: GPL-2.0
#include "top/top_counters.h"
#include "lib/why_line.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/counter_binding.h"
#include "pmu/pmu_attr_parse.h"
#include "pmu/pmu_discovery.h"
#include "queue/queue_map.h"
#include "sys/pci_address.h"
#include "sys/pci_sysfs.h"

/* The func-queue events of each role (all support func-queue). */
static const char *const role_events[TOP_NR_ROLES] = {
	[TOP_RX_BYTES] = "bw_ssu_rpu_byte_num",
	[TOP_TX_BYTES] = "bw_tpu_ssu_byte_num",
	[TOP_RX_PACKETS] = "pps_ssu_rpu_packet_num",
	[TOP_TX_PACKETS] = "pps_tpu_ssu_packet_num",
	[TOP_RX_LATENCY_CYCLES] = "dly_rpu_time",
	[TOP_RX_LATENCY_PACKETS] = "dly_rpu_packet_num",
	[TOP_PCIE_WRITE_FLUX] = "rx_mwr_flux",
	[TOP_PCIE_WRITE_TIME] = "rx_mwr_time",
};

/* The first of a role's group, and the group's size. */
static unsigned int group_size(unsigned int role)
{
	return role == TOP_RX_LATENCY_CYCLES || role == TOP_PCIE_WRITE_FLUX ? 2 : 1;
}

/* "0000:02:00.1" -> 0x201 (bus, device, function; the domain is not filtered on). */
static int bdf_number(const char *pci_bdf)
{
	unsigned int bdf;
	const char *reason;

	return parse_pci_bdf(pci_bdf, &bdf, NULL, &reason) ? -1 : (int)bdf;
}

static bool has_target(const struct top_counters *tc, unsigned int func_id, int queue)
{
	size_t i;

	for (i = 0; i < tc->nr_targets; i++)
		if (tc->targets[i].func_id == func_id && tc->targets[i].queue == queue)
			return true;
	return false;
}

static int add_target(struct top_counters *tc, const struct queue_vector *v, int queue)
{
	struct top_target *grown;

	if (has_target(tc, v->func_id, queue))
		return 0;
	grown = realloc(tc->targets, (tc->nr_targets + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	tc->targets = grown;
	grown[tc->nr_targets] = (struct top_target){ .func_id = v->func_id, .queue = queue };
	snprintf(grown[tc->nr_targets].pci_bdf, sizeof(grown->pci_bdf), "%s", v->pci_bdf);
	tc->nr_targets++;
	return 0;
}

/* Every queue of the functions in the PMU's [bdf_min, bdf_max] (and of DEV, if given). */
static int collect_targets(struct top_counters *tc, const struct queue_map *queues, unsigned int dev_func)
{
	size_t i;
	unsigned int k;

	for (i = 0; i < queues->nr_vectors; i++) {
		const struct queue_vector *v = &queues->vectors[i];
		int bdf = bdf_number(v->pci_bdf);

		if (!v->func_id || v->queue < 0 || bdf < tc->bdf_min || bdf > tc->bdf_max)
			continue;
		if (dev_func && v->func_id != dev_func)
			continue;
		for (k = 0; k < v->nr_queues; k++)
			if (add_target(tc, v, v->queues[k]))
				return -1;
	}
	return 0;
}

/* Forgets every target's built counters: the catalog they were parsed against is stale. */
static void forget_built(struct top_counters *tc)
{
	size_t t;

	for (t = 0; t < tc->nr_targets; t++) {
		free(tc->targets[t].built);
		tc->targets[t].built = NULL;
	}
}

/*
 * The PMU catalog is read once and kept: reading sysfs again at every rotation
 * cost thousands of system calls a rotation. FRESH reads it again, for when the
 * kernel refused counters built from the kept one (a PMU registered again).
 */
static int ensure_catalog(struct top_counters *tc, bool fresh, const char *sysfs_root,
			  char *why, size_t why_len)
{
	if (fresh) {
		forget_built(tc);
		event_catalog_release(&tc->catalog);
	}
	if (tc->catalog.pmus.nr_pmus)
		return 0;
	return event_catalog_discover(&tc->catalog, sysfs_root, why, why_len);
}

/* Builds TARGET's counters, each role its own group but the latency pair. */
static int build_target(struct top_counters *tc, struct top_target *target, const char *sysfs_root,
			const struct queue_map *queues, char *why, size_t why_len)
{
	struct top_built *built = calloc(1, sizeof(*built));
	struct parsed_event ev;
	unsigned int r;

	if (!built)
		return why_fail(why, why_len, "out of memory");
	for (r = 0; r < tc->nr_roles; r++) {
		struct session_counter *c = &built->counters[r];

		if (r < TOP_NR_HNS3_ROLES)
			snprintf(built->names[r], TOP_EVENT_TEXT_LEN, "%s/%s,bdf=0x%x,queue=%d/", tc->pmu,
				 role_events[r], bdf_number(target->pci_bdf), target->queue);
		else
			snprintf(built->names[r], TOP_EVENT_TEXT_LEN, "%s/%s,bdf=0x%x/", tc->pcie_pmu,
				 role_events[r], bdf_number(target->pci_bdf));
		memset(&ev, 0, sizeof(ev));
		if (event_parse(built->names[r], &tc->catalog, &ev, why, why_len)) {
			free(built);
			return -1;
		}
		counter_binding_derive(&ev, sysfs_root, queues, &c->binding);
		c->spec = ev.spec;
		/* The parsed event's own copy goes with it. */
		c->spec.pmu_name = r < TOP_NR_HNS3_ROLES ? tc->pmu : tc->pcie_pmu;
		c->name = built->names[r];
		c->group_with = r == TOP_RX_LATENCY_PACKETS ? TOP_RX_LATENCY_CYCLES :
				r == TOP_PCIE_WRITE_TIME ? TOP_PCIE_WRITE_FLUX : -1;
		parsed_event_release(&ev);
	}
	target->built = built;
	return 0;
}

/* Makes target T's counters the current ones, built first if they never were. */
static int load_counters(struct top_counters *tc, size_t t, bool fresh_catalog, const char *sysfs_root,
			 const struct queue_map *queues, char *why, size_t why_len)
{
	struct top_target *target = &tc->targets[t];
	unsigned int r;

	if (ensure_catalog(tc, fresh_catalog, sysfs_root, why, why_len))
		return -1;
	if (!target->built && build_target(tc, target, sysfs_root, queues, why, why_len))
		return -1;
	tc->generation++;
	for (r = 0; r < tc->nr_roles; r++) {
		tc->counters[r] = target->built->counters[r];
		memcpy(tc->names[r], target->built->names[r], TOP_EVENT_TEXT_LEN);
		tc->counters[r].name = tc->names[r];
		tc->counters[r].binding.generation = tc->generation;
	}
	tc->current = t;
	tc->generation_target[tc->generation % TOP_GENERATIONS_KEPT] = t;
	return 0;
}

/*
 * Builds target T's counters ahead of its rotation, which then only swaps
 * them in: on a slow kernel a build takes longer than an interval. A failure
 * waits for that rotation, which says it.
 */
static void prebuild(struct top_counters *tc, size_t t, const char *sysfs_root, const struct queue_map *queues)
{
	char ignored[512];

	if (!tc->targets[t].built)
		build_target(tc, &tc->targets[t], sysfs_root, queues, ignored, sizeof(ignored));
}

const struct top_target *top_counters_target_of(const struct top_counters *tc, unsigned int generation)
{
	size_t t;

	if (!generation || generation > tc->generation ||
	    tc->generation - generation >= TOP_GENERATIONS_KEPT)
		return NULL;
	t = tc->generation_target[generation % TOP_GENERATIONS_KEPT];
	return t < tc->nr_targets ? &tc->targets[t] : NULL;
}

static unsigned int dev_function(const struct queue_map *queues, const char *dev)
{
	return dev ? queue_map_func_id(queues, dev) : 0;
}

int top_counters_init(struct top_counters *tc, const char *sysfs_root, const struct queue_map *queues,
		      const char *dev, bool with_pcie, char *why, size_t why_len)
{
	const struct pmu *pmu = NULL;
	unsigned int dev_func = dev_function(queues, dev);
	struct pmu_set set;
	size_t i;
	int ret = 0;

	memset(tc, 0, sizeof(*tc));
	tc->dev_func = dev_func;
	if (dev && !dev_func)
		return why_fail(why, why_len, "--dev %s: no such network device or PCI function with "
			    "queue interrupts (give an interface of this namespace or a PCI address "
			    "like 0000:02:00.1)", dev);
	if (pmu_discover(sysfs_root, &set, why, why_len))
		return -1;
	for (i = 0; i < set.nr_pmus && !pmu; i++)
		if (set.pmus[i].name_info.kind == PMU_KIND_HNS3 && set.pmus[i].bdf_min >= 0)
			pmu = &set.pmus[i];
	if (!pmu) {
		why_fail(why, why_len, "no HNS3 PMU: software columns only (load netpmu.ko, or bind "
		     "the hns3_pmu driver on Hip09)");
		goto out;
	}
	snprintf(tc->pmu, sizeof(tc->pmu), "%s", pmu->name);
	tc->bdf_min = pmu->bdf_min;
	tc->bdf_max = pmu->bdf_max;
	tc->hw_clk_freq = pmu->has_hw_clk_freq ? pmu->hw_clk_freq : 0;
	tc->nr_roles = TOP_NR_HNS3_ROLES;
	/* One run reads the counters of one counting CPU. */
	for (i = 0; with_pcie && i < set.nr_pmus; i++)
		if (set.pmus[i].name_info.kind == PMU_KIND_PCIE && set.pmus[i].cpu == pmu->cpu) {
			snprintf(tc->pcie_pmu, sizeof(tc->pcie_pmu), "%s", set.pmus[i].name);
			tc->nr_roles = TOP_NR_ROLES;
			break;
		}
	if (collect_targets(tc, queues, dev_func)) {
		ret = why_fail(why, why_len, "out of memory");
		goto out;
	}
	if (!tc->nr_targets) {
		why_fail(why, why_len, "%s covers no queue of %s (its functions: %s to %s): software "
		     "columns only", pmu->name, dev ? dev : "the NICs found",
		     pmu->bdf_min_spec ? pmu->bdf_min_spec : "?", pmu->bdf_max_spec ? pmu->bdf_max_spec : "?");
		tc->pmu[0] = '\0';
		goto out;
	}
	if (load_counters(tc, 0, true, sysfs_root, queues, why, why_len)) {
		ret = -1;
		goto out;
	}
	tc->nr_counters = tc->nr_roles;
	/* Before the first tick, while nothing is counting yet. */
	for (i = 1; i < tc->nr_targets; i++)
		prebuild(tc, i, sysfs_root, queues);
out:
	pmu_set_release(&set);
	if (ret)
		top_counters_release(tc);
	return ret;
}

/* Forgets target T: its function refused the counters (e.g. removed). */
static void drop_target(struct top_counters *tc, size_t t)
{
	free(tc->targets[t].built);
	memmove(&tc->targets[t], &tc->targets[t + 1], (tc->nr_targets - t - 1) * sizeof(*tc->targets));
	tc->nr_targets--;
	/* Indices moved: records of earlier generations can no longer be placed. */
	tc->generation += TOP_GENERATIONS_KEPT;
}

int top_counters_retarget(struct top_counters *tc, const struct queue_map *queues, const char *dev)
{
	unsigned int dev_func = dev ? dev_function(queues, dev) : 0;

	if (!tc->nr_counters || (dev && !dev_func))
		return 0;
	forget_built(tc);
	free(tc->targets);
	tc->targets = NULL;
	tc->nr_targets = 0;
	tc->current = 0;
	tc->dev_func = dev_func;
	/* Target indices changed: records of earlier generations can no longer be placed. */
	tc->generation += TOP_GENERATIONS_KEPT;
	tc->retargeted = true;
	return collect_targets(tc, queues, dev_func);
}

static int replace_all(struct top_counters *tc, struct bpf_session *session, char *why, size_t why_len)
{
	unsigned int r, n;

	for (r = 0; r < tc->nr_roles; r += n) {
		n = group_size(r);
		if (bpf_session_replace_group(session, r, n, &tc->counters[r], why, why_len))
			return -1;
	}
	return 0;
}

/* Whether TARGET's PCI function is gone from sysfs (a NIC removed). */
static bool function_gone(const char *sysfs_root, const struct top_target *target)
{
	unsigned int domain, bdf;

	return pci_sysfs_present(sysfs_root) &&
	       parse_pci_address(target->pci_bdf, strlen(target->pci_bdf), &domain, &bdf) &&
	       !pci_function_exists(sysfs_root, domain, bdf);
}

/*
 * Opens target T's counters. A refusal may only mean the kept catalog is
 * stale (a PMU registered again): they are built again from a fresh one,
 * unless T's function is gone, which no catalog mends (and a fresh one,
 * thousands of system calls, held a debug kernel's loop for seconds).
 */
static bool open_target(struct top_counters *tc, size_t t, struct bpf_session *session, const char *sysfs_root,
			const struct queue_map *queues, char *why, size_t why_len)
{
	if (!load_counters(tc, t, false, sysfs_root, queues, why, why_len) &&
	    !replace_all(tc, session, why, why_len))
		return true;
	if (function_gone(sysfs_root, &tc->targets[t])) {
		why_fail(why, why_len, "PCI function %s is gone (removed)", tc->targets[t].pci_bdf);
		return false;
	}
	return !load_counters(tc, t, true, sysfs_root, queues, why, why_len) &&
	       !replace_all(tc, session, why, why_len);
}

int top_counters_rotate(struct top_counters *tc, struct bpf_session *session, const char *sysfs_root,
			const struct queue_map *queues, char *why, size_t why_len, const char *cmd,
			FILE *warnings)
{
	size_t next;

	if (!tc->nr_counters || (tc->nr_targets < 2 && !tc->retargeted))
		return 0;
	/* After a retarget the open counters may measure a queue that is gone. */
	next = tc->retargeted ? 0 : (tc->current + 1) % tc->nr_targets;
	tc->retargeted = false;
	while (tc->nr_targets) {
		if (open_target(tc, next, session, sysfs_root, queues, why, why_len)) {
			prebuild(tc, (next + 1) % tc->nr_targets, sysfs_root, queues);
			return 0;
		}
		fprintf(warnings, "%s: %s: dropping queue %d of %s from the rotation\n", cmd, why,
			tc->targets[next].queue, tc->targets[next].pci_bdf);
		drop_target(tc, next);
		if (next == tc->nr_targets)
			next = 0;
	}
	tc->nr_counters = 0;
	snprintf(why, why_len, "no queue left to count: software columns only");
	return -1;
}

void top_counters_release(struct top_counters *tc)
{
	forget_built(tc);
	event_catalog_release(&tc->catalog);
	free(tc->targets);
	tc->targets = NULL;
	tc->nr_targets = 0;
}
