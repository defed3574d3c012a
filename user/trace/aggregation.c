// SPDX-License-Identifier: GPL-2.0
#include "trace/aggregation.h"

#include <stdlib.h>
#include <string.h>

#include "lib/why_line.h"
#include "trace/query_lexer.h"

static const struct {
	const char *name;
	enum agg_func func;
	unsigned int nr_args;		/* the field, and lhist's min, max, step */
} funcs[] = {
	{ "count", AGG_COUNT, 0 }, { "sum", AGG_SUM, 1 }, { "avg", AGG_AVG, 1 }, { "min", AGG_MIN, 1 },
	{ "max", AGG_MAX, 1 }, { "stats", AGG_STATS, 1 }, { "hist", AGG_HIST, 1 },
	{ "lhist", AGG_LHIST, 4 },
};
#define NR_FUNCS (sizeof(funcs) / sizeof(funcs[0]))

struct spec_parser {
	struct query_lexer lx;
	const struct record_names *names;
	char *why;
	size_t why_len;
};

static int at(struct spec_parser *ps, unsigned int column, const char *what)
{
	return why_fail(ps->why, ps->why_len, "column %u: %s", column, what);
}

static int expected(struct spec_parser *ps, const char *what)
{
	char got[160];

	query_token_describe(&ps->lx.token, got, sizeof(got));
	return why_fail(ps->why, ps->why_len, "column %u: expected %s, got %s", ps->lx.token.column,
			what, got);
}

static bool take(struct spec_parser *ps, enum query_token_type type)
{
	if (ps->lx.token.type != type)
		return false;
	query_lexer_next(&ps->lx);
	return true;
}

static int parse_ref(struct spec_parser *ps, struct record_ref *ref, const char *what)
{
	char why[320];

	/* A "string": an -e event's whole text, which is no name. */
	if (ps->lx.token.type != TOK_NAME && ps->lx.token.type != TOK_STRING)
		return expected(ps, what);
	if (record_ref_resolve(ps->names, ps->lx.token.text, ref, why, sizeof(why)))
		return at(ps, ps->lx.token.column, why);
	ref->column = ps->lx.token.column;
	query_lexer_next(&ps->lx);
	return 0;
}

/* KEY {, KEY} up to END ("]" or the end of the spec). */
static int parse_keys(struct spec_parser *ps, struct agg_map *m, enum query_token_type end)
{
	do {
		if (m->nr_keys == AGG_MAX_KEYS)
			return at(ps, ps->lx.token.column, "at most 4 keys");
		if (parse_ref(ps, &m->keys[m->nr_keys++], "a key (dev, queue, cpu, irq, ...)"))
			return -1;
	} while (take(ps, TOK_COMMA));
	if (ps->lx.token.type != end)
		return expected(ps, end == TOK_RBRACKET ? "',' or ']'" : "',' or the end");
	return 0;
}

static int parse_number_arg(struct spec_parser *ps, int64_t *value)
{
	if (ps->lx.token.type != TOK_NUMBER)
		return expected(ps, "a number");
	*value = ps->lx.token.number;
	query_lexer_next(&ps->lx);
	return 0;
}

static int parse_call(struct spec_parser *ps, struct agg_map *m, bool named)
{
	unsigned int column = ps->lx.token.column, f;

	if (ps->lx.token.type != TOK_NAME)
		return expected(ps, "count, sum, avg, min, max, stats, hist or lhist");
	for (f = 0; f < NR_FUNCS && strcmp(funcs[f].name, ps->lx.token.text); f++)
		;
	if (f == NR_FUNCS)
		return expected(ps, "count, sum, avg, min, max, stats, hist or lhist");
	m->func = funcs[f].func;
	query_lexer_next(&ps->lx);
	if (!take(ps, TOK_LPAREN))
		return expected(ps, "'('");
	if (funcs[f].nr_args) {
		if (parse_ref(ps, &m->value, "a field"))
			return -1;
		if (m->value.kind == REF_DEV)
			return at(ps, column + strlen(funcs[f].name) + 1, "dev is no number: use it as a key");
		if (!named && m->value.name[strcspn(m->value.name, "/,=")])
			snprintf(m->name, sizeof(m->name), "@%s", funcs[f].name);
		else if (!named)
			snprintf(m->name, sizeof(m->name), "@%s_%s", funcs[f].name, m->value.name);
	} else if (!named) {
		snprintf(m->name, sizeof(m->name), "@%s", funcs[f].name);
	}
	if (m->func == AGG_LHIST) {
		if (!take(ps, TOK_COMMA))
			return expected(ps, "',' (lhist(FIELD, MIN, MAX, STEP))");
		column = ps->lx.token.column;
		if (parse_number_arg(ps, &m->lhist_min) || !take(ps, TOK_COMMA) ||
		    parse_number_arg(ps, &m->lhist_max) || !take(ps, TOK_COMMA) ||
		    parse_number_arg(ps, &m->lhist_step))
			/* A bad number said why already; a missing ',' did not. */
			return *ps->why ? -1 : expected(ps, "',' (lhist(FIELD, MIN, MAX, STEP))");
		if (m->lhist_step <= 0 || m->lhist_max <= m->lhist_min ||
		    (uint64_t)(m->lhist_max - m->lhist_min) % m->lhist_step)
			return at(ps, column, "lhist needs MIN < MAX, STEP > 0 and MAX - MIN a multiple of STEP");
		if ((uint64_t)(m->lhist_max - m->lhist_min) / m->lhist_step > AGG_MAX_LHIST_BUCKETS)
			return at(ps, column, "lhist: more than 1000 buckets; take a larger STEP");
		m->nr_buckets = (uint64_t)(m->lhist_max - m->lhist_min) / m->lhist_step + 2;
	} else if (m->func == AGG_HIST) {
		m->nr_buckets = AGG_HIST_BUCKETS;
	}
	if (!take(ps, TOK_RPAREN))
		return expected(ps, funcs[f].nr_args ? "')'" : "')' (count takes no field)");
	return 0;
}

int aggregations_add(struct aggregations *a, const char *spec, const struct record_names *names,
		     char *why, size_t why_len)
{
	struct spec_parser ps = { .names = names, .why = why, .why_len = why_len };
	struct agg_map m = { 0 };
	bool named = false;
	unsigned int i;

	*why = '\0';
	if (a->nr_maps == AGG_MAX_MAPS)
		return why_fail(why, why_len, "at most %d aggregations", AGG_MAX_MAPS);
	query_lexer_init(&ps.lx, spec);
	if (ps.lx.token.type == TOK_MAP) {
		snprintf(m.name, sizeof(m.name), "@%s", ps.lx.token.text);
		named = true;
		query_lexer_next(&ps.lx);
		if (take(&ps, TOK_LBRACKET) && (parse_keys(&ps, &m, TOK_RBRACKET) || !take(&ps, TOK_RBRACKET)))
			return -1;
		if (!take(&ps, TOK_EQ))
			return expected(&ps, m.nr_keys ? "'='" : "'[' or '='");
	}
	if (parse_call(&ps, &m, named))
		return -1;
	if (ps.lx.token.type == TOK_NAME && !strcmp(ps.lx.token.text, "by")) {
		if (m.nr_keys)
			return at(&ps, ps.lx.token.column, "keys given twice: in [...] and after by");
		query_lexer_next(&ps.lx);
		if (parse_keys(&ps, &m, TOK_END))
			return -1;
	}
	if (ps.lx.token.type != TOK_END)
		return expected(&ps, "'by' or the end");
	for (i = 0; i < a->nr_maps; i++)
		if (!strcmp(a->maps[i].name, m.name))
			return why_fail(why, why_len, "%s given twice: name one @other = ...", m.name);
	a->maps[a->nr_maps++] = m;
	return 0;
}

int aggregations_bind(struct aggregations *a, const struct record_names *names, char *why, size_t why_len)
{
	char reason[320];
	unsigned int i, k;

	for (i = 0; i < a->nr_maps; i++) {
		struct agg_map *m = &a->maps[i];
		struct record_ref *refs[AGG_MAX_KEYS + 1] = { &m->value };

		for (k = 0; k < m->nr_keys; k++)
			refs[k + 1] = &m->keys[k];
		for (k = 0; k <= m->nr_keys; k++)
			if (record_ref_bind(names, refs[k], reason, sizeof(reason)))
				return why_fail(why, why_len, "%s: column %u: %s", m->name, refs[k]->column, reason);
	}
	return 0;
}

void aggregations_twin(struct aggregations *to, const struct aggregations *from)
{
	unsigned int i;

	*to = *from;
	for (i = 0; i < to->nr_maps; i++) {
		to->maps[i].groups = NULL;
		to->maps[i].nr_groups = 0;
		to->maps[i].last_hit = 0;
		to->maps[i].left_out = 0;
	}
}

/* The record's keys for M; false if it lacks one. */
static bool record_keys(const struct agg_map *m, const struct record_view *v, struct agg_key *keys)
{
	unsigned int k;

	memset(keys, 0, sizeof(*keys) * AGG_MAX_KEYS);
	for (k = 0; k < m->nr_keys; k++) {
		if (m->keys[k].kind == REF_DEV) {
			if (!v->dev)
				return false;
			snprintf(keys[k].dev, sizeof(keys[k].dev), "%s", v->dev[0] ? v->dev : "-");
		} else if (!record_ref_value(&m->keys[k], v, &keys[k].number)) {
			return false;
		}
	}
	return true;
}

static struct agg_group *find_group(struct agg_map *m, const struct agg_key *keys)
{
	size_t bytes = sizeof(*keys) * AGG_MAX_KEYS, i;
	struct agg_group *grown, *g;

	/* Records come in runs of the same queue: try the last one first. */
	if (m->last_hit < m->nr_groups && !memcmp(m->groups[m->last_hit].keys, keys, bytes))
		return &m->groups[m->last_hit];
	for (i = 0; i < m->nr_groups; i++)
		if (!memcmp(m->groups[i].keys, keys, bytes)) {
			m->last_hit = i;
			return &m->groups[i];
		}
	if (m->nr_groups == AGG_MAX_GROUPS)
		return NULL;
	grown = realloc(m->groups, (m->nr_groups + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	m->groups = grown;
	g = &grown[m->nr_groups];
	memset(g, 0, sizeof(*g));
	memcpy(g->keys, keys, bytes);
	if (m->nr_buckets && !(g->buckets = calloc(m->nr_buckets, sizeof(*g->buckets))))
		return NULL;
	m->last_hit = m->nr_groups++;
	return g;
}

static unsigned int hist_bucket(int64_t value)
{
	unsigned int b = 1;
	uint64_t v;

	if (value < 0)
		return 0;
	for (v = value; v; v >>= 1)
		b++;
	return b;
}

static unsigned int lhist_bucket(const struct agg_map *m, int64_t value)
{
	if (value < m->lhist_min)
		return 0;
	if (value >= m->lhist_max)
		return m->nr_buckets - 1;
	return (uint64_t)(value - m->lhist_min) / m->lhist_step + 1;
}

static void map_record(struct agg_map *m, const struct record_view *v)
{
	struct agg_key keys[AGG_MAX_KEYS];
	struct agg_group *g;
	int64_t value = 0;

	if (!record_keys(m, v, keys) || (m->func != AGG_COUNT && !record_ref_value(&m->value, v, &value)))
		return;
	g = find_group(m, keys);
	if (!g) {
		m->left_out++;
		return;
	}
	if (!g->count || value < g->min)
		g->min = value;
	if (!g->count || value > g->max)
		g->max = value;
	g->count++;
	/* Wraps as the kernel's 64-bit counters do, without C's signed overflow. */
	g->sum = (int64_t)((uint64_t)g->sum + (uint64_t)value);
	if (m->func == AGG_HIST)
		g->buckets[hist_bucket(value)]++;
	else if (m->func == AGG_LHIST)
		g->buckets[lhist_bucket(m, value)]++;
}

void aggregations_record(struct aggregations *a, const struct record_view *v)
{
	unsigned int i;

	for (i = 0; i < a->nr_maps; i++)
		map_record(&a->maps[i], v);
}

void aggregations_clear(struct aggregations *a)
{
	unsigned int i;
	size_t g;

	for (i = 0; i < a->nr_maps; i++) {
		struct agg_map *m = &a->maps[i];

		for (g = 0; g < m->nr_groups; g++)
			free(m->groups[g].buckets);
		free(m->groups);
		m->groups = NULL;
		m->nr_groups = 0;
		m->last_hit = 0;
		m->left_out = 0;
	}
}

void aggregations_release(struct aggregations *a)
{
	aggregations_clear(a);
	a->nr_maps = 0;
}
