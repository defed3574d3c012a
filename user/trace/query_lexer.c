// SPDX-License-Identifier: GPL-2.0
#include "trace/query_lexer.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void query_lexer_init(struct query_lexer *lx, const char *text)
{
	lx->text = text;
	lx->pos = 0;
	query_lexer_next(lx);
}

static bool name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static void bad(struct query_token *t, const char *why)
{
	t->type = TOK_BAD;
	t->why = why;
}

/* A name: letters, digits, _; a ':' inside joins perf's modifiers (cycles:k). */
static void lex_name(struct query_lexer *lx, struct query_token *t)
{
	const char *s = lx->text + lx->pos;
	size_t n = 0;

	while (name_char(s[n]) || (s[n] == ':' && name_char(s[n + 1])))
		n++;
	if (n >= sizeof(t->text))
		return bad(t, "a name longer than 95 characters");
	memcpy(t->text, s, n);
	t->text[n] = '\0';
	t->type = TOK_NAME;
	lx->pos += n;
}

/*
 * Decimal, 0x hex, or with an exponent (1e6, 2.5e3): the value must be a
 * whole number that fits in 64 signed bits.
 */
static void lex_number(struct query_lexer *lx, struct query_token *t)
{
	const char *s = lx->text + lx->pos;
	char *end;
	size_t n;

	errno = 0;
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
	    (s[0] == '-' && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'))) {
		t->number = strtoll(s, &end, 16);
		if (end <= s + (s[0] == '-' ? 3 : 2))
			return bad(t, "'0x' without hex digits");
	} else {
		t->number = strtoll(s, &end, 10);
		if (*end == '.' || *end == 'e' || *end == 'E') {
			double d = strtod(s, &end);

			if (errno || !isfinite(d) || d != floor(d) || d >= 9223372036854775808.0 ||
			    d < -9223372036854775808.0)
				return bad(t, errno || !isfinite(d) || d == floor(d) ?
					   "a number beyond 64 signed bits" : "a number that is not whole");
			t->number = (int64_t)d;
		}
	}
	if (errno == ERANGE)
		return bad(t, "a number beyond 64 signed bits");
	if (name_char(*end) || *end == '.')
		return bad(t, "a number followed by letters");
	n = end - s;
	t->type = TOK_NUMBER;
	snprintf(t->text, sizeof(t->text), "%.*s", (int)(n < sizeof(t->text) ? n : sizeof(t->text) - 1), s);
	lx->pos += n;
}

/* "...": \" and \\ escape; no other escapes, nothing across the end. */
static void lex_string(struct query_lexer *lx, struct query_token *t)
{
	const char *s = lx->text + lx->pos + 1;
	size_t i = 0, out = 0;

	for (;; i++) {
		if (!s[i])
			return bad(t, "a string without its closing '\"'");
		if (s[i] == '"')
			break;
		/* Kept out of strings, so that an error quoting one stays one line. */
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return bad(t, "a control character in a string");
		if (s[i] == '\\' && (s[i + 1] == '"' || s[i + 1] == '\\'))
			i++;
		if (out + 1 >= sizeof(t->text))
			return bad(t, "a string longer than 95 characters");
		t->text[out++] = s[i];
	}
	t->text[out] = '\0';
	t->type = TOK_STRING;
	lx->pos += i + 2;
}

static bool two(const char *s, const char *op)
{
	return s[0] == op[0] && s[1] == op[1];
}

void query_lexer_next(struct query_lexer *lx)
{
	static const struct { const char *op; enum query_token_type type; } ops[] = {
		{ "==", TOK_EQ }, { "!=", TOK_NE }, { "<=", TOK_LE }, { ">=", TOK_GE },
		{ "&&", TOK_AND }, { "||", TOK_OR },
	};
	struct query_token *t = &lx->token;
	const char *s;
	size_t i;

	while (isspace((unsigned char)lx->text[lx->pos]))
		lx->pos++;
	s = lx->text + lx->pos;
	memset(t, 0, sizeof(*t));
	t->column = lx->pos + 1;
	if (!*s) {
		t->type = TOK_END;
		return;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (two(s, ops[i].op)) {
			t->type = ops[i].type;
			snprintf(t->text, sizeof(t->text), "%s", ops[i].op);
			lx->pos += 2;
			return;
		}
	}
	if (isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1])))
		return lex_number(lx, t);
	if (isalpha((unsigned char)*s) || *s == '_')
		return lex_name(lx, t);
	if (*s == '"')
		return lex_string(lx, t);
	if (*s == '@') {
		lx->pos++;
		if (name_char(lx->text[lx->pos]))
			lex_name(lx, t);
		if (t->type == TOK_BAD)
			return;
		t->type = TOK_MAP;
		return;
	}
	switch (*s) {
	case '=': t->type = TOK_EQ; break;
	case '<': t->type = TOK_LT; break;
	case '>': t->type = TOK_GT; break;
	case '!': t->type = TOK_NOT; break;
	case '(': t->type = TOK_LPAREN; break;
	case ')': t->type = TOK_RPAREN; break;
	case '[': t->type = TOK_LBRACKET; break;
	case ']': t->type = TOK_RBRACKET; break;
	case ',': t->type = TOK_COMMA; break;
	default:
		return bad(t, "a character that begins no token");
	}
	t->text[0] = *s;
	lx->pos++;
}

void query_token_describe(const struct query_token *t, char *buf, size_t len)
{
	switch (t->type) {
	case TOK_END:
		snprintf(buf, len, "the end");
		break;
	case TOK_NUMBER:
		snprintf(buf, len, "the number %s", t->text);
		break;
	case TOK_STRING:
		snprintf(buf, len, "the string \"%s\"", t->text);
		break;
	case TOK_MAP:
		snprintf(buf, len, "'@%s'", t->text);
		break;
	case TOK_BAD:
		snprintf(buf, len, "%s", t->why);
		break;
	default:
		/* A name or an operator, as written. */
		snprintf(buf, len, "'%s'", t->text);
	}
}
