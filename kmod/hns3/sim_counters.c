// SPDX-License-Identifier: GPL-2.0
/*
 * HNS3 PMU device model: its counters. Traffic counters are fed by
 * hns3_sim_count(); time counters tick at CLOCK_FREQ from the monotonic
 * clock while EVENT_EN and START are set; interrupt counters follow the real
 * interrupt counts of the bound functions' vectors. Both are sampled when
 * read (and folded on every register change); a wrap, or the top bit of a
 * narrowed counter, raises the overflow interrupt.
 */

#include <linux/bitops.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>

#include "sim.h"

/* INTR_STATUS: bit r = counter r wrapped, bit 2 + r = its top bit was set */
#define HNS3_SIM_INTR_WRAP(r)	BIT(r)
#define HNS3_SIM_INTR_HALF(r)	BIT(2 + (r))

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

static u32 slot_type(const struct hns3_sim_slot *s)
{
	return s->ctrl_low & 0xf;
}

/* CTRL_LOW = type | subevent << 4; bit 11 and up are control bits. */
static u32 slot_code(const struct hns3_sim_slot *s)
{
	return slot_type(s) << 8 | ((s->ctrl_low >> HNS3_PMU_CTRL_SUBEVENT_S) & 0x7f);
}

int hns3_sim_slot_source(const struct hns3_sim_slot *s)
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
 * filter's devfn (func-intr). Called with sim->model.lock held.
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
bool hns3_sim_slot_fold(struct hns3_sim *sim, unsigned int idx, u64 now)
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
void hns3_sim_slot_rebase(struct hns3_sim *sim, unsigned int idx, u64 now)
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

u64 hns3_sim_slot_counter(struct hns3_sim *sim, unsigned int idx,
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
		*raise |= hns3_sim_slot_fold(sim, idx, now);
		return s->cnt[r];
	}
	return val;
}

/*
 * Recompute which slots count. The caller has folded the time of any slot
 * that may stop; a slot that starts ticks from now.
 */
void hns3_sim_update_counting(struct hns3_sim *sim, u64 now)
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
			hns3_sim_slot_rebase(sim, idx, now);
	WRITE_ONCE(sim->counting, counting);
}

/*
 * Around a change of what interrupt slots sum (bound functions, their
 * vectors): fold with the old sources, then restart from the new ones.
 * Called with sim->model.lock held.
 */
void hns3_sim_intr_fold_locked(struct hns3_sim *sim)
{
	u64 now = ktime_get_ns();
	bool raise = false;
	unsigned int idx;

	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS)
		if (slot_counts_intr(&sim->slot[idx]))
			raise |= hns3_sim_slot_fold(sim, idx, now);
	if (raise)
		hns3_sim_raise_irq(sim);
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

/*
 * Frames the NIC received but dropped before DMA (rx_drop_every=N): one for
 * every N RX frames counted, due at the Nth, 2Nth, ... No tap sees them, so
 * they are counted beside the frame that made one due, by the RX packet and
 * byte counters only, as a real NIC counts a frame it drops for lack of
 * descriptors; latency pairs measure delivered frames. Called with
 * sim->model.lock held.
 */
static u32 hns3_sim_rx_drops_locked(struct hns3_sim *sim,
				    const struct hns3_sim_pkt *pkt)
{
	u32 every = sim->cfg.rx_drop_every;
	u64 before = sim->rx_frames_counted;

	if (pkt->dir != HNS3_SIM_RX || !every)
		return 0;
	sim->rx_frames_counted += pkt->packets;
	return div_u64(sim->rx_frames_counted, every) - div_u64(before, every);
}

void hns3_sim_count(struct hns3_sim *sim, const struct hns3_sim_pkt *pkt)
{
	struct hns3_sim_slot *s;
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u64 drop_bytes;
	u32 drops;

	if (!READ_ONCE(sim->counting))
		return;

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	drops = hns3_sim_rx_drops_locked(sim, pkt);
	/* A dropped frame is as long as the mean frame of pkt (floored). */
	drop_bytes = drops ? div_u64(pkt->bytes * drops, pkt->packets) : 0;
	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS) {
		s = &sim->slot[idx];
		if (s->source != pkt->dir || !hns3_sim_pkt_matches(s, pkt))
			continue;

		switch (slot_type(s)) {
		case HNS3_PMU_TYPE_BANDWIDTH:
			raise |= slot_add(sim, s, 0, pkt->bytes + drop_bytes);
			break;
		case HNS3_PMU_TYPE_PACKET_RATE:
			raise |= slot_add(sim, s, 0, pkt->packets + drops);
			break;
		case HNS3_PMU_TYPE_LATENCY:
			raise |= slot_add(sim, s, 0, hns3_sim_latency(sim, pkt));
			raise |= slot_add(sim, s, 1, pkt->packets);
			break;
		}
	}
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
}

/*
 * Test hook (debugfs "inject"): counter reg of slot idx advances by delta as
 * if that much had been counted, wrapping and interrupting as counting does,
 * e.g. to reach a wrap of a 64-bit counter without 2^64 bytes of traffic.
 * At most one wrap: delta may not exceed the counter's range.
 */
int hns3_sim_inject(struct hns3_sim *sim, unsigned int idx, unsigned int reg,
		    u64 delta)
{
	unsigned long flags;
	bool raise;

	if (idx >= HNS3_PMU_MAX_HW_EVENTS || reg > 1 ||
	    delta > sim->counter_mask)
		return -EINVAL;

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	raise = hns3_sim_slot_fold(sim, idx, ktime_get_ns());
	raise |= slot_add(sim, &sim->slot[idx], reg, delta);
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);
	return 0;
}

/* Samples time counters often enough that no wrap goes unnoticed. */
enum hrtimer_restart hns3_sim_wrap_timer(struct hrtimer *timer)
{
	struct hns3_sim *sim = container_of(timer, struct hns3_sim, wrap_timer);
	unsigned long flags;
	bool raise = false;
	unsigned int idx;
	u64 now = ktime_get_ns();

	raw_spin_lock_irqsave(&sim->model.lock, flags);
	for_each_set_bit(idx, &sim->counting, HNS3_PMU_MAX_HW_EVENTS) {
		hns3_sim_slot_counter(sim, idx, 0, now, &raise);
		hns3_sim_slot_counter(sim, idx, 1, now, &raise);
	}
	raw_spin_unlock_irqrestore(&sim->model.lock, flags);

	if (raise)
		hns3_sim_raise_irq(sim);

	hrtimer_forward_now(timer, ns_to_ktime(sim->wrap_period_ns));
	return HRTIMER_RESTART;
}
