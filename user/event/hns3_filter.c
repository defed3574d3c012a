// SPDX-License-Identifier: GPL-2.0
/* The HNS3 PMU driver's filter-mode selection, and what it would do silently. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event/event_terms.h"
#include "lib/why_line.h"
#include "event/hns3_filter.h"
#include "sys/pci_sysfs.h"
#include "sys/sysfs_read.h"

#define ALL_QUEUES 0xffff
#define ALL_TCS 0xf
#define NR_TCS 8
#define NR_PORT_BITS 8		/* PORT mode writes (1 << port) & 0xff */
#define CTRL_LOW_OVERFLOW_RESTART (1u << 15)
#define CTRL_LOW_EVENT_EN (1u << 12)
#define CTRL_LOW_MODE_SHIFT 24
/* Listing the functions of a BDF range stops here: a range is a few functions. */
#define MAX_FUNCTIONS_LISTED 8

struct hns3_fields {
	uint64_t global, port, tc, bdf, queue, intr;
	bool given_global, given_port, given_tc, given_bdf, given_queue, given_intr;
};

struct hns3_check {
	const struct parsed_event *ev;
	const struct pmu *pmu;
	const char *sysfs_root;
	const struct pmu_event *event;
	unsigned int modes;		/* HNS3_FILTER_BIT() mask the event supports */
	unsigned int domain;		/* PCI domain of the PMU */
	struct hns3_fields f;
	struct why_sink out;
};

static bool supports(const struct hns3_check *c, enum hns3_filter_mode mode)
{
	return c->modes & HNS3_FILTER_BIT(mode);
}

static void mode_list(unsigned int modes, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (enum hns3_filter_mode m = 0; m < HNS3_FILTER_NR_MODES && used + 1 < len; m++) {
		if (modes & HNS3_FILTER_BIT(m))
			used += snprintf(buf + used, len - used, "%s%s", used ? " " : "",
					 hns3_filter_mode_name(m));
	}
}

static void read_fields(struct hns3_check *c)
{
	struct hns3_fields *f = &c->f;

	event_field_read(c->ev, "global", &f->global, &f->given_global);
	event_field_read(c->ev, "port", &f->port, &f->given_port);
	event_field_read(c->ev, "tc", &f->tc, &f->given_tc);
	event_field_read(c->ev, "bdf", &f->bdf, &f->given_bdf);
	event_field_read(c->ev, "queue", &f->queue, &f->given_queue);
	event_field_read(c->ev, "intr", &f->intr, &f->given_intr);
	/* global=0 asks for nothing: it only says "not global". */
	f->given_global = f->given_global && f->global;
}

/* The functions present in the PMU's BDF range, for an error line. */
static void list_functions(const struct hns3_check *c, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int listed = 0;

	buf[0] = '\0';
	for (int bdf = c->pmu->bdf_min; bdf >= 0 && bdf <= c->pmu->bdf_max && used + 1 < len; bdf++) {
		char one[PCI_DEVICE_TEXT_LEN];

		if (!pci_function_exists(c->sysfs_root, c->domain, bdf))
			continue;
		if (listed++ == MAX_FUNCTIONS_LISTED) {
			snprintf(buf + used, len - used, ", ...");
			break;
		}
		describe_pci_function(c->sysfs_root, c->domain, bdf, one, sizeof(one));
		used += snprintf(buf + used, len - used, "%s%s", used ? ", " : "", one);
	}
}

/* The driver's bdf check: in [bdf_min, bdf_max] and a PCI function there. */
static bool bdf_problem(const struct hns3_check *c, char *buf, size_t len)
{
	char addr[PCI_ADDR_TEXT_LEN], min[PCI_BDF_TEXT_LEN], max[PCI_BDF_TEXT_LEN];
	char present[512];

	format_pci_address(c->domain, c->f.bdf, addr);
	if (c->pmu->bdf_min >= 0 && c->pmu->bdf_max >= 0 &&
	    (c->f.bdf < (uint64_t)c->pmu->bdf_min || c->f.bdf > (uint64_t)c->pmu->bdf_max)) {
		format_pci_bdf(c->pmu->bdf_min, min);
		format_pci_bdf(c->pmu->bdf_max, max);
		snprintf(buf, len, "%s is outside the functions %s counts (bdf_min %s, bdf_max %s)",
			 addr, c->pmu->name, min, max);
		return true;
	}
	if (pci_sysfs_present(c->sysfs_root) &&
	    !pci_function_exists(c->sysfs_root, c->domain, c->f.bdf)) {
		list_functions(c, present, sizeof(present));
		snprintf(buf, len, "there is no PCI function %s (functions of %s: %s)", addr,
			 c->pmu->name, *present ? present : "none present");
		return true;
	}
	return false;
}

/*
 * The driver's choice (first match wins): the mode, or -1
 * when event_init fails with ENOENT. *RULE is the rule that decided (1-7).
 */
static int driver_mode(const struct hns3_check *c, int *rule)
{
	const struct hns3_fields *f = &c->f;
	char ignored[256];
	bool bdf_ok = f->bdf && !bdf_problem(c, ignored, sizeof(ignored));

	if (supports(c, HNS3_FILTER_GLOBAL) && f->global) {
		*rule = 1;
		return HNS3_FILTER_GLOBAL;
	}
	if (supports(c, HNS3_FILTER_FUNC) && f->queue == ALL_QUEUES && f->bdf) {
		*rule = 2;
		return bdf_ok ? HNS3_FILTER_FUNC : -1;
	}
	if (supports(c, HNS3_FILTER_FUNC_QUEUE) && f->queue != ALL_QUEUES && f->bdf) {
		*rule = 3;
		return bdf_ok ? HNS3_FILTER_FUNC_QUEUE : -1;
	}
	if (supports(c, HNS3_FILTER_PORT) && f->tc == ALL_TCS) {
		*rule = 4;
		return HNS3_FILTER_PORT;
	}
	if (supports(c, HNS3_FILTER_PORT_TC) && f->tc != ALL_TCS) {
		*rule = 5;
		return HNS3_FILTER_PORT_TC;
	}
	if (supports(c, HNS3_FILTER_FUNC_INTR) && bdf_ok) {
		*rule = 6;
		return HNS3_FILTER_FUNC_INTR;
	}
	*rule = 7;
	return -1;
}

static const char *const rule_texts[] = {
	[1] = "rule 1: global=1 and the event supports global",
	[2] = "rule 2: bdf is set, queue=0xffff and the event supports func",
	[3] = "rule 3: bdf is set, queue is not 0xffff and the event supports func-queue",
	[4] = "rule 4: tc=0xf and the event supports port",
	[5] = "rule 5: tc is not 0xf and the event supports port-tc",
	[6] = "rule 6: the bdf is a valid function and the event supports func-intr",
	[7] = "no rule matches",
};

/* What the driver counts in MODE, e.g. "tc 0 of port 0 (port-tc mode)". */
static void describe_mode(const struct hns3_check *c, int mode, char *buf, size_t len)
{
	const struct hns3_fields *f = &c->f;
	char fn[PCI_DEVICE_TEXT_LEN];

	if (mode == HNS3_FILTER_FUNC || mode == HNS3_FILTER_FUNC_QUEUE ||
	    mode == HNS3_FILTER_FUNC_INTR)
		describe_pci_function(c->sysfs_root, c->domain, f->bdf, fn, sizeof(fn));
	switch (mode) {
	case HNS3_FILTER_GLOBAL:
		snprintf(buf, len, "all HNS3 functions of the IO die in global mode");
		break;
	case HNS3_FILTER_PORT:
		snprintf(buf, len, "all traffic classes of port %llu in port mode",
			 (unsigned long long)f->port);
		break;
	case HNS3_FILTER_PORT_TC:
		snprintf(buf, len, "tc %llu of port %llu in port-tc mode",
			 (unsigned long long)(f->tc & (NR_TCS - 1)), (unsigned long long)f->port);
		break;
	case HNS3_FILTER_FUNC:
		snprintf(buf, len, "PCI function %s in func mode", fn);
		break;
	case HNS3_FILTER_FUNC_QUEUE:
		snprintf(buf, len, "queue %llu of PCI function %s in func-queue mode",
			 (unsigned long long)f->queue, fn);
		break;
	case HNS3_FILTER_FUNC_INTR:
		snprintf(buf, len, "interrupt %llu of PCI function %s in func-intr mode",
			 (unsigned long long)f->intr, fn);
		break;
	default:
		snprintf(buf, len, "nothing: the driver refuses it (ENOENT)");
	}
}

/* "the driver would count tc 0 of port 0 (port-tc mode)" or "... refuses it (ENOENT)". */
static void driver_outcome(const struct hns3_check *c, char *buf, size_t len)
{
	char what[FILTER_TEXT_LEN - 32];
	int rule, mode = driver_mode(c, &rule);

	describe_mode(c, mode, what, sizeof(what));
	if (mode < 0)
		snprintf(buf, len, "the driver would refuse it (ENOENT)");
	else
		snprintf(buf, len, "the driver would count %s", what);
}

/* The filters the event can take, e.g. "global=1 | port=N,tc=0xf | bdf=B,queue=0xffff". */
static void filter_choices(const struct hns3_check *c, char *buf, size_t len)
{
	static const char *const forms[HNS3_FILTER_NR_MODES] = {
		[HNS3_FILTER_GLOBAL] = "global=1",
		[HNS3_FILTER_PORT] = "port=N,tc=0xf",
		[HNS3_FILTER_PORT_TC] = "port=N,tc=0-7",
		[HNS3_FILTER_FUNC] = "bdf=BB:DD.F,queue=0xffff",
		[HNS3_FILTER_FUNC_QUEUE] = "bdf=BB:DD.F,queue=Q",
		[HNS3_FILTER_FUNC_INTR] = "bdf=BB:DD.F,intr=I",
	};
	size_t used = 0;

	buf[0] = '\0';
	for (enum hns3_filter_mode m = 0; m < HNS3_FILTER_NR_MODES && used + 1 < len; m++) {
		if (supports(c, m))
			used += snprintf(buf + used, len - used, "%s%s", used ? " | " : "", forms[m]);
	}
}

/* Given terms that ask for different modes: global vs port/tc vs bdf/queue/intr. */
static int check_conflicts(struct hns3_check *c)
{
	const struct hns3_fields *f = &c->f;
	bool port_side = f->given_port || f->given_tc;
	bool func_side = f->given_bdf || f->given_queue || f->given_intr;

	if (f->given_global && (port_side || func_side))
		return why_reject(&c->out, "global=1 counts everything, so the driver ignores %s: keep global=1 "
				  "or the other filter", port_side ? "port/tc" : "bdf/queue/intr");
	if (port_side && func_side)
		return why_reject(&c->out, "port/tc (port modes) and bdf/queue/intr (function modes) select "
				  "different filter modes: keep one side");
	if (f->given_queue && f->given_intr)
		return why_reject(&c->out, "queue (func-queue mode) and intr (func-intr mode) select different "
				  "filter modes: keep one");
	return 0;
}

/* The mode the user's terms ask for, or a refusal when they do not say. */
static int intended_mode(struct hns3_check *c, int *mode)
{
	const struct hns3_fields *f = &c->f;
	char outcome[FILTER_TEXT_LEN], choices[FILTER_TEXT_LEN];

	driver_outcome(c, outcome, sizeof(outcome));
	filter_choices(c, choices, sizeof(choices));
	if (f->given_global) {
		*mode = HNS3_FILTER_GLOBAL;
	} else if (f->given_bdf || f->given_queue || f->given_intr) {
		if (!f->given_bdf)
			return why_reject(&c->out, "%s= needs bdf=BB:DD.F or dev=IFNAME: the function whose %s it is",
					  f->given_queue ? "queue" : "intr",
					  f->given_queue ? "queue" : "interrupt");
		if (!f->bdf)
			return why_reject(&c->out, "bdf=0 names no function: the driver takes bdf 0 as \"no function\" "
					  "(%s)", outcome);
		if (f->given_intr)
			*mode = HNS3_FILTER_FUNC_INTR;
		else if (f->given_queue)
			*mode = f->queue == ALL_QUEUES ? HNS3_FILTER_FUNC : HNS3_FILTER_FUNC_QUEUE;
		else
			return why_reject(&c->out, "bdf without queue: %s; add queue=0xffff for the whole function "
					  "(func mode)%s", outcome,
					  supports(c, HNS3_FILTER_FUNC_QUEUE) ?
					  " or queue=Q for one queue (func-queue mode)" : "");
	} else if (f->given_port || f->given_tc) {
		if (!f->given_tc)
			return why_reject(&c->out, "port without tc: %s; add tc=0xf for the whole port (port mode)%s",
					  outcome, supports(c, HNS3_FILTER_PORT_TC) ?
					  " or tc=T for one traffic class (port-tc mode)" : "");
		*mode = f->tc == ALL_TCS ? HNS3_FILTER_PORT : HNS3_FILTER_PORT_TC;
	} else {
		return why_reject(&c->out, "no filter given: %s; choose one of %s's filters: %s", outcome,
				  c->event->name, choices);
	}
	return 0;
}

static int check_values(struct hns3_check *c, int mode)
{
	const struct hns3_fields *f = &c->f;
	char problem[768], fn[PCI_DEVICE_TEXT_LEN], ifname[NETDEV_NAME_LEN], *path;
	unsigned int nr_rx, nr_tx, nr_queues;
	int nr_vectors = -1;

	if (mode == HNS3_FILTER_PORT && f->port >= NR_PORT_BITS)
		return why_reject(&c->out, "port=%llu: the driver writes 1 << port into an 8-bit field, so "
				  "ports above 7 count nothing (ports 0-7)", (unsigned long long)f->port);
	if (mode == HNS3_FILTER_PORT_TC && f->tc >= NR_TCS)
		return why_reject(&c->out, "tc=%llu: traffic classes are 0-7 and the driver keeps tc & 7, so it "
				  "would count tc %llu (tc=0xf is the whole port, port mode)",
				  (unsigned long long)f->tc, (unsigned long long)(f->tc & (NR_TCS - 1)));
	if (mode != HNS3_FILTER_FUNC && mode != HNS3_FILTER_FUNC_QUEUE &&
	    mode != HNS3_FILTER_FUNC_INTR)
		return 0;
	if (bdf_problem(c, problem, sizeof(problem)))
		return why_reject(&c->out, "bdf: %s: the driver refuses it (ENOENT)", problem);
	describe_pci_function(c->sysfs_root, c->domain, f->bdf, fn, sizeof(fn));
	if (mode == HNS3_FILTER_FUNC_QUEUE &&
	    !pci_function_netdev(c->sysfs_root, c->domain, f->bdf, ifname, sizeof(ifname)) &&
	    !netdev_queue_count(c->sysfs_root, ifname, &nr_rx, &nr_tx)) {
		nr_queues = nr_rx > nr_tx ? nr_rx : nr_tx;
		if (f->queue >= nr_queues)
			return why_reject(&c->out, "queue %llu: %s has queues 0-%u (the driver's queue probe "
					  "would refuse it: ENOENT)", (unsigned long long)f->queue, fn,
					  nr_queues - 1);
	}
	if (mode == HNS3_FILTER_FUNC_INTR) {
		char addr[PCI_ADDR_TEXT_LEN];
		char **names;
		size_t nr;

		format_pci_address(c->domain, f->bdf, addr);
		if (asprintf(&path, "%s/bus/pci/devices/%s/msi_irqs",
			     c->sysfs_root ? c->sysfs_root : "/sys", addr) < 0)
			return -ENOMEM;
		if (!sysfs_list_dir(path, &names, &nr)) {
			nr_vectors = nr;
			sysfs_free_names(names, nr);
		}
		free(path);
		if (nr_vectors > 0 && f->intr >= (uint64_t)nr_vectors)
			return why_reject(&c->out, "intr %llu: %s has %d MSI-X vectors (0-%d)",
					  (unsigned long long)f->intr, fn, nr_vectors, nr_vectors - 1);
	}
	return 0;
}

static void fill_choice(const struct hns3_check *c, int mode, int rule,
			struct filter_choice *choice)
{
	const struct hns3_fields *f = &c->f;
	uint64_t config = c->ev->spec.config[0];
	uint32_t low, high = 0;

	snprintf(choice->mode, sizeof(choice->mode), "%s", hns3_filter_mode_name(mode));
	snprintf(choice->rule, sizeof(choice->rule), "%s", rule_texts[rule]);
	describe_mode(c, mode, choice->target, sizeof(choice->target));
	choice->condition[0] = '\0';
	low = ((config >> 8) & 0xff) | (config & 0xff) << 4 | (uint32_t)mode << CTRL_LOW_MODE_SHIFT |
	      CTRL_LOW_OVERFLOW_RESTART | CTRL_LOW_EVENT_EN;
	switch (mode) {
	case HNS3_FILTER_PORT:
		high = (1u << f->port) & 0xff;
		break;
	case HNS3_FILTER_PORT_TC:
		high = f->port << 3 | (f->tc & (NR_TCS - 1));
		break;
	case HNS3_FILTER_FUNC:
	case HNS3_FILTER_FUNC_QUEUE:
		high = f->bdf & 0xff;
		break;
	case HNS3_FILTER_FUNC_INTR:
		high = f->intr << 8 | (f->bdf & 0xff);
		break;
	}
	if (mode == HNS3_FILTER_FUNC_QUEUE)
		snprintf(choice->registers, sizeof(choice->registers),
			 "EVENT_CTRL_LOW 0x%08x, EVENT_CTRL_HIGH 0x%08x, EVENT_QID_PARA 0x%08x",
			 low, high, (uint32_t)((f->bdf & 0xff) | f->queue << 16));
	else
		snprintf(choice->registers, sizeof(choice->registers),
			 "EVENT_CTRL_LOW 0x%08x, EVENT_CTRL_HIGH 0x%08x", low, high);
}

int hns3_filter_check(const struct parsed_event *ev, const char *sysfs_root,
		      struct filter_choice *choice, char *why, size_t why_len)
{
	struct hns3_check c = {
		.ev = ev, .pmu = ev->pmu, .sysfs_root = sysfs_root, .out = { why, why_len, ev->written },
	};
	uint64_t config = ev->spec.config[0];
	char supported[128], driver[FILTER_TEXT_LEN], wanted[FILTER_TEXT_LEN];
	int mode = -1, kernel_mode, rule, err;

	if (config >> 17)
		return why_reject(&c.out, "config=0x%llx: the driver ignores config bits above 16 (it would "
				  "count config=0x%llx): drop them", (unsigned long long)config,
				  (unsigned long long)(config & 0x1ffff));
	c.event = pmu_event_by_config(c.pmu, config);
	if (!c.event)
		return why_reject(&c.out, "config=0x%llx is not an event of %s: the driver refuses it (ENOENT); "
				  "'netpmu list --events %s' shows its %zu events", (unsigned long long)config,
				  c.pmu->name, c.pmu->name, c.pmu->nr_events);
	/* Without a filtermode file the driver's table is unknown: assume every mode. */
	c.modes = c.event->filter_modes_valid ? c.event->filter_modes
					      : (1u << HNS3_FILTER_NR_MODES) - 1;
	c.domain = pmu_dir_pci_domain(c.pmu->dir);
	read_fields(&c);

	err = check_conflicts(&c);
	if (!err)
		err = intended_mode(&c, &mode);
	if (err)
		return err;
	mode_list(c.modes, supported, sizeof(supported));
	if (!supports(&c, mode))
		return why_reject(&c.out, "%s mode is not supported by %s (supported: %s)",
				  hns3_filter_mode_name(mode), c.event->name, supported);
	err = check_values(&c, mode);
	if (err)
		return err;
	kernel_mode = driver_mode(&c, &rule);
	if (kernel_mode != mode) {
		describe_mode(&c, kernel_mode, driver, sizeof(driver));
		describe_mode(&c, mode, wanted, sizeof(wanted));
		return why_reject(&c.out, "the driver would count %s, not %s (%s comes first for %s)",
				  driver, wanted, rule_texts[rule], c.event->name);
	}
	fill_choice(&c, mode, rule, choice);
	return 0;
}
