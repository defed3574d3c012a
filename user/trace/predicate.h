/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace --where: an expression over a record's fields, compiled once into a
 * tree that is evaluated per record.
 *   expr  := and { '||' and }
 *   and   := unary { ('&&' | ',') unary }
 *   unary := '!' unary | '(' expr ')' | value [ cmp value ]
 *   cmp   := '==' | '=' | '!=' | '<' | '<=' | '>' | '>='
 *   value := number | "string" | name
 * A value alone means value != 0. dev compares with a "string" or a bare
 * name (dev=eth0, as the old FIELD=VALUE,... form wrote it), by == and !=;
 * a "string" anywhere else is an -e event's whole text.
 */
#ifndef NETPMU_PREDICATE_H
#define NETPMU_PREDICATE_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/query_lexer.h"
#include "trace/record_ref.h"

struct predicate;

/* One part of the expression's top-level '&&' chain, as predicate_parts() gives it. */
struct predicate_part {
	const char *text;		/* the part written out again, e.g. work >= budget */
	bool comparison;		/* a comparison; else an '||', a '!' or a value alone */
	enum query_token_type cmp;	/* TOK_EQ ... TOK_GE */
	const struct record_ref *left;	/* NULL: a number */
	const struct record_ref *right;	/* NULL: a number, or dev's device name */
	int64_t left_number, right_number;
	const char *dev;		/* left is dev: the device name compared with */
};

typedef void (*predicate_part_fn)(void *ctx, const struct predicate_part *part);

/*
 * Returns the compiled TEXT, or NULL with WHY: "column N: expected X, got Y"
 * or "column N: " and why the name there is refused.
 */
struct predicate *predicate_compile(const char *text, const struct record_names *names,
				    char *why, size_t why_len);
/* Binds the -e events the expression names, once they are open (record_ref_bind()). */
int predicate_bind(struct predicate *p, const struct record_names *names, char *why, size_t why_len);
/*
 * A comparison of a field the record lacks is neither true nor false (nor is
 * its negation): the record matches only if the whole is true without it.
 */
bool predicate_match(const struct predicate *p, const struct record_view *view);
/*
 * Calls FN with each part of the top-level '&&' chain, in the order written:
 * a record is matched only if every part holds, so a part can be tested
 * earlier (in the kernel) without changing what matches.
 */
void predicate_parts(const struct predicate *p, predicate_part_fn fn, void *ctx);
void predicate_free(struct predicate *p);

#endif
