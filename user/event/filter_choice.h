/* SPDX-License-Identifier: GPL-2.0 */
/* What an event string makes a PMU driver count, for --explain. */
#ifndef NETPMU_FILTER_CHOICE_H
#define NETPMU_FILTER_CHOICE_H

#define FILTER_TEXT_LEN 256

struct filter_choice {
	char mode[32];			/* "func-queue", "port bitmap", ... */
	char rule[FILTER_TEXT_LEN];	/* the driver's rule that selects it */
	char target[FILTER_TEXT_LEN];	/* what is counted */
	char condition[FILTER_TEXT_LEN];	/* further conditions (PCIe trig/thr/len_mode), or "" */
	char registers[FILTER_TEXT_LEN];	/* what the driver writes to the slot */
};

#endif
