/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The thresholds of netpmu doctor's checks: each has a name, a default and a
 * meaning (printed by --help and netpmu-doctor(8)); --threshold NAME=VALUE
 * changes one.
 */
#ifndef NETPMU_DOCTOR_THRESHOLDS_H
#define NETPMU_DOCTOR_THRESHOLDS_H

#include <stddef.h>
#include <stdio.h>

enum doctor_threshold_id {
	DT_MIN_POLLS,		/* polls a queue needs before budget is judged */
	DT_BUDGET_PCT,		/* % of polls that used their whole budget */
	DT_MIN_PACKETS,		/* packets a device needs before balance is judged */
	DT_IMBALANCE_PCT,	/* % of a device's RX packets on its busiest queue */
	DT_BUSY_PPS,		/* packets/s that make a queue busy (placement) */
	DT_CONSUMER_PCT,	/* % of samples the consumer spent on one CPU */
	DT_IRQ_RATE,		/* interrupts/s of a queue worth a coalescing look */
	DT_PKTS_PER_IRQ,	/* fewer packets per interrupt: coalescing too tight */
	DT_LOOSE_PKTS_PER_IRQ,	/* this many per interrupt or more: batched (too loose?) */
	DT_IRQ_GAP_US,		/* mean time between a batched queue's interrupts: too loose */
	DT_HW_SW_PCT,		/* % difference of the NIC's and NAPI's packets */
	DT_NIC_LATENCY_US,	/* the NIC's mean RX latency worth a finding */
	DT_PCIE_BANDWIDTH_PCT,	/* % of the link's capacity in the busiest interval */
	DT_PCIE_LINK_MBPS,	/* the link's capacity if not sysfs's; 0: sysfs's */
	DT_PCIE_LATENCY_CYCLES,	/* mean latency of the Root Port's inbound writes */
	DT_NR,
};

struct doctor_thresholds {
	double value[DT_NR];
};

/* Every threshold at its default. */
void doctor_thresholds_init(struct doctor_thresholds *th);

/* The name of threshold ID, e.g. "budget_pct". */
const char *doctor_threshold_name(enum doctor_threshold_id id);

/*
 * Takes "NAME=VALUE" (VALUE a number >= 0, a percentage <= 100). Returns 0,
 * or -1 with one line in WHY naming what is wrong and what would be right.
 */
int doctor_threshold_set(struct doctor_thresholds *th, const char *arg, char *why, size_t why_len);

/* The thresholds for --help: "  NAME=DEFAULT  meaning" lines. */
void doctor_thresholds_usage(FILE *out);

#endif
