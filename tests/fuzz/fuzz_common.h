/* SPDX-License-Identifier: GPL-2.0 */
/* What the libFuzzer harnesses share: the input as a string, the fixture trees. */
#ifndef NETPMU_FUZZ_COMMON_H
#define NETPMU_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The input as a NUL-terminated string (cut at its first NUL, as argv would be). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * $NETPMU_FUZZ_TREES/NAME: the fixture trees tests/fuzz/run makes (a sysfs
 * tree of the PMUs, /proc and /sys of the queue map). Without it a harness
 * would fuzz nothing but "no such file": it stops at once.
 */
static inline char *fuzz_tree(const char *name)
{
	const char *trees = getenv("NETPMU_FUZZ_TREES");
	char *path;

	if (!trees || asprintf(&path, "%s/%s", trees, name) < 0) {
		fprintf(stderr, "fuzz: set NETPMU_FUZZ_TREES (tests/fuzz/run does)\n");
		exit(1);
	}
	return path;
}

#endif
