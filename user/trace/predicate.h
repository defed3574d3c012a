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

#include "trace/record_ref.h"

struct predicate;

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
void predicate_free(struct predicate *p);

#endif
