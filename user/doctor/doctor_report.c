// SPDX-License-Identifier: GPL-2.0
#include "doctor/doctor_report.h"

#include "doctor/doctor_checks.h"
#include "lib/json_writer.h"

static unsigned int queues_measured(const struct doctor_totals *t)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->nr_queues; i++)
		n += t->queues[i].hw.intervals > 0;
	return n;
}

/* The NIC's mean RX latency over the measured intervals, ns; < 0: none. */
static double hw_latency_ns(const struct doctor_totals *t, const struct doctor_queue *q)
{
	if (!q->hw.latency_packets || !t->hw_clk_freq)
		return -1;
	return (double)q->hw.latency_cycles / q->hw.latency_packets * 1e9 / t->hw_clk_freq;
}

static void text_queue(FILE *out, const struct doctor_totals *t, const struct doctor_queue *q)
{
	char label[48], irq[12] = "-", per_irq[16] = "-", hw[80] = "-", lat[32] = "";

	doctor_queue_label(q, label, sizeof(label));
	if (q->irq)
		snprintf(irq, sizeof(irq), "%u", q->irq);
	if (q->irqs)
		snprintf(per_irq, sizeof(per_irq), "%.2f", (double)q->packets / q->irqs);
	if (hw_latency_ns(t, q) >= 0)
		snprintf(lat, sizeof(lat), ", latency %.0f ns", hw_latency_ns(t, q));
	if (q->hw.intervals)
		snprintf(hw, sizeof(hw), "%llu/%llu in %.3f s%s", (unsigned long long)q->hw.rx_packets,
			 (unsigned long long)q->hw.napi_packets, q->hw.ns / 1e9, lat);
	fprintf(out, "%-16s %4u %5s %-9s %9llu %8llu %7.1f %8.0f %7s  %s\n", label, doctor_queue_cpu(q), irq,
		q->affinity[0] ? q->affinity : "-", (unsigned long long)q->packets, (unsigned long long)q->polls,
		doctor_pct(q->budget_exhausted, q->polls), doctor_per_s(t, q->irqs), per_irq, hw);
}

/* The PCIe link's line: what was counted, or why not. */
static void text_pcie(FILE *out, const struct doctor_totals *t)
{
	const struct doctor_pcie *p = &t->pcie;

	if (!p->pmu[0]) {
		if (p->not_measured[0])
			fprintf(out, "PCIe: not measured: %s\n", p->not_measured);
		return;
	}
	fprintf(out, "PCIe: Root Port %s", p->root_port);
	if (p->link_mbps > 0)
		fprintf(out, " (%.0f Mbit/s a direction, %s)", p->link_mbps,
			p->link_declared ? "declared" : p->link);
	fprintf(out, ", %s %s: %llu bytes up, %llu down in %.3f s, busiest interval %.3f up, %.3f down Mbit/s",
		p->pmu, p->target, (unsigned long long)p->up_bytes, (unsigned long long)p->down_bytes,
		p->ns / 1e9, p->peak_up_bps * 8 / 1e6, p->peak_down_bps * 8 / 1e6);
	if (p->has_latency && p->latency_tlps)
		fprintf(out, "; writes %.1f cycles a TLP over %llu TLPs",
			(double)p->latency_cycles / p->latency_tlps, (unsigned long long)p->latency_tlps);
	fputc('\n', out);
}

void doctor_report_text(FILE *out, const struct doctor_totals *t, const struct doctor_report *r)
{
	unsigned int i;

	fprintf(out, "netpmu doctor: %.1f s, %u CPUs, %u queues", t->duration_s, t->nr_cpus, t->nr_queues);
	if (t->hw_pmu[0])
		fprintf(out, "; NIC counters: %s, %u queues measured whole for an interval or more", t->hw_pmu,
			queues_measured(t));
	else
		fprintf(out, "; no NIC counters");
	fputc('\n', out);
	text_pcie(out, t);
	if (t->queues_dropped)
		fprintf(out, "(%u more NAPI instances not judged: more than %d)\n", t->queues_dropped,
			DOCTOR_MAX_QUEUES);
	fprintf(out, "%-16s %4s %5s %-9s %9s %8s %7s %8s %7s  %s\n", "QUEUE", "CPU", "IRQ", "AFFINITY",
		"PACKETS", "POLLS", "BUDGET%", "IRQ/s", "PKT/IRQ", "NIC-RX/NAPI-RX");
	for (i = 0; i < t->nr_queues; i++)
		text_queue(out, t, &t->queues[i]);
	fputc('\n', out);
	if (!r->nr_findings)
		fprintf(out, "nothing found\n");
	for (i = 0; i < r->nr_findings; i++) {
		const struct doctor_finding *f = &r->findings[i];

		fprintf(out, "finding %u of %u: %s: %s\n", i + 1, r->nr_findings, f->check, f->subject);
		fprintf(out, "  evidence:   %s\n", f->evidence);
		fprintf(out, "  confidence: %s: %s\n", doctor_confidence_name(f->confidence), f->confidence_why);
		fprintf(out, "  next:       %s\n", f->next);
	}
	if (r->findings_dropped)
		fprintf(out, "(%u more findings not shown)\n", r->findings_dropped);
	if (r->nr_clear)
		fprintf(out, "%s\n", r->nr_findings ? "no finding from:" : "checked:");
	for (i = 0; i < r->nr_clear; i++)
		fprintf(out, "  %s: %s\n", r->clear[i].check, r->clear[i].why);
}

static void json_queue(struct json_writer *w, const struct doctor_totals *t, const struct doctor_queue *q)
{
	static const char *const dirs[] = { "rxtx", "rx", "tx" };

	json_begin_object(w, NULL);
	json_string(w, "dev", q->ifname);
	json_int(w, "queue", q->queue);
	json_string(w, "dir", q->dir < 3 ? dirs[q->dir] : "?");
	json_uint(w, "cpu", doctor_queue_cpu(q));
	json_uint(w, "irq", q->irq);
	json_string(w, "affinity", q->affinity[0] ? q->affinity : NULL);
	json_uint(w, "packets", q->packets);
	json_uint(w, "polls", q->polls);
	json_uint(w, "budget_exhausted", q->budget_exhausted);
	json_uint(w, "irqs", q->irqs);
	if (q->has_poll_time)
		json_uint(w, "poll_ns", q->poll_ns);
	json_uint(w, "irq_ns", q->irq_ns);
	if (q->hw.intervals) {
		json_begin_object(w, "nic");
		json_uint(w, "intervals", q->hw.intervals);
		json_double(w, "measured_s", q->hw.ns / 1e9, 3);
		json_uint(w, "rx_packets", q->hw.rx_packets);
		json_uint(w, "rx_bytes", q->hw.rx_bytes);
		json_uint(w, "tx_packets", q->hw.tx_packets);
		json_uint(w, "napi_packets", q->hw.napi_packets);
		if (hw_latency_ns(t, q) >= 0)
			json_double(w, "rx_latency_ns", hw_latency_ns(t, q), 0);
		json_end_object(w);
	}
	json_end_object(w);
}

static void json_pcie(struct json_writer *w, const struct doctor_pcie *p)
{
	json_begin_object(w, "pcie");
	json_string(w, "pmu", p->pmu[0] ? p->pmu : NULL);
	json_string(w, "not_measured", p->not_measured[0] ? p->not_measured : NULL);
	json_string(w, "root_port", p->root_port[0] ? p->root_port : NULL);
	json_string(w, "target", p->target[0] ? p->target : NULL);
	json_string(w, "link", p->link[0] ? p->link : NULL);
	json_double(w, "link_mbps", p->link_mbps, 3);
	json_bool(w, "link_declared", p->link_declared);
	if (p->pmu[0]) {
		json_uint(w, "up_bytes", p->up_bytes);
		json_uint(w, "down_bytes", p->down_bytes);
		json_double(w, "measured_s", p->ns / 1e9, 3);
		json_double(w, "peak_up_mbps", p->peak_up_bps * 8 / 1e6, 3);
		json_double(w, "peak_down_mbps", p->peak_down_bps * 8 / 1e6, 3);
	}
	if (p->has_latency) {
		json_uint(w, "latency_cycles", p->latency_cycles);
		json_uint(w, "latency_tlps", p->latency_tlps);
	}
	json_end_object(w);
}

void doctor_report_json(FILE *out, const struct doctor_totals *t, const struct doctor_report *r)
{
	struct json_writer w;
	unsigned int i, k;

	json_init(&w, out);
	json_begin_object(&w, NULL);
	json_double(&w, "duration_s", t->duration_s, 3);
	json_uint(&w, "cpus", t->nr_cpus);
	json_string(&w, "nic_pmu", t->hw_pmu[0] ? t->hw_pmu : NULL);
	json_pcie(&w, &t->pcie);
	json_begin_array(&w, "queues");
	for (i = 0; i < t->nr_queues; i++)
		json_queue(&w, t, &t->queues[i]);
	json_end_array(&w);
	json_begin_array(&w, "findings");
	for (i = 0; i < r->nr_findings; i++) {
		const struct doctor_finding *f = &r->findings[i];

		json_begin_object(&w, NULL);
		json_string(&w, "check", f->check);
		json_string(&w, "subject", f->subject);
		json_string(&w, "evidence", f->evidence);
		json_begin_object(&w, "figures");
		for (k = 0; k < f->nr_figures; k++)
			json_double(&w, f->figures[k].name, f->figures[k].value, 3);
		json_end_object(&w);
		json_string(&w, "confidence", doctor_confidence_name(f->confidence));
		json_string(&w, "confidence_why", f->confidence_why);
		json_string(&w, "next", f->next);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_begin_object(&w, "nothing_found");
	for (i = 0; i < r->nr_clear; i++)
		json_string(&w, r->clear[i].check, r->clear[i].why);
	json_end_object(&w);
	json_end_object(&w);
	fputc('\n', out);
}
