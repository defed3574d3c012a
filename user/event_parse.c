// SPDX-License-Identifier: GPL-2.0
/* perf's event list syntax: events, {groups}, metric names expanded to their pairs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_check.h"
#include "why_line.h"
#include "event_parse.h"
#include "event_terms.h"

#define EXAMPLE "e.g. hns3_pmu_sicl_0/bw_ssu_rpu,global=1/"

static void free_terms(struct event_term *terms, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(terms[i].name);
		free(terms[i].value);
	}
	free(terms);
}

/* Splits "a=1,b,c=2" (LEN bytes at S) into terms; empty names are kept for the checks. */
static int split_terms(const char *s, size_t len, struct event_term **terms, size_t *nr)
{
	const char *end = s + len;
	struct event_term *list = NULL;
	size_t n = 0;

	*terms = NULL;
	*nr = 0;
	if (!len)
		return 0;
	for (;;) {
		const char *comma = memchr(s, ',', end - s) ?: end;
		const char *eq = memchr(s, '=', comma - s);
		struct event_term *grown = realloc(list, (n + 1) * sizeof(*list));

		if (!grown)
			goto nomem;
		list = grown;
		memset(&list[n], 0, sizeof(list[n]));
		n++;
		list[n - 1].name = strndup(s, (eq ?: comma) - s);
		if (!list[n - 1].name)
			goto nomem;
		if (eq) {
			list[n - 1].value = strndup(eq + 1, comma - eq - 1);
			if (!list[n - 1].value)
				goto nomem;
		}
		if (comma == end)
			break;
		s = comma + 1;
	}
	*terms = list;
	*nr = n;
	return 0;
nomem:
	free_terms(list, n);
	return -ENOMEM;
}

static void list_pmus(const struct pmu_set *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < set->nr_pmus && used + 1 < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", set->pmus[i].name);
}

static int unknown_pmu(const struct pmu_set *set, const char *text, const char *name,
		       char *why, size_t why_len)
{
	char present[512];

	if (!set->nr_pmus)
		return why_invalid(why, why_len, "%s: no PMU named '%s' (no HNS3 or PCIe PMU is present: "
			      "load netpmu's module with 'insmod .output/kmod/netpmu.ko' or, on Hip09, "
			      "the drivers with 'modprobe hns3_pmu; modprobe hisi_pcie_pmu')", text, name);
	list_pmus(set, present, sizeof(present));
	return why_invalid(why, why_len, "%s: no PMU named '%s' (present: %s)", text, name, present);
}

/* The metric one of TERMS names, if any (a name that is no event and no format field). */
static const struct metric *find_metric_term(const struct event_parse_ctx *ctx,
					     const struct pmu *pmu,
					     const struct event_term *terms, size_t nr)
{
	for (size_t i = 0; ctx->metrics && i < nr; i++) {
		const struct metric *m;

		if (!event_term_is_name(&terms[i]) || pmu_find_event(pmu, terms[i].name) ||
		    pmu_find_format(pmu, terms[i].name))
			continue;
		m = metric_find(ctx->metrics, pmu, terms[i].name);
		if (m)
			return m;
	}
	return NULL;
}

/* "PMU/TERMS/" with the metric's name replaced by the name of counter C. */
static char *counter_text(const struct pmu *pmu, const struct event_term *terms, size_t nr,
			  const struct metric *m, unsigned int c)
{
	size_t len = strlen(pmu->name) + 3;
	char *text, *p;

	for (size_t i = 0; i < nr; i++)
		len += strlen(terms[i].name) + strlen(m->counter[c]->name) +
		       (terms[i].value ? strlen(terms[i].value) + 1 : 0) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	p = text + sprintf(text, "%s/", pmu->name);
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(terms[i].name, m->name))
			p += sprintf(p, "%s%s", i ? "," : "", m->counter[c]->name);
		else if (terms[i].value)
			p += sprintf(p, "%s%s=%s", i ? "," : "", terms[i].name, terms[i].value);
		else
			p += sprintf(p, "%s%s", i ? "," : "", terms[i].name);
	}
	strcpy(p, "/");
	return text;
}

static void release_event(struct parsed_event *ev)
{
	free(ev->text);
	free(ev->written);
	free(ev->pmu_name);
	free(ev->dev);
	memset(ev, 0, sizeof(*ev));
}

/* Appends an empty event to LIST. */
static struct parsed_event *add_event(struct event_list *list)
{
	struct parsed_event *grown = realloc(list->events, (list->nr_events + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	list->events = grown;
	memset(&grown[list->nr_events], 0, sizeof(*grown));
	grown[list->nr_events].partner = -1;
	return &grown[list->nr_events++];
}

static bool has_term(const struct event_term *terms, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(terms[i].name, name))
			return true;
	}
	return false;
}

/* Builds the event(s) of TEXT into OUT: one, or the two counters of a metric. */
static int build_events(struct event_list *out, const struct event_parse_ctx *ctx,
			const struct pmu *pmu, const char *text,
			const struct event_term *terms, size_t nr_terms, unsigned int group,
			char *why, size_t why_len)
{
	const struct metric *m = find_metric_term(ctx, pmu, terms, nr_terms);
	unsigned int nr_counters = m ? 2 : 1;

	if (m && has_term(terms, nr_terms, "name"))
		return why_invalid(why, why_len, "%s: name= cannot name both counters of the metric %s: "
			      "drop it, or name %s and %s one by one", text, m->name,
			      m->counter[0]->name, m->counter[1]->name);
	for (unsigned int c = 0; c < nr_counters; c++) {
		struct parsed_event *ev = add_event(out);
		int err;

		if (!ev)
			return -ENOMEM;
		ev->group = group;
		ev->text = m ? counter_text(pmu, terms, nr_terms, m, c) : strdup(text);
		ev->written = strdup(text);
		ev->pmu_name = strdup(pmu->name);
		if (!ev->text || !ev->written || !ev->pmu_name)
			return -ENOMEM;
		err = event_terms_apply(ctx, pmu, text, terms, nr_terms,
					m ? m->counter[c] : NULL, ev, why, why_len);
		if (err)
			return err;
		ev->from_metric = m != NULL;
		ev->metric = m;
		ev->metric_counter = c;
	}
	return 0;
}

struct list_parser {
	const struct event_parse_ctx *ctx;
	const char *arg;		/* the whole -e argument */
	const char *p;			/* where parsing is */
	struct event_list *out;		/* events parsed so far */
	unsigned int next_group;
	char *why;
	size_t why_len;
};

static bool is_pmu_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* The PMUs that have an event or metric NAME, for "write PMU/NAME/". */
static void pmus_with(const struct event_parse_ctx *ctx, const char *name, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ctx->pmus->nr_pmus && used + 1 < len; i++) {
		const struct pmu *pmu = &ctx->pmus->pmus[i];

		if (pmu_find_event(pmu, name) || (ctx->metrics && metric_find(ctx->metrics, pmu, name)))
			used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", pmu->name);
	}
}

static int not_an_event(struct list_parser *lp, const char *start, size_t len)
{
	char word[128], pmus[512];

	len = len ?: strlen(start);
	snprintf(word, sizeof(word), "%.*s", (int)len, start);
	pmus_with(lp->ctx, word, pmus, sizeof(pmus));
	if (*pmus)
		return why_invalid(lp->why, lp->why_len, "'%s' has no PMU: write PMU/%s/ with its filter "
			      "terms (PMUs that have %s: %s)", word, word, word, pmus);
	return why_invalid(lp->why, lp->why_len, "'%.*s' is not an event string: write "
		      "PMU/EVENT[,TERM=VALUE].../ (" EXAMPLE ")", (int)(len ?: strlen(start)), start);
}

/* One PMU/TERMS/ at lp->p, in GROUP. */
static int parse_one_event(struct list_parser *lp, unsigned int group)
{
	const char *start = lp->p, *slash, *terms_end, *end;
	struct event_term *terms = NULL;
	const struct pmu *pmu;
	char *text = NULL, *pmu_name = NULL;
	size_t nr_terms = 0;
	int err;

	for (slash = start; is_pmu_name_char(*slash); slash++)
		;
	if (*slash != '/' || slash == start)
		return not_an_event(lp, start, strcspn(start, ",{}"));
	terms_end = strchr(slash + 1, '/');
	if (!terms_end)
		return why_invalid(lp->why, lp->why_len, "'%s' has no closing '/': write "
			      "PMU/EVENT[,TERM=VALUE].../ (" EXAMPLE ")", start);
	end = terms_end + 1;
	if (*end && *end != ',' && *end != '}') {
		size_t len = strcspn(end, ",}");

		return why_invalid(lp->why, lp->why_len, "%.*s: modifier '%.*s' is not supported: "
			      "an uncore PMU counts everything, it cannot exclude user, kernel, "
			      "hypervisor or guest", (int)(end - start), start, (int)len, end);
	}
	text = strndup(start, end - start);
	pmu_name = strndup(start, slash - start);
	if (!text || !pmu_name) {
		err = -ENOMEM;
		goto out;
	}
	pmu = pmu_set_find(lp->ctx->pmus, pmu_name);
	if (!pmu) {
		err = unknown_pmu(lp->ctx->pmus, text, pmu_name, lp->why, lp->why_len);
		goto out;
	}
	if (pmu->type < 0 || pmu->cpu < 0) {
		err = why_invalid(lp->why, lp->why_len, "%s: %s has no usable %s in sysfs (%s)", text,
			     pmu->name, pmu->type < 0 ? "type" : "counting CPU (cpumask)",
			     pmu->nr_problems ? pmu->problems[0] : "file missing");
		goto out;
	}
	err = split_terms(slash + 1, terms_end - slash - 1, &terms, &nr_terms);
	if (!err)
		err = build_events(lp->out, lp->ctx, pmu, text, terms, nr_terms, group,
				   lp->why, lp->why_len);
	lp->p = end;
out:
	free_terms(terms, nr_terms);
	free(text);
	free(pmu_name);
	return err;
}

/* {EVENT,EVENT...} at lp->p. */
static int parse_group(struct list_parser *lp)
{
	const char *open = lp->p;
	unsigned int group = lp->next_group++;
	int err;

	lp->p++;
	for (;;) {
		if (*lp->p == '{')
			return why_invalid(lp->why, lp->why_len, "'%s': groups do not nest", open);
		err = parse_one_event(lp, group);
		if (err)
			return err;
		if (*lp->p == '}')
			break;
		if (*lp->p != ',')
			return why_invalid(lp->why, lp->why_len, "'%s': the group is not closed with '}'",
				      open);
		lp->p++;
	}
	lp->p++;
	if (*lp->p && *lp->p != ',') {
		return why_invalid(lp->why, lp->why_len, "'%.*s': modifier '%.*s' is not supported: an "
			      "uncore PMU counts everything, it cannot exclude user, kernel, "
			      "hypervisor or guest", (int)(lp->p - open), open,
			      (int)strcspn(lp->p, ","), lp->p);
	}
	return 0;
}

static void mark_leaders(struct event_list *list, size_t from)
{
	for (size_t i = from; i < list->nr_events; i++)
		list->events[i].group_leader =
			i == 0 || list->events[i - 1].group != list->events[i].group;
}

int event_list_parse(struct event_list *list, const char *arg,
		     const struct event_parse_ctx *ctx, char *why, size_t why_len)
{
	struct event_list added = { 0 };
	struct list_parser lp = {
		.ctx = ctx, .arg = arg, .p = arg, .out = &added, .next_group = list->nr_groups,
		.why = why, .why_len = why_len,
	};
	struct parsed_event *grown;
	int err = 0;

	if (!*arg)
		return why_invalid(why, why_len, "empty event list: give an event (" EXAMPLE ")");
	for (;;) {
		if (*lp.p == '{')
			err = parse_group(&lp);
		else
			err = parse_one_event(&lp, lp.next_group++);
		if (err)
			goto fail;
		if (!*lp.p)
			break;
		if (*lp.p != ',' || !lp.p[1]) {
			err = why_invalid(why, why_len, "'%s': unexpected '%s' after an event", arg, lp.p);
			goto fail;
		}
		lp.p++;
	}

	grown = realloc(list->events, (list->nr_events + added.nr_events) * sizeof(*grown));
	if (!grown) {
		err = -ENOMEM;
		goto fail;
	}
	list->events = grown;
	memcpy(&list->events[list->nr_events], added.events, added.nr_events * sizeof(*grown));
	list->nr_events += added.nr_events;
	list->nr_groups = lp.next_group;
	free(added.events);
	mark_leaders(list, 0);
	return 0;
fail:
	if (err == -ENOMEM)
		snprintf(why, why_len, "out of memory");
	event_list_release(&added);
	return err;
}

void event_list_group_all(struct event_list *list)
{
	for (size_t i = 0; i < list->nr_events; i++)
		list->events[i].group = 0;
	list->nr_groups = list->nr_events ? 1 : 0;
	mark_leaders(list, 0);
}

void event_list_release(struct event_list *list)
{
	for (size_t i = 0; i < list->nr_events; i++)
		release_event(&list->events[i]);
	free(list->events);
	memset(list, 0, sizeof(*list));
}

bool event_field_given(const struct parsed_event *ev, const char *field)
{
	const struct pmu_format_field *f = ev->pmu ? pmu_find_format(ev->pmu, field) : NULL;

	return f && f->word < PMU_CONFIG_WORDS && (ev->given[f->word] & f->mask);
}

bool event_field_value(const struct parsed_event *ev, const char *field, uint64_t *value)
{
	const struct pmu_format_field *f = ev->pmu ? pmu_find_format(ev->pmu, field) : NULL;

	if (!f || !f->nr_ranges)
		return false;
	*value = pmu_format_unpack(f, ev->spec.config);
	return true;
}

int event_parse(const char *text, const char *sysfs_root, struct parsed_event *ev,
		char *why, size_t why_len)
{
	struct metric_set metrics = { 0 };
	struct event_list list = { 0 };
	struct event_parse_ctx ctx;
	struct pmu_set set;
	int err;

	memset(ev, 0, sizeof(*ev));
	err = pmu_discover(sysfs_root, &set, why, why_len);
	if (err)
		return err;
	ctx = (struct event_parse_ctx){ .pmus = &set, .metrics = &metrics, .sysfs_root = sysfs_root };
	err = metric_set_build(&set, &metrics);
	if (!err)
		err = event_list_parse(&list, text, &ctx, why, why_len);
	if (!err && list.nr_events != 1)
		err = why_invalid(why, why_len, "%s: names %zu counters, one is read here (name each "
			     "counter with its own -e)", text, list.nr_events);
	if (!err)
		err = event_list_check(&list, &ctx, why, why_len);
	if (!err) {
		*ev = list.events[0];
		ev->pmu = NULL;		/* the PMU set is released below */
		ev->event = NULL;
		ev->metric = NULL;
		list.nr_events = 0;	/* the strings now belong to EV */
	}
	if (err == -ENOMEM)
		snprintf(why, why_len, "out of memory");
	event_list_release(&list);
	metric_set_release(&metrics);
	pmu_set_release(&set);
	return err;
}

void parsed_event_release(struct parsed_event *ev)
{
	release_event(ev);
}
