// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU device model: the register map of the Hip09 PMU with its side
 * effects. Traffic counters are fed by hns3_sim_count(); time counters tick
 * at CLOCK_FREQ from the monotonic clock while EVENT_EN and START are set;
 * interrupt counters follow the real interrupt counts of the bound
 * functions' vectors. Both are sampled when read (and folded on every
 * register change). Overflow raises the PMU's interrupt handler on the
 * counting CPU.
 */

#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/smp.h>

#include "hns3_sim.h"

/* INTR_STATUS: bit r = counter r wrapped, bit 2 + r = its top bit was set */
#define HNS3_SIM_INTR_WRAP(r)	BIT(r)
#define HNS3_SIM_INTR_HALF(r)	BIT(2 + (r))
#define HNS3_SIM_WRAP_MIN_NS	(100 * NSEC_PER_USEC)
#define HNS3_SIM_WRAP_MAX_NS	NSEC_PER_SEC

/*
 * Events with a source (config bits 0-15): the traffic direction or the
 * interrupts that feed them; every other event counts nothing (its time
 * still ticks).
 */
static const struct {
	u16 code;
	s8 source;
} hns3_sim_sources[] = {
	{ 0x0001, HNS3_SIM_TX },	/* bw_ssu_egu */
	{ 0x0002, HNS3_SIM_RX },	/* bw_ssu_rpu */
	{ 0x0005, HNS3_SIM_TX },	/* bw_tpu_ssu */
	{ 0x0006, HNS3_SIM_RX },	/* bw_rpu_rcbrx */
	{ 0x0008, HNS3_SIM_TX },	/* bw_rcbtx_txsch */
	{ 0x0100, HNS3_SIM_RX },	/* pps_igu_ssu */
	{ 0x0101, HNS3_SIM_TX },	/* pps_ssu_egu */
	{ 0x0102, HNS3_SIM_RX },	/* pps_ssu_rpu */
	{ 0x0105, HNS3_SIM_TX },	/* pps_tpu_ssu */
	{ 0x0106, HNS3_SIM_RX },	/* pps_rpu_rcbrx */
	{ 0x0107, HNS3_SIM_TX },	/* pps_rcbtx_tpu */
	{ 0x0108, HNS3_SIM_TX },	/* pps_rcbtx_txsch */
	{ 0x0204, HNS3_SIM_TX },	/* dly_tx_normal_to_mac */
	{ 0x0206, HNS3_SIM_TX },	/* dly_ssu_tx_th_nic */
	{ 0x0208, HNS3_SIM_RX },	/* dly_ssu_rx_th_nic */
	{ 0x020e, HNS3_SIM_RX },	/* dly_rpu */
	{ 0x020f, HNS3_SIM_TX },	/* dly_tpu */
	{ 0x0300, HNS3_SIM_SOURCE_INTR },	/* pps_intr_msix_nic */
	{ 0x0301, HNS3_SIM_SOURCE_INTR },	/* pps_intr_msix_func */
};

static struct hns3_sim *regs_to_sim(struct netpmu_regs *regs)
{
	return container_of(regs, struct hns3_sim, regs);
}

static u32 slot_type(const struct hns3_sim_slot *s)
{
	return s->ctrl_low & 0xf;
}

/* CTRL_LOW = type | subevent << 4; bit 11 and up are control bits. */
static u32 slot_code(const struct hns3_sim_slot *s)
{
	return slot_type(s) << 8 | ((s->ctrl_low >> HNS3_PMU_CTRL_SUBEVENT_S) & 0x7f);
}

static int slot_source(const struct hns3_sim_slot *s)
{
	u32 code = slot_code(s);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hns3_sim_sources); i++)
		if (hns3_sim_sources[i].code == code)
			return hns3_sim_sources[i].source;
	return HNS3_SIM_SOURCE_NONE;
}

/* Which counter counts clock cycles: none for latency (it sums latencies). */
static int slot_time_reg(const struct hns3_sim_slot *s)
{
	return slot_type(s) == HNS3_PMU_TYPE_LATENCY ? -1 : 1;
}

static bool slot_ticking(struct hns3_sim *sim, unsigned int idx)
{
	return test_bit(idx, &sim->counting);
}

static u64 hns3_sim_cycles(struct hns3_sim *sim, u64 ns)
{
	return mul_u64_u32_div(ns, sim->cfg.clock_freq, NSEC_PER_SEC);
}

/*
 * Add to a counter; true if the overflow interrupt must be raised. A
 * narrowed counter also interrupts when its top bit becomes set, so the
 * driver reads it at least twice per wrap and its deltas stay unambiguous.
 */
static bool slot_add(struct hns3_sim *sim, struct hns3_sim_slot *s,
		     unsigned int r, u64 delta)
{
	u64 mask = sim->counter_mask, old = s->cnt[r], val = old + delta;
	bool narrowed = mask != U64_MAX;
	u32 status = 0;

	if (narrowed ? val > mask : val < old) {
		/* Without OVERFLOW_RESTART the counter holds its maximum. */
		if (s->ctrl_low & HNS3_PMU_CTRL_OVERFLOW_RESTART)
			val &= mask;
		else
			val = mask;
		status = HNS3_SIM_INTR_WRAP(r);
	} else if (narrowed && !s->upper[r] && val > mask >> 1) {
		status = HNS3_SIM_INTR_HALF(r);
	}
	s->cnt[r] = val;
	s->upper[r] = narrowed && val > mask >> 1;

	if (!status)
		return false;
	s->intr_status |= status;
	return !(s->intr_mask & HNS3_PMU_INTR_MASK_OVERFLOW);
}

/*
 * Interrupts of the vectors an interrupt slot selects: every vector of every
 * bound function (global), or MSI-X entry intr of the functions with the
 * filter's devfn (func-intr). Called with sim->lock held.
 */
static u64 slot_intr_total(struct hns3_sim *sim, const struct hns3_sim_slot *s)
{
	u32 mode = s->ctrl_low >> HNS3_PMU_CTRL_FILTER_MODE_S;
	u32 devfn = s->ctrl_high & 0xff;
	int entry = (s->ctrl_high >> 8) & 0xfff;
	struct hns3_sim_fn *fn;
	u64 total = 0;

	list_for_each_entry(fn, &sim->fns, node) {
		if (mode == HNS3_PMU_HW_FILTER_GLOBAL)
			total += hns3_sim_fn_interrupts(fn, -1);
		else if (mode == HNS3_PMU_HW_FILTER_FUNC_INTR &&
			 (fn->bdf & 0xff) == devfn)
			total += hns3_sim_fn_interrupts(fn, entry);
	}
	return total;
}

static bool slot_counts_intr(const struct hns3_sim_slot *s)
{
	return s->source == HNS3_SIM_SOURCE_INTR;
}

/* Interrupts since the last fold; a total that went down restarts. */
static u64 slot_intr_delta(const struct hns3_sim_slot *s, u64 total)
{
	return total > s->intr_seen ? total - s->intr_seen : 0;
}

/*
 * Move what a counting slot gained since the last fold into its registers:
 * the cycles ticked (time counter) and the interrupts taken.
 */
static bool slot_fold(struct hns3_sim *sim, unsigned int idx, u64 now)
{
	struct hns3_sim_slot *s = &sim->slot[idx];
	int r = slot_time_reg(s);
	bool raise = false;
	u64 total;

	if (slot_ticking(sim, idx)) {
		if (r >= 0)
			raise |= slot_add(sim, s, r,
					  hns3_sim_cycles(sim, now - s->tick_ns));
		if (slot_counts_intr(s)) {
			total = slot_intr_total(sim, s);
			raise |= slot_add(sim, s, 0, slot_intr_delta(s, total));
			s->intr_seen = total;
		}
	}
	s->tick_ns = now;
	return raise;
}

/* Counting restarts from here: from now, and from the current interrupts. */
static void slot_rebase(struct hns3_sim *sim, unsigned int idx, u64 now)
{
	struct hns3_sim_slot *s = &sim->slot[idx];

	s->tick_ns = now;
	if (slot_counts_intr(s))
		s->intr_seen = slot_intr_total(sim, s);
}

/* What counter r of a counting slot gained since the last fold. */
static u64 slot_pending(struct hns3_sim *sim, unsigned int idx,
			unsigned int r, u64 now)
{
	struct hns3_sim_slot *s = &sim->slot[idx];

	if (!slot_ticking(sim, idx))
		return 0;
	if (r == slot_time_reg(s))
		return hns3_sim_cycles(sim, now - s->tick_ns);
	if (r == 0 && slot_counts_intr(s))
		return slot_intr_delta(s, slot_intr_total(sim, s));
	return 0;
}

static u64 slot_counter(struct hns3_sim *sim, unsigned int idx,
			unsigned int r, u64 now, bool *raise)
{
	struct hns3_sim_slot *s = &sim->slot[idx];
	u64 pending = slot_pending(sim, idx, r, now);
	u64 val = s->cnt[r] + pending;

	if (!pending)
		return s->cnt[r];

	/* A wrap or a top bit to report: fold, so that the status is set. */
	if (val < s->cnt[r] || val > sim->counter_mask ||
	    (!s->upper[r] && sim->counter_mask != U64_MAX &&
	     val > sim->counter_mask >> 1)) {
		*raise |= slot_fold(sim, idx, now);
		return s->cnt[r];
	}
	return val;
}

/*
 * Recompute which slots count. The caller has folded the time of any slot
 * that may stop; a slot that starts ticks from now.
 */
static void hns3_sim_update_counting(struct hns3_sim *sim, u64 now)
{
	unsigned long counting = 0;
	unsigned int idx;

	if (sim->global_ctrl & HNS3_PMU_GLOBAL_START) {
		for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++)
			if (sim->slot[idx].ctrl_low & HNS3_PMU_CTRL_EVENT_EN)
				counting |= BIT(idx);
	}
	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++)
		if ((counting & BIT(idx)) && !slot_ticking(sim, idx))
			slot_rebase(sim, idx, now);
	WRITE_ONCE(sim->counting, counting);
}

/*
 * Around a change of what interrupt slots sum (bound functions, their
 * vectors): fold with the old sources, then restart from the new ones.
 * Called with sim->lock held.
 */
void hns3_sim_intr_fold_locked(struct hns3_sim *sim)
{
	u64 now = ktime_get_ns();
	bool raise = false;
	unsigned int idx;

	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS)
		if (slot_counts_intr(&sim->slot[idx]))
			raise |= slot_fold(sim, idx, now);
	if (raise)
		irq_work_queue(&sim->irq_work);
}

void hns3_sim_intr_rebase_locked(struct hns3_sim *sim)
{
	unsigned int idx;

	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS) {
		struct hns3_sim_slot *s = &sim->slot[idx];

		if (slot_counts_intr(s))
			s->intr_seen = slot_intr_total(sim, s);
	}
}

static void hns3_sim_raise_irq(struct hns3_sim *sim)
{
	irq_work_queue(&sim->irq_work);
}

/* Runs in hard interrupt context, like the real MSI handler. */
static void hns3_sim_irq_ipi(void *info)
{
	struct hns3_sim *sim = info;

	hns3_pmu_irq_handler(0, &sim->pmu);
	atomic_dec(&sim->irq_inflight);
}

static void hns3_sim_irq_work(struct irq_work *work)
{
	struct hns3_sim *sim = container_of(work, struct hns3_sim, irq_work);
	int cpu = READ_ONCE(sim->irq_cpu);
	int ret;

	if (cpu < 0 || cpu == smp_processor_id() || !cpu_online(cpu)) {
		hns3_pmu_irq_handler(0, &sim->pmu);
		return;
	}

	atomic_inc(&sim->irq_inflight);
	ret = smp_call_function_single_async(cpu, &sim->irq_csd);
	if (ret) {
		atomic_dec(&sim->irq_inflight);
		/* -EBUSY: one is already on its way and will see the status. */
		if (ret != -EBUSY)
			hns3_pmu_irq_handler(0, &sim->pmu);
	}
}

static void hns3_sim_set_irq_cpu(struct hns3_pmu *hns3_pmu, unsigned int cpu)
{
	struct hns3_sim *sim = container_of(hns3_pmu, struct hns3_sim, pmu);

	WRITE_ONCE(sim->irq_cpu, cpu);
}

/* Called with sim->lock held. */
static bool hns3_sim_queue_exists_locked(struct hns3_sim *sim, u8 devfn,
					 u16 queue)
{
	struct hns3_sim_fn *fn;

	list_for_each_entry(fn, &sim->fns, node) {
		unsigned int nq = max(fn->ndev->real_num_rx_queues,
				      fn->ndev->real_num_tx_queues);

		if ((fn->bdf & 0xff) == devfn && queue < nq)
			return true;
	}
	return false;
}

/* Decode a per-slot offset; false for global registers and holes. */
static bool hns3_sim_slot_off(u32 off, unsigned int *idx, u32 *reg)
{
	if (off < HNS3_PMU_REG_EVENT_BASE || off >= HNS3_PMU_REG_EVENT_END)
		return false;
	off -= HNS3_PMU_REG_EVENT_BASE;
	*idx = off / HNS3_PMU_REG_EVENT_STRIDE;
	*reg = off % HNS3_PMU_REG_EVENT_STRIDE;
	return true;
}

static u32 hns3_sim_read32(struct netpmu_regs *regs, u32 off)
{
	struct hns3_sim *sim = regs_to_sim(regs);
	struct hns3_sim_slot *s;
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u32 reg, val = 0;
	u64 now;

	if (!hns3_sim_slot_off(off, &idx, &reg)) {
		switch (off) {
		case HNS3_PMU_REG_GLOBAL_CTRL:
			return READ_ONCE(sim->global_ctrl);
		case HNS3_PMU_REG_CLOCK_FREQ:
			return sim->cfg.clock_freq;
		case HNS3_PMU_REG_BDF:
			return sim->bdf;
		case HNS3_PMU_REG_VERSION:
			return sim->cfg.version;
		case HNS3_PMU_REG_DEVICE_ID:
			return sim->cfg.sicl_id;
		default:
			return 0;
		}
	}

	now = ktime_get_ns();
	raw_spin_lock_irqsave(&sim->lock, flags);
	s = &sim->slot[idx];
	switch (reg) {
	case HNS3_PMU_REG_EVENT_CTRL_LOW:
		val = s->ctrl_low;
		break;
	case HNS3_PMU_REG_EVENT_CTRL_HIGH:
		val = s->ctrl_high;
		break;
	case HNS3_PMU_REG_EVENT_INTR_STATUS:
		/* Notice a sampled counter that wrapped since it was read. */
		slot_counter(sim, idx, 0, now, &raise);
		slot_counter(sim, idx, 1, now, &raise);
		val = s->intr_status;
		break;
	case HNS3_PMU_REG_EVENT_INTR_MASK:
		val = s->intr_mask;
		break;
	case HNS3_PMU_REG_EVENT_COUNTER:
	case HNS3_PMU_REG_EVENT_EXT_COUNTER:
		val = lower_32_bits(slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER,
						 now, &raise));
		break;
	case HNS3_PMU_REG_EVENT_COUNTER + 4:
	case HNS3_PMU_REG_EVENT_EXT_COUNTER + 4:
		val = upper_32_bits(slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER + 4,
						 now, &raise));
		break;
	case HNS3_PMU_REG_EVENT_QID_CTRL:
		val = s->qid_ctrl;
		break;
	case HNS3_PMU_REG_EVENT_QID_PARA:
		val = s->qid_para;
		break;
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
	return val;
}

static void hns3_sim_write_slot(struct hns3_sim *sim, unsigned int idx,
				u32 reg, u32 val, u64 now, bool *raise)
{
	struct hns3_sim_slot *s = &sim->slot[idx];

	switch (reg) {
	case HNS3_PMU_REG_EVENT_CTRL_LOW:
		*raise |= slot_fold(sim, idx, now);
		s->ctrl_low = val;
		if (val & HNS3_PMU_CTRL_STATUS_RESET)
			s->intr_status = 0;
		s->source = slot_source(s);
		hns3_sim_update_counting(sim, now);
		break;
	case HNS3_PMU_REG_EVENT_CTRL_HIGH:
		/* The filter picks the vectors an interrupt slot sums. */
		*raise |= slot_fold(sim, idx, now);
		s->ctrl_high = val;
		slot_rebase(sim, idx, now);
		break;
	case HNS3_PMU_REG_EVENT_INTR_MASK:
		s->intr_mask = val;
		/* A pending overflow fires once it is unmasked. */
		if (s->intr_status && !(val & HNS3_PMU_INTR_MASK_OVERFLOW))
			*raise = true;
		break;
	case HNS3_PMU_REG_EVENT_QID_CTRL:
		if (val & HNS3_PMU_QID_CTRL_REQ_ENABLE) {
			u8 devfn = s->qid_para & 0xff;
			u16 queue = s->qid_para >> HNS3_PMU_QID_PARA_QUEUE_S;

			s->qid_ctrl = HNS3_PMU_QID_CTRL_REQ_ENABLE |
				      HNS3_PMU_QID_CTRL_DONE;
			if (!hns3_sim_queue_exists_locked(sim, devfn, queue))
				s->qid_ctrl |= HNS3_PMU_QID_CTRL_MISS;
		} else {
			s->qid_ctrl = 0;
		}
		break;
	case HNS3_PMU_REG_EVENT_QID_PARA:
		s->qid_para = val;
		break;
	default:
		/* INTR_STATUS is cleared through STATUS_RESET only. */
		break;
	}
}

static void hns3_sim_write32(struct netpmu_regs *regs, u32 off, u32 val)
{
	struct hns3_sim *sim = regs_to_sim(regs);
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u64 now = ktime_get_ns();
	u32 reg;

	raw_spin_lock_irqsave(&sim->lock, flags);
	if (hns3_sim_slot_off(off, &idx, &reg)) {
		hns3_sim_write_slot(sim, idx, reg, val, now, &raise);
	} else if (off == HNS3_PMU_REG_GLOBAL_CTRL) {
		for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS)
			raise |= slot_fold(sim, idx, now);
		WRITE_ONCE(sim->global_ctrl, val);
		hns3_sim_update_counting(sim, now);
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
}

static u64 hns3_sim_read64(struct netpmu_regs *regs, u32 off)
{
	struct hns3_sim *sim = regs_to_sim(regs);
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u64 val = 0, now;
	u32 reg;

	if (!hns3_sim_slot_off(off, &idx, &reg))
		return hns3_sim_read32(regs, off);
	if (reg != HNS3_PMU_REG_EVENT_COUNTER &&
	    reg != HNS3_PMU_REG_EVENT_EXT_COUNTER)
		return hns3_sim_read32(regs, off) |
		       (u64)hns3_sim_read32(regs, off + 4) << 32;

	now = ktime_get_ns();
	raw_spin_lock_irqsave(&sim->lock, flags);
	val = slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER,
			   now, &raise);
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
	return val;
}

static void hns3_sim_write64(struct netpmu_regs *regs, u32 off, u64 val)
{
	struct hns3_sim *sim = regs_to_sim(regs);
	struct hns3_sim_slot *s;
	unsigned long flags;
	bool raise = false;
	unsigned int idx, r;
	u64 now;
	u32 reg;

	if (!hns3_sim_slot_off(off, &idx, &reg) ||
	    (reg != HNS3_PMU_REG_EVENT_COUNTER &&
	     reg != HNS3_PMU_REG_EVENT_EXT_COUNTER)) {
		hns3_sim_write32(regs, off, lower_32_bits(val));
		hns3_sim_write32(regs, off + 4, upper_32_bits(val));
		return;
	}

	now = ktime_get_ns();
	raw_spin_lock_irqsave(&sim->lock, flags);
	s = &sim->slot[idx];
	raise = slot_fold(sim, idx, now);
	r = reg == HNS3_PMU_REG_EVENT_EXT_COUNTER;
	s->cnt[r] = val & sim->counter_mask;
	s->upper[r] = sim->counter_mask != U64_MAX &&
		      s->cnt[r] > sim->counter_mask >> 1;
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
}

static const struct netpmu_regs_ops hns3_sim_regs_ops = {
	.read32 = hns3_sim_read32,
	.write32 = hns3_sim_write32,
	.read64 = hns3_sim_read64,
	.write64 = hns3_sim_write64,
};

static bool hns3_sim_pkt_matches(const struct hns3_sim_slot *s,
				 const struct hns3_sim_pkt *pkt)
{
	u32 cond = s->ctrl_high;

	switch (s->ctrl_low >> HNS3_PMU_CTRL_FILTER_MODE_S) {
	case HNS3_PMU_HW_FILTER_GLOBAL:
		return true;
	case HNS3_PMU_HW_FILTER_PORT:
		return pkt->port < 8 && (cond & BIT(pkt->port));
	case HNS3_PMU_HW_FILTER_PORT_TC:
		return (cond >> 3) == pkt->port && (cond & 0x7) == pkt->tc;
	case HNS3_PMU_HW_FILTER_FUNC:
		return (cond & 0xff) == pkt->devfn;
	case HNS3_PMU_HW_FILTER_FUNC_QUEUE:
		return (cond & 0xff) == pkt->devfn &&
		       (s->qid_para >> HNS3_PMU_QID_PARA_QUEUE_S) == pkt->queue;
	default:
		return false;
	}
}

/* Modelled latency: a fixed base per packet plus serialization time. */
static u64 hns3_sim_latency(struct hns3_sim *sim,
			    const struct hns3_sim_pkt *pkt)
{
	u64 base = hns3_sim_cycles(sim, sim->cfg.lat_base_ns);
	u64 wire = div64_u64(pkt->bytes * 8 * sim->cfg.clock_freq,
			     (u64)sim->cfg.link_mbps * 1000000);

	return base * pkt->packets + wire;
}

void hns3_sim_count(struct hns3_sim *sim, const struct hns3_sim_pkt *pkt)
{
	struct hns3_sim_slot *s;
	unsigned long flags;
	bool raise = false;
	unsigned int idx;

	if (!READ_ONCE(sim->counting))
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS) {
		s = &sim->slot[idx];
		if (s->source != pkt->dir || !hns3_sim_pkt_matches(s, pkt))
			continue;

		switch (slot_type(s)) {
		case HNS3_PMU_TYPE_BANDWIDTH:
			raise |= slot_add(sim, s, 0, pkt->bytes);
			break;
		case HNS3_PMU_TYPE_PACKET_RATE:
			raise |= slot_add(sim, s, 0, pkt->packets);
			break;
		case HNS3_PMU_TYPE_LATENCY:
			raise |= slot_add(sim, s, 0, hns3_sim_latency(sim, pkt));
			raise |= slot_add(sim, s, 1, pkt->packets);
			break;
		}
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
}

/* Samples time counters often enough that no wrap goes unnoticed. */
static enum hrtimer_restart hns3_sim_wrap_timer(struct hrtimer *timer)
{
	struct hns3_sim *sim = container_of(timer, struct hns3_sim, wrap_timer);
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u64 now = ktime_get_ns();

	raw_spin_lock_irqsave(&sim->lock, flags);
	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS) {
		slot_counter(sim, idx, 0, now, &raise);
		slot_counter(sim, idx, 1, now, &raise);
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);

	hrtimer_forward_now(timer, ns_to_ktime(sim->wrap_period_ns));
	return HRTIMER_RESTART;
}

void hns3_sim_dev_init(struct hns3_sim *sim)
{
	unsigned int idx;
	u64 wrap_ns;

	raw_spin_lock_init(&sim->lock);
	sim->regs.ops = &hns3_sim_regs_ops;
	sim->counter_mask = sim->cfg.counter_bits >= 64 ? U64_MAX :
			    GENMASK_ULL(sim->cfg.counter_bits - 1, 0);
	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++) {
		sim->slot[idx].source = HNS3_SIM_SOURCE_NONE;
		sim->slot[idx].intr_mask = HNS3_PMU_INTR_MASK_OVERFLOW;
	}

	sim->irq_cpu = -1;
	init_irq_work(&sim->irq_work, hns3_sim_irq_work);
	INIT_CSD(&sim->irq_csd, hns3_sim_irq_ipi, sim);
	atomic_set(&sim->irq_inflight, 0);

	/*
	 * A quarter of the time counter's wrap period, within bounds; checked
	 * in whole seconds first so that the nanosecond product cannot overflow.
	 */
	if (div_u64(sim->counter_mask, sim->cfg.clock_freq) >= 4)
		wrap_ns = HNS3_SIM_WRAP_MAX_NS;
	else
		wrap_ns = mul_u64_u32_div(sim->counter_mask, NSEC_PER_SEC,
					  sim->cfg.clock_freq) / 4;
	sim->wrap_period_ns = clamp_t(u64, wrap_ns, HNS3_SIM_WRAP_MIN_NS,
				      HNS3_SIM_WRAP_MAX_NS);
#ifdef NETPMU_HAVE_HRTIMER_SETUP
	hrtimer_setup(&sim->wrap_timer, hns3_sim_wrap_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
#else
	hrtimer_init(&sim->wrap_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->wrap_timer.function = hns3_sim_wrap_timer;
#endif

	sim->pmu.regs = &sim->regs;
	sim->pmu.counter_mask = sim->counter_mask;
	sim->pmu.set_irq_cpu = hns3_sim_set_irq_cpu;
}

void hns3_sim_dev_start(struct hns3_sim *sim)
{
	/* 64-bit time counters do not wrap in practice: no timer needed. */
	if (sim->counter_mask != U64_MAX)
		hrtimer_start(&sim->wrap_timer,
			      ns_to_ktime(sim->wrap_period_ns),
			      HRTIMER_MODE_REL);
}

void hns3_sim_dev_stop(struct hns3_sim *sim)
{
	hrtimer_cancel(&sim->wrap_timer);
	irq_work_sync(&sim->irq_work);
	while (atomic_read(&sim->irq_inflight))
		cpu_relax();
}
