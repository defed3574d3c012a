/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The -e events of netpmu serve as what their pairs mean (pmu/metric.h
 * knows the pairs, as netpmu stat does): beside its raw
 * netpmu_pmu_event_total, the counter of an HNS3 bandwidth, packet-rate or
 * interrupt-rate pair is also exported as bytes, packets or interrupts; an
 * HNS3 latency pair whose two counters are both given (same PMU, same
 * filter) as one summary in seconds; a PCIe bandwidth pair's counter as
 * bytes, placed at its Root Port and endpoint. The ext counters of rate
 * pairs (cycles) and PCIe latency pairs (cycles of an undocumented clock)
 * stay raw only.
 */
#ifndef NETPMU_SERVE_PAIRS_H
#define NETPMU_SERVE_PAIRS_H

#include <stddef.h>

#include "event/parsed_event.h"
#include "session/bpf_session.h"
#include "serve/serve_records.h"

struct queue_map;

/*
 * Fills the meaning of each of the N counters of EVS in DESCRIBED and puts
 * the two counters of each latency pair in one group (COUNTERS' group_with:
 * one hardware slot, so that the summary's sum and count cover the same
 * packets). 0, or -1 with WHY (labels too long).
 */
int serve_pairs_describe(const struct parsed_event *evs, unsigned int n, const struct metric_set *metrics,
			 const char *sysfs_root, const struct queue_map *queues, struct serve_counter *described,
			 struct session_counter *counters, char *why, size_t why_len);

#endif
