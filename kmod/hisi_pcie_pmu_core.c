// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe PMU core: perf callbacks, filter validation, group
 * validation, overflow interrupt and CPU hotplug. Talks to the device only
 * through the register accessor, so the same code drives the hardware and the
 * model.
 */

#include <linux/bitfield.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/smp.h>
#include <linux/topology.h>

#include "hisi_pcie_pmu.h"
#include "netpmu.h"

#define hisi_pcie_field(e, cfg, f) \
	((u32)FIELD_GET(HISI_PCIE_##f, (e)->attr.cfg))
#define hisi_pcie_real_event(e)	hisi_pcie_field(e, config, CFG_REAL_EVENT)
#define hisi_pcie_thr_len(e)	hisi_pcie_field(e, config1, CFG1_THR_LEN)
#define hisi_pcie_thr_mode(e)	hisi_pcie_field(e, config1, CFG1_THR_MODE)
#define hisi_pcie_trig_len(e)	hisi_pcie_field(e, config1, CFG1_TRIG_LEN)
#define hisi_pcie_trig_mode(e)	hisi_pcie_field(e, config1, CFG1_TRIG_MODE)
#define hisi_pcie_len_mode(e)	hisi_pcie_field(e, config1, CFG1_LEN_MODE)
#define hisi_pcie_port(e)	hisi_pcie_field(e, config2, CFG2_PORT)
#define hisi_pcie_bdf(e)	hisi_pcie_field(e, config2, CFG2_BDF)

/* The EVENT_CTRL value of an event, without EVENT_EN. */
static u64 hisi_pcie_event_ctrl(struct perf_event *event)
{
	u32 port = hisi_pcie_port(event);
	u32 len_mode = hisi_pcie_len_mode(event);
	u64 reg;

	reg = FIELD_PREP(HISI_PCIE_EVENT_M, hisi_pcie_real_event(event));

	/* A port bitmap wins over a bdf. */
	if (port)
		reg |= FIELD_PREP(HISI_PCIE_TARGET_M, port);
	else
		reg |= HISI_PCIE_TARGET_EN |
		       FIELD_PREP(HISI_PCIE_TARGET_M, hisi_pcie_bdf(event));

	if (hisi_pcie_trig_len(event)) {
		reg |= FIELD_PREP(HISI_PCIE_TRIG_M, hisi_pcie_trig_len(event));
		reg |= FIELD_PREP(HISI_PCIE_TRIG_MODE_M,
				  hisi_pcie_trig_mode(event));
		reg |= HISI_PCIE_TRIG_EN;
	}

	if (hisi_pcie_thr_len(event)) {
		reg |= FIELD_PREP(HISI_PCIE_THR_M, hisi_pcie_thr_len(event));
		reg |= FIELD_PREP(HISI_PCIE_THR_MODE_M,
				  hisi_pcie_thr_mode(event));
		reg |= HISI_PCIE_THR_EN;
	}

	reg |= FIELD_PREP(HISI_PCIE_LEN_M,
			  len_mode ? len_mode : HISI_PCIE_LEN_M_DEFAULT);
	return reg;
}

/* Related events: the whole control value matches, filters included. */
static bool hisi_pcie_related(struct perf_event *a, struct perf_event *b)
{
	return hisi_pcie_event_ctrl(a) == hisi_pcie_event_ctrl(b);
}

/*
 * A requester is valid when the device exists in the PMU's PCI domain and
 * its Root Port (possibly itself) lies in [bdf_min, bdf_max].
 */
static bool hisi_pcie_valid_requester_id(struct hisi_pcie_pmu *pcie_pmu,
					 u32 bdf)
{
	struct pci_dev *pdev, *root_port;
	u16 rp_bdf;

	pdev = pci_get_domain_bus_and_slot(pcie_pmu->pci_domain,
					   PCI_BUS_NUM(bdf), bdf & 0xff);
	if (!pdev)
		return false;

	root_port = pcie_find_root_port(pdev);
	if (!root_port) {
		pci_dev_put(pdev);
		return false;
	}
	rp_bdf = pci_dev_id(root_port);
	pci_dev_put(pdev);

	return rp_bdf >= pcie_pmu->bdf_min && rp_bdf <= pcie_pmu->bdf_max;
}

static bool hisi_pcie_valid_filter(struct hisi_pcie_pmu *pcie_pmu,
				   struct perf_event *event)
{
	if (hisi_pcie_thr_len(event) > HISI_PCIE_THR_MAX_VAL)
		return false;
	if (hisi_pcie_trig_len(event) > HISI_PCIE_TRIG_MAX_VAL)
		return false;

	/* Without a port, the bdf filter applies: bdf 0 is 0000:00:00.0. */
	if (!hisi_pcie_port(event) &&
	    !hisi_pcie_valid_requester_id(pcie_pmu, hisi_pcie_bdf(event)))
		return false;
	return true;
}

/*
 * Record one member of a group; false if it may not be in the group or the
 * group would need more than the 8 counters. Related members share a
 * counter, so only distinct control values count.
 */
static bool hisi_pcie_group_add(struct perf_event *event,
				struct perf_event *member, u64 *ctrls,
				unsigned int *nr)
{
	unsigned int i;
	u64 ctrl;

	if (is_software_event(member))
		return true;
	if (member->pmu != event->pmu)
		return false;

	ctrl = hisi_pcie_event_ctrl(member);
	for (i = 0; i < *nr; i++)
		if (ctrls[i] == ctrl)
			return true;
	if (*nr >= HISI_PCIE_MAX_COUNTERS)
		return false;
	ctrls[(*nr)++] = ctrl;
	return true;
}

static bool hisi_pcie_validate_group(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u64 ctrls[HISI_PCIE_MAX_COUNTERS];
	struct perf_event *sibling;
	unsigned int nr = 0;

	if (!hisi_pcie_group_add(event, leader, ctrls, &nr))
		return false;
	if (leader != event && !hisi_pcie_group_add(event, event, ctrls, &nr))
		return false;

	for_each_sibling_event(sibling, leader) {
		if (!hisi_pcie_group_add(event, sibling, ctrls, &nr))
			return false;
	}
	return true;
}

static int hisi_pcie_pmu_event_init(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int on_cpu;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	hwc->event_base = event->attr.config & HISI_PCIE_CFG_EXT_COUNTER ?
			  HISI_PCIE_EXT_CNT : HISI_PCIE_CNT;

	if (is_sampling_event(event) || event->attach_state & PERF_ATTACH_TASK)
		return -EOPNOTSUPP;

	if (!hisi_pcie_valid_filter(pcie_pmu, event))
		return -EINVAL;

	if (!hisi_pcie_validate_group(event))
		return -EINVAL;

	/* Only while no CPU could be picked: there is no counting CPU. */
	on_cpu = READ_ONCE(pcie_pmu->on_cpu);
	if (on_cpu < 0)
		return -ENODEV;
	event->cpu = on_cpu;
	return 0;
}

static u64 hisi_pcie_read_counter(struct hisi_pcie_pmu *pcie_pmu,
				  struct perf_event *event)
{
	return netpmu_read64(pcie_pmu->regs,
			     hisi_pcie_reg(event->hw.event_base, event->hw.idx));
}

/* Called with pcie_pmu->lock held. */
static void hisi_pcie_pmu_update_locked(struct hisi_pcie_pmu *pcie_pmu,
				       struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	prev = local64_read(&hwc->prev_count);
	now = hisi_pcie_read_counter(pcie_pmu, event);
	local64_set(&hwc->prev_count, now);
	local64_add(now - prev, &event->count);
}

/*
 * With remote reads (netpmu.h) this runs on any CPU, without the perf
 * context's lock, and may come after del() gave the counter to another event
 * (whose start() presets it to 2^63): only a started event reads, under the
 * lock that start() and stop() change the state under.
 */
static void hisi_pcie_pmu_event_update(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pcie_pmu->lock, flags);
	if (!(event->hw.state & PERF_HES_STOPPED))
		hisi_pcie_pmu_update_locked(pcie_pmu, event);
	raw_spin_unlock_irqrestore(&pcie_pmu->lock, flags);
}

static void hisi_pcie_pmu_read(struct perf_event *event)
{
	hisi_pcie_pmu_event_update(event);
}

/*
 * Preset both counters of the slot to 2^63. A counter that reads back
 * unchanged is not writable: count from the value it holds. Called with
 * pcie_pmu->lock held.
 */
static void hisi_pcie_pmu_set_period(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 orig, cnt;

	orig = hisi_pcie_read_counter(pcie_pmu, event);
	local64_set(&hwc->prev_count, HISI_PCIE_INIT_VAL);
	netpmu_write64(pcie_pmu->regs, hisi_pcie_reg(HISI_PCIE_CNT, hwc->idx),
		       HISI_PCIE_INIT_VAL);
	netpmu_write64(pcie_pmu->regs,
		       hisi_pcie_reg(HISI_PCIE_EXT_CNT, hwc->idx),
		       HISI_PCIE_INIT_VAL);
	cnt = hisi_pcie_read_counter(pcie_pmu, event);
	if (cnt == orig)
		local64_set(&hwc->prev_count, cnt);
}

static void hisi_pcie_pmu_write_ctrl(struct hisi_pcie_pmu *pcie_pmu,
				     unsigned int idx, u64 val)
{
	netpmu_write64(pcie_pmu->regs, hisi_pcie_reg(HISI_PCIE_EVENT_CTRL, idx),
		       val);
}

static void hisi_pcie_pmu_ctrl_rmw(struct hisi_pcie_pmu *pcie_pmu,
				   unsigned int idx, u64 clear, u64 set)
{
	u32 off = hisi_pcie_reg(HISI_PCIE_EVENT_CTRL, idx);
	u64 val = netpmu_read64(pcie_pmu->regs, off);

	netpmu_write64(pcie_pmu->regs, off, (val & ~clear) | set);
}

static void hisi_pcie_pmu_start(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned int idx = hwc->idx;
	unsigned long irqflags;

	if (!(hwc->state & PERF_HES_STOPPED))
		return;

	raw_spin_lock_irqsave(&pcie_pmu->lock, irqflags);
	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, hisi_pcie_event_ctrl(event));
	hisi_pcie_pmu_ctrl_rmw(pcie_pmu, idx, 0, HISI_PCIE_EVENT_EN);
	netpmu_write32(pcie_pmu->regs, hisi_pcie_reg(HISI_PCIE_INT_MASK, idx),
		       0);

	hisi_pcie_pmu_set_period(event);
	if (flags & PERF_EF_RELOAD)
		netpmu_write64(pcie_pmu->regs,
			       hisi_pcie_reg(hwc->event_base, idx),
			       local64_read(&hwc->prev_count));
	hwc->state = 0;
	raw_spin_unlock_irqrestore(&pcie_pmu->lock, irqflags);

	perf_event_update_userpage(event);
}

static void hisi_pcie_pmu_stop(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	unsigned int idx = hwc->idx;
	unsigned long irqflags;

	if (hwc->state & PERF_HES_STOPPED)
		return;

	raw_spin_lock_irqsave(&pcie_pmu->lock, irqflags);
	hisi_pcie_pmu_update_locked(pcie_pmu, event);
	netpmu_write32(pcie_pmu->regs, hisi_pcie_reg(HISI_PCIE_INT_MASK, idx),
		       1);
	hisi_pcie_pmu_ctrl_rmw(pcie_pmu, idx, HISI_PCIE_EVENT_EN, 0);
	hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_INIT_SET);
	hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	raw_spin_unlock_irqrestore(&pcie_pmu->lock, irqflags);
}

/* Related events of one group share the counter of the first one added. */
static int hisi_pcie_pmu_find_related(struct hisi_pcie_pmu *pcie_pmu,
				      struct perf_event *event)
{
	struct perf_event *other;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		other = pcie_pmu->hw_events[idx];
		if (other && other->group_leader == event->group_leader &&
		    hisi_pcie_related(other, event))
			return idx;
	}
	return -ENOENT;
}

static int hisi_pcie_pmu_first_free(struct hisi_pcie_pmu *pcie_pmu)
{
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++)
		if (!pcie_pmu->hw_events[idx])
			return idx;
	return -EAGAIN;
}

static int hisi_pcie_pmu_add(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;

	idx = hisi_pcie_pmu_find_related(pcie_pmu, event);
	if (idx < 0) {
		idx = hisi_pcie_pmu_first_free(pcie_pmu);
		if (idx < 0)
			return idx;
		/* Reset the counter: no previous statistics. */
		hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_RESET_CNT);
		hisi_pcie_pmu_write_ctrl(pcie_pmu, idx, HISI_PCIE_INIT_SET);
		WRITE_ONCE(pcie_pmu->hw_events[idx], event);
	}
	hwc->idx = idx;

	if (flags & PERF_EF_START)
		hisi_pcie_pmu_start(event, PERF_EF_RELOAD);
	return 0;
}

static void hisi_pcie_pmu_del(struct perf_event *event, int flags)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);

	hisi_pcie_pmu_stop(event, PERF_EF_UPDATE);
	WRITE_ONCE(pcie_pmu->hw_events[event->hw.idx], NULL);
	perf_event_update_userpage(event);
}

static void hisi_pcie_pmu_enable(struct pmu *pmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(pmu);
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		if (pcie_pmu->hw_events[idx]) {
			netpmu_write32(pcie_pmu->regs, HISI_PCIE_GLOBAL_CTRL,
				       HISI_PCIE_GLOBAL_EN);
			break;
		}
	}
}

static void hisi_pcie_pmu_disable(struct pmu *pmu)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(pmu);

	netpmu_write32(pcie_pmu->regs, HISI_PCIE_GLOBAL_CTRL, 0);
}

/* Count from the counter's current value on (after a preset by another). */
static void hisi_pcie_pmu_rebase(struct perf_event *event)
{
	struct hisi_pcie_pmu *pcie_pmu = to_hisi_pcie_pmu(event->pmu);
	unsigned long flags;

	raw_spin_lock_irqsave(&pcie_pmu->lock, flags);
	local64_set(&event->hw.prev_count,
		    hisi_pcie_read_counter(pcie_pmu, event));
	raw_spin_unlock_irqrestore(&pcie_pmu->lock, flags);
}

/* Another running event of the owner's group on the owner's counter. */
static bool hisi_pcie_pmu_shares(struct perf_event *event,
				 struct perf_event *owner)
{
	return event != owner && event->pmu == owner->pmu &&
	       event->hw.idx == owner->hw.idx &&
	       !(event->hw.state & PERF_HES_STOPPED);
}

/*
 * Fold the counts of the events sharing the owner's counter (the other
 * member of a related pair) before the preset, or rebase them after it.
 * Upstream folds the owner only, so the other member of a pair loses its
 * count at an overflow; this keeps it exact. Only on the CPU the events run
 * on, which owns the group lists.
 */
static void hisi_pcie_pmu_sharers(struct perf_event *owner, bool rebase)
{
	struct perf_event *leader = owner->group_leader, *sibling;

	/* Elsewhere (a scoped PMU's events may live on another CPU): owner only. */
	if (READ_ONCE(owner->oncpu) != smp_processor_id())
		return;

	if (hisi_pcie_pmu_shares(leader, owner)) {
		if (rebase)
			hisi_pcie_pmu_rebase(leader);
		else
			hisi_pcie_pmu_event_update(leader);
	}
	for_each_sibling_event(sibling, leader) {
		if (!hisi_pcie_pmu_shares(sibling, owner))
			continue;
		if (rebase)
			hisi_pcie_pmu_rebase(sibling);
		else
			hisi_pcie_pmu_event_update(sibling);
	}
}

irqreturn_t hisi_pcie_pmu_irq_handler(int irq, void *data)
{
	struct hisi_pcie_pmu *pcie_pmu = data;
	irqreturn_t ret = IRQ_NONE;
	struct perf_event *event;
	unsigned long flags;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		if (!netpmu_read32(pcie_pmu->regs,
				   hisi_pcie_reg(HISI_PCIE_INT_STAT, idx)))
			continue;

		netpmu_write32(pcie_pmu->regs,
			       hisi_pcie_reg(HISI_PCIE_INT_STAT, idx), 1);
		event = READ_ONCE(pcie_pmu->hw_events[idx]);
		if (!event)
			continue;

		hisi_pcie_pmu_event_update(event);
		hisi_pcie_pmu_sharers(event, false);
		raw_spin_lock_irqsave(&pcie_pmu->lock, flags);
		if (!(event->hw.state & PERF_HES_STOPPED))
			hisi_pcie_pmu_set_period(event);
		raw_spin_unlock_irqrestore(&pcie_pmu->lock, flags);
		hisi_pcie_pmu_sharers(event, true);
		ret = IRQ_HANDLED;
	}
	return ret;
}

/* The first online CPU of the device's NUMA node, else any online CPU. */
static unsigned int hisi_pcie_pmu_pick_cpu(struct hisi_pcie_pmu *pcie_pmu,
					   unsigned int exclude)
{
	int node = pcie_pmu->numa_node;
	unsigned int cpu;

	if (node != NUMA_NO_NODE) {
		for_each_cpu_and(cpu, cpumask_of_node(node), cpu_online_mask)
			if (cpu != exclude)
				return cpu;
	}
	for_each_online_cpu(cpu)
		if (cpu != exclude)
			return cpu;
	return nr_cpu_ids;
}

/*
 * The counting CPU, as upstream: the first online CPU of the device's NUMA
 * node (the model may prefer another), and on hotplug another one of the
 * node, else any. The same on every kernel: remote reads do not give the
 * choice to the perf core (netpmu.h).
 */
int hisi_pcie_pmu_online_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hisi_pcie_pmu *pcie_pmu = hlist_entry_safe(node,
							  struct hisi_pcie_pmu,
							  node);
	int pref;
	unsigned int target;

	if (!pcie_pmu || pcie_pmu->on_cpu >= 0)
		return 0;

	pref = pcie_pmu->preferred_cpu;
	if (pref >= 0 && (unsigned int)pref < nr_cpu_ids && cpu_online(pref))
		target = pref;
	else
		target = cpumask_local_spread(0, pcie_pmu->numa_node);

	WRITE_ONCE(pcie_pmu->on_cpu, target);
	pcie_pmu->set_irq_cpu(pcie_pmu, target);
	return 0;
}

int hisi_pcie_pmu_offline_cpu(unsigned int cpu, struct hlist_node *node)
{
	struct hisi_pcie_pmu *pcie_pmu = hlist_entry_safe(node,
							  struct hisi_pcie_pmu,
							  node);
	unsigned int target;

	if (!pcie_pmu || pcie_pmu->on_cpu != cpu)
		return 0;

	WRITE_ONCE(pcie_pmu->on_cpu, -1);
	target = hisi_pcie_pmu_pick_cpu(pcie_pmu, cpu);
	if (target >= nr_cpu_ids) {
		pr_err(NETPMU_MOD_NAME ": %s: there is no CPU to count on\n",
		       pcie_pmu->name);
		return 0;
	}

	/* Before registration there is no perf context to move. */
	if (READ_ONCE(pcie_pmu->registered))
		netpmu_migrate_context(&pcie_pmu->pmu, cpu, target);
	WRITE_ONCE(pcie_pmu->on_cpu, target);
	pcie_pmu->set_irq_cpu(pcie_pmu, target);
	return 0;
}

/* Read the identification registers and name the PMU. */
int hisi_pcie_pmu_init(struct hisi_pcie_pmu *pcie_pmu)
{
	u32 bdf = netpmu_read32(pcie_pmu->regs, HISI_PCIE_REG_BDF);
	u32 info = netpmu_read32(pcie_pmu->regs, HISI_PCIE_REG_INFO);

	pcie_pmu->bdf_min = bdf & 0xffff;
	pcie_pmu->bdf_max = bdf >> 16;
	pcie_pmu->identifier = netpmu_read32(pcie_pmu->regs,
					     HISI_PCIE_REG_VERSION);
	pcie_pmu->sicl_id = info >> 16;
	pcie_pmu->core_id = info & 0xffff;
	snprintf(pcie_pmu->name, sizeof(pcie_pmu->name),
		 HISI_PCIE_PMU_NAME_FMT, pcie_pmu->sicl_id, pcie_pmu->core_id);
	pcie_pmu->on_cpu = -1;
	pcie_pmu->registered = false;
	raw_spin_lock_init(&pcie_pmu->lock);
	return 0;
}

int hisi_pcie_pmu_register(struct hisi_pcie_pmu *pcie_pmu)
{
	int ret;

	if (netpmu_pmu_name_taken(pcie_pmu->name)) {
		pr_err(NETPMU_MOD_NAME ": PMU %s already exists (upstream hisi_pcie_pmu driver bound?), not registering\n",
		       pcie_pmu->name);
		return -EEXIST;
	}

	pcie_pmu->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.task_ctx_nr	= perf_invalid_context,
		.event_init	= hisi_pcie_pmu_event_init,
		.pmu_enable	= hisi_pcie_pmu_enable,
		.pmu_disable	= hisi_pcie_pmu_disable,
		.add		= hisi_pcie_pmu_add,
		.del		= hisi_pcie_pmu_del,
		.start		= hisi_pcie_pmu_start,
		.stop		= hisi_pcie_pmu_stop,
		.read		= hisi_pcie_pmu_read,
		.attr_groups	= hisi_pcie_pmu_attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
#ifdef NETPMU_HAVE_PMU_PARENT
		.parent		= pcie_pmu->dev,
#endif
	};

	ret = cpuhp_state_add_instance(hisi_pcie_pmu_cpuhp_state,
				       &pcie_pmu->node);
	if (ret)
		return ret;

	ret = perf_pmu_register(&pcie_pmu->pmu, pcie_pmu->name, -1);
	if (ret)
		goto err_remove_cpuhp_instance;
	WRITE_ONCE(pcie_pmu->registered, true);
	netpmu_pmu_allow_remote_reads(&pcie_pmu->pmu);
	return 0;

err_remove_cpuhp_instance:
	cpuhp_state_remove_instance_nocalls(hisi_pcie_pmu_cpuhp_state,
					    &pcie_pmu->node);
	return ret;
}

void hisi_pcie_pmu_unregister(struct hisi_pcie_pmu *pcie_pmu)
{
	WRITE_ONCE(pcie_pmu->registered, false);
	perf_pmu_unregister(&pcie_pmu->pmu);
	cpuhp_state_remove_instance_nocalls(hisi_pcie_pmu_cpuhp_state,
					    &pcie_pmu->node);
}
