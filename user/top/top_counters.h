/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hardware counters netpmu top opens: for one (function, queue) at a
 * time, HNS3 func-queue RX/TX bytes and packets and the RX latency pair, and
 * where a PCIe PMU is present the function's inbound memory-write bandwidth
 * (its DMA into memory), rotated over every queue of the functions the HNS3
 * PMU covers, because a PMU has 8 counters and a NIC many queues.
 */
#ifndef NETPMU_TOP_COUNTERS_H
#define NETPMU_TOP_COUNTERS_H

#include <stddef.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "session/bpf_session.h"
#include "event/event_parse.h"

struct queue_map;

enum top_role {
	TOP_RX_BYTES,
	TOP_TX_BYTES,
	TOP_RX_PACKETS,
	TOP_TX_PACKETS,
	TOP_RX_LATENCY_CYCLES,	/* group leader of the latency pair */
	TOP_RX_LATENCY_PACKETS,
	TOP_PCIE_WRITE_FLUX,	/* group leader of the PCIe bandwidth pair */
	TOP_PCIE_WRITE_TIME,
	TOP_NR_ROLES,
};
#define TOP_NR_HNS3_ROLES TOP_PCIE_WRITE_FLUX

#define TOP_GENERATIONS_KEPT 16
#define TOP_EVENT_TEXT_LEN 160

/*
 * A target's counters as built the first time: a build parses every role's
 * event and checks it against sysfs, too slow to repeat at each rotation.
 */
struct top_built {
	struct session_counter counters[TOP_NR_ROLES];
	char names[TOP_NR_ROLES][TOP_EVENT_TEXT_LEN];
};

/* One queue of one PCI function. */
struct top_target {
	unsigned int func_id;
	char pci_bdf[16];
	int queue;
	struct top_built *built;	/* NULL until first built */
};

struct top_counters {
	char pmu[64];			/* "" when no HNS3 PMU covers the NICs */
	char pcie_pmu[64];		/* "" without a PCIe PMU on the same counting CPU */
	uint64_t hw_clk_freq;		/* Hz of the latency cycles */
	int bdf_min, bdf_max;		/* the functions the HNS3 PMU covers */
	struct top_target *targets;
	size_t nr_targets;
	size_t current;			/* the target the counters measure now */
	unsigned int generation;	/* of the counters open now; bumped at each rotation */
	/* Which target each recent generation measured: records arrive after the fact. */
	size_t generation_target[TOP_GENERATIONS_KEPT];
	struct event_catalog catalog;	/* the PMUs the events were parsed against */
	struct session_counter counters[TOP_NR_ROLES];	/* the current target's */
	char names[TOP_NR_ROLES][TOP_EVENT_TEXT_LEN];	/* the counters' names */
	unsigned int nr_roles;		/* TOP_NR_ROLES with a PCIe PMU, else TOP_NR_HNS3_ROLES */
	unsigned int nr_counters;	/* nr_roles, or 0 without an HNS3 PMU */
	unsigned int dev_func;		/* --dev's PCI function (func_id), 0: all */
	bool retargeted;		/* the targets changed since the last rotation */
};

/*
 * Picks the HNS3 PMU and the targets: every queue of every function in
 * QUEUES within the PMU's BDF range, or only those of DEV (an interface name
 * or a PCI address) if DEV is not NULL; with WITH_PCIE, each target's PCIe
 * write counters too. Without a PMU, nr_counters is 0 and WHY says why (not
 * an error). Returns -1 with WHY on a real error.
 */
int top_counters_init(struct top_counters *tc, const char *sysfs_root, const struct queue_map *queues,
		      const char *dev, bool with_pcie, char *why, size_t why_len);

/*
 * The queue map changed (a NIC's channels, ethtool -L): the targets again from
 * QUEUES, the counters open now replaced at the next rotation. Without
 * counters, or with DEV no longer in QUEUES, the targets stay. 0, or -1 when
 * out of memory (no target left then: the next rotation says so).
 */
int top_counters_retarget(struct top_counters *tc, const struct queue_map *queues, const char *dev);

/*
 * Moves the counters to the next target (no-op with one target). A target
 * whose counters cannot be opened is dropped with a line on WARNINGS, after
 * CMD ("netpmu top"); -1 with WHY when none is left (nr_counters is 0 then).
 */
int top_counters_rotate(struct top_counters *tc, struct bpf_session *session, const char *sysfs_root,
			const struct queue_map *queues, char *why, size_t why_len, const char *cmd,
			FILE *warnings);

/* The target that counters of GENERATION measured, or NULL if long gone. */
const struct top_target *top_counters_target_of(const struct top_counters *tc, unsigned int generation);

void top_counters_release(struct top_counters *tc);

#endif
