// SPDX-License-Identifier: GPL-2.0
/*
 * Where the busy queues are polled: several on one CPU while another has
 * none (shared_cpu), outside their IRQ's affinity (irq_affinity), on another
 * CPU than the process that consumes the packets (consumer_cpu).
 */
#include "doctor/doctor_checks.h"

#include <stdio.h>
#include <string.h>

static bool busy(const struct doctor_totals *t, const struct doctor_thresholds *th, const struct doctor_queue *q)
{
	return q->packets && doctor_per_s(t, q->packets) >= TH(DT_BUSY_PPS);
}

/* Whether every poll of Q ran on CPU. */
static bool only_on(const struct doctor_queue *q, unsigned int cpu)
{
	return q->nr_cpus == 1 && q->cpus[0].cpu == cpu;
}

static void shared_cpu(const struct doctor_totals *t, const struct doctor_thresholds *th,
		       struct doctor_report *r, unsigned int cpu, unsigned int idle_cpu)
{
	struct doctor_finding *f;
	char subject[16], label[48], list[320] = "", irqs[96] = "";
	size_t used = 0, used_irqs = 0;
	unsigned int i, nr = 0;
	bool all_there = true;

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];

		if (!busy(t, th, q) || doctor_queue_cpu(q) != cpu)
			continue;
		nr++;
		all_there &= only_on(q, cpu);
		doctor_queue_label(q, label, sizeof(label));
		if (used < sizeof(list))
			used += snprintf(list + used, sizeof(list) - used, "%s%s (%.0f packets/s, IRQ %u)",
					 used ? ", " : "", label, doctor_per_s(t, q->packets), q->irq);
		if (q->irq && used_irqs < sizeof(irqs))
			used_irqs += snprintf(irqs + used_irqs, sizeof(irqs) - used_irqs, "%s%u",
					      used_irqs ? ", " : "", q->irq);
	}
	snprintf(subject, sizeof(subject), "CPU %u", cpu);
	f = doctor_add_finding(r, "shared_cpu", subject);
	if (!f)
		return;
	snprintf(f->evidence, sizeof(f->evidence),
		 "%u busy queues are polled on CPU %u: %s; NET_RX softirqs took %.1f%% of CPU %u and "
		 "%.1f%% of CPU %u, which polls no busy queue", nr, cpu, list, doctor_net_rx_pct(t, cpu), cpu,
		 doctor_net_rx_pct(t, idle_cpu), idle_cpu);
	doctor_figure(f, "cpu", cpu);
	doctor_figure(f, "busy_queues", nr);
	doctor_figure(f, "net_rx_pct", doctor_net_rx_pct(t, cpu));
	doctor_figure(f, "idle_cpu", idle_cpu);
	doctor_figure(f, "idle_cpu_net_rx_pct", doctor_net_rx_pct(t, idle_cpu));
	f->confidence = all_there ? DOCTOR_HIGH : DOCTOR_MEDIUM;
	snprintf(f->confidence_why, sizeof(f->confidence_why), "%s",
		 all_there ? "every interval's polls of these queues ended on that CPU" :
			     "some of their intervals' polls ended elsewhere: the CPU is where most were");
	snprintf(f->next, sizeof(f->next),
		 "give the busy queues CPUs of their own: move one's IRQ (IRQs %s) to CPU %u with echo %u > "
		 "/proc/irq/N/smp_affinity_list (an irqbalance daemon may move it back: ban the IRQ there)",
		 irqs[0] ? irqs : "unknown", idle_cpu, idle_cpu);
}

static void check_shared_cpu(const struct doctor_totals *t, const struct doctor_thresholds *th,
			     struct doctor_report *r)
{
	unsigned int per_cpu[DOCTOR_MAX_CPUS] = { 0 };
	unsigned int i, cpu, idle = DOCTOR_MAX_CPUS, most = 0, nr_cpus = t->nr_cpus;

	if (nr_cpus > DOCTOR_MAX_CPUS)
		nr_cpus = DOCTOR_MAX_CPUS;
	for (i = 0; i < t->nr_queues; i++)
		if (busy(t, th, &t->queues[i]) && doctor_queue_cpu(&t->queues[i]) < DOCTOR_MAX_CPUS)
			per_cpu[doctor_queue_cpu(&t->queues[i])]++;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (!per_cpu[cpu] && idle == DOCTOR_MAX_CPUS)
			idle = cpu;
		if (per_cpu[cpu] > most)
			most = per_cpu[cpu];
	}
	for (cpu = 0; cpu < nr_cpus && idle < DOCTOR_MAX_CPUS; cpu++)
		if (per_cpu[cpu] >= 2)
			shared_cpu(t, th, r, cpu, idle);
	if (doctor_found(r, "shared_cpu"))
		return;
	if (idle == DOCTOR_MAX_CPUS && most >= 2)
		doctor_clear_add(r, "shared_cpu", "every one of the %u CPUs polls a busy queue (busy_pps=%g)",
				 nr_cpus, TH(DT_BUSY_PPS));
	else
		doctor_clear_add(r, "shared_cpu", "no CPU polls more than %u busy queue%s (busy_pps=%g)",
				 most, most == 1 ? "" : "s", TH(DT_BUSY_PPS));
}

static void check_irq_affinity(const struct doctor_totals *t, const struct doctor_thresholds *th,
			       struct doctor_report *r)
{
	unsigned int i, judged = 0;
	char label[48];

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		unsigned int cpu = doctor_queue_cpu(q);
		struct doctor_finding *f;

		if (!busy(t, th, q) || !q->irq || !q->affinity[0])
			continue;
		judged++;
		if (doctor_cpu_listed(q->affinity, cpu))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "irq_affinity", label);
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "its polls ran on CPU %u (%.0f packets/s), its IRQ %u may run on CPUs %s only",
			 cpu, doctor_per_s(t, q->packets), q->irq, q->affinity);
		doctor_figure(f, "cpu", cpu);
		doctor_figure(f, "irq", q->irq);
		doctor_figure(f, "packets_per_s", doctor_per_s(t, q->packets));
		f->confidence = only_on(q, cpu) ? DOCTOR_HIGH : DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why), "%s; the affinity was read at the end",
			 only_on(q, cpu) ? "every interval's polls ended on that CPU" :
					   "most of its polls ended on that CPU, not all");
		snprintf(f->next, sizeof(f->next),
			 "the NAPI runs away from its interrupt: a NAPI thread (cat /sys/class/net/%s/threaded), "
			 "or the affinity changed during the run (cat /proc/irq/%u/effective_affinity_list); "
			 "put the IRQ where its packets are consumed", q->ifname, q->irq);
	}
	if (doctor_found(r, "irq_affinity"))
		return;
	doctor_clear_add(r, "irq_affinity", "%u busy queue%s with a known IRQ affinity, each polled inside it "
			 "(busy_pps=%g)", judged, judged == 1 ? "" : "s", TH(DT_BUSY_PPS));
}

static void check_consumer(const struct doctor_totals *t, const struct doctor_thresholds *th,
			   struct doctor_report *r)
{
	const struct doctor_consumer *c = &t->consumer;
	unsigned int i, judged = 0;
	char label[48];
	double on_cpu;

	if (!c->pid) {
		doctor_clear_add(r, "consumer_cpu", "no --pid named the consuming process");
		return;
	}
	if (!c->samples) {
		doctor_clear_add(r, "consumer_cpu", "pid %d was never seen", c->pid);
		return;
	}
	on_cpu = doctor_pct(c->samples_on_cpu, c->samples);
	if (on_cpu < TH(DT_CONSUMER_PCT)) {
		doctor_clear_add(r, "consumer_cpu", "%s (pid %d) ran on CPU %u in %u of %u samples (%.1f%%, "
				 "consumer_pct=%g): it moves between CPUs, no CPU to compare with",
				 c->comm, c->pid, c->cpu, c->samples_on_cpu, c->samples, on_cpu, TH(DT_CONSUMER_PCT));
		return;
	}
	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		unsigned int cpu = doctor_queue_cpu(q);
		struct doctor_finding *f;

		if (!busy(t, th, q) || !doctor_receives(q))
			continue;
		judged++;
		if (cpu == c->cpu)
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "consumer_cpu", label);
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "its polls ran on CPU %u (%.0f packets/s, IRQ %u, affinity %s); %s (pid %d) ran on "
			 "CPU %u in %u of %u samples: every packet is handed to another CPU", cpu,
			 doctor_per_s(t, q->packets), q->irq, q->affinity[0] ? q->affinity : "unknown",
			 c->comm, c->pid, c->cpu, c->samples_on_cpu, c->samples);
		doctor_figure(f, "cpu", cpu);
		doctor_figure(f, "consumer_cpu", c->cpu);
		doctor_figure(f, "consumer_on_cpu_pct", on_cpu);
		doctor_figure(f, "packets_per_s", doctor_per_s(t, q->packets));
		f->confidence = DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "which queues pid %d reads is not known: every busy RX queue is compared", c->pid);
		snprintf(f->next, sizeof(f->next),
			 "put them on one CPU (or one cache): the IRQ on the consumer's (echo %u > "
			 "/proc/irq/%u/smp_affinity_list) or the consumer on the queue's (taskset -pc %u %d); "
			 "or let RFS steer (net.core.rps_sock_flow_entries)", c->cpu, q->irq, cpu, c->pid);
	}
	if (!doctor_found(r, "consumer_cpu"))
		doctor_clear_add(r, "consumer_cpu", "%s (pid %d) ran on CPU %u, where each of the %u busy RX "
				 "queues is polled (busy_pps=%g)", c->comm, c->pid, c->cpu, judged, TH(DT_BUSY_PPS));
}

void doctor_check_placement(const struct doctor_totals *t, const struct doctor_thresholds *th,
			    struct doctor_report *r)
{
	check_shared_cpu(t, th, r);
	check_irq_affinity(t, th, r);
	check_consumer(t, th, r);
}
