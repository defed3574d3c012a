/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tokens of trace's --where expressions and --agg aggregations, with the
 * column each starts at, for errors that point at it.
 */
#ifndef NETPMU_QUERY_LEXER_H
#define NETPMU_QUERY_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QUERY_TOKEN_MAX 96

enum query_token_type {
	TOK_END,
	TOK_NAME,	/* a field, key, function or counter name: cycles:k is one name */
	TOK_NUMBER,	/* 42, -1, 0x2a, 1e6, 1.5e3 (whole numbers only) */
	TOK_STRING,	/* "eth0" */
	TOK_MAP,	/* @ or @name */
	TOK_EQ,		/* == or = */
	TOK_NE, TOK_LT, TOK_LE, TOK_GT, TOK_GE,
	TOK_AND,	/* && */
	TOK_OR,		/* || */
	TOK_NOT, TOK_LPAREN, TOK_RPAREN, TOK_LBRACKET, TOK_RBRACKET,
	TOK_COMMA,
	TOK_BAD,	/* a character or literal no token begins with; why says which */
};

struct query_token {
	enum query_token_type type;
	unsigned int column;		/* 1-based, of the token's first character */
	char text[QUERY_TOKEN_MAX];	/* a name's or string's text, a map's name without @ */
	int64_t number;
	const char *why;		/* TOK_BAD: what is wrong */
};

struct query_lexer {
	const char *text;
	size_t pos;
	struct query_token token;	/* the current token */
};

/* Starts at TEXT's first token. */
void query_lexer_init(struct query_lexer *lx, const char *text);
/* Moves to the next token. */
void query_lexer_next(struct query_lexer *lx);
/* How a token reads in an error: "'&&'", "'dev'", "the number 1e6", "the end". */
void query_token_describe(const struct query_token *t, char *buf, size_t len);

#endif
