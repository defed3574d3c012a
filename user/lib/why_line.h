/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one-line reason a function hands back to its caller in a WHY buffer,
 * for the caller to print: "what is wrong and what would be right".
 */
#ifndef NETPMU_WHY_LINE_H
#define NETPMU_WHY_LINE_H

#include <stddef.h>

/* Formats the reason into WHY and returns -1. */
int why_fail(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Formats the reason into WHY and returns -EINVAL. */
int why_invalid(char *why, size_t why_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Where a check of one thing (SUBJECT, as written) puts its reason. */
struct why_sink {
	char *why;
	size_t why_len;
	const char *subject;
};

/* "SUBJECT: " then the reason, into the sink; returns -EINVAL. */
int why_reject(const struct why_sink *sink, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
