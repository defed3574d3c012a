// SPDX-License-Identifier: GPL-2.0
/*
 * Test driver for netpmu doctor's diagnosis and output (user/doctor/): reads
 * what a run measured, one thing a line, and prints the report netpmu doctor
 * would print for it.
 *
 *   doctor_dump [--json] [--threshold NAME=VALUE]... < FIXTURE
 *
 * Lines (KEY=VALUE words after the kind; '#' starts a comment):
 *   run duration=S cpus=N [pmu=NAME] [clk=HZ]
 *   queue dev=IF queue=Q dir=rx|tx|rxtx [func=F] [irq=N] [affinity=LIST] [polls=N]
 *         [packets=N] [budget_exhausted=N] [irqs=N] [irq_ns=N] [poll_ns=N] [busy_ns=N] [cpu=C]
 *         [on=CPU:POLLS:PACKETS]... [hw_intervals=N] [hw_ns=N] [hw_rx_packets=N]
 *         [hw_napi_packets=N] [hw_lat_cycles=N] [hw_lat_packets=N]
 *       a queue's totals; without on=, every poll on cpu= (0)
 *   record napi=K dev=IF queue=Q dir=D [func=F] [cpu=C] [interval_ns=N] [polls=N]
 *         [packets=N] [gen=G] [rx_packets=N]
 *       one interval record, summed as a run sums them: gen=G binds the NIC's
 *       RX packet counter (counter 0) to the queue with generation G
 *   idle func=F queue=Q dir=D [irq=N]   a queue no record named
 *   restart   a NIC's queues changed: the sums start again (doctor_totals_restart)
 *   cpu cpu=C net_rx_ns=N
 *   consumer pid=P comm=NAME on=CPU:SAMPLES...
 *   pcie pmu=NAME rp=ADDR target=TEXT [link=TEXT] [link_mbps=N] [declared=1] [up_bytes=N]
 *        [down_bytes=N] [ns=N] [peak_up_bps=N] [peak_down_bps=N] [lat_cycles=N] [lat_tlps=N]
 *        [clk=HZ]   the PCIe link's counts ('_' in TEXT is a space); lat_*: the latency pair counted
 *   pcie not_measured=TEXT   why the link was not measured
 * A bad line: "error: line N: WHY", status 2; a refused threshold: "error: WHY", status 2.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_report.h"
#include "doctor/doctor_rules.h"
#include "doctor/doctor_totals.h"

static unsigned int dir_of(const char *v)
{
	return !strcmp(v, "rx") ? NETPMU_QUEUE_RX : !strcmp(v, "tx") ? NETPMU_QUEUE_TX : NETPMU_QUEUE_RXTX;
}

static unsigned long long num(const char *v)
{
	return strtoull(v, NULL, 0);
}

static int queue_word(struct doctor_queue *q, const char *key, const char *v, unsigned int *cpu, bool *on)
{
	unsigned int c;
	unsigned long long polls, packets;

	if (!strcmp(key, "dev"))
		snprintf(q->ifname, sizeof(q->ifname), "%s", v);
	else if (!strcmp(key, "queue"))
		q->queue = atoi(v);
	else if (!strcmp(key, "dir"))
		q->dir = dir_of(v);
	else if (!strcmp(key, "func"))
		q->func_id = num(v);
	else if (!strcmp(key, "irq"))
		q->irq = num(v);
	else if (!strcmp(key, "affinity"))
		snprintf(q->affinity, sizeof(q->affinity), "%s", v);
	else if (!strcmp(key, "polls"))
		q->polls = num(v);
	else if (!strcmp(key, "packets"))
		q->packets = num(v);
	else if (!strcmp(key, "budget_exhausted"))
		q->budget_exhausted = num(v);
	else if (!strcmp(key, "irqs"))
		q->irqs = num(v);
	else if (!strcmp(key, "irq_ns"))
		q->irq_ns = num(v);
	else if (!strcmp(key, "busy_ns"))
		q->busy_ns = num(v);
	else if (!strcmp(key, "poll_ns")) {
		q->poll_ns = num(v);
		q->has_poll_time = true;
	}
	else if (!strcmp(key, "cpu"))
		*cpu = num(v);
	else if (!strcmp(key, "on") && sscanf(v, "%u:%llu:%llu", &c, &polls, &packets) == 3) {
		doctor_queue_add_cpu(q, c, polls, packets);
		*on = true;
	} else if (!strcmp(key, "hw_intervals"))
		q->hw.intervals = num(v);
	else if (!strcmp(key, "hw_ns"))
		q->hw.ns = num(v);
	else if (!strcmp(key, "hw_rx_packets"))
		q->hw.rx_packets = num(v);
	else if (!strcmp(key, "hw_napi_packets"))
		q->hw.napi_packets = num(v);
	else if (!strcmp(key, "hw_lat_cycles"))
		q->hw.latency_cycles = num(v);
	else if (!strcmp(key, "hw_lat_packets"))
		q->hw.latency_packets = num(v);
	else
		return -1;
	return 0;
}

static int record_word(struct netpmu_queue_record *r, const char *key, const char *v)
{
	if (!strcmp(key, "napi"))
		r->napi_key = num(v);
	else if (!strcmp(key, "dev"))
		snprintf(r->ifname, sizeof(r->ifname), "%s", v);
	else if (!strcmp(key, "queue"))
		r->queue = atoi(v);
	else if (!strcmp(key, "dir"))
		r->dir = dir_of(v);
	else if (!strcmp(key, "func"))
		r->func_id = num(v);
	else if (!strcmp(key, "cpu"))
		r->cpu = num(v);
	else if (!strcmp(key, "interval_ns"))
		r->interval_ns = num(v);
	else if (!strcmp(key, "polls"))
		r->polls = num(v);
	else if (!strcmp(key, "packets"))
		r->packets = num(v);
	else if (!strcmp(key, "gen")) {
		r->counter_mask = 1;
		r->counters[0].generation = num(v);
	} else if (!strcmp(key, "rx_packets"))
		r->counters[0].delta = num(v);
	else
		return -1;
	return 0;
}

/* '_' stands for a space in a fixture's text values. */
static void text_value(char *buf, size_t len, const char *v)
{
	char *c;

	snprintf(buf, len, "%s", v);
	for (c = buf; *c; c++)
		if (*c == '_')
			*c = ' ';
}

static int pcie_word(struct doctor_pcie *p, const char *key, const char *v)
{
	if (!strcmp(key, "pmu"))
		snprintf(p->pmu, sizeof(p->pmu), "%s", v);
	else if (!strcmp(key, "not_measured"))
		text_value(p->not_measured, sizeof(p->not_measured), v);
	else if (!strcmp(key, "rp"))
		snprintf(p->root_port, sizeof(p->root_port), "%s", v);
	else if (!strcmp(key, "target"))
		text_value(p->target, sizeof(p->target), v);
	else if (!strcmp(key, "link"))
		text_value(p->link, sizeof(p->link), v);
	else if (!strcmp(key, "link_mbps"))
		p->link_mbps = strtod(v, NULL);
	else if (!strcmp(key, "declared"))
		p->link_declared = num(v);
	else if (!strcmp(key, "up_bytes"))
		p->up_bytes = num(v);
	else if (!strcmp(key, "down_bytes"))
		p->down_bytes = num(v);
	else if (!strcmp(key, "ns"))
		p->ns = num(v);
	else if (!strcmp(key, "peak_up_bps"))
		p->peak_up_bps = strtod(v, NULL);
	else if (!strcmp(key, "peak_down_bps"))
		p->peak_down_bps = strtod(v, NULL);
	else if (!strcmp(key, "lat_cycles")) {
		p->latency_cycles = num(v);
		p->has_latency = true;
	} else if (!strcmp(key, "lat_tlps")) {
		p->latency_tlps = num(v);
		p->has_latency = true;
	} else if (!strcmp(key, "clk"))
		p->clk_hz = strtod(v, NULL);
	else
		return -1;
	return 0;
}

static int parse_line(struct doctor_totals *t, char *line)
{
	static const struct doctor_counter_roles roles = { 0, -1, -1, -1, -1 };
	char *kind = strtok(line, " \t\n"), *word;
	struct doctor_queue q = { .queue = -1 };
	struct netpmu_queue_record r = { .kind = NETPMU_RECORD_QUEUE, .queue = -1 };
	unsigned int cpu = 0, idle_func = 0, idle_irq = 0;
	int idle_queue = -1, idle_dir = 0;
	bool on = false;

	if (!kind || kind[0] == '#')
		return 0;
	if (!strcmp(kind, "restart")) {
		doctor_totals_restart(t);
		return strtok(NULL, " \t\n") ? -1 : 0;
	}
	while ((word = strtok(NULL, " \t\n"))) {
		char *eq = strchr(word, '='), *v;
		int bad = 0;

		if (!eq)
			return -1;
		*eq = '\0';
		v = eq + 1;
		if (!strcmp(kind, "run")) {
			if (!strcmp(word, "duration"))
				t->duration_s = strtod(v, NULL);
			else if (!strcmp(word, "cpus"))
				t->nr_cpus = num(v);
			else if (!strcmp(word, "pmu"))
				snprintf(t->hw_pmu, sizeof(t->hw_pmu), "%s", v);
			else if (!strcmp(word, "clk"))
				t->hw_clk_freq = num(v);
			else
				bad = 1;
		} else if (!strcmp(kind, "queue")) {
			bad = queue_word(&q, word, v, &cpu, &on);
		} else if (!strcmp(kind, "record")) {
			bad = record_word(&r, word, v);
		} else if (!strcmp(kind, "idle")) {
			if (!strcmp(word, "func"))
				idle_func = num(v);
			else if (!strcmp(word, "queue"))
				idle_queue = atoi(v);
			else if (!strcmp(word, "dir"))
				idle_dir = dir_of(v);
			else if (!strcmp(word, "irq"))
				idle_irq = num(v);
			else
				bad = 1;
		} else if (!strcmp(kind, "cpu")) {
			if (!strcmp(word, "cpu"))
				cpu = num(v);
			else if (!strcmp(word, "net_rx_ns") && cpu < DOCTOR_MAX_CPUS)
				t->cpus[cpu].net_rx_ns = num(v);
			else
				bad = 1;
		} else if (!strcmp(kind, "pcie")) {
			bad = pcie_word(&t->pcie, word, v);
		} else if (!strcmp(kind, "consumer")) {
			unsigned int c, n;

			if (!strcmp(word, "pid"))
				t->consumer.pid = atoi(v);
			else if (!strcmp(word, "comm"))
				snprintf(t->consumer.comm, sizeof(t->consumer.comm), "%s", v);
			else if (!strcmp(word, "on") && sscanf(v, "%u:%u", &c, &n) == 2)
				while (n--)
					doctor_totals_consumer_seen(t, c);
			else
				bad = 1;
		} else {
			return -1;
		}
		if (bad)
			return -1;
	}
	if (!strcmp(kind, "queue")) {
		if (!on && q.polls)
			doctor_queue_add_cpu(&q, cpu, q.polls, q.packets);
		q.napi_key = t->nr_queues + 1;
		if (t->nr_queues < DOCTOR_MAX_QUEUES)
			t->queues[t->nr_queues++] = q;
	} else if (!strcmp(kind, "record")) {
		doctor_totals_add_queue(t, &r, &roles);
	} else if (!strcmp(kind, "idle")) {
		doctor_totals_add_idle(t, idle_func, idle_queue, idle_dir, idle_irq);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "threshold", required_argument, NULL, 't' },
		{ 0 }
	};
	static struct doctor_totals totals;
	static struct doctor_report report;
	struct doctor_thresholds th;
	bool json = false;
	char line[4096], why[512];
	unsigned int n = 0;
	int c;

	doctor_thresholds_init(&th);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'j') {
			json = true;
		} else if (c == 't') {
			if (doctor_threshold_set(&th, optarg, why, sizeof(why))) {
				printf("error: %s\n", why);
				return 2;
			}
		} else {
			return 2;
		}
	}
	while (fgets(line, sizeof(line), stdin)) {
		n++;
		if (parse_line(&totals, line)) {
			printf("error: line %u: not understood\n", n);
			return 2;
		}
	}
	doctor_totals_sort(&totals);
	doctor_diagnose(&totals, &th, &report);
	if (json)
		doctor_report_json(stdout, &totals, &report);
	else
		doctor_report_text(stdout, &totals, &report);
	return 0;
}
