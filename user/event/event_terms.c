// SPDX-License-Identifier: GPL-2.0
/* The terms of one event string turned into config words, as perf does it. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_terms.h"
#include "lib/why_line.h"
#include "lib/name_suggest.h"
#include "sys/pci_sysfs.h"
#include "pmu/pmu_attr_parse.h"
#include "sys/sysfs_read.h"

/* The config words perf 6.1 knows as terms; config3 came later. */
#define RAW_CONFIG_WORDS 3
/* Both PMUs put the event in config bits 0-16. */
#define EVENT_ID_MASK 0x1ffffULL

struct term_state {
	const struct event_parse_ctx *ctx;
	const struct pmu *pmu;
	const char *text;		/* the event string, for messages */
	uint64_t raw[PMU_CONFIG_WORDS];	/* config, config1, config2 terms: assigned */
	uint64_t ored[PMU_CONFIG_WORDS];	/* format fields: OR'ed, as perf does */
	uint64_t user_raw[PMU_CONFIG_WORDS];	/* the user's config/config1/config2 terms */
	bool user_raw_set[PMU_CONFIG_WORDS];
	uint64_t user_fields[PMU_CONFIG_WORDS];	/* bits of the fields the user's terms set */
	uint64_t named_bits[PMU_CONFIG_WORDS];	/* what the named event's own terms set */
	const struct event_term *terms;	/* the user's, for naming an earlier one */
	size_t cur;			/* the user's term being applied */
	const struct pmu_event *named;	/* the event name used, if any */
	bool name_set;			/* name= given */
	struct parsed_event *ev;
	struct why_sink out;
};

/* perf's numbers: decimal digits, or 0x and hex digits; 64 bits at most. */
static int parse_perf_number(const char *s, uint64_t *value)
{
	uint64_t v = 0;
	int base = 10;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int digit;

		if (isdigit((unsigned char)*s))
			digit = *s - '0';
		else if (base == 16 && isxdigit((unsigned char)*s))
			digit = tolower((unsigned char)*s) - 'a' + 10;
		else
			return -EINVAL;
		if (v > (UINT64_MAX - digit) / base)
			return -ERANGE;
		v = v * base + digit;
	}
	*value = v;
	return 0;
}

const struct pmu_event *pmu_event_by_config(const struct pmu *pmu, uint64_t config)
{
	for (size_t i = 0; i < pmu->nr_events; i++) {
		uint64_t c;

		if (pmu_event_term_value(&pmu->events[i], "config", &c) &&
		    pmu->events[i].nr_terms == 1 && c == (config & EVENT_ID_MASK))
			return &pmu->events[i];
	}
	return NULL;
}

bool event_term_is_name(const struct event_term *t)
{
	return !t->value || !strcmp(t->value, "1");
}

static int raw_config_word(const char *name)
{
	static const char *const names[RAW_CONFIG_WORDS] = { "config", "config1", "config2" };

	for (int w = 0; w < RAW_CONFIG_WORDS; w++) {
		if (!strcmp(name, names[w]))
			return w;
	}
	return -1;
}

/* The valid term names of the PMU, for an error line. */
static void list_terms(const struct pmu *pmu, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < pmu->nr_formats && used + 1 < len; i++)
		used += snprintf(buf + used, len - used, "%s, ", pmu->formats[i].name);
	if (used + 1 < len)
		snprintf(buf + used, len - used, "config, config1, config2, name, dev");
}

static int unknown_term(struct term_state *st, const char *name)
{
	char valid[768];

	list_terms(st->pmu, valid, sizeof(valid));
	return why_reject(&st->out, "unknown term '%s' (valid: %s)", name, valid);
}

static int unknown_event(struct term_state *st, const char *name)
{
	const struct metric_set *ms = st->ctx->metrics;
	struct name_suggest s;
	char closest[512];

	/* Metrics first: on a tie they are the likelier meaning of a short name. */
	name_suggest_init(&s, name);
	for (size_t i = 0; ms && i < ms->nr_metrics; i++) {
		if (ms->metrics[i].pmu == st->pmu)
			name_suggest_offer(&s, ms->metrics[i].name);
	}
	for (size_t i = 0; i < st->pmu->nr_events; i++)
		name_suggest_offer(&s, st->pmu->events[i].name);
	name_suggest_format(&s, closest, sizeof(closest));
	if (!s.nr)
		return why_reject(&st->out, "unknown event '%s' (%s has no events)", name, st->pmu->name);
	return why_reject(&st->out, "unknown event '%s' (closest: %s; 'netpmu list --events %s' shows all)",
			  name, closest, st->pmu->name);
}

/* An HNS3 PMU names config bits 8-15 event_type (upstream) or event (v1 doc, netpmu.ko). */
static const struct pmu_format_field *find_format(const struct pmu *pmu, const char *name)
{
	const struct pmu_format_field *field = pmu_find_format(pmu, name);

	if (field || pmu->name_info.kind != PMU_KIND_HNS3)
		return field;
	if (!strcmp(name, "event"))
		return pmu_find_format(pmu, "event_type");
	if (!strcmp(name, "event_type"))
		return pmu_find_format(pmu, "event");
	return NULL;
}

static int parse_field_value(struct term_state *st, const struct pmu_format_field *field,
			     const char *term, const char *value, uint64_t *number)
{
	bool is_bdf = !strcmp(field->name, "bdf");
	unsigned int bdf;
	const char *why;
	int domain, err;

	if (!value) {
		*number = 1;	/* a bare field means 1, as in perf */
		return 0;
	}
	if (is_bdf && strchr(value, ':')) {
		if (parse_pci_bdf(value, &bdf, &domain, &why))
			return why_reject(&st->out, "bdf=%s: %s", value, why);
		if (domain >= 0 && (unsigned int)domain != pmu_dir_pci_domain(st->pmu->dir))
			return why_reject(&st->out, "bdf=%s: %s sees PCI domain %04x only", value,
					  st->pmu->name, pmu_dir_pci_domain(st->pmu->dir));
		*number = bdf;
		return 0;
	}
	err = parse_perf_number(value, number);
	if (err == -ERANGE)
		return why_reject(&st->out, "%s=%s: above 64 bits", term, value);
	if (err)
		return why_reject(&st->out, "%s=%s: '%s' is not a number (decimal, or hex with 0x%s)",
				  term, value, value, is_bdf ? ", or BB:DD.F such as 35:00.0" : "");
	return 0;
}

static const struct pmu_format_field *find_format(const struct pmu *pmu, const char *name);

/* The user's term before the current one that set bits of MASK in WORD. */
static const char *earlier_term(const struct term_state *st, unsigned int word, uint64_t mask)
{
	for (size_t i = 0; i < st->cur; i++) {
		const char *name = st->terms[i].name;
		const struct pmu_format_field *f;

		f = find_format(st->pmu, strcmp(name, "dev") ? name : "bdf");
		if (f && f->word == word && (f->mask & mask))
			return name;
	}
	return "?";
}

/*
 * perf ORs the fields of repeated or overlapping terms together, which
 * counts something nobody wrote (tc=1,tc=2 is tc=3): the user's terms may
 * set each bit once.
 */
static int check_repeated_field(struct term_state *st, const struct pmu_format_field *field,
				const char *term)
{
	const char *before;

	if (!(st->user_fields[field->word] & field->mask))
		return 0;
	before = earlier_term(st, field->word, field->mask);
	if (!strcmp(before, term))
		return why_reject(&st->out, "%s given twice: give it once", term);
	return why_reject(&st->out, "%s and %s both set field %s (%s): give one of them", before, term,
			  field->name, field->spec);
}

static int or_field(struct term_state *st, const struct pmu_format_field *field,
		    const char *term, const char *value, uint64_t number, bool given)
{
	uint64_t packed[PMU_CONFIG_WORDS] = { 0 };
	int err;

	if (!field->nr_ranges)
		return why_reject(&st->out, "%s: format/%s of %s is unreadable", term, field->name,
				  st->pmu->name);
	if (field->word >= RAW_CONFIG_WORDS)
		return why_reject(&st->out, "%s: field %s is in %s, which perf_event_attr has no room for here",
				  term, field->name, pmu_config_word_name(field->word));
	if (pmu_format_pack(field, number, packed))
		return why_reject(&st->out, "%s=%s is wider than the field %s (%s: at most 0x%llx)",
				  term, value ? value : "1", field->name, field->spec,
				  (unsigned long long)pmu_format_max_value(field));
	if (given) {
		err = check_repeated_field(st, field, term);
		if (err)
			return err;
		st->user_fields[field->word] |= field->mask;
		st->ev->given[field->word] |= field->mask;
	} else {
		st->named_bits[field->word] |= packed[field->word];
	}
	st->ored[field->word] |= packed[field->word];
	return 0;
}

static void list_netdevs(const char *sysfs_root, char *buf, size_t len)
{
	char *dir, **names = NULL;
	size_t nr = 0, used = 0;

	buf[0] = '\0';
	if (asprintf(&dir, "%s/class/net", sysfs_root ? sysfs_root : "/sys") < 0)
		return;
	if (!sysfs_list_dir(dir, &names, &nr)) {
		for (size_t i = 0; i < nr && used + 1 < len; i++)
			used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
		sysfs_free_names(names, nr);
	}
	free(dir);
}

/* dev=IFNAME: the bdf of the netdev's PCI function. */
static int apply_dev(struct term_state *st, const char *ifname)
{
	const struct pmu_format_field *bdf = pmu_find_format(st->pmu, "bdf");
	unsigned int domain, function;
	char present[512];
	int err;

	if (!ifname)
		return why_reject(&st->out, "dev needs a network device name, e.g. dev=eth0");
	if (!bdf)
		return why_reject(&st->out, "dev=%s: %s has no bdf field to put the device's PCI function in",
				  ifname, st->pmu->name);
	err = netdev_pci_function(st->ctx->sysfs_root, ifname, &domain, &function);
	if (err == -ENOMEM)
		return err;
	if (err == -ENODEV) {
		list_netdevs(st->ctx->sysfs_root, present, sizeof(present));
		return why_reject(&st->out, "dev=%s: no network device '%s' in this network namespace "
				  "(present: %s)", ifname, ifname, *present ? present : "none");
	}
	if (err)
		return why_reject(&st->out, "dev=%s: %s is not on a PCI function (use a PCI NIC's netdev)",
				  ifname, ifname);
	if (domain != pmu_dir_pci_domain(st->pmu->dir))
		return why_reject(&st->out, "dev=%s: %s is in PCI domain %04x, %s sees domain %04x only",
				  ifname, ifname, domain, st->pmu->name, pmu_dir_pci_domain(st->pmu->dir));
	free(st->ev->dev);
	st->ev->dev = strdup(ifname);
	if (!st->ev->dev)
		return -ENOMEM;
	return or_field(st, bdf, "dev", ifname, function, true);
}

static int apply_term(struct term_state *st, const struct event_term *t,
		      const struct pmu_event *metric_counter, bool user);

/* An event name: its own terms (config=0x2, usually) apply, not as the user's. */
static int apply_named_event(struct term_state *st, const struct pmu_event *named)
{
	if (st->named && st->named != named)
		return why_reject(&st->out, "names two events, '%s' and '%s': write one event per PMU/.../",
				  st->named->name, named->name);
	st->named = named;
	for (size_t i = 0; i < named->nr_terms; i++) {
		struct event_term t = { named->terms[i].name, named->terms[i].value };
		int err = apply_term(st, &t, NULL, false);

		if (err)
			return err;
	}
	return 0;
}

static int apply_term(struct term_state *st, const struct event_term *t,
		      const struct pmu_event *metric_counter, bool user)
{
	const struct pmu_format_field *field;
	const struct pmu_event *named;
	uint64_t number;
	int word, err;

	if (!*t->name)
		return why_reject(&st->out, "empty term (write TERM=VALUE or an event name)");
	if (t->value && !*t->value)
		return why_reject(&st->out, "%s= has no value", t->name);

	word = raw_config_word(t->name);
	if (word >= 0) {
		if (!t->value) {
			number = 1;
		} else {
			err = parse_perf_number(t->value, &number);
			if (err)
				return why_reject(&st->out, "%s=%s: %s", t->name, t->value,
						  err == -ERANGE ? "above 64 bits" :
						  "not a number (decimal, or hex with 0x)");
		}
		st->raw[word] = number;
		if (!user) {
			st->named_bits[word] |= number;
		} else if (st->user_raw_set[word]) {
			return why_reject(&st->out, "%s given twice: give it once", t->name);
		} else {
			st->user_raw[word] = number;
			st->user_raw_set[word] = true;
		}
		return 0;
	}
	if (user && !strcmp(t->name, "name")) {
		if (!t->value)
			return why_reject(&st->out, "name needs a value, e.g. name=rx_bytes");
		if (st->name_set)
			return why_reject(&st->out, "name given twice: give it once");
		st->name_set = true;
		free(st->ev->text);
		st->ev->text = strdup(t->value);
		return st->ev->text ? 0 : -ENOMEM;
	}
	field = find_format(st->pmu, t->name);
	if (field) {
		err = parse_field_value(st, field, t->name, t->value, &number);
		return err ? err : or_field(st, field, t->name, t->value, number, user);
	}
	if (user && !strcmp(t->name, "dev"))
		return apply_dev(st, t->value);

	if (!user)
		return why_reject(&st->out, "events/ file of %s has an unknown term '%s'", st->pmu->name, t->name);
	named = pmu_find_event(st->pmu, t->name);
	if (!named && metric_counter && st->ctx->metrics &&
	    metric_find(st->ctx->metrics, st->pmu, t->name))
		named = metric_counter;
	if (!named && t->value && st->ctx->metrics && metric_find(st->ctx->metrics, st->pmu, t->name))
		return why_reject(&st->out, "%s=%s: a metric name takes no value", t->name, t->value);
	if (named) {
		if (!event_term_is_name(t))
			return why_reject(&st->out, "%s=%s: an event name takes no value", t->name, t->value);
		if (st->named == named)
			return why_reject(&st->out, "%s given twice: give it once", t->name);
		return apply_named_event(st, named);
	}
	if (t->value)
		return unknown_term(st, t->name);
	return unknown_event(st, t->name);
}

/*
 * An event name fixes the event bits (config 0-16); a term of the user's
 * that sets them otherwise would count another event than the one named.
 */
static int check_named_event(struct term_state *st)
{
	uint64_t named = st->named_bits[0] & EVENT_ID_MASK;
	uint64_t user = (st->raw[0] | st->ored[0]) & EVENT_ID_MASK;

	if (st->user_raw_set[0] && (st->user_raw[0] & EVENT_ID_MASK) != named)
		user = st->user_raw[0] & EVENT_ID_MASK;
	if (user == named)
		return 0;
	return why_reject(&st->out, "the terms change the event %s names (config 0x%llx) into config 0x%llx: "
			  "drop the event name or the terms that set config bits 0-16", st->named->name,
			  (unsigned long long)named, (unsigned long long)user);
}

int event_terms_apply(const struct event_parse_ctx *ctx, const struct pmu *pmu,
		      const char *text, const struct event_term *terms, size_t nr_terms,
		      const struct pmu_event *metric_counter, struct parsed_event *ev,
		      char *why, size_t why_len)
{
	struct term_state st = {
		.ctx = ctx, .pmu = pmu, .text = text, .ev = ev, .out = { why, why_len, text },
	};

	if (!nr_terms)
		return why_reject(&st.out, "no event: name an event or a metric ('netpmu list --events %s' "
				  "shows them)", pmu->name);
	st.terms = terms;
	for (st.cur = 0; st.cur < nr_terms; st.cur++) {
		int err = apply_term(&st, &terms[st.cur], metric_counter, true);

		if (err)
			return err;
	}
	if (st.named) {
		int err = check_named_event(&st);

		if (err)
			return err;
	}
	/* A raw config word gives the fields its set bits fall in. */
	for (unsigned int w = 0; w < PMU_CONFIG_WORDS; w++) {
		ev->spec.config[w] = st.raw[w] | st.ored[w];
		ev->given[w] |= st.user_raw[w];
	}
	ev->spec.type = pmu->type;
	ev->spec.cpu = pmu->cpu;
	ev->pmu = pmu;
	ev->event = pmu_event_by_config(pmu, ev->spec.config[0]);
	return 0;
}
