// SPDX-License-Identifier: GPL-2.0
/*
 * What an accepted open of a netpmu event must not have, each rule with its
 * source. Only refusals are asserted: where an open may or may not be
 * accepted (slots taken by other workers, a queue the device lacks, a CPU
 * outside cpumask, which event_init moves to the counting CPU as upstream
 * does), nothing is claimed.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_rules.h"

#define NETPMU_COUNTERS		8	/* both PMUs: kmod/common NETPMU_MAX_COUNTERS */
#define HNS3_QUEUE_ALL		0xffff
#define HNS3_TC_ALL		0xf
#define PCIE_LEN_MAX		10	/* thr_len, trig_len: HISI_PCIE_*_MAX_VAL */

/* exclude_user, _kernel, _hv, _idle, _host, _guest: PERF_PMU_CAP_NO_EXCLUDE. */
#define EXCLUDE_BITS	((1ULL << 4) | (1ULL << 5) | (1ULL << 6) | (1ULL << 7) | \
			 (1ULL << 19) | (1ULL << 20))

static uint64_t term(const struct fuzz_pmu *pmu, const char *name,
		     const struct perf_event_attr *eff)
{
	const struct pmu_field *f = pmu_field(pmu, name);
	uint64_t words[4] = { eff->config, eff->config1, eff->config2, 0 };

#ifdef PERF_ATTR_SIZE_VER8
	words[3] = eff->config3;
#endif
	return f ? pmu_field_get(f, words) : 0;
}

/*
 * HNS3: members with equal config bits 0-15 share a slot. PCIe: members with
 * equal EVENT_CTRL values; the key leaves len_mode out (0 means the default
 * mode), so distinct keys never overcount distinct control values.
 */
uint64_t group_key(const struct fuzz_machine *m, int pmu, const struct perf_event_attr *eff)
{
	const struct fuzz_pmu *p = &m->pmus[pmu];
	uint64_t port, trig, thr, key = eff->config & 0xffff;

	if (p->kind == PMU_HNS3)
		return key;
	port = term(p, "port", eff);
	trig = term(p, "trig_len", eff);
	thr = term(p, "thr_len", eff);
	key |= (port ? port : 1ULL << 16 | term(p, "bdf", eff)) << 16;
	if (trig)
		key |= (trig | term(p, "trig_mode", eff) << 4) << 33;
	if (thr)
		key |= (thr | term(p, "thr_mode", eff) << 4) << 38;
	return key;
}

/* A function in [bdf_min, bdf_max] that exists (upstream hns3_pmu_valid_bdf). */
static bool hns3_bdf_valid(const struct fuzz_machine *m, const struct fuzz_pmu *p, uint64_t bdf)
{
	return bdf >= p->bdf_min && bdf <= p->bdf_max && machine_has_func(m, bdf);
}

/* Upstream's filter-mode selection (hns3_pmu_select_filter_mode): can any mode match? */
static const char *hns3_rule(const struct fuzz_machine *m, const struct fuzz_pmu *p,
			     const struct perf_event_attr *eff)
{
	const struct pmu_event *ev = pmu_event_by_config(p, eff->config & 0x1ffff);
	uint64_t bdf = term(p, "bdf", eff), queue = term(p, "queue", eff);
	uint64_t tc = term(p, "tc", eff);
	unsigned int modes;

	if (!ev)
		return "an HNS3 event id (config bits 0-16) not in events/ (ENOENT)";
	modes = ev->filter_modes;
	if ((modes & HNS3_MODE_GLOBAL) && term(p, "global", eff))
		return NULL;
	if ((modes & HNS3_MODE_FUNC) && queue == HNS3_QUEUE_ALL && bdf)
		return hns3_bdf_valid(m, p, bdf) ? NULL :
			"func mode on a bdf that is no function in [bdf_min, bdf_max] (ENOENT)";
	/* func-queue also asks the device whether the queue exists: not claimed. */
	if ((modes & HNS3_MODE_FUNC_QUEUE) && queue != HNS3_QUEUE_ALL && bdf)
		return hns3_bdf_valid(m, p, bdf) ? NULL :
			"func-queue mode on a bdf that is no function in [bdf_min, bdf_max] (ENOENT)";
	if ((modes & HNS3_MODE_PORT) && tc == HNS3_TC_ALL)
		return NULL;
	if ((modes & HNS3_MODE_PORT_TC) && tc != HNS3_TC_ALL)
		return NULL;
	if ((modes & HNS3_MODE_FUNC_INTR) && hns3_bdf_valid(m, p, bdf))
		return NULL;
	return "no filter mode of the event matches its terms (ENOENT)";
}

static const char *pcie_rule(const struct fuzz_machine *m, const struct fuzz_pmu *p,
			     const struct perf_event_attr *eff)
{
	if (term(p, "thr_len", eff) > PCIE_LEN_MAX || term(p, "trig_len", eff) > PCIE_LEN_MAX)
		return "thr_len or trig_len above 10 (hisi_pcie_pmu_valid_filter: EINVAL)";
	if (!term(p, "port", eff) && !machine_has_func(m, term(p, "bdf", eff)))
		return "no port and a bdf that names no PCI function (requester ID: EINVAL)";
	return NULL;
}

static const char *group_rule(const struct fuzz_machine *m, const struct fuzz_open *o,
			      const struct perf_event_attr *eff, const struct group_view *g)
{
	uint64_t keys[NETPMU_COUNTERS + 1];
	int nr_keys = 0;

	if (!g->grouped)
		return NULL;
	if (!g->fd_is_leader)
		return "group_fd is not a group leader (perf core: EINVAL)";
	for (int i = 0; i <= g->nr; i++) {
		int pmu = i < g->nr ? g->members[i].pmu : o->pmu;
		uint64_t key = i < g->nr ? g->members[i].key : group_key(m, o->pmu, eff);
		bool seen = false;

		if (pmu < 0)
			continue;
		if (pmu != o->pmu)
			return "a group with an event of another hardware PMU (validate_group: EINVAL)";
		for (int k = 0; k < nr_keys; k++)
			seen |= keys[k] == key;
		if (!seen && nr_keys++ == NETPMU_COUNTERS)
			return "a group needing more than 8 counters (validate_group: EINVAL)";
		if (!seen)
			keys[nr_keys - 1] = key;
	}
	return NULL;
}

const char *rule_broken(const struct fuzz_machine *m, const struct fuzz_open *o,
			const struct group_view *g, char *why, size_t len)
{
	const struct fuzz_pmu *p = &m->pmus[o->pmu];
	struct perf_event_attr eff;
	uint64_t flags;
	const char *r;

	if (o->attr.size && o->attr.size < PERF_ATTR_SIZE_VER0)
		r = "attr.size below PERF_ATTR_SIZE_VER0 (perf core: E2BIG)";
	else if (o->attr.size > 4096)
		r = "attr.size above a page (perf core: E2BIG)";
	else if (o->attr.type != p->type)
		r = NULL;	/* another PMU's type (or none): not this PMU's rules */
	else if (o->pid != -1)
		r = "a task event (pid != -1): uncore PMU, perf_invalid_context (EOPNOTSUPP)";
	else if (o->cpu < 0 || o->cpu >= m->nr_possible)
		r = "cpu -1 or beyond the possible CPUs (perf core: EINVAL)";
	else
		r = NULL;
	if (r || o->attr.type != p->type)
		goto out;

	effective_attr(o, &eff);
	memcpy(&flags, (char *)&eff + offsetof(struct perf_event_attr, read_format) +
	       sizeof(eff.read_format), sizeof(flags));
	if (eff.sample_period)
		r = "sampling (sample_period/sample_freq != 0): event_init EOPNOTSUPP";
	else if (flags & EXCLUDE_BITS)
		r = "an exclude_* bit (PERF_PMU_CAP_NO_EXCLUDE: EINVAL)";
	else if ((r = group_rule(m, o, &eff, g)))
		;
	else if (p->kind == PMU_HNS3)
		r = hns3_rule(m, p, &eff);
	else
		r = pcie_rule(m, p, &eff);
out:
	if (!r)
		return NULL;
	snprintf(why, len, "%s: type %u size %u config %#llx config1 %#llx config2 %#llx "
		 "pid %d cpu %d: %s", p->name, o->attr.type, o->attr.size,
		 (unsigned long long)o->attr.config, (unsigned long long)o->attr.config1,
		 (unsigned long long)o->attr.config2, o->pid, o->cpu, r);
	return why;
}
