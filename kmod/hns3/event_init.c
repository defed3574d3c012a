// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU core: event_init. Validates an event, selects its hardware
 * filter mode (probing the device for a queue), validates its group and,
 * on a model, counts it as a user.
 */

#include <linux/delay.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/spinlock.h>

#include "core.h"

#define HNS3_PMU_QID_POLL_US		1
#define HNS3_PMU_QID_TIMEOUT_US		1000

/* A bdf is valid when it lies in the PMU's range and names a real device. */
static bool hns3_pmu_bdf_valid(struct hns3_pmu *hns3_pmu, u32 bdf)
{
	struct pci_dev *pdev;

	if (bdf < hns3_pmu->uc.bdf_min || bdf > hns3_pmu->uc.bdf_max)
		return false;

	pdev = pci_get_domain_bus_and_slot(hns3_pmu->uc.pci_domain, bdf >> 8,
					   bdf & 0xff);
	if (!pdev)
		return false;
	pci_dev_put(pdev);
	return true;
}

/*
 * Ask the device whether a queue exists, through the QID registers of a free
 * slot. Under the lock, so that the counting CPU cannot take the slot (and
 * program its QID_PARA) meanwhile; the device answers within microseconds.
 */
static bool hns3_pmu_qid_valid(struct hns3_pmu *hns3_pmu, u32 bdf, u32 queue)
{
	unsigned int waited = 0;
	unsigned long flags;
	u32 ctrl = 0;
	int idx;

	raw_spin_lock_irqsave(&hns3_pmu->uc.lock, flags);
	idx = netpmu_uncore_first_free_counter(&hns3_pmu->uc);
	if (idx < 0)
		goto unlock;

	hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_QID_PARA,
			    (bdf & 0xff) | queue << HNS3_PMU_QID_PARA_QUEUE_S);
	hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_QID_CTRL,
			    HNS3_PMU_QID_CTRL_REQ_ENABLE);

	for (;;) {
		ctrl = hns3_pmu_slot_read(hns3_pmu, idx,
					  HNS3_PMU_REG_EVENT_QID_CTRL);
		if ((ctrl & HNS3_PMU_QID_CTRL_DONE) ||
		    waited >= HNS3_PMU_QID_TIMEOUT_US)
			break;
		udelay(HNS3_PMU_QID_POLL_US);
		waited += HNS3_PMU_QID_POLL_US;
	}

	hns3_pmu_slot_write(hns3_pmu, idx, HNS3_PMU_REG_EVENT_QID_CTRL, 0);
unlock:
	raw_spin_unlock_irqrestore(&hns3_pmu->uc.lock, flags);

	return (ctrl & HNS3_PMU_QID_CTRL_DONE) &&
	       !(ctrl & HNS3_PMU_QID_CTRL_MISS);
}

/* Filter-mode selection: first match wins, in the documented order. */
static int hns3_pmu_select_filter_mode(struct hns3_pmu *hns3_pmu,
				       struct perf_event *event)
{
	const struct hns3_pmu_event_desc *desc;
	u32 bdf = hns3_pmu_bdf(event);
	u32 queue = hns3_pmu_queue(event);
	u32 tc = hns3_pmu_tc(event);
	u8 modes;
	u32 mode;

	desc = hns3_pmu_find_event(hns3_pmu, hns3_pmu_event_id(event));
	if (!desc)
		return -ENOENT;
	modes = desc->filter_modes;

	if ((modes & HNS3_PMU_FILTER_GLOBAL) && hns3_pmu_global(event)) {
		mode = HNS3_PMU_HW_FILTER_GLOBAL;
	} else if ((modes & HNS3_PMU_FILTER_FUNC) &&
		   queue == HNS3_PMU_QUEUE_ALL && bdf) {
		if (!hns3_pmu_bdf_valid(hns3_pmu, bdf))
			return -ENOENT;
		mode = HNS3_PMU_HW_FILTER_FUNC;
	} else if ((modes & HNS3_PMU_FILTER_FUNC_QUEUE) &&
		   queue != HNS3_PMU_QUEUE_ALL && bdf) {
		if (!hns3_pmu_bdf_valid(hns3_pmu, bdf) ||
		    !hns3_pmu_qid_valid(hns3_pmu, bdf, queue))
			return -ENOENT;
		mode = HNS3_PMU_HW_FILTER_FUNC_QUEUE;
	} else if ((modes & HNS3_PMU_FILTER_PORT) && tc == HNS3_PMU_TC_ALL) {
		mode = HNS3_PMU_HW_FILTER_PORT;
	} else if ((modes & HNS3_PMU_FILTER_PORT_TC) &&
		   tc != HNS3_PMU_TC_ALL) {
		mode = HNS3_PMU_HW_FILTER_PORT_TC;
	} else if ((modes & HNS3_PMU_FILTER_FUNC_INTR) &&
		   hns3_pmu_bdf_valid(hns3_pmu, bdf)) {
		mode = HNS3_PMU_HW_FILTER_FUNC_INTR;
	} else {
		return -ENOENT;
	}

	event->hw.config = mode;
	return 0;
}

/* Members with equal config bits 0-15 share a slot (add()). */
static u64 hns3_pmu_group_key(struct perf_event *event)
{
	return hns3_pmu_event_code(event);
}

static void hns3_pmu_event_destroy(struct perf_event *event)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	unsigned long flags;

	spin_lock_irqsave(&hns3_pmu->users_lock, flags);
	hns3_pmu->nr_users--;
	spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);
}

/*
 * A model counts the event as a user, unless it is being removed. Hardware
 * does not (no destroy hook, as upstream): an unbind frees its driver data
 * while events may still be open, and a hook would then write freed memory.
 */
static int hns3_pmu_event_get(struct hns3_pmu *hns3_pmu,
			      struct perf_event *event)
{
	unsigned long flags;
	int ret = 0;

	if (!hns3_pmu->uc.model)
		return 0;

	spin_lock_irqsave(&hns3_pmu->users_lock, flags);
	if (hns3_pmu->closing) {
		ret = -ENODEV;
	} else {
		hns3_pmu->nr_users++;
		event->destroy = hns3_pmu_event_destroy;
	}
	spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);
	return ret;
}

int hns3_pmu_event_init(struct perf_event *event)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int on_cpu = READ_ONCE(hns3_pmu->uc.on_cpu);
	int ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK)
		return -EOPNOTSUPP;

	/* Only possible while no CPU has been picked: no counting CPU yet. */
	if (on_cpu < 0)
		return -ENODEV;
	event->cpu = on_cpu;

	/*
	 * As upstream: no new event while all slots are taken (its QID probe
	 * needs a free one). add() picks the slot, on the counting CPU.
	 */
	if (netpmu_uncore_first_free_counter(&hns3_pmu->uc) < 0)
		return -EBUSY;

	ret = hns3_pmu_select_filter_mode(hns3_pmu, event);
	if (ret)
		return ret;

	if (!netpmu_validate_group(event, HNS3_PMU_MAX_HW_EVENTS,
				   hns3_pmu_group_key))
		return -EINVAL;

	hwc->event_base = event->attr.config & HNS3_PMU_CFG_EXT_COUNTER ?
			  HNS3_PMU_REG_EVENT_EXT_COUNTER :
			  HNS3_PMU_REG_EVENT_COUNTER;

	return hns3_pmu_event_get(hns3_pmu, event);
}
