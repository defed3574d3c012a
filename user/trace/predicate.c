// SPDX-License-Identifier: GPL-2.0
#include "trace/predicate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/why_line.h"
#include "trace/query_lexer.h"

/* Deeper nesting, or more nodes, is refused before evaluating it could exhaust the stack. */
#define PREDICATE_MAX_DEPTH 64
#define PREDICATE_MAX_NODES 256

enum node_type { NODE_OR, NODE_AND, NODE_NOT, NODE_CMP };

struct operand {
	bool is_ref;
	bool is_string;			/* a "string" or bare name compared with dev */
	struct record_ref ref;
	int64_t number;
	char string[QUERY_TOKEN_MAX];
	unsigned int column;
};

struct node {
	enum node_type type;
	enum query_token_type cmp;	/* NODE_CMP */
	struct operand left, right;
	struct node *a, *b;		/* NODE_OR, NODE_AND: both; NODE_NOT: a */
};

struct predicate {
	struct node *root;
};

struct parser {
	struct query_lexer lx;
	const struct record_names *names;
	char *why;
	size_t why_len;
	unsigned int depth;
	unsigned int nr_nodes;
	bool failed;
};

/* Three-valued: a comparison of a field the record lacks is UNKNOWN. */
enum truth { FALSE_, TRUE_, UNKNOWN };

/* The first failure is the one said: "column N: WHAT". */
static struct node *fail_at(struct parser *ps, unsigned int column, const char *what)
{
	if (!ps->failed)
		snprintf(ps->why, ps->why_len, "column %u: %s", column, what);
	ps->failed = true;
	return NULL;
}

static struct node *expected(struct parser *ps, const char *what)
{
	char got[160], line[256];

	query_token_describe(&ps->lx.token, got, sizeof(got));
	snprintf(line, sizeof(line), "expected %s, got %s", what, got);
	return fail_at(ps, ps->lx.token.column, line);
}

static void free_node(struct node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	free(n);
}

static struct node *new_node(struct parser *ps, enum node_type type, struct node *a, struct node *b)
{
	struct node *n = NULL;

	if (++ps->nr_nodes <= PREDICATE_MAX_NODES)
		n = calloc(1, sizeof(*n));
	if (!n) {
		free_node(a);
		free_node(b);
		return fail_at(ps, ps->lx.token.column, ps->nr_nodes > PREDICATE_MAX_NODES ?
			       "more than 256 comparisons and operators" : "out of memory");
	}
	n->type = type;
	n->a = a;
	n->b = b;
	return n;
}

static bool is_cmp(enum query_token_type t)
{
	return t == TOK_EQ || t == TOK_NE || t == TOK_LT || t == TOK_LE || t == TOK_GT || t == TOK_GE;
}

static bool resolve(struct parser *ps, struct operand *op, const char *name)
{
	char why[320];

	if (record_ref_resolve(ps->names, name, &op->ref, why, sizeof(why))) {
		fail_at(ps, op->column, why);
		return false;
	}
	op->ref.column = op->column;
	op->is_ref = true;
	op->is_string = false;
	return true;
}

/*
 * A number, a "string", or a name: a field, counter or core event. A string
 * is a device name where compared with dev, else an -e event's whole text.
 */
static bool parse_value(struct parser *ps, struct operand *op)
{
	struct query_token *t = &ps->lx.token;

	memset(op, 0, sizeof(*op));
	op->column = t->column;
	switch (t->type) {
	case TOK_NUMBER:
		op->number = t->number;
		break;
	case TOK_STRING:
		op->is_string = true;
		snprintf(op->string, sizeof(op->string), "%s", t->text);
		break;
	case TOK_NAME:
		if (!resolve(ps, op, t->text))
			return false;
		break;
	default:
		expected(ps, "a field, a number or a \"string\"");
		return false;
	}
	query_lexer_next(&ps->lx);
	return true;
}

static bool is_dev(const struct operand *op)
{
	return op->is_ref && op->ref.kind == REF_DEV;
}

/* dev == eth0: the bare name after dev is a device name, not a field. */
static bool parse_dev_operand(struct parser *ps, struct operand *op)
{
	struct query_token *t = &ps->lx.token;

	if (t->type != TOK_NAME)
		return parse_value(ps, op);
	memset(op, 0, sizeof(*op));
	op->column = t->column;
	op->is_string = true;
	snprintf(op->string, sizeof(op->string), "%s", t->text);
	query_lexer_next(&ps->lx);
	return true;
}

/* Puts dev on the left, its device name on the right; a string elsewhere names an event. */
static bool settle_strings(struct parser *ps, struct node *n)
{
	struct operand swap;

	if (is_dev(&n->right) && n->left.is_string) {
		swap = n->left;
		n->left = n->right;
		n->right = swap;
	}
	if (!is_dev(&n->left)) {
		if ((n->left.is_string && !resolve(ps, &n->left, n->left.string)) ||
		    (n->right.is_string && !resolve(ps, &n->right, n->right.string)))
			return false;
		if (is_dev(&n->right)) {
			fail_at(ps, n->left.column, "dev compares with a device name (\"eth0\"), not a number");
			return false;
		}
		return true;
	}
	if (!n->right.is_string) {
		fail_at(ps, n->right.column, "dev compares with a device name (\"eth0\"), not a number");
		return false;
	}
	if (strlen(n->right.string) >= NETPMU_IFNAMSIZ) {
		fail_at(ps, n->right.column, "a device name is at most 15 characters");
		return false;
	}
	return true;
}

static struct node *parse_comparison(struct parser *ps)
{
	struct node *n = new_node(ps, NODE_CMP, NULL, NULL);
	unsigned int op_column;

	if (!n)
		return NULL;
	if (!parse_value(ps, &n->left))
		goto bad;
	if (!is_cmp(ps->lx.token.type)) {
		if (is_dev(&n->left)) {
			expected(ps, "'==' or '!=' after dev");
			goto bad;
		}
		if (n->left.is_string && !resolve(ps, &n->left, n->left.string))
			goto bad;
		/* A value alone: true when not 0, as bpftrace's /args->work/. */
		n->cmp = TOK_NE;
		return n;
	}
	n->cmp = ps->lx.token.type;
	op_column = ps->lx.token.column;
	query_lexer_next(&ps->lx);
	if (!(is_dev(&n->left) ? parse_dev_operand(ps, &n->right) : parse_value(ps, &n->right)) ||
	    !settle_strings(ps, n))
		goto bad;
	if (is_dev(&n->left) && n->cmp != TOK_EQ && n->cmp != TOK_NE) {
		fail_at(ps, op_column, "a device name compares by '==' or '!=' only");
		goto bad;
	}
	return n;
bad:
	free_node(n);
	return NULL;
}

static struct node *parse_or(struct parser *ps);

static struct node *parse_unary(struct parser *ps)
{
	struct node *n;

	if (++ps->depth > PREDICATE_MAX_DEPTH)
		return fail_at(ps, ps->lx.token.column, "nested too deep");
	if (ps->lx.token.type == TOK_NOT) {
		query_lexer_next(&ps->lx);
		n = parse_unary(ps);
		n = n ? new_node(ps, NODE_NOT, n, NULL) : NULL;
	} else if (ps->lx.token.type == TOK_LPAREN) {
		query_lexer_next(&ps->lx);
		n = parse_or(ps);
		if (n && ps->lx.token.type != TOK_RPAREN) {
			free_node(n);
			n = expected(ps, "')'");
		} else if (n) {
			query_lexer_next(&ps->lx);
		}
	} else {
		n = parse_comparison(ps);
	}
	ps->depth--;
	return n;
}

static struct node *parse_and(struct parser *ps)
{
	struct node *n = parse_unary(ps);

	while (n && (ps->lx.token.type == TOK_AND || ps->lx.token.type == TOK_COMMA)) {
		struct node *right;

		query_lexer_next(&ps->lx);
		right = parse_unary(ps);
		if (!right) {
			free_node(n);
			return NULL;
		}
		n = new_node(ps, NODE_AND, n, right);
	}
	return n;
}

static struct node *parse_or(struct parser *ps)
{
	struct node *n = parse_and(ps);

	while (n && ps->lx.token.type == TOK_OR) {
		struct node *right;

		query_lexer_next(&ps->lx);
		right = parse_and(ps);
		if (!right) {
			free_node(n);
			return NULL;
		}
		n = new_node(ps, NODE_OR, n, right);
	}
	return n;
}

struct predicate *predicate_compile(const char *text, const struct record_names *names,
				    char *why, size_t why_len)
{
	struct parser ps = { .names = names, .why = why, .why_len = why_len };
	struct predicate *p;
	struct node *root;

	query_lexer_init(&ps.lx, text);
	root = parse_or(&ps);
	if (root && ps.lx.token.type != TOK_END) {
		free_node(root);
		root = expected(&ps, "'&&', '||' or the end");
	}
	if (!root)
		return NULL;
	p = malloc(sizeof(*p));
	if (!p) {
		free_node(root);
		why_fail(why, why_len, "out of memory");
		return NULL;
	}
	p->root = root;
	return p;
}

static bool operand_value(const struct operand *op, const struct record_view *v, int64_t *value)
{
	if (!op->is_ref) {
		*value = op->number;
		return true;
	}
	return record_ref_value(&op->ref, v, value);
}

static enum truth compare(const struct node *n, const struct record_view *v)
{
	int64_t l, r;
	bool eq;

	if (is_dev(&n->left)) {
		if (!v->dev)
			return UNKNOWN;
		eq = !strcmp(v->dev, n->right.string);
		return (n->cmp == TOK_EQ) == eq ? TRUE_ : FALSE_;
	}
	if (!operand_value(&n->left, v, &l) || !operand_value(&n->right, v, &r))
		return UNKNOWN;
	switch (n->cmp) {
	case TOK_EQ: return l == r ? TRUE_ : FALSE_;
	case TOK_NE: return l != r ? TRUE_ : FALSE_;
	case TOK_LT: return l < r ? TRUE_ : FALSE_;
	case TOK_LE: return l <= r ? TRUE_ : FALSE_;
	case TOK_GT: return l > r ? TRUE_ : FALSE_;
	default: return l >= r ? TRUE_ : FALSE_;
	}
}

static enum truth eval(const struct node *n, const struct record_view *v)
{
	enum truth a, b;

	switch (n->type) {
	case NODE_CMP:
		return compare(n, v);
	case NODE_NOT:
		a = eval(n->a, v);
		return a == UNKNOWN ? UNKNOWN : a == TRUE_ ? FALSE_ : TRUE_;
	case NODE_AND:
		a = eval(n->a, v);
		if (a == FALSE_)
			return FALSE_;
		b = eval(n->b, v);
		return b == FALSE_ ? FALSE_ : a == UNKNOWN || b == UNKNOWN ? UNKNOWN : TRUE_;
	case NODE_OR:
		a = eval(n->a, v);
		if (a == TRUE_)
			return TRUE_;
		b = eval(n->b, v);
		return b == TRUE_ ? TRUE_ : a == UNKNOWN || b == UNKNOWN ? UNKNOWN : FALSE_;
	}
	return UNKNOWN;
}

static int bind_node(struct node *n, const struct record_names *names, char *why, size_t why_len)
{
	struct operand *ops[2] = { &n->left, &n->right };
	char reason[320];
	unsigned int i;

	if (n->type != NODE_CMP)
		return bind_node(n->a, names, why, why_len) ||
		       (n->b && bind_node(n->b, names, why, why_len)) ? -1 : 0;
	for (i = 0; i < 2; i++)
		if (ops[i]->is_ref && record_ref_bind(names, &ops[i]->ref, reason, sizeof(reason)))
			return why_fail(why, why_len, "column %u: %s", ops[i]->column, reason);
	return 0;
}

int predicate_bind(struct predicate *p, const struct record_names *names, char *why, size_t why_len)
{
	return bind_node(p->root, names, why, why_len);
}

bool predicate_match(const struct predicate *p, const struct record_view *v)
{
	return eval(p->root, v) == TRUE_;
}

static const char *const cmp_text[] = {
	[TOK_EQ] = "==", [TOK_NE] = "!=", [TOK_LT] = "<", [TOK_LE] = "<=", [TOK_GT] = ">", [TOK_GE] = ">=",
};

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, "%s", text);
}

static void append_operand(char *buf, size_t len, const struct operand *op)
{
	char text[QUERY_TOKEN_MAX + 24];

	if (op->is_ref)
		snprintf(text, sizeof(text), "%s", op->ref.name);
	else if (op->is_string)
		snprintf(text, sizeof(text), "\"%s\"", op->string);
	else
		snprintf(text, sizeof(text), "%lld", (long long)op->number);
	append(buf, len, text);
}

/*
 * N written out again, with parentheses where an '||' or '&&' sits under
 * another operator, or a comparison under '!' (a value alone is "!= 0").
 */
static void append_node(char *buf, size_t len, const struct node *n, bool nested, bool under_not)
{
	bool parens = (nested && (n->type == NODE_OR || n->type == NODE_AND)) || (under_not && n->type == NODE_CMP);

	if (parens)
		append(buf, len, "(");
	switch (n->type) {
	case NODE_CMP:
		append_operand(buf, len, &n->left);
		append(buf, len, " ");
		append(buf, len, cmp_text[n->cmp]);
		append(buf, len, " ");
		append_operand(buf, len, &n->right);
		break;
	case NODE_NOT:
		append(buf, len, "!");
		append_node(buf, len, n->a, true, true);
		break;
	default:
		append_node(buf, len, n->a, true, false);
		append(buf, len, n->type == NODE_AND ? " && " : " || ");
		append_node(buf, len, n->b, true, false);
		break;
	}
	if (parens)
		append(buf, len, ")");
}

static void visit_parts(const struct node *n, predicate_part_fn fn, void *ctx)
{
	struct predicate_part part = { 0 };
	char text[512] = "";

	if (n->type == NODE_AND) {
		visit_parts(n->a, fn, ctx);
		visit_parts(n->b, fn, ctx);
		return;
	}
	append_node(text, sizeof(text), n, false, false);
	part.text = text;
	if (n->type == NODE_CMP) {
		part.comparison = true;
		part.cmp = n->cmp;
		part.left = n->left.is_ref ? &n->left.ref : NULL;
		part.left_number = n->left.number;
		if (is_dev(&n->left))
			part.dev = n->right.string;
		else
			part.right = n->right.is_ref ? &n->right.ref : NULL;
		part.right_number = n->right.number;
	}
	fn(ctx, &part);
}

void predicate_parts(const struct predicate *p, predicate_part_fn fn, void *ctx)
{
	visit_parts(p->root, fn, ctx);
}

void predicate_free(struct predicate *p)
{
	if (p)
		free_node(p->root);
	free(p);
}
