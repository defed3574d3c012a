/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output is the result: a write that failed (a full disk, a reader that
 * went away) must fail the run, never end it with status 0. stdio keeps only
 * an error flag, and the errno of the failed write is gone by the end of the
 * run: the streams here remember it.
 */
#ifndef NETPMU_OUTPUT_CHECK_H
#define NETPMU_OUTPUT_CHECK_H

#include <stdio.h>

/* Puts stdout on such a stream. Returns 0 or -errno (stdout unchanged then). */
int output_watch_stdout(void);

/* Creates or truncates PATH as such a stream; NULL with errno set on failure. */
FILE *output_open(const char *path);

/*
 * Flushes and closes OUT. Returns 0, or the errno of its first failed write
 * (EIO for a stream of stdio's own whose reason is gone).
 */
int output_close(FILE *out);

#endif
