// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery of netpmu's PMUs (hns3_pmu_sicl_*, hisi_pcie*_core*) and of the
 * machine's CPUs and PCI functions, from sysfs, for tests/kfuzz/pmu_fuzz.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_sysfs.h"

#define EVENT_SOURCE "/sys/bus/event_source/devices"

static const char *const hns3_mode_names[] = {
	"global", "port", "port-tc", "func", "func-queue", "func-intr",
};

/* The first line of a file, without its newline; -1 if unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* "0-3,5" -> the highest CPU + 1 of the list, and its CPUs into out[]. */
static int parse_cpulist(const char *s, int *out, int max, int *count)
{
	int top = 0, n = 0;

	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi; c++) {
			if (out && n < max)
				out[n] = c;
			n++;
		}
		top = hi + 1;
		s = *end == ',' ? end + 1 : end;
	}
	if (count)
		*count = n < max ? n : max;
	return top;
}

/* "config1:8-23" or "config:0-7,32-35"; 0 or -1. */
static int parse_format(const char *name, const char *text, struct pmu_field *f)
{
	const char *p = text;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%.31s", name);
	if (strncmp(p, "config", 6))
		return -1;
	p += 6;
	f->word = *p >= '1' && *p <= '3' ? *p++ - '0' : 0;
	if (*p++ != ':')
		return -1;
	while (*p && f->nr_ranges < PMU_MAX_RANGES) {
		char *end;
		int lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (lo < 0 || hi > 63 || hi < lo)
			return -1;
		f->ranges[f->nr_ranges].lo = lo;
		f->ranges[f->nr_ranges++].hi = hi;
		f->width += hi - lo + 1;
		p = *end == ',' ? end + 1 : end;
	}
	return f->nr_ranges && f->width <= 64 ? 0 : -1;
}

static int read_formats(const char *dir, struct fuzz_pmu *pmu)
{
	char path[1024], text[128];
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/format", dir);
	dp = opendir(path);
	if (!dp)
		return -1;
	while ((d = readdir(dp)) && pmu->nr_fields < PMU_MAX_FIELDS) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/format/%s", dir, d->d_name);
		if (read_line(path, text, sizeof(text)) ||
		    parse_format(d->d_name, text, &pmu->fields[pmu->nr_fields])) {
			fprintf(stderr, "pmu_fuzz: %s: cannot read a format field\n", path);
			closedir(dp);
			return -1;
		}
		pmu->nr_fields++;
	}
	closedir(dp);
	return 0;
}

static unsigned int read_filter_modes(const char *dir, const char *event)
{
	char path[1024], text[256];
	unsigned int modes = 0;

	snprintf(path, sizeof(path), "%s/filtermode/%s", dir, event);
	if (read_line(path, text, sizeof(text)))
		return 0;
	for (char *tok = strtok(text, " "); tok; tok = strtok(NULL, " "))
		for (unsigned int i = 0; i < sizeof(hns3_mode_names) / sizeof(*hns3_mode_names); i++)
			if (!strcmp(tok, hns3_mode_names[i]))
				modes |= 1u << i;
	return modes;
}

/* events/NAME: "config=0x..." (both PMUs publish only config terms). */
static int read_events(const char *dir, struct fuzz_pmu *pmu)
{
	char path[1024], text[128];
	struct dirent *d;
	DIR *dp;

	snprintf(path, sizeof(path), "%s/events", dir);
	dp = opendir(path);
	if (!dp)
		return -1;
	while ((d = readdir(dp)) && pmu->nr_events < PMU_MAX_EVENTS) {
		struct pmu_event *ev = &pmu->events[pmu->nr_events];

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, d->d_name);
		if (read_line(path, text, sizeof(text)) ||
		    sscanf(text, "config=%lli", (long long *)&ev->config) != 1)
			continue;
		snprintf(ev->name, sizeof(ev->name), "%.63s", d->d_name);
		if (pmu->kind == PMU_HNS3)
			ev->filter_modes = read_filter_modes(dir, d->d_name);
		pmu->nr_events++;
	}
	closedir(dp);
	return 0;
}

static uint32_t read_bdf(const char *dir, const char *name)
{
	unsigned int bus, dev, fn;
	char path[1024], text[64];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_line(path, text, sizeof(text)) ||
	    sscanf(text, "%x:%x.%x", &bus, &dev, &fn) != 3)
		return 0;
	return bus << 8 | dev << 3 | fn;
}

static int read_pmu(const char *name, struct fuzz_pmu *pmu)
{
	char dir[300], path[512], text[256];
	int cpus[1], nr;

	memset(pmu, 0, sizeof(*pmu));
	snprintf(pmu->name, sizeof(pmu->name), "%.63s", name);
	pmu->kind = strncmp(name, "hns3_pmu_sicl_", 14) ? PMU_PCIE : PMU_HNS3;
	snprintf(dir, sizeof(dir), "%s/%s", EVENT_SOURCE, name);
	snprintf(path, sizeof(path), "%s/type", dir);
	if (read_line(path, text, sizeof(text)))
		return -1;
	pmu->type = strtoul(text, NULL, 10);
	snprintf(path, sizeof(path), "%s/cpumask", dir);
	if (read_line(path, text, sizeof(text)))
		return -1;
	parse_cpulist(text, cpus, 1, &nr);
	pmu->counting_cpu = nr ? cpus[0] : -1;
	if (pmu->kind == PMU_HNS3) {
		pmu->bdf_min = read_bdf(dir, "bdf_min");
		pmu->bdf_max = read_bdf(dir, "bdf_max");
	}
	return read_formats(dir, pmu) || read_events(dir, pmu) ? -1 : 0;
}

static bool is_netpmu_pmu(const char *name)
{
	return !strncmp(name, "hns3_pmu_sicl_", 14) ||
	       (!strncmp(name, "hisi_pcie", 9) && strstr(name, "_core"));
}

static void read_pci_functions(struct fuzz_machine *m)
{
	DIR *dp = opendir("/sys/bus/pci/devices");
	struct dirent *d;

	while (dp && (d = readdir(dp)) && m->nr_funcs < PCI_MAX_FUNCS) {
		unsigned int dom, bus, dev, fn;

		if (sscanf(d->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
			m->funcs[m->nr_funcs++] = bus << 8 | dev << 3 | fn;
	}
	if (dp)
		closedir(dp);
}

int machine_discover(struct fuzz_machine *m)
{
	char text[256];
	struct dirent *d;
	DIR *dp;

	memset(m, 0, sizeof(*m));
	if (read_line("/sys/devices/system/cpu/online", text, sizeof(text)))
		return fprintf(stderr, "pmu_fuzz: cannot read the online CPUs\n"), -1;
	parse_cpulist(text, m->online, 64, &m->nr_online);
	if (read_line("/sys/devices/system/cpu/possible", text, sizeof(text)))
		return fprintf(stderr, "pmu_fuzz: cannot read the possible CPUs\n"), -1;
	m->nr_possible = parse_cpulist(text, NULL, 0, NULL);
	read_pci_functions(m);

	dp = opendir(EVENT_SOURCE);
	if (!dp)
		return fprintf(stderr, "pmu_fuzz: no %s\n", EVENT_SOURCE), -1;
	while ((d = readdir(dp)) && m->nr_pmus < PMU_MAX) {
		if (!is_netpmu_pmu(d->d_name))
			continue;
		if (read_pmu(d->d_name, &m->pmus[m->nr_pmus])) {
			fprintf(stderr, "pmu_fuzz: cannot read PMU %s\n", d->d_name);
			closedir(dp);
			return -1;
		}
		m->nr_pmus++;
	}
	closedir(dp);
	if (!m->nr_pmus)
		return fprintf(stderr, "pmu_fuzz: no netpmu PMU in %s (is netpmu.ko loaded?)\n",
			       EVENT_SOURCE), -1;
	return 0;
}

const struct pmu_field *pmu_field(const struct fuzz_pmu *pmu, const char *name)
{
	for (int i = 0; i < pmu->nr_fields; i++)
		if (!strcmp(pmu->fields[i].name, name))
			return &pmu->fields[i];
	return NULL;
}

static uint64_t bits(int lo, int hi)
{
	return (hi - lo == 63 ? ~0ULL : ((1ULL << (hi - lo + 1)) - 1)) << lo;
}

uint64_t pmu_field_get(const struct pmu_field *f, const uint64_t words[4])
{
	uint64_t v = 0;
	int shift = 0;

	for (int i = 0; i < f->nr_ranges; i++) {
		int lo = f->ranges[i].lo, hi = f->ranges[i].hi;

		v |= ((words[f->word] & bits(lo, hi)) >> lo) << shift;
		shift += hi - lo + 1;
	}
	return v;
}

void pmu_field_put(const struct pmu_field *f, uint64_t words[4], uint64_t value)
{
	for (int i = 0; i < f->nr_ranges; i++) {
		int lo = f->ranges[i].lo, hi = f->ranges[i].hi;

		words[f->word] &= ~bits(lo, hi);
		words[f->word] |= (value << lo) & bits(lo, hi);
		value = hi - lo == 63 ? 0 : value >> (hi - lo + 1);
	}
}

const struct pmu_event *pmu_event_by_config(const struct fuzz_pmu *pmu, uint64_t config)
{
	for (int i = 0; i < pmu->nr_events; i++)
		if (pmu->events[i].config == config)
			return &pmu->events[i];
	return NULL;
}

bool machine_has_func(const struct fuzz_machine *m, uint32_t bdf)
{
	for (int i = 0; i < m->nr_funcs; i++)
		if (m->funcs[i] == bdf)
			return true;
	return false;
}
