/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean" for error lines: the known names closest to a misspelt one,
 * by edit distance, with names that contain the misspelt one first.
 */
#ifndef NETPMU_NAME_SUGGEST_H
#define NETPMU_NAME_SUGGEST_H

#include <stddef.h>

#define NAME_SUGGEST_MAX 3

struct name_suggest {
	const char *wanted;
	const char *best[NAME_SUGGEST_MAX];
	unsigned int score[NAME_SUGGEST_MAX];	/* lower is closer */
	unsigned int nr;
};

void name_suggest_init(struct name_suggest *s, const char *wanted);

/* Offers CANDIDATE; it must outlive S. */
void name_suggest_offer(struct name_suggest *s, const char *candidate);

/* Writes "a, b, c" (closest first) into BUF; "" if nothing was offered. */
void name_suggest_format(const struct name_suggest *s, char *buf, size_t len);

#endif
