/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Random but well-formed perf_event_attr for netpmu's PMUs and for the
 * software events mixed into their groups, and the seeded generator they
 * are drawn from.
 */
#ifndef FUZZ_ATTR_H
#define FUZZ_ATTR_H

#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/types.h>

#include "pmu_sysfs.h"

/* Room for an attr bigger than the kernel's, up to past a page (E2BIG). */
#define ATTR_BUF_SIZE	4200

struct rng { uint64_t s; };

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
uint64_t rng_below(struct rng *r, uint64_t n);
int rng_percent(struct rng *r, int p);	/* true p% of the time */

/* An open to try: the attr as passed (ATTR_BUF_SIZE bytes) and its target. */
struct fuzz_open {
	union {
		struct perf_event_attr attr;
		unsigned char bytes[ATTR_BUF_SIZE];
	};
	int pmu;		/* index in the machine's PMUs; -1: a software event */
	pid_t pid;
	int cpu;
};

void gen_netpmu_open(struct rng *r, const struct fuzz_machine *m, int pmu,
		     pid_t self, pid_t child, struct fuzz_open *o);
void gen_software_open(struct rng *r, const struct fuzz_machine *m, struct fuzz_open *o);

/* The attr as the kernel reads it: bytes past attr.size (0: VER0) are zero. */
void effective_attr(const struct fuzz_open *o, struct perf_event_attr *eff);

#endif
