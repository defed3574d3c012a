/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-string unsigned numbers. */
#ifndef NETPMU_PARSE_NUMBER_H
#define NETPMU_PARSE_NUMBER_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whole string is one unsigned number: decimal, or hex with "0x" (base 0).
 * Returns 0, or -EINVAL with *why set to a static reason.
 */
int parse_u64(const char *s, uint64_t *value, const char **why);

/* Whole string is decimal digits (no sign, no 0x) within unsigned long long. */
bool parse_decimal(const char *s, unsigned long long *value);

#endif
