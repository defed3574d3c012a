// SPDX-License-Identifier: GPL-2.0
#include "lib/why_line.h"

#include <errno.h>
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

int why_invalid_about(char *why, size_t why_len, const char *subject, const char *fmt, va_list ap)
{
	size_t used = snprintf(why, why_len, "%s: ", subject);

	if (used < why_len)
		vsnprintf(why + used, why_len - used, fmt, ap);
	return -EINVAL;
}
