// SPDX-License-Identifier: GPL-2.0
#include "doctor/doctor_checks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void doctor_check_budget(const struct doctor_totals *t, const struct doctor_thresholds *th,
			 struct doctor_report *r)
{
	const struct doctor_queue *top = NULL;
	unsigned int i;
	char label[48];

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];
		double share = doctor_pct(q->budget_exhausted, q->polls);
		unsigned int cpu = doctor_queue_cpu(q);
		struct doctor_finding *f;

		if (q->polls < TH(DT_MIN_POLLS) || !q->polls)
			continue;
		if (!top || share > doctor_pct(top->budget_exhausted, top->polls))
			top = q;
		if (share < TH(DT_BUDGET_PCT))
			continue;
		doctor_queue_label(q, label, sizeof(label));
		f = doctor_add_finding(r, "budget_exhausted", label);
		if (!f)
			continue;
		snprintf(f->evidence, sizeof(f->evidence),
			 "%llu of %llu polls (%.1f%%) used their whole budget, %.1f packets per poll; "
			 "its CPU %u spent %.1f%% of the run in NET_RX softirqs",
			 (unsigned long long)q->budget_exhausted, (unsigned long long)q->polls, share,
			 (double)q->packets / q->polls, cpu, doctor_net_rx_pct(t, cpu));
		doctor_figure(f, "polls", q->polls);
		doctor_figure(f, "budget_exhausted", q->budget_exhausted);
		doctor_figure(f, "budget_pct", share);
		doctor_figure(f, "packets_per_poll", (double)q->packets / q->polls);
		doctor_figure(f, "net_rx_pct", doctor_net_rx_pct(t, cpu));
		f->confidence = q->polls >= 10 * TH(DT_MIN_POLLS) ? DOCTOR_HIGH : DOCTOR_MEDIUM;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "every poll counted by the kernel, %llu polls (%s 10 x min_polls=%g)",
			 (unsigned long long)q->polls, f->confidence == DOCTOR_HIGH ? "at least" : "under",
			 TH(DT_MIN_POLLS));
		snprintf(f->next, sizeof(f->next),
			 "%s comes faster than one poll takes it: spread it over more queues (ethtool -L %s) "
			 "or other CPUs (ethtool -X %s), poll it in a thread of its own (echo 1 > "
			 "/sys/class/net/%s/threaded) or busy-poll it (SO_BUSY_POLL); raise "
			 "net.core.netdev_budget if the softirq also stops early (softnet_stat's third column)",
			 q->dir == NETPMU_QUEUE_TX ? "TX completion work" : "traffic", q->ifname, q->ifname,
			 q->ifname);
	}
	if (doctor_found(r, "budget_exhausted"))
		return;
	if (!top) {
		doctor_clear_add(r, "budget_exhausted", "no queue polled min_polls=%g times", TH(DT_MIN_POLLS));
		return;
	}
	doctor_queue_label(top, label, sizeof(label));
	doctor_clear_add(r, "budget_exhausted", "the highest share, %s's, is %.1f%% of %llu polls (budget_pct=%g)",
		  label, doctor_pct(top->budget_exhausted, top->polls), (unsigned long long)top->polls,
		  TH(DT_BUDGET_PCT));
}

/* The NIC's RX packet rate of a queue over the intervals it measured; < 0: not measured. */
static double hw_rate(const struct doctor_queue *q)
{
	return q->hw.ns ? q->hw.rx_packets * 1e9 / q->hw.ns : -1;
}

static void imbalance_of(const struct doctor_totals *t, const struct doctor_thresholds *th,
			 const char *ifname, struct doctor_report *r)
{
	const struct doctor_queue *busiest = NULL, *hw_busiest = NULL;
	uint64_t total = 0;
	double hw_total = 0, share, hw_share = -1;
	unsigned int i, nr = 0, nr_hw = 0;
	char list[256] = "", label[48];
	size_t used = 0;
	struct doctor_finding *f;

	for (i = 0; i < t->nr_queues; i++) {
		const struct doctor_queue *q = &t->queues[i];

		if (!doctor_receives(q) || strcmp(q->ifname, ifname))
			continue;
		nr++;
		total += q->packets;
		if (!busiest || q->packets > busiest->packets)
			busiest = q;
		if (used < sizeof(list))
			used += snprintf(list + used, sizeof(list) - used, "%s%d: %llu", used ? ", " : "",
					 q->queue, (unsigned long long)q->packets);
		if (hw_rate(q) >= 0) {
			nr_hw++;
			hw_total += hw_rate(q);
			if (!hw_busiest || hw_rate(q) > hw_rate(hw_busiest))
				hw_busiest = q;
		}
	}
	if (nr < 2) {
		doctor_clear_add(r, "imbalance", "%s: one RX queue, nothing to balance", ifname);
		return;
	}
	if (total < TH(DT_MIN_PACKETS) || !total) {
		doctor_clear_add(r, "imbalance", "%s: %llu RX packets, under min_packets=%g", ifname,
			  (unsigned long long)total, TH(DT_MIN_PACKETS));
		return;
	}
	share = doctor_pct(busiest->packets, total);
	if (nr_hw >= 2 && hw_total > 0)
		hw_share = 100 * hw_rate(hw_busiest) / hw_total;
	if (share < TH(DT_IMBALANCE_PCT)) {
		doctor_clear_add(r, "imbalance", "%s: the busiest RX queue, %d, carries %.1f%% of %llu packets "
			  "(imbalance_pct=%g)", ifname, busiest->queue, share, (unsigned long long)total,
			  TH(DT_IMBALANCE_PCT));
		return;
	}
	f = doctor_add_finding(r, "imbalance", ifname);
	if (!f)
		return;
	doctor_queue_label(busiest, label, sizeof(label));
	used = snprintf(f->evidence, sizeof(f->evidence),
			"%s carried %llu of %llu RX packets (%.1f%%) over %u queues (by queue: %s)", label,
			(unsigned long long)busiest->packets, (unsigned long long)total, share, nr, list);
	doctor_figure(f, "queues", nr);
	doctor_figure(f, "packets", total);
	doctor_figure(f, "busiest_queue", busiest->queue);
	doctor_figure(f, "busiest_pct", share);
	if (hw_share >= 0) {
		snprintf(f->evidence + used, sizeof(f->evidence) - used,
			 "; the NIC's own counters give queue %d %.1f%% of the RX packet rate of the %u queues "
			 "they measured", hw_busiest->queue, hw_share, nr_hw);
		doctor_figure(f, "hw_busiest_pct", hw_share);
	}
	if (hw_share < 0) {
		f->confidence = DOCTOR_MEDIUM;
		if (nr_hw < 2)
			snprintf(f->confidence_why, sizeof(f->confidence_why),
				 "from NAPI's counts only: the NIC's counters measured %u of its %u queues", nr_hw, nr);
		else
			snprintf(f->confidence_why, sizeof(f->confidence_why),
				 "from NAPI's counts only: the NIC's counters counted no packet in the intervals "
				 "they measured its queues");
	} else if (hw_busiest == busiest && hw_share >= TH(DT_IMBALANCE_PCT)) {
		f->confidence = DOCTOR_HIGH;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "NAPI's counts and the NIC's own counters agree on queue %d", busiest->queue);
	} else {
		f->confidence = DOCTOR_LOW;
		snprintf(f->confidence_why, sizeof(f->confidence_why),
			 "the NIC's counters disagree (queue %d, %.1f%%): they measured each queue a part "
			 "of the run only", hw_busiest->queue, hw_share);
	}
	snprintf(f->next, sizeof(f->next),
		 "see where RSS sends the flows: the indirection table (ethtool -x %s, even it out with "
		 "ethtool -X %s equal N) and the hashed fields (ethtool -n %s rx-flow-hash udp4); one flow "
		 "always lands on one queue: spread it with RPS/RFS or send more flows",
		 ifname, ifname, ifname);
}

void doctor_check_imbalance(const struct doctor_totals *t, const struct doctor_thresholds *th,
			    struct doctor_report *r)
{
	unsigned int i, j;

	for (i = 0; i < t->nr_queues; i++) {
		for (j = 0; j < i; j++)
			if (doctor_receives(&t->queues[j]) && !strcmp(t->queues[j].ifname, t->queues[i].ifname))
				break;
		if (doctor_receives(&t->queues[i]) && j == i)
			imbalance_of(t, th, t->queues[i].ifname, r);
	}
	if (doctor_found(r, "imbalance"))
		return;
	for (i = 0; i < r->nr_clear; i++)
		if (!strcmp(r->clear[i].check, "imbalance"))
			return;
	doctor_clear_add(r, "imbalance", "no device received packets");
}

static doctor_check_fn *const checks[] = {
	doctor_check_budget,
	doctor_check_imbalance,
	doctor_check_placement,
	doctor_check_coalescing,
	doctor_check_coalescing_loose,
	doctor_check_hw_sw,
	doctor_check_nic_latency,
	doctor_check_pcie_bandwidth,
	doctor_check_pcie_latency,
};

void doctor_diagnose(const struct doctor_totals *t, const struct doctor_thresholds *th,
		     struct doctor_report *report)
{
	unsigned int i, kept = 0;

	memset(report, 0, sizeof(*report));
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		checks[i](t, th, report);
	/* A check that found something on one device says nothing about the others. */
	for (i = 0; i < report->nr_clear; i++)
		if (!doctor_found(report, report->clear[i].check))
			report->clear[kept++] = report->clear[i];
	report->nr_clear = kept;
}
