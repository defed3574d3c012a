// SPDX-License-Identifier: GPL-2.0
/*
 * Rates against each other: interrupts against the packets they bring
 * (coalescing too tight, coalescing_loose), the NIC's own RX packets against
 * NAPI's (hw_sw_mismatch),
 * the NIC's latency against the kernel's poll time (nic_latency).
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

/*
 * Mean microseconds between Q's interrupts while it had traffic (the intervals
 * it had packets in): a watch's idle seconds are no wait.
 */
static double irq_gap_us(const struct doctor_queue *q)
{
	return q->busy_ns / 1e3 / q->irqs;
}

/*
 * Too loose: interrupts that each bring a batch, far apart while traffic
 * flows. Only the rates are known, not when each packet arrived: arriving
 * steadily, the first packet of a batch waited about the gap between
 * interrupts; a burst that arrived at once did not wait. Hence medium at most.
 */
void doctor_check_coalescing_loose(const struct doctor_totals *t, const struct doctor_thresholds *th,
				   struct doctor_report *r)
{
	const struct doctor_queue *top = NULL;
	unsigned int i;
	char label[48], nic[64];

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		double per_irq, gap, lat;
		struct doctor_finding *f;

		if (!doctor_receives(q) || !q->irqs || q->packets < TH(DT_MIN_PACKETS))
			continue;
		per_irq = (double)q->packets / q->irqs;
		if (!top || per_irq > (double)top->packets / top->irqs)
			top = q;
		gap = irq_gap_us(q);
		if (per_irq < TH(DT_LOOSE_PKTS_PER_IRQ) || gap < TH(DT_IRQ_GAP_US))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "coalescing_loose", label);
		if (!f)
			continue;
		lat = doctor_nic_latency_us(t, q);
		if (lat >= 0)
			snprintf(nic, sizeof(nic), "; the NIC's own mean RX latency: %.2f us", lat);
		else
			nic[0] = '\0';
		snprintf(f->evidence, sizeof(f->evidence),
			 "IRQ %u fired once every %.0f us on average while packets came (%.3f s of intervals with "
			 "packets) and brought %.2f packets each (%llu interrupts, %llu packets): arriving steadily, a batch's first packet waited about "
			 "%.0f us for its interrupt%s", q->irq, gap, q->busy_ns / 1e9, per_irq,
			 (unsigned long long)q->irqs, (unsigned long long)q->packets, gap, nic);
		doctor_figure(f, "irq_gap_us", gap);
		doctor_figure(f, "packets_per_irq", per_irq);
		doctor_figure(f, "irqs", q->irqs);
		doctor_figure(f, "packets", q->packets);
		if (lat >= 0)
			doctor_figure(f, "nic_latency_us", lat);
		f->confidence = DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "the wait is inferred from the interrupt and packet rates: packets arriving steadily "
			 "waited up to the gap, a burst that arrived at once did not");
		snprintf(f->next, sizeof(f->next),
			 "if this queue's latency matters more than its interrupt cost, let interrupts come "
			 "sooner: lower rx-usecs or rx-frames (ethtool -c %s shows them, ethtool -C %s sets them), "
			 "and check napi_defer_hard_irqs and gro_flush_timeout in /sys/class/net/%s/",
			 q->ifname, q->ifname, q->ifname);
	}
	if (doctor_found(r, "coalescing_loose"))
		return;
	if (!top) {
		doctor_clear_add(r, "coalescing_loose", "no RX queue's interrupts were counted over min_packets=%g "
				 "packets", TH(DT_MIN_PACKETS));
		return;
	}
	doctor_queue_label(top, label, sizeof(label));
	doctor_clear_add(r, "coalescing_loose", "the most packets per interrupt, %s's, is %.2f, one interrupt every "
			 "%.0f us while packets came (loose_pkts_per_irq=%g, irq_gap_us=%g)", label, (double)top->packets / top->irqs,
			 irq_gap_us(top), TH(DT_LOOSE_PKTS_PER_IRQ), TH(DT_IRQ_GAP_US));
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

void doctor_check_nic_latency(const struct doctor_totals *t, const struct doctor_thresholds *th,
			      struct doctor_report *r)
{
	const struct doctor_queue *top = NULL;
	double pcie_us = doctor_pcie_latency_us(t);
	unsigned int i;
	char label[48], poll[96];
	size_t used;

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		double lat = doctor_nic_latency_us(t, q);
		struct doctor_finding *f;

		if (!doctor_receives(q) || lat < 0 || q->hw.latency_packets < TH(DT_MIN_PACKETS))
			continue;
		if (!top || lat > doctor_nic_latency_us(t, top))
			top = q;
		if (lat < TH(DT_NIC_LATENCY_US))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "nic_latency", label);
		if (!f)
			continue;
		if (q->has_poll_time && q->packets)
			snprintf(poll, sizeof(poll), "%.2f us", q->poll_ns / 1e3 / q->packets);
		else
			snprintf(poll, sizeof(poll), "not measured (no __napi_poll hook)");
		used = snprintf(f->evidence, sizeof(f->evidence),
				"the NIC measured a mean RX latency of %.2f us over %llu packets (%.3f s of counting); "
				"the kernel's poll time a packet: %s", lat, (unsigned long long)q->hw.latency_packets,
				q->hw.ns / 1e9, poll);
		if (pcie_us >= 0)
			snprintf(f->evidence + used, sizeof(f->evidence) - used,
				 "; PCIe's writes through Root Port %s: %.2f us a TLP", t->pcie.root_port, pcie_us);
		doctor_figure(f, "nic_latency_us", lat);
		doctor_figure(f, "latency_packets", q->hw.latency_packets);
		if (q->has_poll_time && q->packets)
			doctor_figure(f, "poll_us_per_packet", q->poll_ns / 1e3 / q->packets);
		f->confidence = DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "the NIC's own latency pair, counted over part of the run only (the counters rotate)");
		if (pcie_us < 0)
			snprintf(f->next, sizeof(f->next),
				 "the delay is before the kernel polls: look at the PCIe path above the NIC "
				 "(pcie_latency, with --pcie-port) and at the NIC's buffers and pause frames "
				 "(ethtool -S %s, ethtool -a %s)", q->ifname, q->ifname);
		else if (pcie_us * 2 < lat)
			snprintf(f->next, sizeof(f->next),
				 "the delay is in the NIC, not in PCIe (its writes took %.2f us): look at its "
				 "buffers and pause frames (ethtool -S %s, ethtool -a %s)", pcie_us, q->ifname,
				 q->ifname);
		else
			snprintf(f->next, sizeof(f->next),
				 "PCIe's writes take %.2f us of it: see pcie_latency's next step for the PCIe path, "
				 "then the NIC's buffers and pause frames (ethtool -S %s, ethtool -a %s)", pcie_us,
				 q->ifname, q->ifname);
	}
	if (doctor_found(r, "nic_latency"))
		return;
	if (!top) {
		doctor_clear_add(r, "nic_latency", "the NIC's latency pair measured no RX queue over min_packets=%g "
				 "packets", TH(DT_MIN_PACKETS));
		return;
	}
	doctor_queue_label(top, label, sizeof(label));
	doctor_clear_add(r, "nic_latency", "the highest, %s's, is %.2f us over %llu packets (nic_latency_us=%g)",
			 label, doctor_nic_latency_us(t, top), (unsigned long long)top->hw.latency_packets,
			 TH(DT_NIC_LATENCY_US));
}
