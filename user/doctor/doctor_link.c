// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe link above the NIC: its busiest interval against the link's
 * capacity (pcie_bandwidth), and the latency of the NIC's DMA writes beside
 * the NIC's own latency and the kernel's poll time (pcie_latency): whether a
 * delay is in the NIC, in PCIe or in the kernel.
 */
#include "doctor/doctor_checks.h"

#include <stdio.h>

static double mbps(double bytes_per_s)
{
	return bytes_per_s * 8 / 1e6;
}

/* Whether the PCIe checks can judge anything; else their clear line says why not. */
static bool measured(const struct doctor_totals *t, struct doctor_report *r, const char *check)
{
	if (t->pcie.pmu[0])
		return true;
	doctor_clear_add(r, check, "not measured: %s", t->pcie.not_measured[0] ? t->pcie.not_measured :
			 "give --dev to measure the PCIe link above a NIC");
	return false;
}

static void link_source(const struct doctor_pcie *p, char *buf, size_t len)
{
	if (p->link_declared)
		snprintf(buf, len, "declared: pcie_link_mbps=%g%s%s", p->link_mbps,
			 p->link[0] ? "; sysfs says " : "", p->link);
	else
		snprintf(buf, len, "%s", p->link);
}

void doctor_check_pcie_bandwidth(const struct doctor_totals *t, const struct doctor_thresholds *th,
				 struct doctor_report *r)
{
	const struct doctor_pcie *p = &t->pcie;
	double up_pct, down_pct, peak_pct;
	struct doctor_finding *f;
	char link[128];

	if (!measured(t, r, "pcie_bandwidth"))
		return;
	if (p->link_mbps <= 0) {
		doctor_clear_add(r, "pcie_bandwidth", "the busiest interval moved %.3f Mbit/s up and %.3f Mbit/s "
				 "down through Root Port %s, but sysfs gives no link speed and width: declare the "
				 "link with --threshold pcie_link_mbps=N", mbps(p->peak_up_bps),
				 mbps(p->peak_down_bps), p->root_port);
		return;
	}
	link_source(p, link, sizeof(link));
	up_pct = 100 * mbps(p->peak_up_bps) / p->link_mbps;
	down_pct = 100 * mbps(p->peak_down_bps) / p->link_mbps;
	peak_pct = up_pct > down_pct ? up_pct : down_pct;
	if (peak_pct < TH(DT_PCIE_BANDWIDTH_PCT)) {
		doctor_clear_add(r, "pcie_bandwidth", "the busiest interval used %.1f%% of Root Port %s's "
				 "%.0f Mbit/s a direction (%s): %.3f Mbit/s up, %.3f Mbit/s down "
				 "(pcie_bandwidth_pct=%g)", peak_pct, p->root_port, p->link_mbps, link,
				 mbps(p->peak_up_bps), mbps(p->peak_down_bps), TH(DT_PCIE_BANDWIDTH_PCT));
		return;
	}
	f = doctor_add_finding(r, "pcie_bandwidth", p->root_port);
	if (!f)
		return;
	snprintf(f->evidence, sizeof(f->evidence),
		 "the busiest interval moved %.3f Mbit/s up (from the NIC: DMA writes, read requests) and "
		 "%.3f Mbit/s down (read completions, MMIO writes), %.1f%% of the link's %.0f Mbit/s a "
		 "direction (%s); over %.3f s, %llu bytes up and %llu down, TLP headers included (%s, %s)",
		 mbps(p->peak_up_bps), mbps(p->peak_down_bps), peak_pct, p->link_mbps, link, p->ns / 1e9,
		 (unsigned long long)p->up_bytes, (unsigned long long)p->down_bytes, p->pmu, p->target);
	doctor_figure(f, "link_mbps", p->link_mbps);
	doctor_figure(f, "peak_pct", peak_pct);
	doctor_figure(f, "peak_up_mbps", mbps(p->peak_up_bps));
	doctor_figure(f, "peak_down_mbps", mbps(p->peak_down_bps));
	doctor_figure(f, "up_bytes", p->up_bytes);
	doctor_figure(f, "down_bytes", p->down_bytes);
	if (p->has_latency) {
		f->confidence = DOCTOR_HIGH;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "the Root Port's own count of every TLP through it (%s)", p->target);
	} else {
		f->confidence = DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "the NIC function's own TLPs only (%s): other functions below the Root Port add to the "
			 "link's load (--pcie-port counts them all)", p->target);
	}
	snprintf(f->next, sizeof(f->next),
		 "the link is nearly full: check that it trained at its full speed and width (lspci -vv -s "
		 "%s: LnkSta against LnkCap), put the NIC in a faster or wider slot or spread the traffic "
		 "over NICs below other Root Ports; a larger Max Payload Size (lspci -vv: DevCtl MaxPayload) "
		 "spends fewer bytes on headers", p->root_port);
}

/* The highest NIC latency and poll time a packet among the receiving queues, us; < 0: none. */
static void kernel_and_nic(const struct doctor_totals *t, double *nic_us, double *poll_us)
{
	unsigned int i;

	*nic_us = *poll_us = -1;
	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		double poll = q->has_poll_time && q->packets ? q->poll_ns / 1e3 / q->packets : -1;

		if (!doctor_receives(q))
			continue;
		if (doctor_nic_latency_us(t, q) > *nic_us)
			*nic_us = doctor_nic_latency_us(t, q);
		if (poll > *poll_us)
			*poll_us = poll;
	}
}

/* "in PCIe": which of the three measured delays is the largest. */
static const char *largest_delay(double pcie_us, double nic_us, double poll_us)
{
	if (pcie_us >= nic_us && pcie_us >= poll_us)
		return "in PCIe";
	return nic_us >= poll_us ? "in the NIC" : "in the kernel";
}

void doctor_check_pcie_latency(const struct doctor_totals *t, const struct doctor_thresholds *th,
			       struct doctor_report *r)
{
	const struct doctor_pcie *p = &t->pcie;
	double cycles, us = doctor_pcie_latency_us(t), nic_us, poll_us;
	struct doctor_finding *f;
	char beside[192], nic[48] = "not measured", poll[48] = "not measured", pcie[48] = "";
	size_t used;

	if (!measured(t, r, "pcie_latency"))
		return;
	if (!p->has_latency) {
		doctor_clear_add(r, "pcie_latency", "not counted: the PCIe PMU's latency events take a port "
				 "bitmap only, which sysfs cannot give (on a Hip09 the Root Port's lane offset): "
				 "--pcie-port BITMAP");
		return;
	}
	if (p->latency_tlps < TH(DT_MIN_PACKETS) || !p->latency_tlps) {
		doctor_clear_add(r, "pcie_latency", "%llu inbound memory writes through Root Port %s, under "
				 "min_packets=%g", (unsigned long long)p->latency_tlps, p->root_port,
				 TH(DT_MIN_PACKETS));
		return;
	}
	cycles = (double)p->latency_cycles / p->latency_tlps;
	if (us >= 0)
		snprintf(pcie, sizeof(pcie), " (%.2f us)", us);
	if (cycles < TH(DT_PCIE_LATENCY_CYCLES)) {
		doctor_clear_add(r, "pcie_latency", "Root Port %s's inbound memory writes took %.1f cycles a TLP%s "
				 "over %llu TLPs (pcie_latency_cycles=%g)", p->root_port, cycles, pcie,
				 (unsigned long long)p->latency_tlps, TH(DT_PCIE_LATENCY_CYCLES));
		return;
	}
	f = doctor_add_finding(r, "pcie_latency", p->root_port);
	if (!f)
		return;
	kernel_and_nic(t, &nic_us, &poll_us);
	if (nic_us >= 0)
		snprintf(nic, sizeof(nic), "%.2f us", nic_us);
	if (poll_us >= 0)
		snprintf(poll, sizeof(poll), "%.2f us", poll_us);
	used = snprintf(beside, sizeof(beside), "beside them, the NIC's own mean RX latency: %s, the kernel's "
			"poll time a packet: %s", nic, poll);
	if (us >= 0)
		snprintf(beside + used, sizeof(beside) - used, ": the largest delay is %s",
			 largest_delay(us, nic_us, poll_us));
	snprintf(f->evidence, sizeof(f->evidence),
		 "the inbound memory writes (the NIC's DMA) through Root Port %s took %.1f cycles a TLP on "
		 "average%s over %llu TLPs (%s, %s); %s", p->root_port, cycles, pcie,
		 (unsigned long long)p->latency_tlps, p->pmu, p->target, beside);
	doctor_figure(f, "cycles_per_tlp", cycles);
	doctor_figure(f, "tlps", p->latency_tlps);
	if (us >= 0)
		doctor_figure(f, "pcie_latency_us", us);
	if (nic_us >= 0)
		doctor_figure(f, "nic_latency_us", nic_us);
	if (poll_us >= 0)
		doctor_figure(f, "poll_us_per_packet", poll_us);
	f->confidence = us >= 0 ? DOCTOR_MEDIUM : DOCTOR_LOW;
	if (us >= 0)
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "every write TLP counted by the Root Port; its cycles read at the %.0f Hz of the PMU's "
			 "time counter, which the documentation does not name as the latency's clock", p->clk_hz);
	else
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "every write TLP counted by the Root Port, in cycles of a clock the documentation does "
			 "not give (no time counter read): not comparable with the NIC's and the kernel's times");
	snprintf(f->next, sizeof(f->next),
		 "the delay is on the PCIe path: the link (lspci -vv -s %s: LnkSta, and its AER error counts "
		 "in /sys/bus/pci/devices/%s/aer_dev_correctable), the IOMMU translating each DMA, and the "
		 "memory the NIC writes to (its numa_node against the CPUs polling it)", p->root_port,
		 p->root_port);
}
