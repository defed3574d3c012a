// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU core: counting. What the uncore core's counting paths
 * (common/uncore_counting.c) ask of this PMU: start/stop, pmu_enable/disable,
 * its counters, related events, a new counter's reset and the overflow
 * interrupt. Talks to the device only through the register
 * accessor, so the same code drives the hardware and the model.
 */

#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include "core.h"

/* Related events: the whole control value matches, filters included. */
bool hisi_pcie_pmu_related(struct perf_event *a, struct perf_event *b)
{
	return hisi_pcie_event_ctrl(a) == hisi_pcie_event_ctrl(b);
}

u64 hisi_pcie_pmu_read_counter(struct netpmu_uncore *uc,
			       struct perf_event *event)
{
	return netpmu_read64(uc->regs,
			     hisi_pcie_reg(event->hw.event_base, event->hw.idx));
}

/*
 * Preset both counters of the slot to 2^63. A counter that reads back
 * unchanged is not writable: count from the value it holds. Called with
 * pcie_pmu->uc.lock held.
 */
static void hisi_pcie_pmu_set_period(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 orig, cnt;

	orig = hisi_pcie_pmu_read_counter(&pcie_pmu->uc, event);
	local64_set(&hwc->prev_count, HISI_PCIE_INIT_VAL);
	netpmu_write64(pcie_pmu->uc.regs, hisi_pcie_reg(HISI_PCIE_CNT, hwc->idx),
		       HISI_PCIE_INIT_VAL);
	netpmu_write64(pcie_pmu->uc.regs,
		       hisi_pcie_reg(HISI_PCIE_EXT_CNT, hwc->idx),
		       HISI_PCIE_INIT_VAL);
	cnt = hisi_pcie_pmu_read_counter(&pcie_pmu->uc, event);
	if (cnt == orig)
		local64_set(&hwc->prev_count, cnt);
}

static void hisi_pcie_pmu_write_ctrl(struct hisi_pcie_pmu *pcie_pmu,
				     unsigned int idx, u64 val)
{
	netpmu_write64(pcie_pmu->uc.regs, hisi_pcie_reg(HISI_PCIE_EVENT_CTRL, idx),
		       val);
}

static void hisi_pcie_pmu_ctrl_rmw(struct hisi_pcie_pmu *pcie_pmu,
				   unsigned int idx, u64 clear, u64 set)
{
	u32 off = hisi_pcie_reg(HISI_PCIE_EVENT_CTRL, idx);
	u64 val = netpmu_read64(pcie_pmu->uc.regs, off);

	netpmu_write64(pcie_pmu->uc.regs, off, (val & ~clear) | set);
}

void hisi_pcie_pmu_start(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned int idx = hwc->idx;
	unsigned long irqflags;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;

	raw_spin_lock_irqsave(&pcie_pmu->uc.lock, irqflags);
	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, hisi_pcie_event_ctrl(event));
	hisi_pcie_pmu_ctrl_rmw(pcie_pmu, idx, 0, HISI_PCIE_EVENT_EN);
	netpmu_write32(pcie_pmu->uc.regs, hisi_pcie_reg(HISI_PCIE_INT_MASK, idx),
		       0);

	hisi_pcie_pmu_set_period(event);
	if (flags & PERF_EF_RELOAD)
		netpmu_write64(pcie_pmu->uc.regs,
			       hisi_pcie_reg(hwc->event_base, idx),
			       local64_read(&hwc->prev_count));
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&pcie_pmu->uc.lock, irqflags);

	perf_event_update_userpage(event);
}

void hisi_pcie_pmu_stop(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned int idx = hwc->idx;
	unsigned long irqflags;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	raw_spin_lock_irqsave(&pcie_pmu->uc.lock, irqflags);
	netpmu_uncore_update_locked(&pcie_pmu->uc, event);
	netpmu_write32(pcie_pmu->uc.regs, hisi_pcie_reg(HISI_PCIE_INT_MASK, idx),
		       1);
	hisi_pcie_pmu_ctrl_rmw(pcie_pmu, idx, HISI_PCIE_EVENT_EN, 0);
	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_INIT_SET);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&pcie_pmu->uc.lock, irqflags);
}

/* Reset a counter given to a new event: no previous statistics. */
void hisi_pcie_pmu_claim_counter(struct netpmu_uncore *uc, unsigned int idx)
{
	struct hisi_pcie_pmu *pcie_pmu = container_of(uc, struct hisi_pcie_pmu,
						      uc);

	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_RESET_CNT);
	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_INIT_SET);
}

void hisi_pcie_pmu_enable(struct pmu *pmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(pmu);
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		if (pcie_pmu->uc.hw_events[idx]) {
			netpmu_write32(pcie_pmu->uc.regs, HISI_PCIE_GLOBAL_CTRL,
				       HISI_PCIE_GLOBAL_EN);
			break;
		}
	}
}

void hisi_pcie_pmu_disable(struct pmu *pmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(pmu);

	netpmu_write32(pcie_pmu->uc.regs, HISI_PCIE_GLOBAL_CTRL, 0);
}

/*
 * A counter that wraps runs on from 0, and every event on it (the owner and
 * the other member of a related pair) reads its difference modulo 2^64, so
 * nothing is preset again: upstream presets 2^63 here and loses whatever the
 * counter counts between the fold's read and that write.
 */
irqreturn_t hisi_pcie_pmu_handle_irq(struct netpmu_uncore *uc)
{
	struct hisi_pcie_pmu *pcie_pmu = container_of(uc, struct hisi_pcie_pmu,
						      uc);
	irqreturn_t ret = IRQ_NONE;
	struct perf_event *event;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		if (!netpmu_read32(pcie_pmu->uc.regs,
				   hisi_pcie_reg(HISI_PCIE_INT_STAT, idx)))
			continue;

		netpmu_write32(pcie_pmu->uc.regs,
			       hisi_pcie_reg(HISI_PCIE_INT_STAT, idx), 1);
		event = READ_ONCE(pcie_pmu->uc.hw_events[idx]);
		if (!event)
			continue;

		netpmu_uncore_read(event);
		ret = IRQ_HANDLED;
	}
	return ret;
}

