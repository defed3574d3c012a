// SPDX-License-Identifier: GPL-2.0
/* The event pairs of the HNS3 and PCIe PMUs and the values derived from them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/metric.h"

/*
 * What each register of a pair counts comes from the upstream ABI (HNS3) and
 * the PCIe PMU documentation: latency counts delay cycles per TLP, flux
 * counts bytes, but neither the clock of those cycles nor the unit of the
 * PCIe time counter is documented.
 */
static const struct metric_kind_info kind_infos[METRIC_NR_KINDS] = {
	[METRIC_HNS3_BANDWIDTH] = {
		.title = "bandwidth", .unit = "bytes/s", .unit_without_clock = "bytes/cycle",
		.formula = "byte_num x hw_clk_freq / time", .formula_without_clock = "byte_num / time",
		.counts = { "bytes", "cycles" }, .suffix = { "_byte_num", "_time" },
		.name_suffix = "",
		.is_rate = true,
	},
	[METRIC_HNS3_PACKET_RATE] = {
		.title = "packet rate", .unit = "packets/s", .unit_without_clock = "packets/cycle",
		.formula = "packet_num x hw_clk_freq / time", .formula_without_clock = "packet_num / time",
		.counts = { "packets", "cycles" }, .suffix = { "_packet_num", "_time" },
		.name_suffix = "",
		.is_rate = true,
	},
	[METRIC_HNS3_LATENCY] = {
		.title = "latency", .unit = "ns", .unit_without_clock = "cycles/packet",
		.formula = "time / packet_num / hw_clk_freq", .formula_without_clock = "time / packet_num",
		.counts = { "cycles", "packets" }, .suffix = { "_time", "_packet_num" },
		.name_suffix = "",
	},
	[METRIC_HNS3_INTERRUPT_RATE] = {
		.title = "interrupt rate", .unit = "interrupts/s", .unit_without_clock = "interrupts/cycle",
		.formula = "intr_num x hw_clk_freq / time", .formula_without_clock = "intr_num / time",
		.counts = { "interrupts", "cycles" }, .suffix = { "_intr_num", "_time" },
		.name_suffix = "",
		.is_rate = true,
	},
	[METRIC_PCIE_LATENCY] = {
		.title = "latency", .unit = "cycles/TLP", .unit_without_clock = "cycles/TLP",
		.formula = "latency / cnt", .formula_without_clock = "latency / cnt",
		.counts = { "delay cycles", "TLPs" }, .suffix = { "_latency", "_cnt" },
		.name_suffix = "_lat",
		.undocumented = "the clock of the delay cycles is not documented: not converted to ns",
	},
	[METRIC_PCIE_BANDWIDTH] = {
		.title = "bandwidth", .unit = "bytes/time-unit", .unit_without_clock = "bytes/time-unit",
		.formula = "flux / time", .formula_without_clock = "flux / time",
		.counts = { "bytes", "time units" }, .suffix = { "_flux", "_time" },
		.name_suffix = "_bw",
		.undocumented = "the unit of the time counter is not documented: not converted to bytes/s",
		.is_rate = true,
	},
};

const struct metric_kind_info *metric_kind_info(enum metric_kind kind)
{
	return &kind_infos[kind < METRIC_NR_KINDS ? kind : 0];
}

const char *metric_formula(const struct metric *m)
{
	const struct metric_kind_info *info = metric_kind_info(m->kind);

	return m->pmu->has_hw_clk_freq ? info->formula : info->formula_without_clock;
}

const char *metric_unit(const struct metric *m)
{
	const struct metric_kind_info *info = metric_kind_info(m->kind);

	return m->pmu->has_hw_clk_freq ? info->unit : info->unit_without_clock;
}

/*
 * The derived value of M from the counts of its two counters over the same
 * period. Returns false when it is undefined (a zero divisor).
 */
static bool metric_value(const struct metric *m, double counter0, double counter1, double *value)
{
	double clock = m->pmu->has_hw_clk_freq ? (double)m->pmu->hw_clk_freq : 0;

	if (counter1 == 0 || (m->pmu->has_hw_clk_freq && clock == 0))
		return false;
	switch (m->kind) {
	case METRIC_HNS3_BANDWIDTH:
	case METRIC_HNS3_PACKET_RATE:
	case METRIC_HNS3_INTERRUPT_RATE:
		*value = clock ? counter0 * clock / counter1 : counter0 / counter1;
		return true;
	case METRIC_HNS3_LATENCY:
		*value = clock ? counter0 / counter1 / clock * 1e9 : counter0 / counter1;
		return true;
	default:
		*value = counter0 / counter1;
		return true;
	}
}

void metric_sum_add(struct metric_sum *sum, const struct metric *m, double counter0,
		    double counter1)
{
	double value;

	if (!metric_value(m, counter0, counter1, &value))
		return;
	sum->defined = true;
	if (metric_kind_info(m->kind)->is_rate) {
		sum->total += value;
	} else {
		sum->total += value * counter1;
		sum->weight += counter1;
	}
}

bool metric_sum_value(const struct metric_sum *sum, const struct metric *m, double *value)
{
	if (!sum->defined)
		return false;
	*value = metric_kind_info(m->kind)->is_rate ? sum->total : sum->total / sum->weight;
	return true;
}

static bool has_suffix(const char *name, const char *suffix, size_t *stem_len)
{
	size_t len = strlen(name), slen = strlen(suffix);

	if (len <= slen || strcmp(name + len - slen, suffix))
		return false;
	*stem_len = len - slen;
	return true;
}

/* The HNS3 kind is the event type (config bits 8-15); the PCIe kind shows in the names. */
static bool pair_kind(const struct pmu *pmu, uint64_t config, const struct pmu_event *c0,
		      const struct pmu_event *c1, enum metric_kind *kind)
{
	size_t stem;

	if (pmu->name_info.kind == PMU_KIND_HNS3) {
		switch ((config >> 8) & 0xff) {
		case 0: *kind = METRIC_HNS3_BANDWIDTH; return true;
		case 1: *kind = METRIC_HNS3_PACKET_RATE; return true;
		case 2: *kind = METRIC_HNS3_LATENCY; return true;
		case 3: *kind = METRIC_HNS3_INTERRUPT_RATE; return true;
		default: return false;
		}
	}
	if (has_suffix(c0->name, "_latency", &stem) || has_suffix(c1->name, "_cnt", &stem)) {
		*kind = METRIC_PCIE_LATENCY;
		return true;
	}
	if (has_suffix(c0->name, "_flux", &stem) || has_suffix(c1->name, "_time", &stem)) {
		*kind = METRIC_PCIE_BANDWIDTH;
		return true;
	}
	return false;
}

/* The pair's stem: both names without their kind's suffix, else their common prefix up to a '_'. */
static char *pair_name(const struct metric_kind_info *info, const char *n0, const char *n1)
{
	size_t stem0, stem1, common = 0;
	char *name;

	if (has_suffix(n0, info->suffix[0], &stem0) && has_suffix(n1, info->suffix[1], &stem1) &&
	    stem0 == stem1 && !strncmp(n0, n1, stem0)) {
		common = stem0;
	} else {
		while (n0[common] && n0[common] == n1[common])
			common++;
		while (common && n0[common - 1] != '_')
			common--;
		if (common)
			common--;	/* drop the '_' */
		if (!common)
			return NULL;
	}
	if (asprintf(&name, "%.*s%s", (int)common, n0, info->name_suffix) < 0)
		return NULL;
	return name;
}

static bool config_of(const struct pmu_event *ev, uint64_t *config)
{
	return pmu_event_term_value(ev, "config", config) && ev->nr_terms == 1 &&
	       *config <= (PAIR_EXT_COUNTER_BIT | PAIR_EVENT_MASK);
}

static const struct pmu_event *partner_of(const struct pmu *pmu, uint64_t config0)
{
	for (size_t i = 0; i < pmu->nr_events; i++) {
		uint64_t config;

		if (config_of(&pmu->events[i], &config) &&
		    config == (config0 | PAIR_EXT_COUNTER_BIT))
			return &pmu->events[i];
	}
	return NULL;
}

static int add_pmu_metrics(const struct pmu *pmu, struct metric_set *set)
{
	for (size_t i = 0; i < pmu->nr_events; i++) {
		const struct pmu_event *c0 = &pmu->events[i], *c1;
		struct metric *grown, *m;
		enum metric_kind kind;
		uint64_t config;
		char *name;

		if (!config_of(c0, &config) || (config & PAIR_EXT_COUNTER_BIT))
			continue;
		c1 = partner_of(pmu, config);
		if (!c1 || !pair_kind(pmu, config, c0, c1, &kind))
			continue;
		name = pair_name(metric_kind_info(kind), c0->name, c1->name);
		if (!name)
			continue;	/* no usable name: the pair is still countable event by event */
		grown = realloc(set->metrics, (set->nr_metrics + 1) * sizeof(*grown));
		if (!grown) {
			free(name);
			return -ENOMEM;
		}
		set->metrics = grown;
		m = &set->metrics[set->nr_metrics++];
		m->name = name;
		m->pmu = pmu;
		m->kind = kind;
		m->counter[0] = c0;
		m->counter[1] = c1;
	}
	return 0;
}

int metric_set_build(const struct pmu_set *pmus, struct metric_set *set)
{
	memset(set, 0, sizeof(*set));
	for (size_t i = 0; i < pmus->nr_pmus; i++) {
		int err = add_pmu_metrics(&pmus->pmus[i], set);

		if (err) {
			metric_set_release(set);
			return err;
		}
	}
	return 0;
}

void metric_set_release(struct metric_set *set)
{
	for (size_t i = 0; i < set->nr_metrics; i++)
		free(set->metrics[i].name);
	free(set->metrics);
	memset(set, 0, sizeof(*set));
}

const struct metric *metric_find(const struct metric_set *set, const struct pmu *pmu,
				 const char *name)
{
	for (size_t i = 0; i < set->nr_metrics; i++) {
		const struct metric *m = &set->metrics[i];

		if (m->pmu == pmu && !strcmp(m->name, name))
			return m;
	}
	return NULL;
}

const struct metric *metric_of_event(const struct metric_set *set, const struct pmu *pmu,
				     const struct pmu_event *event, unsigned int *counter)
{
	for (size_t i = 0; i < set->nr_metrics; i++) {
		const struct metric *m = &set->metrics[i];

		if (m->pmu != pmu)
			continue;
		for (unsigned int c = 0; c < 2; c++) {
			if (m->counter[c] == event) {
				*counter = c;
				return m;
			}
		}
	}
	return NULL;
}
