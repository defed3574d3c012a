/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the diagnosis (doctor_rules.h): the checks, one function each, and
 * what they build their findings and clear lines with (doctor_findings.c),
 * whose figures the report prints too.
 */
#ifndef NETPMU_DOCTOR_CHECKS_H
#define NETPMU_DOCTOR_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "doctor/doctor_rules.h"

#define TH(id) (th->value[id])

typedef void doctor_check_fn(const struct doctor_totals *t, const struct doctor_thresholds *th,
			     struct doctor_report *r);

doctor_check_fn doctor_check_budget;		/* doctor_rules.c */
doctor_check_fn doctor_check_imbalance;
doctor_check_fn doctor_check_placement;		/* doctor_placement.c: shared_cpu, irq_affinity, consumer_cpu */
doctor_check_fn doctor_check_coalescing;	/* doctor_rates.c */
doctor_check_fn doctor_check_coalescing_loose;
doctor_check_fn doctor_check_hw_sw;
doctor_check_fn doctor_check_nic_latency;
doctor_check_fn doctor_check_pcie_bandwidth;	/* doctor_link.c */
doctor_check_fn doctor_check_pcie_latency;

/* The queue takes RX packets (an RX or an RX/TX vector). */
bool doctor_receives(const struct doctor_queue *q);
/* 100 * PART / WHOLE; 0 when WHOLE is 0. */
double doctor_pct(uint64_t part, uint64_t whole);
/* N over the run's duration. */
double doctor_per_s(const struct doctor_totals *t, uint64_t n);
/* The CPU's NET_RX softirq time, % of the run. */
double doctor_net_rx_pct(const struct doctor_totals *t, unsigned int cpu);

/* The NIC's mean RX latency of Q over its measured intervals, us; < 0: not measured. */
double doctor_nic_latency_us(const struct doctor_totals *t, const struct doctor_queue *q);
/* The mean latency of the Root Port's inbound writes, us at the PMU's time clock; < 0: not known. */
double doctor_pcie_latency_us(const struct doctor_totals *t);

/* A new finding of CHECK about SUBJECT; NULL (counted) when the report is full. */
struct doctor_finding *doctor_add_finding(struct doctor_report *r, const char *check, const char *subject);
void doctor_figure(struct doctor_finding *f, const char *name, double value);
/* Adds a part to CHECK's clear line ("; " between parts). */
void doctor_clear_add(struct doctor_report *r, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether CHECK made a finding. */
bool doctor_found(const struct doctor_report *r, const char *check);

#endif
