// SPDX-License-Identifier: GPL-2.0
/* perf's event list syntax: events, {groups}, metric names expanded to their pairs. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_build.h"
#include "event/event_check.h"
#include "event/event_parse.h"
#include "event/event_terms.h"
#include "lib/why_line.h"

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

struct list_parser {
	const struct event_parse_ctx *ctx;
	const char *arg;		/* the whole -e argument */
	const char *p;			/* where parsing is */
	struct event_list *out;		/* events parsed so far */
	unsigned int next_group;
	unsigned int next_item;
	char *why;
	size_t why_len;
};

static bool is_pmu_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.' || c == '*';
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

/* One PMU/TERMS/ at lp->p, its counters in GROUPS. */
static int parse_one_event(struct list_parser *lp, struct pmu_groups *groups)
{
	const char *start = lp->p, *slash, *terms_end, *end;
	struct event_term *terms = NULL;
	struct event_build build;
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
	err = split_terms(slash + 1, terms_end - slash - 1, &terms, &nr_terms);
	if (err)
		goto out;
	build = (struct event_build){
		.ctx = lp->ctx, .out = lp->out, .text = text, .pmu_name = pmu_name,
		.terms = terms, .nr_terms = nr_terms, .item = lp->next_item++, .groups = groups,
	};
	err = event_build(&build, lp->why, lp->why_len);
	lp->p = end;
out:
	free_terms(terms, nr_terms);
	free(text);
	free(pmu_name);
	return err;
}

/* An event string outside braces: a group of its own (one per instance of a merged name). */
static int parse_ungrouped(struct list_parser *lp)
{
	unsigned int group = lp->next_group++;
	struct pmu_groups groups;
	int err = pmu_groups_init(&groups, lp->ctx->pmus, group, &lp->next_group);

	if (!err)
		err = parse_one_event(lp, &groups);
	pmu_groups_release(&groups);
	return err;
}

/* Orders the events of a group's braces by group, keeping their order within one. */
static void sort_by_group(struct parsed_event *events, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct parsed_event ev = events[i];
		size_t j = i;

		for (; j > 0 && events[j - 1].group > ev.group; j--)
			events[j] = events[j - 1];
		events[j] = ev;
	}
}

static int parse_group_events(struct list_parser *lp, struct pmu_groups *groups, const char *open)
{
	size_t first = lp->out->nr_events;
	int err;

	lp->p++;
	for (;;) {
		if (*lp->p == '{')
			return why_invalid(lp->why, lp->why_len, "'%s': groups do not nest", open);
		err = parse_one_event(lp, groups);
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
	/* One group per instance of a merged name: each group's events together, in order. */
	sort_by_group(&lp->out->events[first], lp->out->nr_events - first);
	return 0;
}

/* {EVENT,EVENT...} at lp->p. */
static int parse_group(struct list_parser *lp)
{
	unsigned int group = lp->next_group++;
	struct pmu_groups groups;
	int err = pmu_groups_init(&groups, lp->ctx->pmus, group, &lp->next_group);

	if (!err)
		err = parse_group_events(lp, &groups, lp->p);
	pmu_groups_release(&groups);
	return err;
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
		.next_item = list->nr_items, .why = why, .why_len = why_len,
	};
	struct parsed_event *grown;
	int err = 0;

	if (!*arg)
		return why_invalid(why, why_len, "empty event list: give an event (" EXAMPLE ")");
	for (;;) {
		if (*lp.p == '{')
			err = parse_group(&lp);
		else
			err = parse_ungrouped(&lp);
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
	if (added.nr_skipped) {
		struct event_skip *skipped = realloc(list->skipped, (list->nr_skipped + added.nr_skipped) *
						     sizeof(*skipped));

		if (!skipped) {
			err = -ENOMEM;
			goto fail;
		}
		list->skipped = skipped;
		memcpy(&list->skipped[list->nr_skipped], added.skipped,
		       added.nr_skipped * sizeof(*skipped));
		list->nr_skipped += added.nr_skipped;
	}
	memcpy(&list->events[list->nr_events], added.events, added.nr_events * sizeof(*grown));
	list->nr_events += added.nr_events;
	list->nr_groups = lp.next_group;
	list->nr_items = lp.next_item;
	free(added.events);
	free(added.skipped);
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

/* Two counters of LIST on one PMU (a metric's pair): at most one per PMU is read here. */
static bool two_on_one_pmu(const struct event_list *list)
{
	for (size_t i = 1; i < list->nr_events; i++) {
		for (size_t j = 0; j < i; j++) {
			if (list->events[i].pmu == list->events[j].pmu)
				return true;
		}
	}
	return false;
}

static int check_instances(const struct event_list *list, const char *text, size_t max,
			   char *why, size_t why_len)
{
	if (two_on_one_pmu(list))
		return why_invalid(why, why_len, "%s: names %zu counters, one per PMU is read here "
			     "(name each counter with its own -e)", text, list->nr_events);
	if (list->nr_events > max)
		return why_invalid(why, why_len, "%s: stands for %zu instances, room is left for %zu "
			     "counter%s (name one instance, e.g. %s)", text, list->nr_events, max,
			     max == 1 ? "" : "s", list->events[0].written);
	return 0;
}

int event_catalog_discover(struct event_catalog *cat, const char *sysfs_root,
			   char *why, size_t why_len)
{
	int err;

	memset(cat, 0, sizeof(*cat));
	err = pmu_discover(sysfs_root, &cat->pmus, why, why_len);
	if (err)
		return err;
	err = metric_set_build(&cat->pmus, &cat->metrics);
	if (err) {
		snprintf(why, why_len, "out of memory");
		pmu_set_release(&cat->pmus);
		return err;
	}
	cat->ctx = (struct event_parse_ctx){
		.pmus = &cat->pmus, .metrics = &cat->metrics, .sysfs_root = sysfs_root,
	};
	return 0;
}

void event_catalog_release(struct event_catalog *cat)
{
	metric_set_release(&cat->metrics);
	pmu_set_release(&cat->pmus);
	memset(cat, 0, sizeof(*cat));
}

int event_parse_instances(const char *text, const struct event_catalog *cat,
			  struct parsed_event *evs, size_t max, size_t *nr,
			  char *why, size_t why_len)
{
	struct event_list list = { 0 };
	int err;

	*nr = 0;
	err = event_list_parse(&list, text, &cat->ctx, why, why_len);
	if (!err)
		err = check_instances(&list, text, max, why, why_len);
	if (!err)
		err = event_list_check(&list, &cat->ctx, why, why_len);
	if (!err) {
		memcpy(evs, list.events, list.nr_events * sizeof(*evs));
		*nr = list.nr_events;
		list.nr_events = 0;	/* the strings now belong to EVS */
	}
	if (err == -ENOMEM)
		snprintf(why, why_len, "out of memory");
	event_list_release(&list);
	return err;
}

int event_parse(const char *text, const struct event_catalog *cat, struct parsed_event *ev,
		char *why, size_t why_len)
{
	size_t nr;

	memset(ev, 0, sizeof(*ev));
	return event_parse_instances(text, cat, ev, 1, &nr, why, why_len);
}
