// SPDX-License-Identifier: GPL-2.0
/*
 * PCIe PMU device model: its counters. TLP counters are fed by
 * hisi_pcie_sim_count(); time counters tick at the model's clock from the
 * monotonic clock while the counter is enabled (and, with a trigger, once it
 * has fired). A 64-bit counter that wraps sets INT_STAT and, unless masked,
 * raises the overflow interrupt.
 */

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "sim.h"

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

void hisi_pcie_sim_slot_decode(struct hisi_pcie_sim_slot *s)
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
bool hisi_pcie_sim_fold_time(struct hisi_pcie_sim *sim, unsigned int idx,
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

bool hisi_pcie_sim_fold_all(struct hisi_pcie_sim *sim, u64 now)
{
	bool raise = false;
	unsigned int idx;

	for (idx = 0; idx < HISI_PCIE_MAX_COUNTERS; idx++)
		raise |= hisi_pcie_sim_fold_time(sim, idx, now);
	return raise;
}

u64 hisi_pcie_sim_slot_counter(struct hisi_pcie_sim *sim, unsigned int idx,
			unsigned int r, u64 now, bool *raise)
{
	struct hisi_pcie_sim_slot *s = &sim->slot[idx];
	u64 val;

	if (r != HISI_PCIE_SIM_TIME_REG || !slot_ticking(sim, idx))
		return s->cnt[r];

	val = s->cnt[r] + hisi_pcie_sim_cycles(sim, now - s->tick_ns);
	if (val < s->cnt[r]) {
		*raise |= hisi_pcie_sim_fold_time(sim, idx, now);
		return s->cnt[r];
	}
	return val;
}

/* Recompute which slots count; the caller has folded every slot's time. */
void hisi_pcie_sim_update_counting(struct hisi_pcie_sim *sim)
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
	raw_spin_lock_irqsave(&sim->model.lock, flags);
	for_each_set_bit(idx, &sim->counting, HISI_PCIE_MAX_COUNTERS) {
		if (sim->slot[idx].cls < 0)
			continue;
		for (i = 0; i < st->nr; i++)
			raise |= slot_count_run(sim, idx, &st->run[i], now);
	}
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

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

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	raise = hisi_pcie_sim_fold_time(sim, idx, ktime_get_ns());
	raise |= slot_add(&sim->slot[idx], reg, delta);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	if (raise)
		hisi_pcie_sim_raise_irq(sim);
	return 0;
}
