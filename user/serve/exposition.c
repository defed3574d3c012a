// SPDX-License-Identifier: GPL-2.0
/* netpmu serve's /metrics body, in either exposition format. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve/exposition.h"

bool exposition_wants_openmetrics(const char *accept)
{
	return accept && strstr(accept, "application/openmetrics-text");
}

static const char *type_name(enum metric_type t)
{
	return t == METRIC_COUNTER ? "counter" : t == METRIC_SUMMARY ? "summary" : "gauge";
}

/* NAME{const labels, series labels} as the sample's name and labels. */
static void sample_head(FILE *f, const char *name, const char *suffix, const char *const_labels,
			const char *labels)
{
	bool both = *const_labels && *labels;

	fprintf(f, "%s%s", name, suffix);
	if (*const_labels || *labels)
		fprintf(f, "{%s%s%s}", const_labels, both ? "," : "", labels);
}

static void render_family(FILE *f, const struct metric_store *st, enum metric_family_id id, bool om)
{
	const struct metric_family *fam = &metric_families[id];
	const struct metric_series *s = metric_store_first(st, id);

	if (!s)
		return;
	/* HELP text has no backslash or newline: nothing to escape. */
	fprintf(f, "# HELP %s%s %s\n", fam->name, fam->type == METRIC_COUNTER && !om ? "_total" : "", fam->help);
	fprintf(f, "# TYPE %s%s %s\n", fam->name, fam->type == METRIC_COUNTER && !om ? "_total" : "",
		type_name(fam->type));
	for (; s; s = s->next_in_family) {
		switch (fam->type) {
		case METRIC_COUNTER:
			sample_head(f, fam->name, "_total", st->const_labels, s->labels);
			if (fam->scale == 1)
				fprintf(f, " %llu\n", (unsigned long long)s->value);
			else
				fprintf(f, " %.9f\n", s->value * fam->scale);
			break;
		case METRIC_SUMMARY:
			sample_head(f, fam->name, "_sum", st->const_labels, s->labels);
			fprintf(f, " %.12g\n", s->value * s->scale);
			sample_head(f, fam->name, "_count", st->const_labels, s->labels);
			fprintf(f, " %llu\n", (unsigned long long)s->count);
			break;
		case METRIC_GAUGE:
			sample_head(f, fam->name, "", st->const_labels, s->labels);
			fprintf(f, " %.17g\n", s->gauge);
			break;
		}
	}
}

int exposition_render(struct metric_store *st, bool openmetrics, char **out, size_t *len)
{
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	metric_store_lock(st);
	for (int id = 0; id < FAM_NR; id++)
		render_family(f, st, id, openmetrics);
	metric_store_unlock(st);
	if (openmetrics)
		fputs("# EOF\n", f);
	if (fclose(f)) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}
