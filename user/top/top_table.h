/* SPDX-License-Identifier: GPL-2.0 */
/* netpmu top's per-queue table: one frame of interval records, rendered. */
#ifndef NETPMU_TOP_TABLE_H
#define NETPMU_TOP_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "netpmu_records.h"
#include "top/top_counters.h"

#define TOP_MAX_ROWS 256
#define TOP_MAX_CPUS 1024

/* What the hardware counters last said about one queue, and when. */
struct top_hw_rates {
	unsigned int func_id;
	int queue;
	uint64_t ts_ns;			/* end of the interval measured, 0: never */
	double rx_bytes_s, tx_bytes_s, rx_packets_s, tx_packets_s;
	double rx_latency_ns;		/* < 0: no packet in the interval */
	double pcie_write_bytes_s;	/* the function's DMA writes (PCIe flux); < 0: no PCIe PMU */
	bool scaled;			/* multiplexed: values scaled by enabled/running */
};

struct top_table {
	uint64_t ts_ns;			/* the frame being collected */
	uint64_t interval_ns;
	struct netpmu_queue_record rows[TOP_MAX_ROWS];
	unsigned int nr_rows;
	double softirq_pct[TOP_MAX_CPUS];	/* NET_RX + NET_TX time, % of the interval */
	struct top_hw_rates hw[TOP_MAX_ROWS];
	unsigned int nr_hw;
	uint64_t hw_read_ts_ns;		/* tick of the last counters record read, 0: none */
	unsigned int hw_read_generation;
	unsigned int rows_dropped;	/* frame had more NAPIs than TOP_MAX_ROWS */
};

/* Adds a record to the frame of its timestamp; true if it started a new frame. */
bool top_table_add(struct top_table *t, const void *record, size_t size,
		   const struct top_counters *tc);

/* Prints the frame: redrawn in place on a terminal, plain lines otherwise. */
void top_table_render(const struct top_table *t, FILE *out, bool terminal,
		      const struct top_counters *tc, const char *dev_filter, const char *note);

#endif
