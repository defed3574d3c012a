// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe PMU device model: the register map with its side effects.
 * TLP counters are fed by hisi_pcie_sim_count(); time counters tick at the
 * model's clock from the monotonic clock while the counter is enabled (and,
 * with a trigger, once it has fired). A 64-bit counter that wraps sets
 * INT_STAT and, unless masked, raises the PMU's interrupt on the counting CPU.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/smp.h>

#include "hisi_pcie_sim.h"

/* Events with a TLP source: code (EVENT_CTRL[15:0]) -> class and kind. */
static const struct {
	u16 code;
	u8 cls;
	bool latency;
} hisi_pcie_sim_events[] = {
	{ 0x0010, HISI_PCIE_TLP_RX_MWR, true },		/* rx_mwr_latency/cnt */
	{ 0x0210, HISI_PCIE_TLP_RX_MRD, true },		/* rx_mrd_latency/cnt */
	{ 0x0011, HISI_PCIE_TLP_TX_MRD, true },		/* tx_mrd_latency/cnt */
	{ 0x0104, HISI_PCIE_TLP_RX_MWR, false },	/* rx_mwr_flux/time */
	{ 0x0804, HISI_PCIE_TLP_RX_MRD, false },	/* rx_mrd_flux/time */
	{ 0x2004, HISI_PCIE_TLP_RX_CPL, false },	/* rx_cpl_flux/time */
	{ 0x0105, HISI_PCIE_TLP_TX_MWR, false },	/* tx_mwr_flux/time */
	{ 0x0405, HISI_PCIE_TLP_TX_MRD, false },	/* tx_mrd_flux/time */
	{ 0x1005, HISI_PCIE_TLP_TX_CPL, false },	/* tx_cpl_flux/time */
};

#define HISI_PCIE_SIM_TIME_REG	1	/* EXT_CNT of a bandwidth event */

static struct hisi_pcie_sim *regs_to_sim(struct netpmu_regs *regs)
{
	return container_of(regs, struct hisi_pcie_sim, regs);
}

static void slot_decode(struct hisi_pcie_sim_slot *s)
{
	u16 code = FIELD_GET(HISI_PCIE_EVENT_M, s->ctrl);
	unsigned int i;

	s->cls = -1;
	s->latency = false;
	for (i = 0; i < ARRAY_SIZE(hisi_pcie_sim_events); i++) {
		if (hisi_pcie_sim_events[i].code == code) {
			s->cls = hisi_pcie_sim_events[i].cls;
			s->latency = hisi_pcie_sim_events[i].latency;
			return;
		}
	}
}

/* Does the slot's time counter tick? Bandwidth events only. */
static bool slot_ticking(struct hisi_pcie_sim *sim, unsigned int idx)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];

	if (!test_bit(idx, &sim->counting) || s->cls < 0 || s->latency)
		return false;
	return !(s->ctrl & HISI_PCIE_TRIG_EN) || s->triggered;
}

static u64 hisi_pcie_sim_cycles(struct hisi_pcie_sim *sim, u64 ns)
{
	return mul_u64_u32_div(ns, sim->cfg.clk_freq, NSEC_PER_SEC);
}

/* Add to a counter; true if the overflow interrupt must be raised. */
static bool slot_add(struct hisi_pcie_sim_slot *s, unsigned int r, u64 delta)
{
	u64 old = s->cnt[r];

	s->cnt[r] = old + delta;
	if (s->cnt[r] >= old)
		return false;
	s->int_stat = 1;
	return !s->int_mask;
}

/* Move the cycles ticked since the last fold into the time counter. */
static bool slot_fold_time(struct hisi_pcie_sim *sim, unsigned int idx,
			   u64 now)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];
	bool raise = false;

	if (slot_ticking(sim, idx))
		raise = slot_add(s, HISI_PCIE_SIM_TIME_REG,
				 hisi_pcie_sim_cycles(sim, now - s->tick_ns));
	s->tick_ns = now;
	return raise;
}

static bool fold_all(struct hisi_pcie_sim *sim, u64 now)
{
	bool raise = false;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++)
		raise |= slot_fold_time(sim, idx, now);
	return raise;
}

static u64 slot_counter(struct hisi_pcie_sim *sim, unsigned int idx,
			unsigned int r, u64 now, bool *raise)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];
	u64 val;

	if (r != HISI_PCIE_SIM_TIME_REG || !slot_ticking(sim, idx))
		return s->cnt[r];

	val = s->cnt[r] + hisi_pcie_sim_cycles(sim, now - s->tick_ns);
	if (val < s->cnt[r]) {
		*raise |= slot_fold_time(sim, idx, now);
		return s->cnt[r];
	}
	return val;
}

/* Recompute which slots count; the caller has folded every slot's time. */
static void update_counting(struct hisi_pcie_sim *sim)
{
	unsigned long counting = 0;
	unsigned int idx;

	if (sim->global_ctrl & HISI_PCIE_GLOBAL_EN) {
		for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++)
			if (sim->slot[idx].ctrl & HISI_PCIE_EVENT_EN)
				counting |= BIT(idx);
	}
	WRITE_ONCE(sim->counting, counting);
}

static void hisi_pcie_sim_raise_irq(struct hisi_pcie_sim *sim)
{
	irq_work_queue(&sim->irq_work);
}

/* Runs in hard interrupt context, like the real MSI handler. */
static void hisi_pcie_sim_handle_irq(struct hisi_pcie_sim *sim)
{
	if (hisi_pcie_pmu_irq_handler(0, &sim->pmu) == IRQ_HANDLED)
		atomic_inc(&sim->irqs_handled);
}

static void hisi_pcie_sim_irq_ipi(void *info)
{
	struct hisi_pcie_sim *sim = info;

	hisi_pcie_sim_handle_irq(sim);
	atomic_dec(&sim->irq_inflight);
}

static void hisi_pcie_sim_irq_work(struct irq_work *work)
{
	struct hisi_pcie_sim *sim = container_of(work, struct hisi_pcie_sim,
						 irq_work);
	int cpu = READ_ONCE(sim->irq_cpu);
	int ret;

	if (cpu < 0 || cpu == smp_processor_id() || !cpu_online(cpu)) {
		hisi_pcie_sim_handle_irq(sim);
		return;
	}

	atomic_inc(&sim->irq_inflight);
	ret = smp_call_function_single_async(cpu, &sim->irq_csd);
	if (ret) {
		atomic_dec(&sim->irq_inflight);
		/* -EBUSY: one is already on its way and will see the status. */
		if (ret != -EBUSY)
			hisi_pcie_sim_handle_irq(sim);
	}
}

static void hisi_pcie_sim_set_irq_cpu(struct hisi_pcie_pmu *pcie_pmu,
				      unsigned int cpu)
{
	struct hisi_pcie_sim *sim = container_of(pcie_pmu, struct hisi_pcie_sim,
						 pmu);

	WRITE_ONCE(sim->irq_cpu, cpu);
}

/* Registers are 64-bit (EVENT_CTRL, CNT, EXT_CNT) or 32-bit. */
enum hisi_pcie_sim_reg {
	SIM_REG_NONE,
	SIM_REG_CTRL,
	SIM_REG_CNT,
	SIM_REG_EXT_CNT,
	SIM_REG_INT_STAT,
	SIM_REG_INT_MASK,
};

/* Decode a per-counter offset (8-byte aligned base, any 4-byte half). */
static enum hisi_pcie_sim_reg sim_decode(u32 off, unsigned int *idx,
					 bool *upper)
{
	static const struct {
		u32 base;
		enum hisi_pcie_sim_reg reg;
	} map[] = {
		{ HISI_PCIE_EVENT_CTRL, SIM_REG_CTRL },
		{ HISI_PCIE_CNT, SIM_REG_CNT },
		{ HISI_PCIE_EXT_CNT, SIM_REG_EXT_CNT },
		{ HISI_PCIE_INT_STAT, SIM_REG_INT_STAT },
	};
	unsigned int i;

	if (off & 3)
		return SIM_REG_NONE;
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		u32 base = map[i].base;

		if (off < base ||
		    off >= base + HISI_PCIE_MAX_COUNTERS * HISI_PCIE_REG_STEP)
			continue;
		*idx = (off - base) / HISI_PCIE_REG_STEP;
		*upper = (off - base) & 4;
		if (map[i].reg == SIM_REG_INT_STAT)
			return *upper ? SIM_REG_INT_MASK : SIM_REG_INT_STAT;
		return map[i].reg;
	}
	return SIM_REG_NONE;
}

static u64 sim_read_slot(struct hisi_pcie_sim *sim, enum hisi_pcie_sim_reg reg,
			 unsigned int idx, u64 now, bool *raise)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];

	switch (reg) {
	case SIM_REG_CTRL:
		return s->ctrl;
	case SIM_REG_CNT:
		return slot_counter(sim, idx, 0, now, raise);
	case SIM_REG_EXT_CNT:
		return slot_counter(sim, idx, 1, now, raise);
	case SIM_REG_INT_STAT:
		/* Notice a time counter that wrapped since it was last read. */
		slot_counter(sim, idx, HISI_PCIE_SIM_TIME_REG, now, raise);
		return s->int_stat;
	case SIM_REG_INT_MASK:
		return s->int_mask;
	default:
		return 0;
	}
}

static void sim_write_ctrl(struct hisi_pcie_sim *sim, unsigned int idx,
			   u64 val, u64 now, bool *raise)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];

	*raise |= fold_all(sim, now);
	/* RESET_CNT clears both counters and does not stay set. */
	if (val & HISI_PCIE_RESET_CNT) {
		s->cnt[0] = 0;
		s->cnt[1] = 0;
		val &= ~HISI_PCIE_RESET_CNT;
	}
	/* A disabled counter re-arms its trigger. */
	if (!(val & HISI_PCIE_EVENT_EN) || val != s->ctrl)
		s->triggered = false;
	s->ctrl = val;
	slot_decode(s);
	update_counting(sim);
}

static void sim_write_slot(struct hisi_pcie_sim *sim,
			   enum hisi_pcie_sim_reg reg, unsigned int idx,
			   u64 val, u64 now, bool *raise)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];

	switch (reg) {
	case SIM_REG_CTRL:
		sim_write_ctrl(sim, idx, val, now, raise);
		break;
	case SIM_REG_CNT:
	case SIM_REG_EXT_CNT:
		*raise |= slot_fold_time(sim, idx, now);
		s->cnt[reg == SIM_REG_EXT_CNT] = val;
		break;
	case SIM_REG_INT_STAT:
		/* Write 1 to clear. */
		s->int_stat &= ~(u32)val;
		break;
	case SIM_REG_INT_MASK:
		s->int_mask = val & 1;
		/* A pending overflow fires once it is unmasked. */
		if (s->int_stat && !s->int_mask)
			*raise = true;
		break;
	default:
		break;
	}
}

static u32 hisi_pcie_sim_read_global(struct hisi_pcie_sim *sim, u32 off)
{
	switch (off) {
	case HISI_PCIE_GLOBAL_CTRL:
		return READ_ONCE(sim->global_ctrl);
	case HISI_PCIE_REG_BDF:
		return sim->bdf_reg;
	case HISI_PCIE_REG_VERSION:
		return sim->cfg.version;
	case HISI_PCIE_REG_INFO:
		return (u32)sim->cfg.sicl_id << 16 | sim->cfg.core_id;
	default:
		return 0;
	}
}

static u64 hisi_pcie_sim_read(struct hisi_pcie_sim *sim, u32 off, bool wide)
{
	enum hisi_pcie_sim_reg reg;
	unsigned long flags;
	bool raise = false, upper = false;
	unsigned int idx = 0;
	u64 val, now;

	reg = sim_decode(off, &idx, &upper);
	if (reg == SIM_REG_NONE)
		return hisi_pcie_sim_read_global(sim, off);

	now = ktime_get_ns();
	raw_spin_lock_irqsave(&sim->lock, flags);
	val = sim_read_slot(sim, reg, idx, now, &raise);
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hisi_pcie_sim_raise_irq(sim);

	if (reg == SIM_REG_INT_STAT || reg == SIM_REG_INT_MASK)
		return (u32)val;
	if (upper)
		return upper_32_bits(val);
	return wide ? val : lower_32_bits(val);
}

/* A 32-bit write to half of a 64-bit register merges with the other half. */
static void hisi_pcie_sim_write(struct hisi_pcie_sim *sim, u32 off, u64 val,
				bool wide)
{
	enum hisi_pcie_sim_reg reg;
	unsigned long flags;
	bool raise = false, upper = false;
	unsigned int idx = 0;
	u64 now = ktime_get_ns();

	reg = sim_decode(off, &idx, &upper);
	raw_spin_lock_irqsave(&sim->lock, flags);
	if (reg == SIM_REG_NONE) {
		if (off == HISI_PCIE_GLOBAL_CTRL) {
			raise = fold_all(sim, now);
			WRITE_ONCE(sim->global_ctrl, (u32)val);
			update_counting(sim);
		}
		/* Other global registers are read-only. */
	} else {
		if (!wide && reg != SIM_REG_INT_STAT &&
		    reg != SIM_REG_INT_MASK) {
			u64 cur = sim_read_slot(sim, reg, idx, now, &raise);

			if (upper)
				val = (cur & GENMASK_ULL(31, 0)) | val << 32;
			else
				val = (cur & GENMASK_ULL(63, 32)) | (u32)val;
		}
		sim_write_slot(sim, reg, idx, val, now, &raise);
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hisi_pcie_sim_raise_irq(sim);
}

static u32 hisi_pcie_sim_read32(struct netpmu_regs *regs, u32 off)
{
	return hisi_pcie_sim_read(regs_to_sim(regs), off, false);
}

static void hisi_pcie_sim_write32(struct netpmu_regs *regs, u32 off, u32 val)
{
	hisi_pcie_sim_write(regs_to_sim(regs), off, val, false);
}

static u64 hisi_pcie_sim_read64(struct netpmu_regs *regs, u32 off)
{
	struct hisi_pcie_sim *sim = regs_to_sim(regs);
	bool upper;
	unsigned int idx;

	switch (sim_decode(off, &idx, &upper)) {
	case SIM_REG_CTRL:
	case SIM_REG_CNT:
	case SIM_REG_EXT_CNT:
		if (!upper)
			return hisi_pcie_sim_read(sim, off, true);
		fallthrough;
	default:
		return hisi_pcie_sim_read(sim, off, false) |
		       hisi_pcie_sim_read(sim, off + 4, false) << 32;
	}
}

static void hisi_pcie_sim_write64(struct netpmu_regs *regs, u32 off, u64 val)
{
	struct hisi_pcie_sim *sim = regs_to_sim(regs);
	bool upper;
	unsigned int idx;

	switch (sim_decode(off, &idx, &upper)) {
	case SIM_REG_CTRL:
	case SIM_REG_CNT:
	case SIM_REG_EXT_CNT:
		if (!upper) {
			hisi_pcie_sim_write(sim, off, val, true);
			return;
		}
		fallthrough;
	default:
		hisi_pcie_sim_write(sim, off, lower_32_bits(val), false);
		hisi_pcie_sim_write(sim, off + 4, upper_32_bits(val), false);
	}
}

static const struct netpmu_regs_ops hisi_pcie_sim_regs_ops = {
	.read32 = hisi_pcie_sim_read32,
	.write32 = hisi_pcie_sim_write32,
	.read64 = hisi_pcie_sim_read64,
	.write64 = hisi_pcie_sim_write64,
};

/* Length compare of the threshold and trigger filters: 2^n DW. */
static bool len_above(u32 len_dw, u32 n)
{
	return len_dw > BIT(n);
}

/*
 * Count one run of identical TLPs on a slot: class, then target (port bitmap
 * or Requester ID), then trigger, then threshold, then len_mode.
 */
static bool slot_count_run(struct hisi_pcie_sim *sim, unsigned int idx,
			   const struct hisi_pcie_tlp_run *run, u64 now)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];
	u64 ctrl = s->ctrl;
	u32 target = FIELD_GET(HISI_PCIE_TARGET_M, ctrl) & 0xffff;
	u32 len_mode = FIELD_GET(HISI_PCIE_LEN_M, ctrl);
	bool raise = false;
	u64 per;

	if (s->cls != run->cls)
		return false;

	if (ctrl & HISI_PCIE_TARGET_EN) {
		if (run->requester != target)
			return false;
	} else if (!(target & BIT(run->port))) {
		return false;
	}

	if ((ctrl & HISI_PCIE_TRIG_EN) && !s->triggered) {
		u32 n = FIELD_GET(HISI_PCIE_TRIG_M, ctrl);
		bool fires = FIELD_GET(HISI_PCIE_TRIG_MODE_M, ctrl) ?
			     run->len_dw < BIT(n) : len_above(run->len_dw, n);

		if (!fires)
			return false;
		/* Counting, time included, starts with this TLP. */
		s->triggered = true;
		s->tick_ns = now;
	}

	if (ctrl & HISI_PCIE_THR_EN) {
		u32 n = FIELD_GET(HISI_PCIE_THR_M, ctrl);
		bool pass = FIELD_GET(HISI_PCIE_THR_MODE_M, ctrl) ?
			    run->len_dw < BIT(n) : run->len_dw >= BIT(n);

		if (!pass)
			return false;
	}

	if (s->latency) {
		per = hisi_pcie_sim_tlp_latency(&sim->cfg, run);
		raise |= slot_add(s, 0, per * run->count);
		raise |= slot_add(s, 1, run->count);
		return raise;
	}

	per = (len_mode & 1 ? run->payload : 0) + (len_mode & 2 ? run->hdr : 0);
	return slot_add(s, 0, per * run->count);
}

void hisi_pcie_sim_count(struct hisi_pcie_sim *sim,
			 const struct hisi_pcie_tlp_stream *st)
{
	unsigned long flags;
	bool raise = false;
	unsigned int idx, i;
	u64 now;

	if (!READ_ONCE(sim->counting))
		return;

	now = ktime_get_ns();
	raw_spin_lock_irqsave(&sim->lock, flags);
	for_each_set_bit(idx, &sim->counting, HISI_PCIE_MAX_COUNTERS) {
		if (sim->slot[idx].cls < 0)
			continue;
		for (i = 0; i < st->nr; i++)
			raise |= slot_count_run(sim, idx, &st->run[i], now);
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hisi_pcie_sim_raise_irq(sim);
}

/*
 * Test hook (debugfs "inject"): the counter advances by delta as if that
 * much had been counted, e.g. to reach a wrap without 2^63 bytes of traffic.
 */
int hisi_pcie_sim_inject(struct hisi_pcie_sim *sim, unsigned int idx,
			 unsigned int reg, u64 delta)
{
	unsigned long flags;
	bool raise;

	if (idx >= HISI_PCIE_MAX_COUNTERS || reg > 1)
		return -EINVAL;

	raw_spin_lock_irqsave(&sim->lock, flags);
	raise = slot_fold_time(sim, idx, ktime_get_ns());
	raise |= slot_add(&sim->slot[idx], reg, delta);
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	if (raise)
		hisi_pcie_sim_raise_irq(sim);
	return 0;
}

void hisi_pcie_sim_dev_init(struct hisi_pcie_sim *sim)
{
	unsigned int idx;

	raw_spin_lock_init(&sim->lock);
	sim->regs.ops = &hisi_pcie_sim_regs_ops;
	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		sim->slot[idx].cls = -1;
		sim->slot[idx].int_mask = 1;
	}

	sim->irq_cpu = -1;
	init_irq_work(&sim->irq_work, hisi_pcie_sim_irq_work);
	INIT_CSD(&sim->irq_csd, hisi_pcie_sim_irq_ipi, sim);
	atomic_set(&sim->irq_inflight, 0);
	atomic_set(&sim->irqs_handled, 0);

	sim->pmu.regs = &sim->regs;
	sim->pmu.set_irq_cpu = hisi_pcie_sim_set_irq_cpu;
}

void hisi_pcie_sim_dev_stop(struct hisi_pcie_sim *sim)
{
	irq_work_sync(&sim->irq_work);
	while (atomic_read(&sim->irq_inflight))
		cpu_relax();
}
