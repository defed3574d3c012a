// SPDX-License-Identifier: GPL-2.0
/* netpmu serve --json-log: interval records as JSON lines. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/why_line.h"
#include "record/record_output.h"
#include "record/record_view.h"
#include "serve/json_log.h"

int json_log_open(struct json_log *log, const char *path, char *why, size_t why_len)
{
	memset(log, 0, sizeof(*log));
	log->path = strdup(path);
	if (!log->path)
		return why_fail(why, why_len, "out of memory");
	log->file = fopen(path, "ae");
	if (!log->file) {
		int err = errno;

		free(log->path);
		log->path = NULL;
		return why_fail(why, why_len, "--json-log %s: %s", path, strerror(err));
	}
	setvbuf(log->file, NULL, _IOLBF, 0);
	return 0;
}

int json_log_reopen(struct json_log *log, char *why, size_t why_len)
{
	FILE *f = fopen(log->path, "ae");

	if (!f)
		return why_fail(why, why_len, "cannot reopen --json-log %s: %s (writing on to the old file)",
				log->path, strerror(errno));
	fclose(log->file);
	log->file = f;
	setvbuf(log->file, NULL, _IOLBF, 0);
	return 0;
}

/*
 * The interval kinds only (serve writes no poll records), each as trace
 * --json prints it: one writer for both, so the keys cannot drift apart.
 */
int json_log_write(struct json_log *log, const void *record, size_t size, const char *const *counter_names)
{
	struct record_view view;

	if (!record_view_from(record, size, &view) ||
	    (view.kind != NETPMU_RECORD_QUEUE && view.kind != NETPMU_RECORD_CPU &&
	     view.kind != NETPMU_RECORD_COUNTERS))
		return 0;
	record_print_json(log->file, &view, counter_names);
	return ferror(log->file) ? -EIO : 0;
}

void json_log_close(struct json_log *log)
{
	if (log->file)
		fclose(log->file);
	free(log->path);
	memset(log, 0, sizeof(*log));
}
