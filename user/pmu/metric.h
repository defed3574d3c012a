/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Metrics: the event pairs of the HNS3 and PCIe PMUs and the value derived
 * from them. Each statistic of these PMUs is counted by a pair of events that
 * share one hardware slot: config bit 16 = 0 reads the slot's counter, bit 16
 * = 1 its extended counter, and the statistic is counter / ext_counter,
 * converted with the PMU's hw_clk_freq where the documentation says how.
 *
 * A metric is named after its pair: the HNS3 pair bw_ssu_rpu_byte_num /
 * bw_ssu_rpu_time is the metric bw_ssu_rpu. PCIe events have two pairs per
 * prefix (rx_mwr_latency/rx_mwr_cnt and rx_mwr_flux/rx_mwr_time), so their
 * metrics are rx_mwr_lat and rx_mwr_bw.
 */
#ifndef NETPMU_METRIC_H
#define NETPMU_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu/pmu_discovery.h"

/* config bit 16 selects the slot's extended counter. */
#define PAIR_EXT_COUNTER_BIT (1ULL << 16)
/* Bits 0-15 are the hardware event the two counters of a pair share. */
#define PAIR_EVENT_MASK 0xffffULL

enum metric_kind {
	METRIC_HNS3_BANDWIDTH,
	METRIC_HNS3_PACKET_RATE,
	METRIC_HNS3_LATENCY,
	METRIC_HNS3_INTERRUPT_RATE,
	METRIC_PCIE_LATENCY,
	METRIC_PCIE_BANDWIDTH,
	METRIC_NR_KINDS,
};

struct metric_kind_info {
	const char *title;		/* "bandwidth" */
	const char *unit;		/* of the derived value: "bytes/s" */
	const char *unit_without_clock;	/* when the PMU has no hw_clk_freq */
	const char *formula;		/* how the value is derived */
	const char *formula_without_clock;
	const char *counts[2];		/* what counter 0 and counter 1 count */
	const char *suffix[2];		/* event name suffixes of counter 0 and 1 */
	const char *name_suffix;	/* added to the pair's stem to name the metric */
	const char *undocumented;	/* what the documentation leaves open, or NULL */
	bool is_rate;			/* per unit of time: instances' values add up */
};

struct metric {
	char *name;				/* "bw_ssu_rpu", "rx_mwr_lat" */
	const struct pmu *pmu;
	enum metric_kind kind;
	const struct pmu_event *counter[2];	/* [0]: config bit 16 = 0, [1]: = 1 */
};

struct metric_set {
	struct metric *metrics;		/* in the order of the PMUs, then of counter 0's name */
	size_t nr_metrics;
};

/* Finds the pairs of every PMU of PMUS. Returns 0 or -ENOMEM. */
int metric_set_build(const struct pmu_set *pmus, struct metric_set *set);
void metric_set_release(struct metric_set *set);

const struct metric *metric_find(const struct metric_set *set, const struct pmu *pmu,
				 const char *name);

/* The metric EVENT is a counter of, with *counter set to 0 or 1; NULL if none. */
const struct metric *metric_of_event(const struct metric_set *set, const struct pmu *pmu,
				     const struct pmu_event *event, unsigned int *counter);

const struct metric_kind_info *metric_kind_info(enum metric_kind kind);

/* How M's value is derived (without hw_clk_freq when the PMU has none). */
const char *metric_formula(const struct metric *m);

/* The unit of M's derived value ("bytes/s", or "bytes/cycle" without a clock). */
const char *metric_unit(const struct metric *m);

/*
 * The value of one metric over the instances of a merged PMU name, which count
 * side by side over the same time: a rate (bandwidth, packet or interrupt
 * rate) is the sum of the instances' rates; a mean (latency) is the
 * instances' means weighted by their counter 1 (packets, TLPs), i.e. the
 * mean over all their packets.
 */
struct metric_sum {
	double total;
	double weight;
	bool defined;
};

/* Adds one instance's counts, M being that instance's metric. */
void metric_sum_add(struct metric_sum *sum, const struct metric *m, double counter0,
		    double counter1);

/* The combined value; false when no instance's value was defined. */
bool metric_sum_value(const struct metric_sum *sum, const struct metric *m, double *value);

#endif
