// SPDX-License-Identifier: GPL-2.0
/* Helpers of both PMU cores: name check, group validation, migration. */

#include "netpmu.h"

#include <linux/gfp.h>
#include <linux/namei.h>
#include <linux/path.h>
#include <linux/slab.h>

/*
 * The perf core keeps no exported name index, and a duplicate name would
 * only fail deep in sysfs; look where perf itself publishes PMUs.
 */
bool netpmu_pmu_name_taken(const char *name)
{
	struct path path;
	bool taken;
	char *p;

	p = kasprintf(GFP_KERNEL, "/sys/bus/event_source/devices/%s", name);
	if (!p)
		return false;
	taken = !kern_path(p, 0, &path);
	if (taken)
		path_put(&path);
	kfree(p);
	return taken;
}

/*
 * Record one member of a group; false if it may not be in the group or the
 * group would need more counters than there are. Only distinct keys count.
 */
static bool netpmu_group_add(struct perf_event *event,
			     struct perf_event *member, u64 *keys,
			     unsigned int *nr, unsigned int nr_counters,
			     u64 (*key)(struct perf_event *event))
{
	unsigned int i;
	u64 k;

	if (is_software_event(member))
		return true;
	if (member->pmu != event->pmu)
		return false;

	k = key(member);
	for (i = 0; i < *nr; i++)
		if (keys[i] == k)
			return true;
	if (*nr >= nr_counters)
		return false;
	keys[(*nr)++] = k;
	return true;
}

bool netpmu_validate_group(struct perf_event *event, unsigned int nr_counters,
			   u64 (*key)(struct perf_event *event))
{
	struct perf_event *leader = event->group_leader;
	u64 keys[NETPMU_MAX_COUNTERS];
	struct perf_event *sibling;
	unsigned int nr = 0;

	if (WARN_ON_ONCE(nr_counters > NETPMU_MAX_COUNTERS))
		return false;
	if (!netpmu_group_add(event, leader, keys, &nr, nr_counters, key))
		return false;
	/*
	 * A new leader has no siblings, nor a context whose mutex would make
	 * the walk safe: for_each_sibling_event() asserts it under lockdep.
	 */
	if (leader == event)
		return true;
	if (!netpmu_group_add(event, event, keys, &nr, nr_counters, key))
		return false;

	for_each_sibling_event(sibling, leader) {
		if (!netpmu_group_add(event, sibling, keys, &nr, nr_counters,
				      key))
			return false;
	}
	return true;
}

/*
 * Move the PMU's events from CPU to TARGET. Where the kernel keeps a context
 * per PMU and CPU, perf_pmu_migrate_context() moves only the first group of
 * each of its group trees: its walk of a tree ends at the first group it
 * takes out. Call it until the PMU's context on CPU is empty, or no longer
 * shrinks. The offline callbacks run before the perf core's own migration
 * of a scoped PMU, which then finds nothing left to move.
 */
void netpmu_migrate_context(struct pmu *pmu, unsigned int cpu,
			    unsigned int target)
{
#ifdef NETPMU_HAVE_CPU_PMU_CONTEXT
	struct perf_event_pmu_context *epc =
		&per_cpu_ptr(pmu->cpu_pmu_context, cpu)->epc;
	unsigned int left = READ_ONCE(epc->nr_events), before;

	while (left) {
		perf_pmu_migrate_context(pmu, cpu, target);
		before = left;
		left = READ_ONCE(epc->nr_events);
		if (left >= before)
			break;
	}
#else
	perf_pmu_migrate_context(pmu, cpu, target);
#endif
}
