// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "sys/clock.h"

uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

double monotonic_seconds(void)
{
	return monotonic_ns() / 1e9;
}
