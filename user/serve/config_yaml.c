// SPDX-License-Identifier: GPL-2.0
#include "serve/config_yaml.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/why_line.h"

int config_file_read(const char *path, const char *want, char **text, size_t *len, char *why,
		     size_t why_len)
{
	/* O_NONBLOCK: a FIFO named by mistake must not hang the open. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	size_t used = 0;
	struct stat st;
	char *buf;
	ssize_t n;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return why_fail(why, why_len, "%s: cannot read: %s (%s)", path,
				strerror(errno), want);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return why_fail(why, why_len, "%s: not a regular file (%s)", path, want);
	}
	/* One byte more than allowed tells a file at the limit from a larger one. */
	buf = malloc(CONFIG_FILE_MAX + 2);
	if (!buf) {
		close(fd);
		return why_fail(why, why_len, "%s: out of memory", path);
	}
	while (used <= CONFIG_FILE_MAX) {
		n = read(fd, buf + used, CONFIG_FILE_MAX + 1 - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			why_fail(why, why_len, "%s: cannot read: %s (%s)", path,
				 strerror(errno), want);
			goto fail;
		}
		if (n == 0)
			break;
		used += n;
	}
	if (used > CONFIG_FILE_MAX) {
		why_fail(why, why_len, "%s: larger than 1 MiB (%s of at most %d bytes)", path,
			 want, CONFIG_FILE_MAX);
		goto fail;
	}
	close(fd);
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
fail:
	close(fd);
	free(buf);
	return -1;
}

/* libyaml marks count from 0; editors and compilers from 1. */
static int fail_at(struct config_yaml *cy, yaml_mark_t mark, const char *fmt, va_list ap)
{
	int used = snprintf(cy->why, cy->why_len, "%s:%zu:%zu: ", cy->name, mark.line + 1,
			    mark.column + 1);

	if (used >= 0 && (size_t)used < cy->why_len)
		vsnprintf(cy->why + used, cy->why_len - used, fmt, ap);
	return -1;
}

int config_yaml_fail(struct config_yaml *cy, const yaml_node_t *node, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(cy, node->start_mark, fmt, ap);
	va_end(ap);
	return -1;
}

static int fail_at_mark(struct config_yaml *cy, yaml_mark_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail_at_mark(struct config_yaml *cy, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_at(cy, mark, fmt, ap);
	va_end(ap);
	return -1;
}

/* A reader error (bad UTF-8, a control character) has an offset but no mark. */
static yaml_mark_t mark_of_offset(const char *text, size_t len, size_t offset)
{
	yaml_mark_t mark = { 0 };

	for (size_t i = 0; i < offset && i < len; i++) {
		if (text[i] == '\n') {
			mark.line++;
			mark.column = 0;
		} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
			mark.column++;
		}
	}
	return mark;
}

static int fail_syntax(struct config_yaml *cy, const yaml_parser_t *parser, const char *text,
		       size_t len)
{
	const char *problem = parser->problem ?: "cannot parse";
	yaml_mark_t mark = parser->problem_mark;

	if (parser->error == YAML_MEMORY_ERROR)
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	if (parser->error == YAML_READER_ERROR && parser->problem_value != -1)
		return fail_at_mark(cy, mark_of_offset(text, len, parser->problem_offset),
				    "%s #%X (valid YAML in UTF-8)", problem, parser->problem_value);
	if (parser->error == YAML_READER_ERROR)
		mark = mark_of_offset(text, len, parser->problem_offset);
	/* A composer's context names the first place: "duplicate anchor; first occurrence". */
	if (parser->error == YAML_COMPOSER_ERROR && parser->context)
		return fail_at_mark(cy, mark, "%s at %zu:%zu, %s here (valid YAML)", parser->context,
				    parser->context_mark.line + 1, parser->context_mark.column + 1,
				    problem);
	if (parser->context)
		return fail_at_mark(cy, mark, "%s %s (valid YAML)", problem, parser->context);
	return fail_at_mark(cy, mark, "%s (valid YAML)", problem);
}

/*
 * libyaml's scanner pays the nesting depth on every token: a file of 1 MiB
 * of "[" takes it hours. Its events come first, to stop at the first level
 * deeper than any config needs; a syntax error is left to the document's
 * load, which reports it.
 */
static int check_depth(struct config_yaml *cy, const char *text, size_t len)
{
	yaml_parser_t parser;
	yaml_event_t event;
	bool done = false;
	int depth = 0, ret = 0;

	if (!yaml_parser_initialize(&parser))
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done && !ret && yaml_parser_parse(&parser, &event)) {
		switch (event.type) {
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (++depth > CONFIG_DEPTH_MAX)
				ret = fail_at_mark(cy, event.start_mark,
						   "nested deeper than %d levels (a config nests 3 at most)",
						   CONFIG_DEPTH_MAX);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			depth--;
			break;
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		default:
			break;
		}
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
	return ret;
}

int config_yaml_load(struct config_yaml *cy, const char *name, const char *text, size_t len,
		     const char *root_keys, char *why, size_t why_len)
{
	yaml_document_t next;
	yaml_parser_t parser;
	yaml_node_t *root;
	int ret = -1;

	memset(cy, 0, sizeof(*cy));
	cy->name = name;
	cy->why = why;
	cy->why_len = why_len;
	if (len > CONFIG_FILE_MAX)
		return why_fail(why, why_len, "%s: larger than 1 MiB (a config file of at most %d bytes)",
				name, CONFIG_FILE_MAX);
	if (check_depth(cy, text, len))
		return -1;
	if (!yaml_parser_initialize(&parser))
		return why_fail(why, why_len, "%s: out of memory", name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &cy->doc)) {
		fail_syntax(cy, &parser, text, len);
		goto out;
	}
	root = yaml_document_get_root_node(&cy->doc);
	if (!root) {
		fail_at_mark(cy, cy->doc.start_mark, "empty document (a mapping of the keys %s)",
			     root_keys);
		goto out_doc;
	}
	if (root->type != YAML_MAPPING_NODE) {
		config_yaml_fail(cy, root, "the document is %s (a mapping of the keys %s)",
				 config_yaml_kind(root), root_keys);
		goto out_doc;
	}
	/* A second document would be ignored silently: refuse it. */
	if (!yaml_parser_load(&parser, &next)) {
		fail_syntax(cy, &parser, text, len);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&next)) {
		fail_at_mark(cy, next.start_mark, "a second YAML document (one document per file)");
		yaml_document_delete(&next);
		goto out_doc;
	}
	yaml_document_delete(&next);
	ret = 0;
	goto out;
out_doc:
	yaml_document_delete(&cy->doc);
out:
	yaml_parser_delete(&parser);
	if (ret)
		memset(&cy->doc, 0, sizeof(cy->doc));
	return ret;
}

void config_yaml_free(struct config_yaml *cy)
{
	yaml_document_delete(&cy->doc);
}

yaml_node_t *config_yaml_root(struct config_yaml *cy)
{
	return yaml_document_get_root_node(&cy->doc);
}

yaml_node_t *config_yaml_node(struct config_yaml *cy, int index)
{
	return yaml_document_get_node(&cy->doc, index);
}

const char *config_yaml_quote(const char *s, char *buf, size_t buf_len)
{
	size_t used = 0;

	for (; *s; s++) {
		unsigned char c = *s;
		/* Room for this character's escape, then "..." and the NUL. */
		size_t need = c < 0x20 || c == 0x7f ? 4 : 1;

		if (used + need + 4 > buf_len) {
			/* Not inside a UTF-8 character: back to its first byte. */
			if ((c & 0xc0) == 0x80) {
				while (used && ((unsigned char)buf[used - 1] & 0xc0) == 0x80)
					used--;
				if (used)
					used--;
			}
			strcpy(buf + used, "...");
			return buf;
		}
		if (need == 4)
			used += snprintf(buf + used, buf_len - used, "\\x%02x", c);
		else
			buf[used++] = c;
	}
	buf[used] = '\0';
	return buf;
}

const char *config_yaml_scalar(const yaml_node_t *node)
{
	return node->type == YAML_SCALAR_NODE ? (const char *)node->data.scalar.value : NULL;
}

const char *config_yaml_kind(const yaml_node_t *node)
{
	switch (node->type) {
	case YAML_MAPPING_NODE:
		return "a mapping";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_SCALAR_NODE:
		if (!node->data.scalar.length)
			return "empty";
		return "a single value";
	default:
		return "nothing";
	}
}

struct key_ref {
	const char *name;
	size_t length;
	size_t index;
};

static int key_ref_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	size_t n = x->length < y->length ? x->length : y->length;
	int c = memcmp(x->name, y->name, n);

	if (c)
		return c;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static const char *in_where(const char *where)
{
	return where ? where : "the file";
}

/*
 * The first pair (in the file's order) whose key an earlier pair has, in
 * *DUP, with that earlier pair in *FIRST; sorted, not pairwise: a mapping
 * may hold many keys. Returns -1 when out of memory.
 */
static int first_repeated_key(struct config_yaml *cy, const yaml_node_t *map, size_t *dup,
			      size_t *first)
{
	yaml_node_pair_t *pairs = map->data.mapping.pairs.start;
	size_t nr = map->data.mapping.pairs.top - pairs, nr_refs = 0;
	struct key_ref *refs = calloc(nr ? nr : 1, sizeof(*refs));

	if (!refs)
		return -1;
	*dup = nr;
	for (size_t i = 0; i < nr; i++) {
		const yaml_node_t *key = config_yaml_node(cy, pairs[i].key);

		if (key && key->type == YAML_SCALAR_NODE)
			refs[nr_refs++] = (struct key_ref){ (const char *)key->data.scalar.value,
							    key->data.scalar.length, i };
	}
	qsort(refs, nr_refs, sizeof(*refs), key_ref_cmp);
	/* In a run of equal keys, sorted by position, the second is the first repeat. */
	for (size_t i = 1, run = 0; i < nr_refs; i++) {
		if (refs[i].length != refs[run].length ||
		    memcmp(refs[i].name, refs[run].name, refs[i].length)) {
			run = i;
			continue;
		}
		if (i == run + 1 && refs[i].index < *dup) {
			*dup = refs[i].index;
			*first = refs[run].index;
		}
	}
	free(refs);
	return 0;
}

int config_yaml_check_keys(struct config_yaml *cy, const yaml_node_t *map, const char *where)
{
	yaml_node_pair_t *pairs = map->data.mapping.pairs.start;
	size_t nr = map->data.mapping.pairs.top - pairs, dup, first = 0;
	char quoted[CONFIG_QUOTE_LEN];

	if (first_repeated_key(cy, map, &dup, &first))
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	for (size_t i = 0; i < nr; i++) {
		const yaml_node_t *key = config_yaml_node(cy, pairs[i].key);
		const yaml_node_t *earlier;

		if (!key || key->type != YAML_SCALAR_NODE || !key->data.scalar.length)
			return config_yaml_fail(cy, key ?: map, "a key in %s is %s (a name)",
						in_where(where), key ? config_yaml_kind(key) : "missing");
		if (strlen((const char *)key->data.scalar.value) != key->data.scalar.length)
			return config_yaml_fail(cy, key, "a key in %s holds a NUL character (a name)",
						in_where(where));
		if (i != dup)
			continue;
		earlier = config_yaml_node(cy, pairs[first].key);
		return config_yaml_fail(cy, key, "duplicate key '%s' in %s (first at %zu:%zu; give each key once)",
					config_yaml_quote((const char *)key->data.scalar.value, quoted,
							  sizeof(quoted)),
					in_where(where),
					earlier->start_mark.line + 1, earlier->start_mark.column + 1);
	}
	return 0;
}

int config_yaml_key_index(struct config_yaml *cy, const yaml_node_t *key, const char *where,
			  const char *const *names, size_t nr)
{
	char valid[256] = "", quoted[CONFIG_QUOTE_LEN];
	size_t used = 0;

	for (size_t i = 0; i < nr; i++)
		if (!strcmp((const char *)key->data.scalar.value, names[i]))
			return i;
	for (size_t i = 0; i < nr && used < sizeof(valid); i++)
		used += snprintf(valid + used, sizeof(valid) - used, "%s%s", i ? ", " : "", names[i]);
	config_yaml_fail(cy, key, "unknown key '%s' in %s (valid: %s)",
			 config_yaml_quote((const char *)key->data.scalar.value, quoted, sizeof(quoted)),
			 in_where(where), valid);
	return -1;
}

int config_yaml_string(struct config_yaml *cy, const yaml_node_t *value, const char *what,
		       const char *want, char **out)
{
	const char *s = config_yaml_scalar(value);

	if (!s || !*s)
		return config_yaml_fail(cy, value, "%s is %s (%s)", what, config_yaml_kind(value), want);
	if (strlen(s) != value->data.scalar.length)
		return config_yaml_fail(cy, value, "%s holds a NUL character (%s)", what, want);
	*out = strdup(s);
	if (!*out)
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	return 0;
}

int config_yaml_mapping(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			const char *want)
{
	if (value->type != YAML_MAPPING_NODE)
		return config_yaml_fail(cy, value, "%s is %s (%s)", what, config_yaml_kind(value), want);
	return config_yaml_check_keys(cy, value, what);
}

int config_yaml_mapping_array(struct config_yaml *cy, const yaml_node_t *value, const char *what,
			      const char *want, size_t entry_size, void **out)
{
	size_t nr;

	if (config_yaml_mapping(cy, value, what, want))
		return -1;
	nr = value->data.mapping.pairs.top - value->data.mapping.pairs.start;
	*out = calloc(nr ? nr : 1, entry_size);
	if (!*out)
		return why_fail(cy->why, cy->why_len, "%s: out of memory", cy->name);
	return 0;
}
