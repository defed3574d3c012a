// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU core: perf callbacks, filter-mode selection, group validation,
 * overflow interrupt and CPU hotplug. Talks to the device only through the
 * register accessor, so the same code drives the hardware and the model.
 */

#include <linux/bitfield.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/spinlock.h>

#include "hns3_pmu.h"
#include "netpmu.h"

#define HNS3_PMU_QID_POLL_US		1
#define HNS3_PMU_QID_TIMEOUT_US		1000

/* event->hw.config holds the selected hardware filter mode. */
#define hns3_pmu_filter_mode(hwc)	((u32)(hwc)->config)

static inline u32 hns3_pmu_event_id(struct perf_event *event)
{
	return FIELD_GET(HNS3_PMU_CFG_EVENT_ID, event->attr.config);
}

static inline u32 hns3_pmu_event_code(struct perf_event *event)
{
	return FIELD_GET(HNS3_PMU_CFG_CODE, event->attr.config);
}

#define hns3_pmu_cfg1(e, f)	((u32)FIELD_GET(HNS3_PMU_CFG1_##f, (e)->attr.config1))
#define hns3_pmu_port(e)	hns3_pmu_cfg1(e, PORT)
#define hns3_pmu_tc(e)		hns3_pmu_cfg1(e, TC)
#define hns3_pmu_bdf(e)		hns3_pmu_cfg1(e, BDF)
#define hns3_pmu_queue(e)	hns3_pmu_cfg1(e, QUEUE)
#define hns3_pmu_intr(e)	hns3_pmu_cfg1(e, INTR)
#define hns3_pmu_global(e)	hns3_pmu_cfg1(e, GLOBAL)

static u32 hns3_pmu_slot_read(struct hns3_pmu *hns3_pmu, unsigned int idx,
			      u32 reg)
{
	return netpmu_read32(hns3_pmu->regs, hns3_pmu_slot_reg(idx, reg));
}

static void hns3_pmu_slot_write(struct hns3_pmu *hns3_pmu, unsigned int idx,
				u32 reg, u32 val)
{
	netpmu_write32(hns3_pmu->regs, hns3_pmu_slot_reg(idx, reg), val);
}

static void hns3_pmu_slot_rmw(struct hns3_pmu *hns3_pmu, unsigned int idx,
			      u32 reg, u32 clear, u32 set)
{
	u32 val = hns3_pmu_slot_read(hns3_pmu, idx, reg);

	hns3_pmu_slot_write(hns3_pmu, idx, reg, (val & ~clear) | set);
}

/* Called with hns3_pmu->lock held, or to pick a slot to try. */
static int hns3_pmu_first_free_slot(struct hns3_pmu *hns3_pmu)
{
	unsigned int idx;

	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++)
		if (!READ_ONCE(hns3_pmu->hw_events[idx]))
			return idx;
	return -EBUSY;
}

/* A bdf is valid when it lies in the PMU's range and names a real device. */
static bool hns3_pmu_bdf_valid(struct hns3_pmu *hns3_pmu, u32 bdf)
{
	struct pci_dev *pdev;

	if (bdf < hns3_pmu->bdf_min || bdf > hns3_pmu->bdf_max)
		return false;

	pdev = pci_get_domain_bus_and_slot(hns3_pmu->pci_domain, bdf >> 8,
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

	raw_spin_lock_irqsave(&hns3_pmu->lock, flags);
	idx = hns3_pmu_first_free_slot(hns3_pmu);
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
	raw_spin_unlock_irqrestore(&hns3_pmu->lock, flags);

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

/*
 * Record one member of a group; false if it may not be in the group or the
 * group would need more than the 8 hardware slots. Members whose config bits
 * 0-15 are equal share a slot, so only distinct codes count.
 */
static bool hns3_pmu_group_add(struct perf_event *event,
			       struct perf_event *member, u32 *codes,
			       unsigned int *nr)
{
	unsigned int i;
	u32 code;

	if (is_software_event(member))
		return true;
	if (member->pmu != event->pmu)
		return false;

	code = hns3_pmu_event_code(member);
	for (i = 0; i < *nr; i++)
		if (codes[i] == code)
			return true;
	if (*nr >= HNS3_PMU_MAX_HW_EVENTS)
		return false;
	codes[(*nr)++] = code;
	return true;
}

static bool hns3_pmu_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u32 codes[HNS3_PMU_MAX_HW_EVENTS];
	struct perf_event *sibling;
	unsigned int nr = 0;

	if (!hns3_pmu_group_add(event, leader, codes, &nr))
		return false;
	if (leader != event && !hns3_pmu_group_add(event, event, codes, &nr))
		return false;

	for_each_sibling_event(sibling, leader) {
		if (!hns3_pmu_group_add(event, sibling, codes, &nr))
			return false;
	}
	return true;
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

	if (!hns3_pmu->model)
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

static int hns3_pmu_event_init(struct perf_event *event)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int on_cpu = READ_ONCE(hns3_pmu->on_cpu);
	int idx, ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK)
		return -EOPNOTSUPP;

	/* Only possible while no CPU has been picked: no counting CPU yet. */
	if (on_cpu < 0)
		return -ENODEV;
	event->cpu = on_cpu;

	/* A hint only: add() picks the slot on the counting CPU. */
	idx = hns3_pmu_first_free_slot(hns3_pmu);
	if (idx < 0)
		return -EBUSY;
	hwc->idx = idx;

	ret = hns3_pmu_select_filter_mode(hns3_pmu, event);
	if (ret)
		return ret;

	if (!hns3_pmu_validate_group(event))
		return -EINVAL;

	hwc->event_base = event->attr.config & HNS3_PMU_CFG_EXT_COUNTER ?
			  HNS3_PMU_REG_EVENT_EXT_COUNTER :
			  HNS3_PMU_REG_EVENT_COUNTER;

	return hns3_pmu_event_get(hns3_pmu, event);
}

static u64 hns3_pmu_read_counter(struct hns3_pmu *hns3_pmu,
				 struct perf_event *event)
{
	return netpmu_read64(hns3_pmu->regs,
			     hns3_pmu_slot_reg(event->hw.idx,
					       event->hw.event_base));
}

/* Called with hns3_pmu->lock held. */
static void hns3_pmu_update_locked(struct hns3_pmu *hns3_pmu,
				   struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	prev = local64_read(&hwc->prev_count);
	now = hns3_pmu_read_counter(hns3_pmu, event);
	local64_set(&hwc->prev_count, now);
	/* The mask only matters for a narrowed (model) counter. */
	local64_add((now - prev) & hns3_pmu->counter_mask, &event->count);
}

/*
 * With remote reads (netpmu.h) this runs on any CPU, without the perf
 * context's lock, and may come after del() gave the slot to another event:
 * a stopped event's slot is not its own any more, so only a started one
 * reads, under the lock that start() and stop() change the state under.
 */
static void hns3_pmu_read(struct perf_event *event)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&hns3_pmu->lock, flags);
	if (!(event->hw.state & PERF_HES_STOPPED))
		hns3_pmu_update_locked(hns3_pmu, event);
	raw_spin_unlock_irqrestore(&hns3_pmu->lock, flags);
}

static void hns3_pmu_start(struct perf_event *event, int flags)
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
	raw_spin_lock_irqsave(&hns3_pmu->lock, irqflags);
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
	netpmu_write64(hns3_pmu->regs,
		       hns3_pmu_slot_reg(idx, HNS3_PMU_REG_EVENT_COUNTER), 0);
	netpmu_write64(hns3_pmu->regs,
		       hns3_pmu_slot_reg(idx, HNS3_PMU_REG_EVENT_EXT_COUNTER), 0);

	hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_INTR_MASK,
			  HNS3_PMU_INTR_MASK_OVERFLOW, 0);
	hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
			  0, HNS3_PMU_CTRL_EVENT_EN);
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&hns3_pmu->lock, irqflags);

	perf_event_update_userpage(event);
}

static void hns3_pmu_stop(struct perf_event *event, int flags)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;

	raw_spin_lock_irqsave(&hns3_pmu->lock, irqflags);
	hns3_pmu_slot_rmw(hns3_pmu, hwc->idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
			  HNS3_PMU_CTRL_EVENT_EN, 0);
	hns3_pmu_slot_rmw(hns3_pmu, hwc->idx, HNS3_PMU_REG_EVENT_INTR_MASK,
			  0, HNS3_PMU_INTR_MASK_OVERFLOW);
	if (!(hwc->state & PERF_HES_UPTODATE))
		hns3_pmu_update_locked(hns3_pmu, event);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&hns3_pmu->lock, irqflags);
}

/* Events of one group with equal config bits 0-15 share a slot. */
static int hns3_pmu_find_related_slot(struct hns3_pmu *hns3_pmu,
				      struct perf_event *event)
{
	struct perf_event *other;
	unsigned int idx;

	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++) {
		other = hns3_pmu->hw_events[idx];
		if (other && other->group_leader == event->group_leader &&
		    hns3_pmu_event_code(other) == hns3_pmu_event_code(event))
			return idx;
	}
	return -ENOENT;
}

static int hns3_pmu_add(struct perf_event *event, int flags)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned long irqflags;
	int idx;

	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	/* Taken under the lock: the QID probe uses a free slot's registers. */
	raw_spin_lock_irqsave(&hns3_pmu->lock, irqflags);
	idx = hns3_pmu_find_related_slot(hns3_pmu, event);
	if (idx < 0) {
		idx = hns3_pmu_first_free_slot(hns3_pmu);
		if (idx >= 0)
			WRITE_ONCE(hns3_pmu->hw_events[idx], event);
	}
	raw_spin_unlock_irqrestore(&hns3_pmu->lock, irqflags);
	if (idx < 0)
		return -EBUSY;
	hwc->idx = idx;

	if (flags & PERF_EF_START)
		hns3_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void hns3_pmu_del(struct perf_event *event, int flags)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(event->pmu);

	hns3_pmu_stop(event, PERF_EF_UPDATE);
	WRITE_ONCE(hns3_pmu->hw_events[event->hw.idx], NULL);
	perf_event_update_userpage(event);
}

static void hns3_pmu_enable(struct pmu *pmu)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(pmu);
	u32 val = netpmu_read32(hns3_pmu->regs, HNS3_PMU_REG_GLOBAL_CTRL);

	netpmu_write32(hns3_pmu->regs, HNS3_PMU_REG_GLOBAL_CTRL,
		       val | HNS3_PMU_GLOBAL_START);
}

static void hns3_pmu_disable(struct pmu *pmu)
{
	struct hns3_pmu *hns3_pmu = to_hns3_pmu(pmu);
	u32 val = netpmu_read32(hns3_pmu->regs, HNS3_PMU_REG_GLOBAL_CTRL);

	netpmu_write32(hns3_pmu->regs, HNS3_PMU_REG_GLOBAL_CTRL,
		       val & ~HNS3_PMU_GLOBAL_START);
}

static void hns3_pmu_update_if_running(struct perf_event *event,
				       struct pmu *pmu, unsigned int idx)
{
	if (event->pmu == pmu && event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->hw.idx == idx && !(event->hw.state & PERF_HES_STOPPED))
		hns3_pmu_read(event);
}

/*
 * A narrowed counter wraps often: fold the counts of every event using the
 * slot (its owner and the group members sharing it) before the next wrap.
 * The group lists belong to the CPU the events run on; on another one (on
 * hotplug the events move first, then the interrupt) fold the owner only.
 */
static void hns3_pmu_fold_slot(struct hns3_pmu *hns3_pmu, unsigned int idx)
{
	struct perf_event *owner = READ_ONCE(hns3_pmu->hw_events[idx]);
	struct perf_event *leader, *sibling;

	if (!owner)
		return;
	if (READ_ONCE(owner->oncpu) != smp_processor_id()) {
		hns3_pmu_update_if_running(owner, &hns3_pmu->pmu, idx);
		return;
	}
	leader = owner->group_leader;
	hns3_pmu_update_if_running(leader, &hns3_pmu->pmu, idx);
	for_each_sibling_event(sibling, leader) {
		hns3_pmu_update_if_running(sibling, &hns3_pmu->pmu, idx);
	}
}

irqreturn_t hns3_pmu_irq_handler(int irq, void *data)
{
	struct hns3_pmu *hns3_pmu = data;
	unsigned long flags;
	unsigned int idx;

	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++) {
		if (!hns3_pmu_slot_read(hns3_pmu, idx,
					HNS3_PMU_REG_EVENT_INTR_STATUS))
			continue;

		/* 64-bit hardware counters are not adjusted: they restart. */
		if (hns3_pmu->counter_mask != U64_MAX)
			hns3_pmu_fold_slot(hns3_pmu, idx);

		/* Not between stop()'s clearing of EN and its read. */
		raw_spin_lock_irqsave(&hns3_pmu->lock, flags);
		hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
				  0, HNS3_PMU_CTRL_STATUS_RESET);
		hns3_pmu_slot_rmw(hns3_pmu, idx, HNS3_PMU_REG_EVENT_CTRL_LOW,
				  HNS3_PMU_CTRL_STATUS_RESET, 0);
		raw_spin_unlock_irqrestore(&hns3_pmu->lock, flags);
	}
	return IRQ_HANDLED;
}

/*
 * The counting CPU, as upstream: the first online CPU, or (model extension)
 * the CPU the device is local to while it is online; when it goes offline
 * the events move to the local CPU if online, else to any other. The same
 * on every kernel: remote reads do not give the choice to the perf core
 * (netpmu.h).
 */
int hns3_pmu_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hns3_pmu *hns3_pmu = hlist_entry_safe(node, struct hns3_pmu,
						     node);
	int local;

	if (!hns3_pmu || hns3_pmu->on_cpu >= 0)
		return 0;

	/* An online local CPU is visited too: leave the choice to it. */
	local = hns3_pmu->local_cpu;
	if (local >= 0 && local != cpu && cpu_online(local))
		return 0;

	WRITE_ONCE(hns3_pmu->on_cpu, cpu);
	hns3_pmu->set_irq_cpu(hns3_pmu, cpu);
	return 0;
}

int hns3_pmu_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hns3_pmu *hns3_pmu = hlist_entry_safe(node, struct hns3_pmu,
						     node);
	unsigned int target;
	int local;

	if (!hns3_pmu || hns3_pmu->on_cpu != cpu)
		return 0;

	local = hns3_pmu->local_cpu;
	if (local >= 0 && local != cpu && cpu_online(local))
		target = local;
	else
		target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		return 0;

	/* Before registration there is no perf context to move. */
	if (READ_ONCE(hns3_pmu->registered))
		netpmu_migrate_context(&hns3_pmu->pmu, cpu, target);
	WRITE_ONCE(hns3_pmu->on_cpu, target);
	hns3_pmu->set_irq_cpu(hns3_pmu, target);
	return 0;
}

/* Read the identification registers and name the PMU. */
int hns3_pmu_init(struct hns3_pmu *hns3_pmu)
{
	u32 bdf = netpmu_read32(hns3_pmu->regs, HNS3_PMU_REG_BDF);

	hns3_pmu->bdf_min = bdf & 0xffff;
	hns3_pmu->bdf_max = bdf >> 16;
	hns3_pmu->identifier = netpmu_read32(hns3_pmu->regs,
					     HNS3_PMU_REG_VERSION);
	hns3_pmu->hw_clk_freq = netpmu_read32(hns3_pmu->regs,
					      HNS3_PMU_REG_CLOCK_FREQ);
	hns3_pmu->sicl_id = netpmu_read32(hns3_pmu->regs,
					  HNS3_PMU_REG_DEVICE_ID) & 0xffff;
	snprintf(hns3_pmu->name, sizeof(hns3_pmu->name), HNS3_PMU_NAME_FMT,
		 hns3_pmu->sicl_id);
	hns3_pmu->on_cpu = -1;
	hns3_pmu->registered = false;
	raw_spin_lock_init(&hns3_pmu->lock);
	spin_lock_init(&hns3_pmu->users_lock);
	hns3_pmu->nr_users = 0;
	hns3_pmu->closing = false;
	return 0;
}

int hns3_pmu_register(struct hns3_pmu *hns3_pmu)
{
	int ret;

	if (netpmu_pmu_name_taken(hns3_pmu->name)) {
		pr_err(NETPMU_MOD_NAME ": PMU %s already exists (upstream hns3_pmu driver bound?), not registering\n",
		       hns3_pmu->name);
		return -EEXIST;
	}

	hns3_pmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.event_init	= hns3_pmu_event_init,
		.pmu_enable	= hns3_pmu_enable,
		.pmu_disable	= hns3_pmu_disable,
		.add		= hns3_pmu_add,
		.del		= hns3_pmu_del,
		.start		= hns3_pmu_start,
		.stop		= hns3_pmu_stop,
		.read		= hns3_pmu_read,
		.attr_groups	= hns3_pmu_attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
#ifdef NETPMU_HAVE_PMU_PARENT
		.parent		= hns3_pmu->dev,
#endif
	};

	ret = cpuhp_state_add_instance(hns3_pmu_cpuhp_state, &hns3_pmu->node);
	if (ret)
		return ret;

	ret = perf_pmu_register(&hns3_pmu->pmu, hns3_pmu->name, -1);
	if (ret) {
		if (ret == -EEXIST)
			pr_err(NETPMU_MOD_NAME ": PMU %s already exists, not registering\n",
			       hns3_pmu->name);
		goto err_remove_cpuhp_instance;
	}
	WRITE_ONCE(hns3_pmu->registered, true);
	netpmu_pmu_allow_remote_reads(&hns3_pmu->pmu);
	return 0;

err_remove_cpuhp_instance:
	cpuhp_state_remove_instance_nocalls(hns3_pmu_cpuhp_state,
					    &hns3_pmu->node);
	return ret;
}

void hns3_pmu_unregister(struct hns3_pmu *hns3_pmu)
{
	WRITE_ONCE(hns3_pmu->registered, false);
	perf_pmu_unregister(&hns3_pmu->pmu);
	cpuhp_state_remove_instance_nocalls(hns3_pmu_cpuhp_state,
					    &hns3_pmu->node);
}

/*
 * Unregister only while no event uses the PMU; -EBUSY otherwise. New events
 * are refused from here on. The perf core still touches the PMU for a moment
 * after an event's destroy(): a grace period lets that finish.
 */
int hns3_pmu_unregister_idle(struct hns3_pmu *hns3_pmu)
{
	unsigned long flags;

	spin_lock_irqsave(&hns3_pmu->users_lock, flags);
	if (hns3_pmu->nr_users) {
		spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);
		return -EBUSY;
	}
	hns3_pmu->closing = true;
	spin_unlock_irqrestore(&hns3_pmu->users_lock, flags);

	synchronize_rcu();
	hns3_pmu_unregister(hns3_pmu);
	return 0;
}
