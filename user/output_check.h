/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output is the result: a write that failed (a full disk, a reader that
 * went away) must fail the run, never end it with status 0.
 */
#ifndef NETPMU_OUTPUT_CHECK_H
#define NETPMU_OUTPUT_CHECK_H

#include <stdio.h>

/*
 * Puts stdout on a stream that remembers why its first write failed: stdio
 * keeps only an error flag, and the errno is gone by the end of the run.
 * Returns 0 or -errno (stdout unchanged then).
 */
int output_watch_stdout(void);

/*
 * Flushes and closes OUT. Returns 0, or the errno of its first failed write
 * (for stdout once watched; EIO when the reason is unknown).
 */
int output_close(FILE *out);

#endif
