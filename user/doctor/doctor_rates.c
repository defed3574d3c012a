// SPDX-License-Identifier: GPL-2.0
/*
 * Rates against each other: interrupts against the packets they bring
 * (coalescing), the NIC's own RX packets against NAPI's (hw_sw_mismatch).
 */
#include "doctor/doctor_checks.h"

#include <stdio.h>

void doctor_check_coalescing(const struct doctor_totals *t, const struct doctor_thresholds *th,
			     struct doctor_report *r)
{
	const struct doctor_queue *top = NULL;
	unsigned int i;
	char label[48];

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		double rate = doctor_per_s(t, q->irqs), per_irq;
		struct doctor_finding *f;

		if (!doctor_receives(q) || !q->irqs)
			continue;
		if (!top || rate > doctor_per_s(t, top->irqs))
			top = q;
		per_irq = (double)q->packets / q->irqs;
		if (rate < TH(DT_IRQ_RATE) || per_irq >= TH(DT_PKTS_PER_IRQ))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "coalescing", label);
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "IRQ %u fired %.0f times a second and brought %.2f packets each (%llu interrupts, "
			 "%llu packets, %.2f polls each), its handlers took %.1f%% of a CPU", q->irq, rate, per_irq,
			 (unsigned long long)q->irqs, (unsigned long long)q->packets, (double)q->polls / q->irqs,
			 t->duration_s > 0 ? q->irq_ns / 1e7 / t->duration_s : 0);
		doctor_figure(f, "irqs_per_s", rate);
		doctor_figure(f, "packets_per_irq", per_irq);
		doctor_figure(f, "irqs", q->irqs);
		doctor_figure(f, "packets", q->packets);
		f->confidence = DOCTOR_HIGH;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "every interrupt and packet counted by the kernel");
		snprintf(f->next, sizeof(f->next),
			 "coalescing is too tight for this rate: let an interrupt wait for more packets "
			 "(ethtool -C %s adaptive-rx on, or rx-usecs/rx-frames higher), or defer them "
			 "(napi_defer_hard_irqs with gro_flush_timeout in /sys/class/net/%s/)", q->ifname, q->ifname);
	}
	if (doctor_found(r, "coalescing"))
		return;
	if (!top) {
		doctor_clear_add(r, "coalescing", "no RX queue's interrupts were counted");
		return;
	}
	doctor_queue_label(top, label, sizeof(label));
	doctor_clear_add(r, "coalescing", "the highest interrupt rate, %s's, is %.0f/s with %.2f packets each "
			 "(irq_rate=%g, pkts_per_irq=%g)", label, doctor_per_s(t, top->irqs),
			 (double)top->packets / top->irqs, TH(DT_IRQ_RATE), TH(DT_PKTS_PER_IRQ));
}

static double difference_pct(uint64_t a, uint64_t b)
{
	uint64_t larger = a > b ? a : b, smaller = a > b ? b : a;

	return doctor_pct(larger - smaller, larger);
}

void doctor_check_hw_sw(const struct doctor_totals *t, const struct doctor_thresholds *th,
			struct doctor_report *r)
{
	const struct doctor_queue *top = NULL;
	unsigned int i, measured = 0;
	char label[48];

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		const struct doctor_hw *hw = &q->hw;
		uint64_t larger = hw->rx_packets > hw->napi_packets ? hw->rx_packets : hw->napi_packets;
		double diff = difference_pct(hw->rx_packets, hw->napi_packets);
		struct doctor_finding *f;

		if (!doctor_receives(q) || !hw->intervals)
			continue;
		measured++;
		if (larger < TH(DT_MIN_PACKETS) || !larger)
			continue;
		if (!top || diff > difference_pct(top->hw.rx_packets, top->hw.napi_packets))
			top = q;
		if (diff < TH(DT_HW_SW_PCT))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "hw_sw_mismatch", label);
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "over the %llu intervals (%.3f s) the NIC's counters measured the queue whole, the NIC "
			 "counted %llu RX packets and NAPI delivered %llu (%.1f%% %s)",
			 (unsigned long long)hw->intervals, hw->ns / 1e9, (unsigned long long)hw->rx_packets,
			 (unsigned long long)hw->napi_packets, diff,
			 hw->rx_packets > hw->napi_packets ? "fewer" : "more");
		doctor_figure(f, "intervals", hw->intervals);
		doctor_figure(f, "hw_rx_packets", hw->rx_packets);
		doctor_figure(f, "napi_packets", hw->napi_packets);
		doctor_figure(f, "difference_pct", diff);
		f->confidence = hw->intervals >= 4 ? DOCTOR_HIGH : DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "both counted over the same %llu intervals (%s 4)", (unsigned long long)hw->intervals,
			 hw->intervals >= 4 ? "at least" : "under");
		if (hw->rx_packets > hw->napi_packets)
			snprintf(f->next, sizeof(f->next),
				 "frames the NIC took never reached the kernel: look for drops before the host "
				 "(ethtool -S %s: missed, no-buffer, dropped), a ring too small (ethtool -g %s) "
				 "or buffers not refilled in time", q->ifname, q->ifname);
		else
			snprintf(f->next, sizeof(f->next),
				 "NAPI delivered packets this queue's hardware never counted: GRO/LRO merging "
				 "counts differently, or packets come from elsewhere (XDP redirect, a software "
				 "device); check ethtool -k %s and the queue the counters were bound to", q->ifname);
	}
	if (doctor_found(r, "hw_sw_mismatch"))
		return;
	if (!top) {
		doctor_clear_add(r, "hw_sw_mismatch", "%s", measured ?
				 "no measured queue had min_packets in its measured intervals" :
				 "the NIC's counters measured no RX queue whole for an interval");
		return;
	}
	doctor_queue_label(top, label, sizeof(label));
	doctor_clear_add(r, "hw_sw_mismatch", "the largest difference, %s's, is %.1f%%: NIC %llu, NAPI %llu "
			 "RX packets over %llu measured intervals (hw_sw_pct=%g)", label,
			 difference_pct(top->hw.rx_packets, top->hw.napi_packets),
			 (unsigned long long)top->hw.rx_packets, (unsigned long long)top->hw.napi_packets,
			 (unsigned long long)top->hw.intervals, TH(DT_HW_SW_PCT));
}
