// SPDX-License-Identifier: GPL-2.0
/* The known names closest to a misspelt one, for error lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/name_suggest.h"

/* Event names are short (< 64 characters): longer ones are cut for the distance. */
#define DISTANCE_MAX_LEN 64

static unsigned int edit_distance(const char *a, const char *b)
{
	unsigned int row[DISTANCE_MAX_LEN + 1];
	size_t la = strnlen(a, DISTANCE_MAX_LEN), lb = strnlen(b, DISTANCE_MAX_LEN);

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		unsigned int diagonal = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int above = row[j];
			unsigned int best = diagonal + (a[i - 1] != b[j - 1]);

			if (above + 1 < best)
				best = above + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
		}
	}
	return row[lb];
}

void name_suggest_init(struct name_suggest *s, const char *wanted)
{
	memset(s, 0, sizeof(*s));
	s->wanted = wanted;
}

void name_suggest_offer(struct name_suggest *s, const char *candidate)
{
	unsigned int score = edit_distance(s->wanted, candidate);
	unsigned int pos;

	/* A name that contains what was typed (a prefix, a missing suffix) is the likely one. */
	if (*s->wanted && strstr(candidate, s->wanted))
		score = score / 4;
	for (pos = 0; pos < s->nr; pos++) {
		if (!strcmp(s->best[pos], candidate))
			return;
		if (score < s->score[pos])
			break;
	}
	if (pos == NAME_SUGGEST_MAX)
		return;
	if (s->nr < NAME_SUGGEST_MAX)
		s->nr++;
	memmove(&s->best[pos + 1], &s->best[pos], (s->nr - 1 - pos) * sizeof(s->best[0]));
	memmove(&s->score[pos + 1], &s->score[pos], (s->nr - 1 - pos) * sizeof(s->score[0]));
	s->best[pos] = candidate;
	s->score[pos] = score;
}

void name_suggest_format(const struct name_suggest *s, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < s->nr && used + 1 < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", s->best[i]);
}
