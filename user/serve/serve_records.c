// SPDX-License-Identifier: GPL-2.0
/* netpmu serve: interval records into 64-bit series. */
#include <stdio.h>
#include <string.h>

#include "queue/queue_map.h"
#include "serve/serve_records.h"
#include "sys/pci_address.h"
#include "sys/pci_sysfs.h"

static const char *const dir_names[] = { "rxtx", "rx", "tx" };

/* The filter terms that become labels of netpmu_pmu_event_total. */
static const char *const term_labels[] = {
	"bdf", "queue", "port", "tc", "intr", "global", "func", "dev", "thr_len", "thr_mode",
	"len_mode", "trig_len", "trig_mode", "subevent", "event_id",
};

static const char *func_bdf(const struct queue_map *q, unsigned int func_id)
{
	return q && func_id && func_id <= q->nr_functions ? q->functions[func_id - 1] : "";
}

const char *serve_func_dev(const struct queue_map *q, unsigned int func_id)
{
	for (size_t i = 0; q && i < q->nr_vectors; i++)
		if (q->vectors[i].func_id == func_id && q->vectors[i].ifname[0])
			return q->vectors[i].ifname;
	return func_bdf(q, func_id);
}

static bool in_names(char **names, size_t n, const char *dev, const char *bdf)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], dev) || (*bdf && (!strcmp(names[i], bdf) || !strcmp(names[i], bdf + 5))))
			return true;
	return false;
}

static bool in_queues(const unsigned int *queues, size_t n, int queue)
{
	for (size_t i = 0; i < n; i++)
		if (queue >= 0 && queues[i] == (unsigned int)queue)
			return true;
	return false;
}

static bool wanted(const struct serve_filter *f, const char *dev, const char *bdf, int queue)
{
	if (f->nr_include_devs && !in_names(f->include_devs, f->nr_include_devs, dev, bdf))
		return false;
	if (in_names(f->exclude_devs, f->nr_exclude_devs, dev, bdf))
		return false;
	if (f->nr_include_queues && !in_queues(f->include_queues, f->nr_include_queues, queue))
		return false;
	return !in_queues(f->exclude_queues, f->nr_exclude_queues, queue);
}

static void queue_label(char *buf, size_t len, int queue, unsigned int napi_id)
{
	if (queue >= 0)
		snprintf(buf, len, "%d", queue);
	else
		snprintf(buf, len, "napi%u", napi_id);	/* a NAPI whose queue is unknown */
}

static void add_queue(struct serve_records *sr, const struct netpmu_queue_record *r)
{
	struct metric_store *st = sr->store;
	char labels[METRIC_LABELS_MAX] = "", irq_labels[METRIC_LABELS_MAX] = "", dev[NETPMU_IFNAMSIZ + 1];
	char queue[32], irq[16];

	snprintf(dev, sizeof(dev), "%.*s", NETPMU_IFNAMSIZ, r->ifname);
	if (!wanted(sr->filter, dev, func_bdf(sr->queues, r->func_id), r->queue))
		return;
	queue_label(queue, sizeof(queue), r->queue, r->napi_id);
	metric_labels_add(labels, sizeof(labels), "dev", dev);
	metric_labels_add(labels, sizeof(labels), "queue", queue);
	metric_labels_add(labels, sizeof(labels), "dir", dir_names[r->dir < 3 ? r->dir : 0]);
	metric_counter_add(st, FAM_NAPI_POLLS, labels, r->polls);
	metric_counter_add(st, FAM_NAPI_PACKETS, labels, r->packets);
	metric_counter_add(st, FAM_NAPI_BUDGET_EXHAUSTED, labels, r->budget_exhausted);
	if (r->has_poll_time)
		metric_counter_add(st, FAM_NAPI_POLL_SECONDS, labels, r->poll_ns);
	if (!r->irq)
		return;
	snprintf(irq, sizeof(irq), "%u", r->irq);
	metric_labels_add(irq_labels, sizeof(irq_labels), "irq", irq);
	strncat(irq_labels, ",", sizeof(irq_labels) - strlen(irq_labels) - 1);
	strncat(irq_labels, labels, sizeof(irq_labels) - strlen(irq_labels) - 1);
	metric_counter_add(st, FAM_IRQ_HANDLED, irq_labels, r->irqs);
	metric_counter_add(st, FAM_IRQ_HANDLER_SECONDS, irq_labels, r->irq_ns);
}

static void add_cpu(struct serve_records *sr, const struct netpmu_cpu_record *r)
{
	char rx[64] = "", tx[64] = "", cpu[16];

	snprintf(cpu, sizeof(cpu), "%u", r->cpu);
	metric_labels_add(rx, sizeof(rx), "cpu", cpu);
	metric_labels_add(rx, sizeof(rx), "vec", "net_rx");
	metric_labels_add(tx, sizeof(tx), "cpu", cpu);
	metric_labels_add(tx, sizeof(tx), "vec", "net_tx");
	metric_counter_add(sr->store, FAM_SOFTIRQ, rx, r->net_rx);
	metric_counter_add(sr->store, FAM_SOFTIRQ_SECONDS, rx, r->net_rx_ns);
	metric_counter_add(sr->store, FAM_SOFTIRQ, tx, r->net_tx);
	metric_counter_add(sr->store, FAM_SOFTIRQ_SECONDS, tx, r->net_tx_ns);
}

static const enum metric_family_id role_family[] = {
	[SERVE_QUEUE_RX_BYTES] = FAM_HNS3_QUEUE_RX_BYTES,
	[SERVE_QUEUE_TX_BYTES] = FAM_HNS3_QUEUE_TX_BYTES,
	[SERVE_QUEUE_RX_PACKETS] = FAM_HNS3_QUEUE_RX_PACKETS,
	[SERVE_QUEUE_TX_PACKETS] = FAM_HNS3_QUEUE_TX_PACKETS,
	[SERVE_FUNC_PCIE_WRITE_BYTES] = FAM_PCIE_FUNC_WRITE_BYTES,
};

/* Every queue measured so far: its share of the time served. */
static void update_coverage(struct serve_records *sr)
{
	const struct metric_series *s;

	for (s = metric_store_first(sr->store, FAM_COUNTER_MEASURED_SECONDS); s; s = s->next_in_family)
		metric_gauge_set(sr->store, FAM_COUNTER_COVERAGE, s->labels,
				 sr->served_ns ? (double)s->value / sr->served_ns : 0);
}

/* The Root Port above the endpoint PCI_ADDR and the endpoint (the queue map is of the real /sys). */
static void add_endpoint_labels(char *labels, size_t len, const char *pci_addr)
{
	char root_port[PCI_ADDR_TEXT_LEN];
	unsigned int domain, bdf, rp;

	if (!parse_pci_address(pci_addr, strlen(pci_addr), &domain, &bdf) ||
	    pci_root_port_of(NULL, domain, bdf, &rp))
		return;
	format_pci_address(domain, rp, root_port);
	metric_labels_add(labels, len, "root_port", root_port);
	metric_labels_add(labels, len, "endpoint", pci_addr);
}

/* A rotated counter's delta, into its queue's series. */
static void add_rotated(struct serve_records *sr, const struct serve_counter *c,
			const struct netpmu_counter_delta *d, const struct netpmu_counter_delta *next)
{
	char labels[METRIC_LABELS_MAX] = "", queue[16];
	unsigned int func_id;
	const char *dev;
	int q;

	if (c->role == SERVE_QUEUE_RX_LATENCY_PACKETS || c->role == SERVE_FUNC_PCIE_WRITE_TIME ||
	    !sr->target || !sr->target(sr->target_ctx, d->generation, &func_id, &q))
		return;
	dev = serve_func_dev(sr->queues, func_id);
	if (!wanted(sr->filter, dev, func_bdf(sr->queues, func_id), q))
		return;
	metric_labels_add(labels, sizeof(labels), "pmu", c->pmu);
	metric_labels_add(labels, sizeof(labels), "dev", dev);
	if (c->role == SERVE_FUNC_PCIE_WRITE_BYTES) {
		add_endpoint_labels(labels, sizeof(labels), func_bdf(sr->queues, func_id));
	} else {
		snprintf(queue, sizeof(queue), "%d", q);
		metric_labels_add(labels, sizeof(labels), "queue", queue);
	}
	switch (c->role) {
	case SERVE_QUEUE_RX_LATENCY_CYCLES:
		/* The pair's two counters of one generation, or nothing. */
		if (next && !next->err && next->generation == d->generation)
			metric_summary_add(sr->store, FAM_HNS3_QUEUE_RX_LATENCY, labels,
					   sr->latency_seconds_per_cycle, d->delta, next->delta);
		break;
	case SERVE_QUEUE_RX_BYTES:
		metric_counter_add(sr->store, FAM_COUNTER_MEASURED_SECONDS, labels, d->running_ns);
		/* fallthrough */
	default:
		metric_counter_add(sr->store, role_family[c->role], labels, d->delta);
	}
}

/* An -e counter's delta into the family its pair gives it; a latency pair's with its partner's, or not at all. */
static void add_meaning(struct serve_records *sr, const struct serve_counter *c, const struct netpmu_counter_delta *d,
			const struct netpmu_counter_delta *all, unsigned int n)
{
	if (c->meaning == FAM_NR)
		return;
	if (metric_families[c->meaning].type != METRIC_SUMMARY)
		metric_counter_add(sr->store, c->meaning, c->meaning_labels, d->delta);
	else if (c->partner >= 0 && (unsigned int)c->partner < n && !all[c->partner].err)
		metric_summary_add(sr->store, c->meaning, c->meaning_labels, c->seconds_per_cycle, d->delta,
				   all[c->partner].delta);
}

static void add_counters(struct serve_records *sr, const struct netpmu_counters_record *r)
{
	unsigned int n = r->nr_counters < sr->nr_counters ? r->nr_counters : sr->nr_counters;
	char labels[METRIC_LABELS_MAX];

	sr->served_ns += r->interval_ns;
	for (unsigned int i = 0; i < n; i++) {
		const struct serve_counter *c = &sr->counters[i];
		const struct netpmu_counter_delta *d = &r->counters[i];

		if (d->err) {
			labels[0] = '\0';
			metric_labels_add(labels, sizeof(labels), "pmu", c->pmu);
			metric_counter_add(sr->store, FAM_PMU_EVENT_READ_ERRORS, labels, 1);
			continue;
		}
		if (c->role == SERVE_EVENT) {
			metric_counter_add(sr->store, FAM_PMU_EVENT, c->labels, d->delta);
			add_meaning(sr, c, d, r->counters, n);
		} else {
			add_rotated(sr, c, d, i + 1 < n ? &r->counters[i + 1] : NULL);
		}
	}
	update_coverage(sr);
}

void serve_records_add(struct serve_records *sr, const void *record, size_t size)
{
	const __u32 *kind = record;

	if (size < sizeof(*kind))
		return;
	metric_store_lock(sr->store);
	if (*kind == NETPMU_RECORD_QUEUE && size >= sizeof(struct netpmu_queue_record))
		add_queue(sr, record);
	else if (*kind == NETPMU_RECORD_CPU && size >= sizeof(struct netpmu_cpu_record))
		add_cpu(sr, record);
	else if (*kind == NETPMU_RECORD_COUNTERS && size >= sizeof(struct netpmu_counters_record))
		add_counters(sr, record);
	metric_store_unlock(sr->store);
}

int serve_event_labels(const char *pmu, const char *event_name, const char *text, char *labels, size_t len)
{
	labels[0] = '\0';
	if (metric_labels_add(labels, len, "pmu", pmu) || metric_labels_add(labels, len, "event", event_name))
		return -1;
	return serve_term_labels(labels, len, text, term_labels, sizeof(term_labels) / sizeof(term_labels[0]));
}

int serve_term_labels(char *labels, size_t len, const char *text, const char *const *names, size_t n)
{
	const char *terms = strchr(text, '/');
	char copy[512], *save, *term;

	if (!terms)
		return 0;
	snprintf(copy, sizeof(copy), "%s", terms + 1);
	copy[strcspn(copy, "/")] = '\0';
	for (term = strtok_r(copy, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');

		if (!eq)
			continue;
		*eq = '\0';
		for (size_t i = 0; i < n; i++)
			if (!strcmp(term, names[i]) && metric_labels_add(labels, len, term, eq + 1))
				return -1;
	}
	return 0;
}
