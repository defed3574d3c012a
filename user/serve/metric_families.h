/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every metric family netpmu serve exports: its name (the contract with
 * dashboards and alerts), help text, type and unit scale.
 */
#ifndef NETPMU_METRIC_FAMILIES_H
#define NETPMU_METRIC_FAMILIES_H

enum metric_type {
	METRIC_COUNTER,		/* exported as NAME_total */
	METRIC_GAUGE,
	METRIC_SUMMARY,		/* exported as NAME_sum and NAME_count */
};

enum metric_family_id {
	FAM_NAPI_POLLS,
	FAM_NAPI_PACKETS,
	FAM_NAPI_BUDGET_EXHAUSTED,
	FAM_NAPI_POLL_SECONDS,
	FAM_IRQ_HANDLED,
	FAM_IRQ_HANDLER_SECONDS,
	FAM_SOFTIRQ,
	FAM_SOFTIRQ_SECONDS,
	FAM_PMU_EVENT,
	FAM_PMU_EVENT_READ_ERRORS,
	FAM_HNS3_BYTES,
	FAM_HNS3_PACKETS,
	FAM_HNS3_INTERRUPTS,
	FAM_HNS3_LATENCY,
	FAM_PCIE_BYTES,
	FAM_HNS3_QUEUE_RX_BYTES,
	FAM_HNS3_QUEUE_TX_BYTES,
	FAM_HNS3_QUEUE_RX_PACKETS,
	FAM_HNS3_QUEUE_TX_PACKETS,
	FAM_HNS3_QUEUE_RX_LATENCY,
	FAM_PCIE_FUNC_WRITE_BYTES,
	FAM_COUNTER_MEASURED_SECONDS,
	FAM_COUNTER_COVERAGE,
	FAM_RINGBUF_DROPPED,
	FAM_TABLE_FULL,
	FAM_SERIES_DROPPED,
	FAM_SERIES,
	FAM_BPF_PROG_RUN_SECONDS,
	FAM_BPF_PROG_RUNS,
	FAM_SESSION_ERRORS,
	FAM_DEVICES_REMOVED,
	FAM_SCRAPE_SECONDS,
	FAM_BUILD_INFO,
	FAM_NR,
};

struct metric_family {
	const char *name;	/* without _total, _sum, _count */
	const char *help;
	enum metric_type type;
	double scale;		/* stored integer x scale = exported value */
};

extern const struct metric_family metric_families[FAM_NR];

#endif
