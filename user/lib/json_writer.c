// SPDX-License-Identifier: GPL-2.0
/* A minimal streaming JSON writer for the --json outputs. */
#include <inttypes.h>

#include "lib/json_writer.h"

void json_init(struct json_writer *w, FILE *out)
{
	w->out = out;
	w->depth = 0;
	w->need_comma[0] = false;
	w->perf_spacing = false;
}

static void write_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* Writes the separator and the key that precede a value. */
static void begin_value(struct json_writer *w, const char *key)
{
	if (w->need_comma[w->depth])
		fputs(w->perf_spacing ? ", " : ",", w->out);
	w->need_comma[w->depth] = true;
	if (key) {
		write_escaped(w->out, key);
		fputs(w->perf_spacing ? " : " : ":", w->out);
	}
}

static void open_container(struct json_writer *w, const char *key, char c)
{
	begin_value(w, key);
	fputc(c, w->out);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_container(struct json_writer *w, char c)
{
	fputc(c, w->out);
	if (w->depth > 0)
		w->depth--;
	if (w->depth == 0)
		w->need_comma[0] = false;	/* top-level values stand alone */
}

void json_begin_object(struct json_writer *w, const char *key)
{
	open_container(w, key, '{');
}

void json_end_object(struct json_writer *w)
{
	close_container(w, '}');
}

void json_begin_array(struct json_writer *w, const char *key)
{
	open_container(w, key, '[');
}

void json_end_array(struct json_writer *w)
{
	close_container(w, ']');
}

void json_string(struct json_writer *w, const char *key, const char *value)
{
	begin_value(w, key);
	if (value)
		write_escaped(w->out, value);
	else
		fputs("null", w->out);
}

void json_int(struct json_writer *w, const char *key, long long value)
{
	begin_value(w, key);
	fprintf(w->out, "%lld", value);
}

void json_uint(struct json_writer *w, const char *key, uint64_t value)
{
	begin_value(w, key);
	fprintf(w->out, "%" PRIu64, value);
}

void json_bool(struct json_writer *w, const char *key, bool value)
{
	begin_value(w, key);
	fputs(value ? "true" : "false", w->out);
}

void json_null(struct json_writer *w, const char *key)
{
	begin_value(w, key);
	fputs("null", w->out);
}

void json_double(struct json_writer *w, const char *key, double value, int decimals)
{
	begin_value(w, key);
	/* JSON has no NaN or infinity. */
	if (value != value || value > 1e308 || value < -1e308)
		fputs("null", w->out);
	else
		fprintf(w->out, "%.*f", decimals, value);
}
