// SPDX-License-Identifier: GPL-2.0
/* trace --where: which comparisons the napi_poll program tests before the ring buffer. */
#include <string.h>

#include "trace/poll_filter.h"
#include "trace/predicate.h"

static const struct {
	const char *name;
	enum netpmu_poll_field field;
} poll_fields[] = {
	{ "cpu", NETPMU_POLL_CPU }, { "ifindex", NETPMU_POLL_IFINDEX }, { "napi_id", NETPMU_POLL_NAPI_ID },
	{ "irq", NETPMU_POLL_IRQ }, { "work", NETPMU_POLL_WORK }, { "budget", NETPMU_POLL_BUDGET },
};

struct planning {
	struct poll_filter_plan *plan;
	bool per_poll;
	bool kernel_allowed;
};

/* A poll's own field (NETPMU_POLL_CONST if REF is none), or -1. */
static int poll_field_of(const struct record_ref *ref)
{
	size_t i;

	if (ref->kind != REF_FIELD)
		return -1;
	for (i = 0; i < sizeof(poll_fields) / sizeof(poll_fields[0]); i++)
		if (!strcmp(ref->name, poll_fields[i].name))
			return poll_fields[i].field;
	return -1;
}

static enum netpmu_filter_op filter_op(enum query_token_type cmp, bool mirrored)
{
	switch (cmp) {
	case TOK_EQ: return NETPMU_OP_EQ;
	case TOK_NE: return NETPMU_OP_NE;
	case TOK_LT: return mirrored ? NETPMU_OP_GT : NETPMU_OP_LT;
	case TOK_LE: return mirrored ? NETPMU_OP_GE : NETPMU_OP_LE;
	case TOK_GT: return mirrored ? NETPMU_OP_LT : NETPMU_OP_GT;
	default: return mirrored ? NETPMU_OP_LE : NETPMU_OP_GE;
	}
}

/* Fills F from PART; NULL, or why it stays in user space. */
static const char *filter_of(const struct predicate_part *part, struct netpmu_poll_filter *f)
{
	int left, right;

	if (!part->comparison)
		return "user space: an '||' or a '!' is tested whole";
	memset(f, 0, sizeof(*f));
	if (part->dev) {
		f->left = NETPMU_POLL_DEV;
		f->op = part->cmp == TOK_EQ ? NETPMU_OP_EQ : NETPMU_OP_NE;
		strncpy(f->dev, part->dev, sizeof(f->dev) - 1);
		return NULL;
	}
	left = part->left ? poll_field_of(part->left) : NETPMU_POLL_CONST;
	right = part->right ? poll_field_of(part->right) : NETPMU_POLL_CONST;
	if (left < 0 || right < 0)
		return "user space: a counter, a core event or a field a poll lacks";
	if (left == NETPMU_POLL_CONST && right == NETPMU_POLL_CONST)
		return "user space: no field";
	/* The field on the left: 5 < work is work > 5. */
	if (left == NETPMU_POLL_CONST) {
		f->left = right;
		f->op = filter_op(part->cmp, true);
		f->right = NETPMU_POLL_CONST;
		f->value = part->left_number;
		return NULL;
	}
	f->left = left;
	f->op = filter_op(part->cmp, false);
	f->right = right;
	f->value = part->right_number;
	return NULL;
}

static void plan_part(void *ctx, const struct predicate_part *part)
{
	struct planning *pl = ctx;
	struct poll_filter_plan *plan = pl->plan;
	struct netpmu_poll_filter f;
	const char *where;

	if (!pl->per_poll)
		where = "user space: the kernel filters per-poll records only (--per-poll)";
	else if (!pl->kernel_allowed)
		where = "user space: --no-kernel-filter";
	else if (!(where = filter_of(part, &f)) && plan->nr_filters == NETPMU_MAX_POLL_FILTERS)
		where = "user space: the kernel takes 8 comparisons";
	if (!where) {
		plan->filters[plan->nr_filters++] = f;
		where = "kernel";
	}
	if (plan->nr_parts == POLL_FILTER_MAX_PARTS) {
		plan->nr_more_parts++;
		return;
	}
	snprintf(plan->parts[plan->nr_parts].text, sizeof(plan->parts[0].text), "%s", part->text);
	plan->parts[plan->nr_parts++].where = where;
}

void poll_filter_plan(const struct predicate *p, bool per_poll, bool kernel_allowed,
		      struct poll_filter_plan *plan)
{
	struct planning pl = { .plan = plan, .per_poll = per_poll, .kernel_allowed = kernel_allowed };

	memset(plan, 0, sizeof(*plan));
	if (p)
		predicate_parts(p, plan_part, &pl);
}

void poll_filter_explain(FILE *out, const char *where, const struct poll_filter_plan *plan)
{
	unsigned int i;

	if (!where) {
		fprintf(out, "no --where: every record is kept\n");
		return;
	}
	fprintf(out, "--where %s\n", where);
	for (i = 0; i < plan->nr_parts; i++) {
		if (!strcmp(plan->parts[i].where, "kernel"))
			fprintf(out, "  %-40s in the kernel, before the ring buffer (a poll failing it is not emitted)\n",
				plan->parts[i].text);
		else
			fprintf(out, "  %-40s in %s\n", plan->parts[i].text, plan->parts[i].where);
	}
	if (plan->nr_more_parts)
		fprintf(out, "  and %u more parts in user space\n", plan->nr_more_parts);
	fprintf(out, "%u of %u parts in the kernel; every record is then tested against the whole expression in "
		"user space\n", plan->nr_filters, plan->nr_parts + plan->nr_more_parts);
}
