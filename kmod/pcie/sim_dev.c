// SPDX-License-Identifier: GPL-2.0
/*
 * HiSilicon PCIe PMU device model: the register map with its side effects,
 * over the counters of sim_counters.c, and the overflow interrupt, which
 * runs the PMU's handler on the counting CPU.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/ktime.h>

#include "sim.h"

static struct hisi_pcie_sim *regs_to_sim(struct netpmu_regs *regs)
{
	return container_of(regs, struct hisi_pcie_sim, model.regs);
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
		return hisi_pcie_sim_slot_counter(sim, idx, 0, now, raise);
	case SIM_REG_EXT_CNT:
		return hisi_pcie_sim_slot_counter(sim, idx, 1, now, raise);
	case SIM_REG_INT_STAT:
		/* Notice a time counter that wrapped since it was last read. */
		hisi_pcie_sim_slot_counter(sim, idx, HISI_PCIE_SIM_TIME_REG, now, raise);
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

	*raise |= hisi_pcie_sim_fold_all(sim, now);
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
	hisi_pcie_sim_slot_decode(s);
	hisi_pcie_sim_update_counting(sim);
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
		*raise |= hisi_pcie_sim_fold_time(sim, idx, now);
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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
	val = sim_read_slot(sim, reg, idx, now, &raise);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
	if (reg == SIM_REG_NONE) {
		if (off == HISI_PCIE_GLOBAL_CTRL) {
			raise = hisi_pcie_sim_fold_all(sim, now);
			WRITE_ONCE(sim->global_ctrl, (u32)val);
			hisi_pcie_sim_update_counting(sim);
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
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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

/* A 64-bit access to a whole 64-bit register; else two 32-bit halves. */
static bool hisi_pcie_sim_wide(u32 off)
{
	unsigned int idx;
	bool upper;

	switch (sim_decode(off, &idx, &upper)) {
	case SIM_REG_CTRL:
	case SIM_REG_CNT:
	case SIM_REG_EXT_CNT:
		return !upper;
	default:
		return false;
	}
}

static u64 hisi_pcie_sim_read64(struct netpmu_regs *regs, u32 off)
{
	struct hisi_pcie_sim *sim = regs_to_sim(regs);

	if (hisi_pcie_sim_wide(off))
		return hisi_pcie_sim_read(sim, off, true);
	return hisi_pcie_sim_read(sim, off, false) |
	       hisi_pcie_sim_read(sim, off + 4, false) << 32;
}

static void hisi_pcie_sim_write64(struct netpmu_regs *regs, u32 off, u64 val)
{
	struct hisi_pcie_sim *sim = regs_to_sim(regs);

	if (hisi_pcie_sim_wide(off)) {
		hisi_pcie_sim_write(sim, off, val, true);
		return;
	}
	hisi_pcie_sim_write(sim, off, lower_32_bits(val), false);
	hisi_pcie_sim_write(sim, off + 4, upper_32_bits(val), false);
}

static const struct netpmu_regs_ops hisi_pcie_sim_regs_ops = {
	.read32 = hisi_pcie_sim_read32,
	.write32 = hisi_pcie_sim_write32,
	.read64 = hisi_pcie_sim_read64,
	.write64 = hisi_pcie_sim_write64,
};

void hisi_pcie_sim_dev_init(struct hisi_pcie_sim *sim)
{
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++) {
		sim->slot[idx].cls = -1;
		sim->slot[idx].int_mask = 1;
	}

	netpmu_model_init(&sim->model, &sim->pmu.uc, &hisi_pcie_sim_regs_ops,
			  U64_MAX);
}

void hisi_pcie_sim_dev_stop(struct hisi_pcie_sim *sim)
{
	netpmu_model_sync_irq(&sim->model);
}
