// SPDX-License-Identifier: GPL-2.0
/* The pieces every check of the diagnosis builds its findings and clear lines with. */
#include "doctor/doctor_checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *doctor_confidence_name(enum doctor_confidence c)
{
	return c == DOCTOR_HIGH ? "high" : c == DOCTOR_MEDIUM ? "medium" : "low";
}

static const char *dir_name(unsigned int dir)
{
	return dir == NETPMU_QUEUE_RX ? "rx" : dir == NETPMU_QUEUE_TX ? "tx" : "rxtx";
}

void doctor_queue_label(const struct doctor_queue *q, char *buf, size_t len)
{
	if (q->queue >= 0)
		snprintf(buf, len, "%s %s %d", q->ifname, dir_name(q->dir), q->queue);
	else
		snprintf(buf, len, "%s napi %llu", q->ifname, (unsigned long long)q->napi_key);
}

bool doctor_cpu_listed(const char *list, unsigned int cpu)
{
	const char *p = list;
	char *end;

	while (*p) {
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return false;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				return false;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		if (*end != ',')
			return false;
		p = end + 1;
	}
	return false;
}

bool doctor_receives(const struct doctor_queue *q)
{
	return q->dir == NETPMU_QUEUE_RX || q->dir == NETPMU_QUEUE_RXTX;
}

double doctor_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

double doctor_per_s(const struct doctor_totals *t, uint64_t n)
{
	return t->duration_s > 0 ? n / t->duration_s : 0;
}

double doctor_net_rx_pct(const struct doctor_totals *t, unsigned int cpu)
{
	return cpu < DOCTOR_MAX_CPUS && t->duration_s > 0 ? t->cpus[cpu].net_rx_ns / 1e7 / t->duration_s : 0;
}

double doctor_nic_latency_us(const struct doctor_totals *t, const struct doctor_queue *q)
{
	if (!q->hw.latency_packets || !t->hw_clk_freq)
		return -1;
	return (double)q->hw.latency_cycles / q->hw.latency_packets * 1e6 / t->hw_clk_freq;
}

double doctor_pcie_latency_us(const struct doctor_totals *t)
{
	const struct doctor_pcie *p = &t->pcie;

	if (!p->has_latency || !p->latency_tlps || p->clk_hz <= 0)
		return -1;
	return (double)p->latency_cycles / p->latency_tlps * 1e6 / p->clk_hz;
}

struct doctor_finding *doctor_add_finding(struct doctor_report *r, const char *check, const char *subject)
{
	struct doctor_finding *f;

	if (r->nr_findings == DOCTOR_MAX_FINDINGS) {
		r->findings_dropped++;
		return NULL;
	}
	f = &r->findings[r->nr_findings++];
	memset(f, 0, sizeof(*f));
	f->check = check;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	return f;
}

void doctor_figure(struct doctor_finding *f, const char *name, double value)
{
	if (f->nr_figures < DOCTOR_MAX_FIGURES)
		f->figures[f->nr_figures++] = (struct doctor_figure){ name, value };
}

/* Appends to a clear line, "; " between the parts. */
void doctor_clear_add(struct doctor_report *r, const char *check, const char *fmt, ...)
{
	struct doctor_clear *c = NULL;
	size_t used;
	va_list ap;
	unsigned int i;

	for (i = 0; i < r->nr_clear; i++)
		if (r->clear[i].check == check)
			c = &r->clear[i];
	if (!c) {
		if (r->nr_clear == DOCTOR_NR_CHECKS)
			return;
		c = &r->clear[r->nr_clear++];
		c->check = check;
		c->why[0] = '\0';
	}
	used = strlen(c->why);
	if (used && used + 2 < sizeof(c->why))
		used += snprintf(c->why + used, sizeof(c->why) - used, "; ");
	va_start(ap, fmt);
	vsnprintf(c->why + used, sizeof(c->why) - used, fmt, ap);
	va_end(ap);
}

bool doctor_found(const struct doctor_report *r, const char *check)
{
	unsigned int i;

	for (i = 0; i < r->nr_findings; i++)
		if (!strcmp(r->findings[i].check, check))
			return true;
	return false;
}
