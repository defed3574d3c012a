// SPDX-License-Identifier: GPL-2.0
/*
 * Random perf_event_attr for tests/kfuzz/pmu_fuzz: every format field of
 * the PMU with in-range, boundary and out-of-range values, event codes from
 * events/ and at random, random flags, sampling, sample_type, read_format,
 * attr sizes from below VER0 to past a page, targets (pid, cpu) valid and not.
 */
#include <stddef.h>
#include <string.h>

#include "fuzz_attr.h"

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ULL;
	for (int i = 0; i < 4; i++)
		rng_next(r);
}

/* splitmix64: every seed gives a full-period, well-mixed stream. */
uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

int rng_percent(struct rng *r, int p)
{
	return (int)rng_below(r, 100) < p;
}

/* A value for a field of width bits: in range, a boundary, or too wide. */
static uint64_t field_value(struct rng *r, int width)
{
	uint64_t max = width >= 64 ? ~0ULL : (1ULL << width) - 1;

	switch (rng_below(r, 6)) {
	case 0:
		return 0;
	case 1:
		return max;
	case 2:
		return max ? max - 1 : 0;
	case 3:
		return rng_next(r);	/* out of range: packing truncates it */
	default:
		return rng_next(r) & max;
	}
}

/* A value meaningful for a named term: a real function, "all", "global". */
static int named_value(struct rng *r, const struct fuzz_machine *m,
		       const struct pmu_field *f, uint64_t *v)
{
	if (!strcmp(f->name, "bdf") && m->nr_funcs && rng_percent(r, 60)) {
		*v = m->funcs[rng_below(r, m->nr_funcs)];
		return 1;
	}
	if (!strcmp(f->name, "queue") && rng_percent(r, 40)) {
		*v = rng_percent(r, 50) ? 0xffff : rng_below(r, 4);
		return 1;
	}
	if (!strcmp(f->name, "tc") && rng_percent(r, 40)) {
		*v = rng_percent(r, 50) ? 0xf : rng_below(r, 4);
		return 1;
	}
	if ((!strcmp(f->name, "thr_len") || !strcmp(f->name, "trig_len") ||
	     !strcmp(f->name, "port")) && rng_percent(r, 40)) {
		*v = rng_below(r, 12);
		return 1;
	}
	return 0;
}

static void gen_configs(struct rng *r, const struct fuzz_machine *m,
			const struct fuzz_pmu *pmu, struct perf_event_attr *a)
{
	uint64_t words[4] = { 0 };

	for (int i = 0; i < pmu->nr_fields; i++) {
		const struct pmu_field *f = &pmu->fields[i];
		uint64_t v;

		if (rng_percent(r, 30))
			continue;
		if (!named_value(r, m, f, &v))
			v = field_value(r, f->width);
		pmu_field_put(f, words, v);
	}
	/* The event code: from events/ mostly, else what the fields drew. */
	if (pmu->nr_events && rng_percent(r, 70)) {
		const struct pmu_field *ev = pmu_field(pmu, "event");
		uint64_t code = pmu->events[rng_below(r, pmu->nr_events)].config;

		if (pmu->kind == PMU_HNS3)
			words[0] = (words[0] & ~0x1ffffULL) | code;
		else if (ev)
			pmu_field_put(ev, words, code);
	}
	/* Out of range: bits no field owns. */
	if (rng_percent(r, 10))
		words[rng_below(r, 3)] |= 1ULL << rng_below(r, 64);
	if (rng_percent(r, 2))
		words[rng_below(r, 4)] = rng_next(r);
	a->config = words[0];
	a->config1 = words[1];
	a->config2 = words[2];
#ifdef PERF_ATTR_SIZE_VER8
	a->config3 = words[3];
#endif
}

/* The UAPI's bitfield word (disabled, inherit, ...) follows read_format. */
static void set_flags(struct perf_event_attr *a, uint64_t flags)
{
	memcpy((char *)a + offsetof(struct perf_event_attr, read_format) +
	       sizeof(a->read_format), &flags, sizeof(flags));
}

static uint64_t gen_flags(struct rng *r)
{
	static const uint64_t common[] = { 0, 1, 4, 5, 8, 9, 2 };
	uint64_t flags = 0;

	switch (rng_below(r, 10)) {
	case 0 ... 4:
		return common[rng_below(r, sizeof(common) / sizeof(*common))];
	case 5 ... 8:
		for (int bit = 0; bit < 40; bit++)
			if (rng_percent(r, 8))
				flags |= 1ULL << bit;
		return flags;
	default:
		return rng_next(r);
	}
}

static void gen_sampling(struct rng *r, struct perf_event_attr *a)
{
	static const uint64_t periods[] = { 1, 2, 1000, 100000, 1ULL << 62, ~0ULL };

	if (rng_percent(r, 12))
		a->sample_period = rng_percent(r, 70) ?
			periods[rng_below(r, sizeof(periods) / sizeof(*periods))] :
			rng_next(r);
	if (rng_percent(r, 30))
		a->sample_type = rng_next(r) & (rng_percent(r, 90) ? 0xffffff : ~0ULL);
	a->read_format = rng_below(r, 32);
	if (rng_percent(r, 3))
		a->read_format = rng_next(r);
	if (rng_percent(r, 5))
		a->wakeup_events = rng_below(r, 100);
	if (rng_percent(r, 3))
		a->clockid = rng_below(r, 16) - 2;
	if (rng_percent(r, 3))
		a->sample_max_stack = rng_below(r, 200);
}

/* Sizes: 0 (VER0), every published version, the kernel's, bigger, broken. */
static void gen_size(struct rng *r, struct fuzz_open *o)
{
	static const uint32_t sizes[] = {
		0, PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
#ifdef PERF_ATTR_SIZE_VER8
		PERF_ATTR_SIZE_VER8,
#endif
	};
	uint32_t size = sizeof(struct perf_event_attr);

	switch (rng_below(r, 20)) {
	case 0 ... 11:
		break;
	case 12 ... 15:
		size = sizes[rng_below(r, sizeof(sizes) / sizeof(*sizes))];
		break;
	case 16 ... 17:	/* bigger: a zero tail is accepted, a non-zero one is not */
		size += 8 * (1 + rng_below(r, 64));
		if (rng_percent(r, 50))
			o->bytes[sizeof(struct perf_event_attr) +
				 rng_below(r, size - sizeof(struct perf_event_attr))] = 1 + rng_below(r, 255);
		break;
	case 18:
		size = 1 + rng_below(r, PERF_ATTR_SIZE_VER0 - 1);
		break;
	default:
		size = 4097 + rng_below(r, ATTR_BUF_SIZE - 4097);
		break;
	}
	o->attr.size = size;
}

static int gen_cpu(struct rng *r, const struct fuzz_machine *m, int counting_cpu)
{
	const int wrong[] = { -1, -2, m->nr_possible, m->nr_possible + 1, 1 << 20 };

	switch (rng_below(r, 20)) {
	case 0 ... 13:
		return counting_cpu;
	case 14 ... 16:
		return m->online[rng_below(r, m->nr_online)];
	default:
		return wrong[rng_below(r, sizeof(wrong) / sizeof(*wrong))];
	}
}

/*
 * Two attrs in five are plausible (plain flags, no sampling, the kernel's
 * size, a valid CPU, no task), so that a good share is accepted and the
 * ioctls, reads and groups reach counting events; the rest vary everything.
 */
void gen_netpmu_open(struct rng *r, const struct fuzz_machine *m, int pmu,
		     pid_t self, pid_t child, struct fuzz_open *o)
{
	const pid_t pids[] = { 0, self, child };
	struct perf_event_attr *a = &o->attr;
	int plausible = rng_percent(r, 40);

	memset(o, 0, sizeof(*o));
	o->pmu = pmu;
	a->type = plausible || rng_percent(r, 97) ? m->pmus[pmu].type : (uint32_t)rng_next(r);
	gen_configs(r, m, &m->pmus[pmu], a);
	set_flags(a, plausible ? rng_below(r, 16) & ~2ULL : gen_flags(r));
	if (plausible) {
		a->size = sizeof(*a);
		a->read_format = rng_below(r, 32);
		o->cpu = rng_percent(r, 80) ? m->pmus[pmu].counting_cpu :
			 m->online[rng_below(r, m->nr_online)];
		o->pid = -1;
		return;
	}
	gen_sampling(r, a);
	gen_size(r, o);
	o->cpu = gen_cpu(r, m, m->pmus[pmu].counting_cpu);
	o->pid = rng_percent(r, 85) ? -1 : pids[rng_below(r, 3)];
}

/*
 * cpu-clock or task-clock, counting on an online CPU (pid -1), never a task
 * event: the fuzzer's own task contexts would only exercise the perf core,
 * where 6.1 has a known race (see pmu_fuzz.c), and netpmu's PMUs refuse
 * task events before any context exists.
 */
void gen_software_open(struct rng *r, const struct fuzz_machine *m, struct fuzz_open *o)
{
	struct perf_event_attr *a = &o->attr;

	memset(o, 0, sizeof(*o));
	o->pmu = -1;
	a->type = PERF_TYPE_SOFTWARE;
	a->size = sizeof(*a);
	a->config = rng_percent(r, 50) ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
	a->disabled = rng_percent(r, 50);
	a->pinned = rng_percent(r, 15);
	a->exclusive = rng_percent(r, 5);
	a->read_format = rng_below(r, 16);
	if (rng_percent(r, 10))
		a->sample_period = 1000000 + rng_below(r, 100000000);
	o->pid = -1;
	o->cpu = m->online[rng_below(r, m->nr_online)];
}

void effective_attr(const struct fuzz_open *o, struct perf_event_attr *eff)
{
	size_t size = o->attr.size ? o->attr.size : PERF_ATTR_SIZE_VER0;

	memset(eff, 0, sizeof(*eff));
	memcpy(eff, o->bytes, size < sizeof(*eff) ? size : sizeof(*eff));
}
