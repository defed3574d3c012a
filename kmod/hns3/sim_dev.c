// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU device model: the register map of the Hip09 PMU with its side
 * effects, over the counters of sim_counters.c, and the overflow interrupt,
 * which runs the PMU's handler on the counting CPU.
 */

#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "sim.h"

#define HNS3_SIM_WRAP_MIN_NS	(100 * NSEC_PER_USEC)
#define HNS3_SIM_WRAP_MAX_NS	NSEC_PER_SEC

static struct hns3_sim *regs_to_sim(struct netpmu_regs *regs)
{
	return container_of(regs, struct hns3_sim, model.regs);
}

/* Called with sim->model.lock held. */
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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
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
		hns3_sim_slot_counter(sim, idx, 0, now, &raise);
		hns3_sim_slot_counter(sim, idx, 1, now, &raise);
		val = s->intr_status;
		break;
	case HNS3_PMU_REG_EVENT_INTR_MASK:
		val = s->intr_mask;
		break;
	case HNS3_PMU_REG_EVENT_COUNTER:
	case HNS3_PMU_REG_EVENT_EXT_COUNTER:
		val = lower_32_bits(hns3_sim_slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER,
						 now, &raise));
		break;
	case HNS3_PMU_REG_EVENT_COUNTER + 4:
	case HNS3_PMU_REG_EVENT_EXT_COUNTER + 4:
		val = upper_32_bits(hns3_sim_slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER + 4,
						 now, &raise));
		break;
	case HNS3_PMU_REG_EVENT_QID_CTRL:
		val = s->qid_ctrl;
		break;
	case HNS3_PMU_REG_EVENT_QID_PARA:
		val = s->qid_para;
		break;
	}
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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
		*raise |= hns3_sim_slot_fold(sim, idx, now);
		s->ctrl_low = val;
		if (val & HNS3_PMU_CTRL_STATUS_RESET)
			s->intr_status = 0;
		s->source = hns3_sim_slot_source(s);
		hns3_sim_update_counting(sim, now);
		break;
	case HNS3_PMU_REG_EVENT_CTRL_HIGH:
		/* The filter picks the vectors an interrupt slot sums. */
		*raise |= hns3_sim_slot_fold(sim, idx, now);
		s->ctrl_high = val;
		hns3_sim_slot_rebase(sim, idx, now);
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

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	if (hns3_sim_slot_off(off, &idx, &reg)) {
		hns3_sim_write_slot(sim, idx, reg, val, now, &raise);
	} else if (off == HNS3_PMU_REG_GLOBAL_CTRL) {
		for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS)
			raise |= hns3_sim_slot_fold(sim, idx, now);
		WRITE_ONCE(sim->global_ctrl, val);
		hns3_sim_update_counting(sim, now);
	}
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
	val = hns3_sim_slot_counter(sim, idx, reg == HNS3_PMU_REG_EVENT_EXT_COUNTER,
			   now, &raise);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
	s = &sim->slot[idx];
	raise = hns3_sim_slot_fold(sim, idx, now);
	r = reg == HNS3_PMU_REG_EVENT_EXT_COUNTER;
	s->cnt[r] = val & sim->counter_mask;
	s->upper[r] = sim->counter_mask != U64_MAX &&
		      s->cnt[r] > sim->counter_mask >> 1;
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
}

static const struct netpmu_regs_ops hns3_sim_regs_ops = {
	.read32 = hns3_sim_read32,
	.write32 = hns3_sim_write32,
	.read64 = hns3_sim_read64,
	.write64 = hns3_sim_write64,
};

/*
 * How often the wrap timer samples: a quarter of the time counter's wrap
 * period, within bounds; checked in whole seconds first so that the
 * nanosecond product cannot overflow.
 */
static u64 hns3_sim_wrap_period_ns(u64 counter_mask, u32 clock_freq)
{
	u64 wrap_ns;

	if (div_u64(counter_mask, clock_freq) >= 4)
		wrap_ns = HNS3_SIM_WRAP_MAX_NS;
	else
		wrap_ns = mul_u64_u32_div(counter_mask, NSEC_PER_SEC,
					  clock_freq) / 4;
	return clamp_t(u64, wrap_ns, HNS3_SIM_WRAP_MIN_NS, HNS3_SIM_WRAP_MAX_NS);
}

void hns3_sim_dev_init(struct hns3_sim *sim)
{
	unsigned int idx;

	sim->counter_mask = sim->cfg.counter_bits >= 64 ? U64_MAX :
			    GENMASK_ULL(sim->cfg.counter_bits - 1, 0);
	for (idx = 0; idx < HNS3_PMU_MAX_HW_EVENTS; idx++) {
		sim->slot[idx].source = HNS3_SIM_SOURCE_NONE;
		sim->slot[idx].intr_mask = HNS3_PMU_INTR_MASK_OVERFLOW;
	}

	sim->wrap_period_ns = hns3_sim_wrap_period_ns(sim->counter_mask,
						      sim->cfg.clock_freq);
#ifdef NETPMU_HAVE_HRTIMER_SETUP
	hrtimer_setup(&sim->wrap_timer, hns3_sim_wrap_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
#else
	hrtimer_init(&sim->wrap_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	sim->wrap_timer.function = hns3_sim_wrap_timer;
#endif

	netpmu_model_init(&sim->model, &sim->pmu.uc, &hns3_sim_regs_ops,
			  sim->counter_mask);
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
	netpmu_model_sync_irq(&sim->model);
}
