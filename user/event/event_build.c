// SPDX-License-Identifier: GPL-2.0
/* The counters of one event string: on its PMU, or on each instance of a merged PMU name. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_build.h"
#include "event/event_check.h"
#include "pmu/pmu_name_match.h"
#include "lib/why_line.h"

#define GROUP_UNSET UINT_MAX
#define REASON_LEN 1024

int pmu_groups_init(struct pmu_groups *g, const struct pmu_set *set, unsigned int base,
		    unsigned int *next_group)
{
	*g = (struct pmu_groups){ .base = base, .next_group = next_group };
	g->of_pmu = malloc((set->nr_pmus ?: 1) * sizeof(*g->of_pmu));
	if (!g->of_pmu)
		return -ENOMEM;
	for (size_t i = 0; i < set->nr_pmus; i++)
		g->of_pmu[i] = GROUP_UNSET;
	return 0;
}

void pmu_groups_release(struct pmu_groups *g)
{
	free(g->of_pmu);
	g->of_pmu = NULL;
}

/*
 * The group of PMU's counters: the one it already has; else the base group,
 * unless an instance of a merged name finds the base taken by another PMU.
 * A PMU named exactly takes the base even then, so that a group naming two
 * PMUs is still refused as a group of two PMUs (event_check.c).
 */
static unsigned int group_of(struct pmu_groups *g, const struct pmu_set *set,
			     const struct pmu *pmu, bool merged)
{
	unsigned int *group = &g->of_pmu[pmu - set->pmus];

	if (*group == GROUP_UNSET) {
		*group = merged && g->base_taken ? (*g->next_group)++ : g->base;
		g->base_taken = true;
	}
	return *group;
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
			      "load netpmu's module with 'insmod .output/kmod/ARCH-KVER/netpmu.ko' or, on Hip09, "
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

/* "PMU_NAME/TERMS/" with the metric's name replaced by the name of counter C. */
static char *counter_text(const char *pmu_name, const struct event_term *terms, size_t nr,
			  const struct metric *m, unsigned int c)
{
	size_t len = strlen(pmu_name) + 3;
	char *text, *p;

	for (size_t i = 0; i < nr; i++)
		len += strlen(terms[i].name) + strlen(m->counter[c]->name) +
		       (terms[i].value ? strlen(terms[i].value) + 1 : 0) + 1;
	text = malloc(len);
	if (!text)
		return NULL;
	p = text + sprintf(text, "%s/", pmu_name);
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

static bool has_term(const struct event_term *terms, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(terms[i].name, name))
			return true;
	}
	return false;
}

/* TEXT's counters on PMU, appended to B->out: one, or the two of a metric. */
static int build_on_pmu(const struct event_build *b, const struct pmu *pmu, const char *text,
			unsigned int group, char *why, size_t why_len)
{
	const struct metric *m = find_metric_term(b->ctx, pmu, b->terms, b->nr_terms);
	unsigned int nr_counters = m ? 2 : 1;

	if (pmu->type < 0 || pmu->cpu < 0)
		return why_invalid(why, why_len, "%s: %s has no usable %s in sysfs (%s)", text,
			     pmu->name, pmu->type < 0 ? "type" : "counting CPU (cpumask)",
			     pmu->nr_problems ? pmu->problems[0] : "file missing");
	if (m && has_term(b->terms, b->nr_terms, "name"))
		return why_invalid(why, why_len, "%s: name= cannot name both counters of the metric %s: "
			      "drop it, or name %s and %s one by one", text, m->name,
			      m->counter[0]->name, m->counter[1]->name);
	for (unsigned int c = 0; c < nr_counters; c++) {
		struct parsed_event *ev = event_list_add(b->out);
		int err;

		if (!ev)
			return -ENOMEM;
		ev->group = group;
		ev->item = b->item;
		ev->text = m ? counter_text(pmu->name, b->terms, b->nr_terms, m, c) : strdup(text);
		ev->written = strdup(text);
		ev->pmu_name = strdup(pmu->name);
		if (!ev->text || !ev->written || !ev->pmu_name)
			return -ENOMEM;
		err = event_terms_apply(b->ctx, pmu, text, b->terms, b->nr_terms,
					m ? m->counter[c] : NULL, ev, why, why_len);
		if (err)
			return err;
		ev->spec.pmu_name = ev->pmu_name;
		ev->from_metric = m != NULL;
		ev->metric = m;
		ev->metric_counter = c;
	}
	return 0;
}

/* perf's name of one instance's counter: "hns3_pmu_sicl_0/TERMS/" for "hns3_pmu_sicl/TERMS/". */
static char *instance_text(const struct pmu *pmu, const char *text)
{
	char *s;

	return asprintf(&s, "%s%s", pmu->name, strchr(text, '/')) < 0 ? NULL : s;
}

/* The display name of the instances' sum: name=, the metric's counter, or the string as written. */
static char *merged_text(const struct event_build *b, const struct parsed_event *ev)
{
	if (has_term(b->terms, b->nr_terms, "name"))
		return strdup(ev->text);
	if (ev->metric)
		return counter_text(b->pmu_name, b->terms, b->nr_terms, ev->metric,
				    ev->metric_counter);
	return strdup(b->text);
}

/* The counters from FIRST on, each alone, as the driver would take them. */
static int check_counters(const struct event_build *b, size_t first, char *why, size_t why_len)
{
	struct filter_choice choice;

	for (size_t i = first; i < b->out->nr_events; i++) {
		int err = event_check_one(&b->out->events[i], b->ctx, &choice, why, why_len);

		if (err)
			return err;
	}
	return 0;
}

static void drop_counters(struct event_list *list, size_t from)
{
	while (list->nr_events > from)
		parsed_event_release(&list->events[--list->nr_events]);
}

/* REASON without its leading "TEXT: ", which names the instance's string. */
static const char *reason_only(const char *reason, const char *text)
{
	size_t len = strlen(text);

	return !strncmp(reason, text, len) && !strncmp(reason + len, ": ", 2) ? reason + len + 2 :
									     reason;
}

static int add_skip(struct event_list *list, const char *text, const char *reason)
{
	struct event_skip *grown = realloc(list->skipped, (list->nr_skipped + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	list->skipped = grown;
	grown[list->nr_skipped] = (struct event_skip){ strdup(text), strdup(reason) };
	if (!grown[list->nr_skipped].text || !grown[list->nr_skipped].reason) {
		free(grown[list->nr_skipped].text);
		free(grown[list->nr_skipped].reason);
		return -ENOMEM;
	}
	list->nr_skipped++;
	return 0;
}

/* S with every NAME replaced by WRITTEN, so that two instances' reasons compare. */
static void replace_name(const char *s, const char *name, const char *written, char *buf,
			 size_t len)
{
	size_t used = 0, name_len = strlen(name);

	buf[0] = '\0';
	while (*s && used + 1 < len) {
		if (!strncmp(s, name, name_len)) {
			used += snprintf(buf + used, len - used, "%s", written);
			s += name_len;
		} else {
			buf[used++] = *s++;
			buf[used] = '\0';
		}
	}
}

/*
 * No instance can count it: one reason if all give the same one (an error in
 * the string itself), else each instance's reason.
 */
static int none_can_count(const struct event_build *b, const struct pmu **pmus, size_t nr,
			  char (*reasons)[REASON_LEN], char *why, size_t why_len)
{
	char first[REASON_LEN], other[REASON_LEN];
	bool same = true;
	size_t used;

	replace_name(reasons[0], pmus[0]->name, b->pmu_name, first, sizeof(first));
	for (size_t i = 1; i < nr && same; i++) {
		replace_name(reasons[i], pmus[i]->name, b->pmu_name, other, sizeof(other));
		same = !strcmp(first, other);
	}
	if (same)
		return why_invalid(why, why_len, "%s: %s", b->text, first);
	used = snprintf(why, why_len, "%s: no instance of %s can count it:", b->text, b->pmu_name);
	for (size_t i = 0; i < nr && used < why_len; i++)
		used += snprintf(why + used, why_len - used, "%s %s: %s", i ? ";" : "", pmus[i]->name,
				 reasons[i]);
	return -EINVAL;
}

/* One instance: its counters, in its group, or a reason (> 0 return) why it cannot count. */
static int build_instance(const struct event_build *b, const struct pmu *pmu, char *reason)
{
	size_t first = b->out->nr_events;
	char *text = instance_text(pmu, b->text);
	unsigned int group;
	int err;

	if (!text)
		return -ENOMEM;
	err = build_on_pmu(b, pmu, text, 0, reason, REASON_LEN);
	if (!err)
		err = check_counters(b, first, reason, REASON_LEN);
	if (err && err != -ENOMEM) {
		drop_counters(b->out, first);
		memmove(reason, reason_only(reason, text), strlen(reason_only(reason, text)) + 1);
		err = add_skip(b->out, text, reason) ?: 1;
		free(text);
		return err;
	}
	free(text);
	if (err)
		return err;
	group = group_of(b->groups, b->ctx->pmus, pmu, true);
	for (size_t i = first; i < b->out->nr_events; i++) {
		b->out->events[i].group = group;
		b->out->events[i].merged_text = merged_text(b, &b->out->events[i]);
		if (!b->out->events[i].merged_text)
			return -ENOMEM;
	}
	return 0;
}

static int build_merged(const struct event_build *b, const struct pmu **pmus, size_t nr,
			char *why, size_t why_len)
{
	char (*reasons)[REASON_LEN] = calloc(nr, sizeof(*reasons));
	size_t skipped_before = b->out->nr_skipped, counted = 0;
	int err = 0;

	if (!reasons)
		return -ENOMEM;
	for (size_t i = 0; i < nr && err >= 0; i++) {
		err = build_instance(b, pmus[i], reasons[i]);
		counted += !err;
	}
	if (err >= 0 && !counted) {
		/* Not a skip but a refusal: the notes go, the reason stays. */
		while (b->out->nr_skipped > skipped_before) {
			b->out->nr_skipped--;
			free(b->out->skipped[b->out->nr_skipped].text);
			free(b->out->skipped[b->out->nr_skipped].reason);
		}
		err = none_can_count(b, pmus, nr, reasons, why, why_len);
	}
	free(reasons);
	return err < 0 ? err : 0;
}

int event_build(const struct event_build *b, char *why, size_t why_len)
{
	const struct pmu **pmus = malloc((b->ctx->pmus->nr_pmus ?: 1) * sizeof(*pmus));
	size_t nr;
	bool merged;
	int err;

	if (!pmus)
		return -ENOMEM;
	nr = pmu_set_resolve(b->ctx->pmus, b->pmu_name, pmus, &merged);
	if (!nr)
		err = unknown_pmu(b->ctx->pmus, b->text, b->pmu_name, why, why_len);
	else if (merged)
		err = build_merged(b, pmus, nr, why, why_len);
	else
		err = build_on_pmu(b, pmus[0], b->text, group_of(b->groups, b->ctx->pmus, pmus[0], false),
				   why, why_len);
	free(pmus);
	return err;
}
