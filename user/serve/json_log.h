/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netpmu serve --json-log FILE: the interval records as trace --json writes
 * them (the same keys), one JSON object a line, appended; reopened on SIGHUP
 * after logrotate moved the file away.
 */
#ifndef NETPMU_JSON_LOG_H
#define NETPMU_JSON_LOG_H

#include <stddef.h>
#include <stdio.h>

struct json_log {
	char *path;
	FILE *file;
};

/* 0, or -1 with one line in WHY. */
int json_log_open(struct json_log *log, const char *path, char *why, size_t why_len);

/* Opens the path again (a new file after a rotation). 0, or -1 with WHY: the old file stays. */
int json_log_reopen(struct json_log *log, char *why, size_t why_len);

/* One record; COUNTER_NAMES[i] names counter i. -errno when the write failed. */
int json_log_write(struct json_log *log, const void *record, size_t size, const char *const *counter_names);

void json_log_close(struct json_log *log);

#endif
