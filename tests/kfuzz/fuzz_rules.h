/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzer's oracle: the documented reasons an open of a netpmu event
 * must be refused (perf core, the upstream hns3_pmu and hisi_pcie_pmu
 * event_init, kmod/README.md). An accepted open with such a reason is a
 * broken rule.
 */
#ifndef FUZZ_RULES_H
#define FUZZ_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "fuzz_attr.h"

/* An open event of the worker, as far as groups are concerned. */
struct group_member {
	int pmu;		/* -1: software */
	uint64_t key;		/* what makes two members share a counter */
};

/* The group an open joins: none, or its leader's fd was not a leader. */
struct group_view {
	bool grouped;
	bool fd_is_leader;
	int nr;			/* the leader first, then its siblings */
	const struct group_member *members;
};

/* The counter-sharing key of a netpmu event (kmod's group_key, a lower bound on PCIe). */
uint64_t group_key(const struct fuzz_machine *m, int pmu, const struct perf_event_attr *eff);

/* Why this accepted open must have been refused, or NULL. */
const char *rule_broken(const struct fuzz_machine *m, const struct fuzz_open *o,
			const struct group_view *g, char *why, size_t len);

#endif
