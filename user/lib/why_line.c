// SPDX-License-Identifier: GPL-2.0
#include "lib/why_line.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

int why_fail(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return -1;
}

int why_invalid(char *why, size_t why_len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int why_reject(const struct why_sink *sink, const char *fmt, ...)
{
	size_t used = snprintf(sink->why, sink->why_len, "%s: ", sink->subject);
	va_list ap;

	if (used < sink->why_len) {
		va_start(ap, fmt);
		vsnprintf(sink->why + used, sink->why_len - used, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}
