// SPDX-License-Identifier: GPL-2.0
/* Whole-string unsigned numbers, as sysfs files and /proc/interrupts hold them. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/parse_number.h"

int parse_u64(const char *s, uint64_t *value, const char **why)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s)) {
		*why = "expected an unsigned number";
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE) {
		*why = "number above 64 bits";
		return -EINVAL;
	}
	if (*end != '\0' || end == s) {
		*why = "expected an unsigned number";
		return -EINVAL;
	}
	*value = v;
	return 0;
}

bool parse_decimal(const char *s, unsigned long long *value)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*value = strtoull(s, &end, 10);
	return !errno && !*end;
}
