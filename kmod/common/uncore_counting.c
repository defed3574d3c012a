// SPDX-License-Identifier: GPL-2.0
/*
 * The uncore core's counting paths that are the same for both PMUs: a
 * counter for an event (add, del) and reading it (read). start() and stop()
 * program the PMU's own registers: they come from its ops table.
 */

#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include "uncore.h"

/* Called with uc->lock held, or to pick a counter to try. */
int netpmu_uncore_first_free_counter(struct netpmu_uncore *uc)
{
	unsigned int idx;

	for (idx = 0; idx < NETPMU_MAX_COUNTERS; idx++)
		if (!READ_ONCE(uc->hw_events[idx]))
			return idx;
	return -EBUSY;
}

/* Called with uc->lock held. */
void netpmu_uncore_update_locked(struct netpmu_uncore *uc,
				 struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	prev = local64_read(&hwc->prev_count);
	now = uc->ops->read_counter(uc, event);
	local64_set(&hwc->prev_count, now);
	/* The mask only matters for a narrowed (model) counter. */
	local64_add((now - prev) & uc->counter_mask, &event->count);
}

/*
 * With remote reads (netpmu.h) this runs on any CPU, without the perf
 * context's lock, and may come after del() gave the counter to another
 * event (whose start() zeroes or presets it): a stopped event's counter is
 * not its own any more, so only a started one reads, under the lock that
 * start() and stop() change the state under.
 */
void netpmu_uncore_read(struct perf_event *event)
{
	struct netpmu_uncore *uc = to_netpmu_uncore(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&uc->lock, flags);
	if (!(event->hw.state & PERF_HES_STOPPED))
		netpmu_uncore_update_locked(uc, event);
	raw_spin_unlock_irqrestore(&uc->lock, flags);
}

/* Related events of one group share the counter of the first one added. */
static int netpmu_uncore_find_related(struct netpmu_uncore *uc,
				      struct perf_event *event)
{
	struct perf_event *other;
	unsigned int idx;

	for (idx = 0; idx < NETPMU_MAX_COUNTERS; idx++) {
		other = uc->hw_events[idx];
		if (other && other->group_leader == event->group_leader &&
		    uc->ops->related(other, event))
			return idx;
	}
	return -ENOENT;
}

int netpmu_uncore_add(struct perf_event *event, int flags)
{
	struct netpmu_uncore *uc = to_netpmu_uncore(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	int idx;

	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	/* Claimed under the lock: a PMU may use a free counter's registers. */
	raw_spin_lock_irqsave(&uc->lock, irqflags);
	idx = netpmu_uncore_find_related(uc, event);
	if (idx < 0) {
		idx = netpmu_uncore_first_free_counter(uc);
		if (idx >= 0) {
			if (uc->ops->claim_counter)
				uc->ops->claim_counter(uc, idx);
			WRITE_ONCE(uc->hw_events[idx], event);
		}
	}
	raw_spin_unlock_irqrestore(&uc->lock, irqflags);
	if (idx < 0)
		return idx;
	hwc->idx = idx;

	if (flags & PERF_EF_START)
		uc->ops->start(event, PERF_EF_RELOAD);
	return 0;
}

void netpmu_uncore_del(struct perf_event *event, int flags)
{
	struct netpmu_uncore *uc = to_netpmu_uncore(event->pmu);

	uc->ops->stop(event, PERF_EF_UPDATE);
	WRITE_ONCE(uc->hw_events[event->hw.idx], NULL);
	perf_event_update_userpage(event);
}
