// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: the -e events' pairs as bytes, packets, interrupts and latency. */
#include <stdio.h>
#include <string.h>

#include "event/hns3_filter.h"
#include "lib/why_line.h"
#include "pmu/metric.h"
#include "queue/queue_map.h"
#include "serve/serve_pairs.h"
#include "sys/pci_address.h"
#include "sys/pci_sysfs.h"

/* The filter terms a meaning family keeps as written: bdf and queue become dev, queue, root_port, endpoint. */
static const char *const hns3_terms[] = { "port", "tc", "intr", "global" };
static const char *const pcie_terms[] = { "port", "len_mode", "thr_len", "thr_mode", "trig_len", "trig_mode" };

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* The family counter 0 of a pair of KIND counts into; FAM_NR: raw only. */
static enum metric_family_id counter0_family(enum metric_kind kind)
{
	switch (kind) {
	case METRIC_HNS3_BANDWIDTH: return FAM_HNS3_BYTES;
	case METRIC_HNS3_PACKET_RATE: return FAM_HNS3_PACKETS;
	case METRIC_HNS3_INTERRUPT_RATE: return FAM_HNS3_INTERRUPTS;
	case METRIC_HNS3_LATENCY: return FAM_HNS3_LATENCY;
	case METRIC_PCIE_BANDWIDTH: return FAM_PCIE_BYTES;
	default: return FAM_NR;
	}
}

/* dev: the interface (or PCI address) of the NIC function DOMAIN:BDF; nothing if not a NIC the map knows. */
static int add_nic_dev(char *labels, size_t len, const struct queue_map *queues, unsigned int domain,
		       unsigned int bdf)
{
	char addr[PCI_ADDR_TEXT_LEN];
	int func_id;

	format_pci_address(domain, bdf, addr);
	func_id = queues ? queue_map_func_id(queues, addr) : 0;
	return func_id > 0 ? metric_labels_add(labels, len, "dev", serve_func_dev(queues, func_id)) : 0;
}

/* The only NIC function below Root Port RP (domain DOMAIN), or -1 (none, or several). */
static int nic_below(const struct queue_map *queues, const char *sysfs_root, unsigned int domain, unsigned int rp)
{
	int found = -1;

	for (size_t i = 0; queues && i < queues->nr_functions; i++) {
		unsigned int dom, bdf, above;

		if (!parse_pci_address(queues->functions[i], strlen(queues->functions[i]), &dom, &bdf) ||
		    dom != domain || bdf == rp || pci_root_port_of(sysfs_root, dom, bdf, &above) || above != rp)
			continue;
		if (found >= 0)
			return -1;
		found = bdf;
	}
	return found;
}

/*
 * A PCIe bandwidth counter filtered on bdf=B: target (which of the two the
 * filter counts), root_port, endpoint (B, or the only NIC below the Root
 * Port B) and the endpoint's dev. A port bitmap names no address sysfs
 * could tell (on a Hip09 the bit is the port's lane offset): none of them.
 */
static int add_pcie_place(char *labels, size_t len, const struct parsed_event *ev, const char *sysfs_root,
			  const struct queue_map *queues)
{
	unsigned int domain = pmu_dir_pci_domain(ev->pmu->dir);
	char addr[PCI_ADDR_TEXT_LEN];
	unsigned int rp;
	uint64_t port, bdf;
	int endpoint;
	bool given;

	event_field_read(ev, "port", &port, &given);
	if (port)
		return 0;
	event_field_read(ev, "bdf", &bdf, &given);
	if (pci_root_port_of(sysfs_root, domain, bdf, &rp))
		return 0;	/* sysfs cannot place it: the filter terms say what it counts */
	endpoint = rp == bdf ? nic_below(queues, sysfs_root, domain, rp) : (int)bdf;
	format_pci_address(domain, rp, addr);
	if (metric_labels_add(labels, len, "target", rp == bdf ? "root_port" : "endpoint") ||
	    metric_labels_add(labels, len, "root_port", addr))
		return -1;
	if (endpoint < 0)
		return 0;
	format_pci_address(domain, endpoint, addr);
	if (metric_labels_add(labels, len, "endpoint", addr))
		return -1;
	return add_nic_dev(labels, len, queues, domain, endpoint);
}

/* An HNS3 counter: dev where the driver's filter mode names a function (func*), queue where func-queue. */
static int add_hns3_place(char *labels, size_t len, const struct parsed_event *ev, const char *sysfs_root,
			  const struct queue_map *queues)
{
	unsigned int domain = pmu_dir_pci_domain(ev->pmu->dir);
	char addr[PCI_ADDR_TEXT_LEN], number[24], why[256];
	struct filter_choice choice;
	uint64_t bdf, queue;
	bool given;
	int func_id;

	if (hns3_filter_check(ev, sysfs_root, &choice, why, sizeof(why)) || strncmp(choice.mode, "func", 4))
		return 0;
	event_field_read(ev, "bdf", &bdf, &given);
	format_pci_address(domain, bdf, addr);
	func_id = queues ? queue_map_func_id(queues, addr) : 0;
	if (metric_labels_add(labels, len, "dev", func_id > 0 ? serve_func_dev(queues, func_id) : addr))
		return -1;
	if (strcmp(choice.mode, "func-queue"))
		return 0;
	event_field_read(ev, "queue", &queue, &given);
	snprintf(number, sizeof(number), "%llu", (unsigned long long)queue);
	return metric_labels_add(labels, len, "queue", number);
}

static int meaning_labels(const struct parsed_event *ev, const struct metric *m, const char *sysfs_root,
			  const struct queue_map *queues, char *labels, size_t len)
{
	bool hns3 = ev->pmu->name_info.kind == PMU_KIND_HNS3;

	labels[0] = '\0';
	if (metric_labels_add(labels, len, "pmu", ev->pmu_name) || metric_labels_add(labels, len, "event", m->name))
		return -1;
	if (hns3 ? add_hns3_place(labels, len, ev, sysfs_root, queues) :
		   add_pcie_place(labels, len, ev, sysfs_root, queues))
		return -1;
	return serve_term_labels(labels, len, ev->written, hns3 ? hns3_terms : pcie_terms,
				 hns3 ? NR(hns3_terms) : NR(pcie_terms));
}

/* The counter 1 of EV's latency pair among EVS (same PMU, same filter) not yet taken, or -1. */
static int latency_partner(const struct parsed_event *evs, unsigned int n, const struct parsed_event *ev,
			   const struct metric *m, const bool *taken)
{
	for (unsigned int j = 0; j < n; j++) {
		const struct parsed_event *o = &evs[j];

		if (!taken[j] && o->pmu == ev->pmu && o->event == m->counter[1] &&
		    o->spec.config[1] == ev->spec.config[1] && o->spec.config[2] == ev->spec.config[2])
			return j;
	}
	return -1;
}

int serve_pairs_describe(const struct parsed_event *evs, unsigned int n, const struct metric_set *metrics,
			 const char *sysfs_root, const struct queue_map *queues, struct serve_counter *described,
			 struct session_counter *counters, char *why, size_t why_len)
{
	bool taken[NETPMU_MAX_COUNTERS] = { false };

	for (unsigned int i = 0; i < n; i++) {
		const struct parsed_event *ev = &evs[i];
		struct serve_counter *c = &described[i];
		const struct metric *m;
		unsigned int which;

		c->meaning = FAM_NR;
		c->partner = -1;
		m = ev->event ? metric_of_event(metrics, ev->pmu, ev->event, &which) : NULL;
		if (!m || which != 0 || counter0_family(m->kind) == FAM_NR)
			continue;
		if (m->kind == METRIC_HNS3_LATENCY) {
			/* Seconds need the PMU's clock, and a count the pair's packet counter. */
			if (!ev->pmu->has_hw_clk_freq || !ev->pmu->hw_clk_freq)
				continue;
			c->partner = latency_partner(evs, n, ev, m, taken);
			if (c->partner < 0)
				continue;
			taken[c->partner] = true;
			c->seconds_per_cycle = 1.0 / ev->pmu->hw_clk_freq;
			/* The later of the two joins the earlier's group. */
			if ((unsigned int)c->partner > i)
				counters[c->partner].group_with = i;
			else
				counters[i].group_with = c->partner;
		}
		if (meaning_labels(ev, m, sysfs_root, queues, c->meaning_labels, sizeof(c->meaning_labels)))
			return why_fail(why, why_len, "event '%s': its labels are too long", ev->written);
		c->meaning = counter0_family(m->kind);
	}
	return 0;
}
