// SPDX-License-Identifier: GPL-2.0
/* The PCIe PMU driver's filter rules, and what it would do silently. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "event/event_terms.h"
#include "lib/why_line.h"
#include "pmu/metric.h"
#include "sys/pci_sysfs.h"
#include "event/pcie_filter.h"

#define LEN_MAX 10		/* thr_len and trig_len: 2^N DW, N <= 10 */
#define LEN_MODE_DEFAULT 3	/* header and payload */

#define CTRL_TARGET_EN (1ULL << 32)
#define CTRL_LEN_MODE_SHIFT 34
#define CTRL_TARGET_SHIFT 36
#define CTRL_TRIG_EN (1ULL << 52)
#define CTRL_TRIG_MODE_SHIFT 53
#define CTRL_TRIG_LEN_SHIFT 56
#define CTRL_THR_EN (1ULL << 26)
#define CTRL_THR_MODE_SHIFT 27
#define CTRL_THR_LEN_SHIFT 28

struct pcie_fields {
	uint64_t thr_len, thr_mode, trig_len, trig_mode, len_mode, port, bdf;
	bool given_thr_len, given_thr_mode, given_trig_len, given_trig_mode, given_len_mode;
	bool given_port, given_bdf;
};

struct pcie_check {
	const struct parsed_event *ev;
	const struct pmu *pmu;
	const char *sysfs_root;
	unsigned int domain;
	struct pcie_fields f;
	struct why_sink out;
};

static void read_fields(const struct parsed_event *ev, struct pcie_fields *f)
{
	event_field_read(ev, "thr_len", &f->thr_len, &f->given_thr_len);
	event_field_read(ev, "thr_mode", &f->thr_mode, &f->given_thr_mode);
	event_field_read(ev, "trig_len", &f->trig_len, &f->given_trig_len);
	event_field_read(ev, "trig_mode", &f->trig_mode, &f->given_trig_mode);
	event_field_read(ev, "len_mode", &f->len_mode, &f->given_len_mode);
	event_field_read(ev, "port", &f->port, &f->given_port);
	event_field_read(ev, "bdf", &f->bdf, &f->given_bdf);
}

uint64_t pcie_event_ctrl(const struct parsed_event *ev)
{
	uint64_t ctrl = ev->spec.config[0] & PAIR_EVENT_MASK;
	struct pcie_fields f;

	read_fields(ev, &f);
	if (f.port)
		ctrl |= f.port << CTRL_TARGET_SHIFT;
	else
		ctrl |= CTRL_TARGET_EN | f.bdf << CTRL_TARGET_SHIFT;
	if (f.trig_len)
		ctrl |= f.trig_len << CTRL_TRIG_LEN_SHIFT | f.trig_mode << CTRL_TRIG_MODE_SHIFT |
			CTRL_TRIG_EN;
	if (f.thr_len)
		ctrl |= f.thr_len << CTRL_THR_LEN_SHIFT | f.thr_mode << CTRL_THR_MODE_SHIFT |
			CTRL_THR_EN;
	ctrl |= (f.len_mode ?: LEN_MODE_DEFAULT) << CTRL_LEN_MODE_SHIFT;
	return ctrl;
}

/* Latency events (xxx_latency/xxx_cnt) by their name; unpublished codes are not. */
static bool is_latency_event(const struct parsed_event *ev)
{
	const char *name = ev->event ? ev->event->name : "";
	size_t len = strlen(name);

	return (len > 8 && !strcmp(name + len - 8, "_latency")) ||
	       (len > 4 && !strcmp(name + len - 4, "_cnt"));
}

/* "0,8" or "0-15": the set bits of the Root Port bitmap. */
static void port_bits(uint64_t port, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned int bit = 0; bit < 16 && used + 1 < len; bit++) {
		unsigned int last = bit;

		if (!(port & (1ULL << bit)))
			continue;
		while (last + 1 < 16 && (port & (1ULL << (last + 1))))
			last++;
		if (last > bit)
			used += snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", bit, last);
		else
			used += snprintf(buf + used, len - used, "%s%u", used ? "," : "", bit);
		bit = last;
	}
}

/* The driver's requester check: the device exists and its Root Port is one of the PMU's. */
static int check_requester(struct pcie_check *c, unsigned int *root_port)
{
	char dev[PCI_DEVICE_TEXT_LEN], rp[PCI_ADDR_TEXT_LEN];
	char min[PCI_BDF_TEXT_LEN] = "?", max[PCI_BDF_TEXT_LEN] = "?";
	int err;

	describe_pci_function(c->sysfs_root, c->domain, c->f.bdf, dev, sizeof(dev));
	if (!pci_sysfs_present(c->sysfs_root)) {
		*root_port = ~0u;	/* cannot be checked here: the driver will */
		return 0;
	}
	err = pci_root_port_of(c->sysfs_root, c->domain, c->f.bdf, root_port);
	if (err == -ENODEV)
		return why_reject(&c->out, "bdf: there is no PCI device %s: the driver refuses it (EINVAL)", dev);
	if (err)
		return why_reject(&c->out, "bdf: %s has no PCIe Root Port above it: the driver refuses it (EINVAL)",
				  dev);
	if (c->pmu->bdf_min >= 0 && c->pmu->bdf_max >= 0 &&
	    (*root_port < (unsigned int)c->pmu->bdf_min || *root_port > (unsigned int)c->pmu->bdf_max)) {
		format_pci_address(c->domain, *root_port, rp);
		format_pci_bdf(c->pmu->bdf_min, min);
		format_pci_bdf(c->pmu->bdf_max, max);
		return why_reject(&c->out, "bdf: the Root Port of %s is %s, not one of %s's Root Ports (%s-%s): "
				  "the driver refuses it (EINVAL)", dev, rp, c->pmu->name, min, max);
	}
	return 0;
}

static int check_lengths(struct pcie_check *c)
{
	const struct pcie_fields *f = &c->f;

	if (f->thr_len > LEN_MAX)
		return why_reject(&c->out, "thr_len=%llu: at most %d (2^N DW); the driver refuses it (EINVAL)",
				  (unsigned long long)f->thr_len, LEN_MAX);
	if (f->trig_len > LEN_MAX)
		return why_reject(&c->out, "trig_len=%llu: at most %d (2^N DW); the driver refuses it (EINVAL)",
				  (unsigned long long)f->trig_len, LEN_MAX);
	if (f->thr_mode && !f->thr_len)
		return why_reject(&c->out, "thr_mode=%llu without thr_len: the driver ignores it; add thr_len=N "
				  "(2^N DW, 1-%d)", (unsigned long long)f->thr_mode, LEN_MAX);
	if (f->trig_mode && !f->trig_len)
		return why_reject(&c->out, "trig_mode=%llu without trig_len: the driver ignores it; add trig_len=N "
				  "(2^N DW, 1-%d)", (unsigned long long)f->trig_mode, LEN_MAX);
	if (f->thr_mode > 1 || f->trig_mode > 1)
		return why_reject(&c->out, "%s=%llu: valid: 0 (at least / longer than) or 1 (shorter than)",
				  f->thr_mode > 1 ? "thr_mode" : "trig_mode",
				  (unsigned long long)(f->thr_mode > 1 ? f->thr_mode : f->trig_mode));
	if (f->given_len_mode && !f->len_mode)
		return why_reject(&c->out, "len_mode=0 is reserved: the driver counts len_mode 3 (header and "
				  "payload) instead; valid: 1 (payload), 2 (header), 3 (both)");
	if (f->len_mode > LEN_MODE_DEFAULT)
		return why_reject(&c->out, "len_mode=%llu: valid: 1 (payload), 2 (header), 3 (both)",
				  (unsigned long long)f->len_mode);
	return 0;
}

/*
 * The rules below read each filter field apart: a PMU whose format files
 * let two of them share bits (len_mode "config2:0-63" over bdf) is not the
 * hisi_pcie_pmu layout they describe, and its values would mean nothing.
 */
static int check_layout(struct pcie_check *c)
{
	static const char *const names[] = {
		"thr_len", "thr_mode", "trig_len", "trig_mode", "len_mode", "port", "bdf",
	};
	const size_t nr = sizeof(names) / sizeof(names[0]);

	for (size_t i = 0; i < nr; i++) {
		const struct pmu_format_field *a = pmu_find_format(c->pmu, names[i]);

		for (size_t j = i + 1; a && j < nr; j++) {
			const struct pmu_format_field *b = pmu_find_format(c->pmu, names[j]);

			if (b && a->word == b->word && (a->mask & b->mask))
				return why_reject(&c->out, "format/%s (%s) and format/%s (%s) of %s share bits: "
						  "not the hisi_pcie_pmu layout, whose filter fields are "
						  "apart", a->name, a->spec, b->name, b->spec, c->pmu->name);
		}
	}
	return 0;
}

static void describe_condition(const struct pcie_fields *f, char *buf, size_t len)
{
	static const char *const len_modes[] = { "", "payload only", "headers only",
						 "headers and payload" };
	size_t used = 0;

	used += snprintf(buf, len, "TLP bytes counted: %s",
			 len_modes[f->len_mode ? f->len_mode : LEN_MODE_DEFAULT]);
	if (f->trig_len && used < len)
		used += snprintf(buf + used, len - used, "; counting starts at the first TLP %s "
				 "2^%llu DW", f->trig_mode ? "shorter than" : "longer than",
				 (unsigned long long)f->trig_len);
	if (f->thr_len && used < len)
		snprintf(buf + used, len - used, "; only TLPs %s 2^%llu DW",
			 f->thr_mode ? "shorter than" : "of at least", (unsigned long long)f->thr_len);
}

int pcie_filter_check(const struct parsed_event *ev, const char *sysfs_root,
		      struct filter_choice *choice, char *why, size_t why_len)
{
	struct pcie_check c = {
		.ev = ev, .pmu = ev->pmu, .sysfs_root = sysfs_root, .out = { why, why_len, ev->written },
	};
	const struct pcie_fields *f = &c.f;
	uint64_t config = ev->spec.config[0];
	char dev[PCI_DEVICE_TEXT_LEN], rp[PCI_ADDR_TEXT_LEN], bits[64];
	unsigned int root_port;
	bool by_port;
	int err;

	if (config >> 17)
		return why_reject(&c.out, "config=0x%llx: the driver ignores config bits above 16 (it would "
				  "count config=0x%llx): drop them", (unsigned long long)config,
				  (unsigned long long)(config & 0x1ffff));
	c.domain = pmu_dir_pci_domain(c.pmu->dir);
	err = check_layout(&c);
	if (err)
		return err;
	read_fields(ev, &c.f);
	err = check_lengths(&c);
	if (err)
		return err;
	by_port = f->port != 0;
	if (by_port && f->given_bdf)
		return why_reject(&c.out, "port and bdf given: the driver counts the port bitmap and ignores "
				  "the bdf; keep port=BITMAP (Root Ports) or bdf=BB:DD.F (one endpoint)");
	if (!by_port && !f->given_bdf)
		return why_reject(&c.out, "no target: the driver would count requester 0000:00:00.0 only "
				  "(bdf 0); give port=BITMAP (bit i = Root Port i) or bdf=BB:DD.F "
				  "(one endpoint)");
	if (is_latency_event(ev) && (!by_port || f->thr_len || f->trig_len || f->given_len_mode))
		return why_reject(&c.out, "%s is a latency event: the documentation defines the bdf, trig_len, "
				  "thr_len and len_mode filters for bandwidth (flux/time) events only; "
				  "use port=BITMAP", ev->event->name);
	if (!by_port) {
		err = check_requester(&c, &root_port);
		if (err)
			return err;
	}

	snprintf(choice->mode, sizeof(choice->mode), "%s", by_port ? "port" : "bdf");
	snprintf(choice->rule, sizeof(choice->rule), "%s", by_port ?
		 "port is not 0: the driver targets the Root Port bitmap (bdf ignored)" :
		 "port is 0: the driver targets one requester (TARGET_EN with the bdf)");
	if (by_port) {
		port_bits(f->port, bits, sizeof(bits));
		snprintf(choice->target, sizeof(choice->target),
			 "traffic below the Root Ports with port bits %s (port=0x%llx)", bits,
			 (unsigned long long)f->port);
	} else {
		describe_pci_function(c.sysfs_root, c.domain, f->bdf, dev, sizeof(dev));
		if (root_port != ~0u) {
			format_pci_address(c.domain, root_port, rp);
			snprintf(choice->target, sizeof(choice->target),
				 "traffic of requester %s below Root Port %s", dev, rp);
		} else {
			snprintf(choice->target, sizeof(choice->target), "traffic of requester %s", dev);
		}
	}
	if (is_latency_event(ev))
		choice->condition[0] = '\0';
	else
		describe_condition(f, choice->condition, sizeof(choice->condition));
	snprintf(choice->registers, sizeof(choice->registers), "EVENT_CTRL 0x%016llx (then EVENT_EN)",
		 (unsigned long long)pcie_event_ctrl(ev));
	if (!ev->event)
		snprintf(choice->mode + strlen(choice->mode), sizeof(choice->mode) - strlen(choice->mode),
			 ", unpublished event");
	return 0;
}
