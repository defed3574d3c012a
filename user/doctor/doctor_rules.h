/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu doctor's diagnosis: a pure function from what was measured
 * (doctor_totals.h) and the thresholds to findings, each with its evidence,
 * how sure it is and why, and what an operator would do next; and for every
 * check that found nothing, the figure that shows why.
 *
 * The checks, in order:
 *   budget_exhausted  a queue's polls used their whole budget (budget_pct of
 *                     its polls, once it has min_polls)
 *   imbalance         a device's busiest RX queue carries imbalance_pct of its
 *                     RX packets (min_packets), by NAPI and by the NIC's counters
 *   shared_cpu        two or more busy queues (busy_pps) polled on one CPU while
 *                     another CPU polls none
 *   irq_affinity      a busy queue polled on a CPU its IRQ's affinity excludes
 *   consumer_cpu      a busy queue polled on another CPU than the --pid process
 *                     (seen on one CPU consumer_pct of the time)
 *   coalescing        a queue interrupting irq_rate times a second with fewer
 *                     than pkts_per_irq packets per interrupt
 *   coalescing_loose  a queue whose interrupts bring loose_pkts_per_irq packets
 *                     or more, one every irq_gap_us or more on average (min_packets)
 *   hw_sw_mismatch    the NIC's RX packets and NAPI's differ by hw_sw_pct over the
 *                     intervals the NIC's counters measured the queue whole
 *   nic_latency       the NIC's mean RX latency is nic_latency_us or more (over
 *                     min_packets), beside the kernel's poll time per packet
 *                     and the PCIe writes' latency
 *   pcie_bandwidth    the busiest interval's PCIe bytes through the NIC's Root
 *                     Port, one way, are pcie_bandwidth_pct of the link's capacity
 *                     (sysfs's speed x width, or pcie_link_mbps)
 *   pcie_latency      the Root Port's inbound memory writes take pcie_latency_cycles
 *                     a TLP on average (over min_packets TLPs), beside the NIC's
 *                     latency and the kernel's poll time: where the delay is
 */
#ifndef NETPMU_DOCTOR_RULES_H
#define NETPMU_DOCTOR_RULES_H

#include "doctor/doctor_thresholds.h"
#include "doctor/doctor_totals.h"

#define DOCTOR_MAX_FINDINGS 64
#define DOCTOR_MAX_FIGURES 8

enum doctor_confidence { DOCTOR_LOW, DOCTOR_MEDIUM, DOCTOR_HIGH };

struct doctor_figure {
	const char *name;
	double value;
};

struct doctor_finding {
	const char *check;
	char subject[48];		/* "eth1 rx 0", "CPU 0" */
	char evidence[512];
	enum doctor_confidence confidence;
	char confidence_why[256];
	char next[384];
	struct doctor_figure figures[DOCTOR_MAX_FIGURES];
	unsigned int nr_figures;
};

/* A check that found nothing, and the figures that show why. */
struct doctor_clear {
	const char *check;
	char why[512];
};

#define DOCTOR_NR_CHECKS 11

struct doctor_report {
	struct doctor_finding findings[DOCTOR_MAX_FINDINGS];
	unsigned int nr_findings;
	unsigned int findings_dropped;	/* beyond DOCTOR_MAX_FINDINGS */
	struct doctor_clear clear[DOCTOR_NR_CHECKS];
	unsigned int nr_clear;
};

void doctor_diagnose(const struct doctor_totals *t, const struct doctor_thresholds *th,
		     struct doctor_report *report);

const char *doctor_confidence_name(enum doctor_confidence c);

/* "eth1 rx 0": how findings and tables name a queue. */
void doctor_queue_label(const struct doctor_queue *q, char *buf, size_t len);

/* Whether CPU is in the list LIST ("0-3,8"); false for an empty or bad list. */
bool doctor_cpu_listed(const char *list, unsigned int cpu);

#endif
