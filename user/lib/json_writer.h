/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal streaming JSON writer for the --json outputs. */
#ifndef NETPMU_JSON_WRITER_H
#define NETPMU_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *out;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	/* perf stat -j's spacing: "key" : value, "key" : value */
	bool perf_spacing;
};

void json_init(struct json_writer *w, FILE *out);

/* Containers; KEY is NULL inside arrays and at the top level. */
void json_begin_object(struct json_writer *w, const char *key);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w, const char *key);
void json_end_array(struct json_writer *w);

/* Values; a NULL string is written as null. */
void json_string(struct json_writer *w, const char *key, const char *value);
void json_int(struct json_writer *w, const char *key, long long value);
void json_uint(struct json_writer *w, const char *key, uint64_t value);
void json_bool(struct json_writer *w, const char *key, bool value);
void json_null(struct json_writer *w, const char *key);
/* A number with DECIMALS digits after the point (null if not finite). */
void json_double(struct json_writer *w, const char *key, double value, int decimals);

#endif
