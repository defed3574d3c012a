// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU core: counting. What the uncore core's counting paths
 * (common/uncore_counting.c) ask of this PMU: start/stop, pmu_enable/disable,
 * its counters, related events, and the overflow interrupt. Talks to the device only through the register
 * accessor, so the same code drives the hardware and the model.
 */

#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "core.h"

static void hns3_pmu_slot_rmw(struct hns3_pmu *hns3_pmu, unsigned int idx,
			      u32 reg, u32 clear, u32 set)
{
	u32 val = hns3_pmu_slot_read(hns3_pmu, idx, reg);

	hns3_pmu_slot_write(hns3_pmu, idx, reg, (val & ~clear) | set);
}

static u32 hns3_pmu_filter_condition(struct perf_event *event)
{
	u32 bdf = hns3_pmu_bdf(event);

	switch (hns3_pmu_filter_mode(&event->hw)) {
	case HNS3_PMU_HW_FILTER_PORT:
		return BIT(hns3_pmu_port(event)) & 0xff;
	case HNS3_PMU_HW_FILTER_PORT_TC:
		return hns3_pmu_port(event) << 3 | (hns3_pmu_tc(event) & 0x7);
	case HNS3_PMU_HW_FILTER_FUNC:
	case HNS3_PMU_HW_FILTER_FUNC_QUEUE:
		return bdf & 0xff;
	case HNS3_PMU_HW_FILTER_FUNC_INTR:
		return hns3_pmu_intr(event) << 8 | (bdf & 0xff);
	default:
		return 0;
	}
}

u64 hns3_pmu_read_counter(struct netpmu_uncore *uc, struct perf_event *event)
{
	return netpmu_read64(uc->regs, hns3_pmu_slot_reg(event->hw.idx,
							 event->hw.event_base));
}

void hns3_pmu_start(struct perf_event *event, int flags)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u32 code = hns3_pmu_event_code(event);
	u32 mode = hns3_pmu_filter_mode(hwc);
	unsigned int idx = hwc->idx;
	unsigned long irqflags;
	u32 ctrl;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;

	ctrl = (code >> 8 & 0xff) |
	       (code & 0xff) << HNS3_PMU_CTRL_SUBEVENT_S |
	       mode << HNS3_PMU_CTRL_FILTER_MODE_S |
	       HNS3_PMU_CTRL_OVERFLOW_RESTART;
	raw_spin_lock_irqsave(&hns3_pmu->uc.lock, irqflags);
	hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW, ctrl);
	hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_HIGH,
			    hns3_pmu_filter_condition(event));
	if (mode == HNS3_PMU_HW_FILTER_FUNC_QUEUE)
		hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_QID_PARA,
				    (hns3_pmu_bdf(event) & 0xff) |
				    hns3_pmu_queue(event) <<
				    HNS3_PMU_QID_PARA_QUEUE_S);

	/* Both counters restart, so a pair starting together stays coherent. */
	local64_set(&hwc->prev_count, 0);
	netpmu_write64(hns3_pmu->uc.regs,
		       hns3_pmu_slot_reg(idx, HNS3_PMU_REG_EVENT_COUNTER), 0);
	netpmu_write64(hns3_pmu->uc.regs,
		       hns3_pmu_slot_reg(idx, HNS3_PMU_REG_EVENT_EXT_COUNTER), 0);

	hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_INTR_MASK,
			  HNS3_PMU_INTR_MASK_OVERFLOW, 0);
	hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
			  0, HNS3_PMU_CTRL_EVENT_EN);
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&hns3_pmu->uc.lock, irqflags);

	perf_event_update_userpage(event);
}

void hns3_pmu_stop(struct perf_event *event, int flags)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	raw_spin_lock_irqsave(&hns3_pmu->uc.lock, irqflags);
	hns3_pmu_slot_rmw(hns3_pmu, hwc->idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
			  HNS3_PMU_CTRL_EVENT_EN, 0);
	hns3_pmu_slot_rmw(hns3_pmu, hwc->idx, HNS3_PMU_REG_EVENT_INTR_MASK,
			  0, HNS3_PMU_INTR_MASK_OVERFLOW);
	if (!(hwc->state & PERF_HES_UPTODATE))
		netpmu_uncore_update_locked(&hns3_pmu->uc, event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&hns3_pmu->uc.lock, irqflags);
}

/* Events of one group with equal config bits 0-15 share a slot. */
bool hns3_pmu_related(struct perf_event *a, struct perf_event *b)
{
	return hns3_pmu_event_code(a) == hns3_pmu_event_code(b);
}

void hns3_pmu_enable(struct pmu *pmu)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(pmu);
	u32 val = netpmu_read32(hns3_pmu->uc.regs, HNS3_PMU_REG_GLOBAL_CTRL);

	netpmu_write32(hns3_pmu->uc.regs, HNS3_PMU_REG_GLOBAL_CTRL,
		       val | HNS3_PMU_GLOBAL_START);
}

void hns3_pmu_disable(struct pmu *pmu)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(pmu);
	u32 val = netpmu_read32(hns3_pmu->uc.regs, HNS3_PMU_REG_GLOBAL_CTRL);

	netpmu_write32(hns3_pmu->uc.regs, HNS3_PMU_REG_GLOBAL_CTRL,
		       val & ~HNS3_PMU_GLOBAL_START);
}

static void hns3_pmu_update_if_running(struct perf_event *event,
				       struct pmu *pmu, unsigned int idx)
{
	if (event->pmu == pmu && event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->hw.idx == idx && !(event->hw.state & PERF_HES_STOPPED))
		netpmu_uncore_read(event);
}

/*
 * A narrowed counter wraps often: fold the counts of every event using the
 * slot (its owner and the group members sharing it) before the next wrap.
 * The group lists belong to the CPU the events run on; on another one (on
 * hotplug the events move first, then the interrupt) fold the owner only.
 */
static void hns3_pmu_fold_slot(struct hns3_pmu *hns3_pmu, unsigned int idx)
{
	struct perf_event *owner = READ_ONCE(hns3_pmu->uc.hw_events[idx]);
	struct perf_event *leader, *sibling;

	if (!owner)
		return;
	if (READ_ONCE(owner->oncpu) != smp_processor_id()) {
		hns3_pmu_update_if_running(owner, &hns3_pmu->uc.pmu, idx);
		return;
	}
	leader = owner->group_leader;
	hns3_pmu_update_if_running(leader, &hns3_pmu->uc.pmu, idx);
	for_each_sibling_event(sibling, leader) {
		hns3_pmu_update_if_running(sibling, &hns3_pmu->uc.pmu, idx);
	}
}

irqreturn_t hns3_pmu_handle_irq(struct netpmu_uncore *uc)
{
	struct hns3_pmu *hns3_pmu = container_of(uc, struct hns3_pmu, uc);
	unsigned long flags;
	unsigned int idx;

	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++) {
		if (!hns3_pmu_slot_read(hns3_pmu, idx,
					HNS3_PMU_REG_EVENT_INTR_STATUS))
			continue;

		/* 64-bit hardware counters are not adjusted: they restart. */
		if (hns3_pmu->uc.counter_mask != U64_MAX)
			hns3_pmu_fold_slot(hns3_pmu, idx);

		/* Not between stop()'s clearing of EN and its read. */
		raw_spin_lock_irqsave(&hns3_pmu->uc.lock, flags);
		hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
				  0, HNS3_PMU_CTRL_STATUS_RESET);
		hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
				  HNS3_PMU_CTRL_STATUS_RESET, 0);
		raw_spin_unlock_irqrestore(&hns3_pmu->uc.lock, flags);
	}
	return IRQ_HANDLED;
}
