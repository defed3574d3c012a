// SPDX-License-Identifier: GPL-2.0
#include "top/top_table.h"

#include <inttypes.h>
#include <string.h>

/*
 * A counter's count per second of the table's interval when it counted the
 * whole interval since its last reading, so that rate x interval gives back
 * the count even when the read came late (a preempted vCPU): the late part
 * then shows in this interval, not lost between two. A counter reopened
 * within the interval (rotation) counted only part of it: per second it
 * counted. One multiplexed ran only part of its enabled time: its count is
 * scaled, as perf scales, and marked.
 */
static double counter_rate(const struct netpmu_counter_delta *d, uint64_t interval_ns,
			   bool whole_interval, bool *scaled)
{
	double count;

	if (!d->running_ns)
		return 0;
	if (d->running_ns < d->enabled_ns)
		*scaled = true;
	count = (double)d->delta * d->enabled_ns / d->running_ns;
	return count * 1e9 / (whole_interval && interval_ns ? interval_ns : d->enabled_ns);
}

static struct top_hw_rates *hw_slot(struct top_table *t, unsigned int func_id, int queue)
{
	unsigned int i;

	for (i = 0; i < t->nr_hw; i++)
		if (t->hw[i].func_id == func_id && t->hw[i].queue == queue)
			return &t->hw[i];
	if (t->nr_hw == TOP_MAX_ROWS)
		return NULL;
	memset(&t->hw[t->nr_hw], 0, sizeof(t->hw[0]));
	t->hw[t->nr_hw].func_id = func_id;
	t->hw[t->nr_hw].queue = queue;
	return &t->hw[t->nr_hw++];
}

/* The counters record of a frame carries every counter: the current target's rates. */
static void take_hw_rates(struct top_table *t, const struct netpmu_counters_record *r,
			  const struct top_counters *tc)
{
	const struct top_target *target;
	const struct netpmu_counter_delta *d = r->counters;
	struct top_hw_rates *hw;
	double cycles, packets;
	bool scaled = false, whole;
	unsigned int role;

	if (!tc->nr_counters || r->nr_counters < tc->nr_counters)
		return;
	for (role = 0; role < tc->nr_counters; role++) {
		if (d[role].err || d[role].generation != d[0].generation) {
			/* unreadable, or read in the middle of a rotation */
			t->hw_read_ts_ns = 0;
			return;
		}
	}
	/* Read at the previous tick too, in the same generation: the delta spans this interval. */
	whole = t->hw_read_ts_ns == r->ts_ns - r->interval_ns &&
		t->hw_read_generation == d[0].generation;
	t->hw_read_ts_ns = r->ts_ns;
	t->hw_read_generation = d[0].generation;
	target = top_counters_target_of(tc, d[0].generation);
	if (!target)
		return;
	hw = hw_slot(t, target->func_id, target->queue);
	if (!hw)
		return;
	hw->ts_ns = r->ts_ns;
	hw->rx_bytes_s = counter_rate(&d[TOP_RX_BYTES], r->interval_ns, whole, &scaled);
	hw->tx_bytes_s = counter_rate(&d[TOP_TX_BYTES], r->interval_ns, whole, &scaled);
	hw->rx_packets_s = counter_rate(&d[TOP_RX_PACKETS], r->interval_ns, whole, &scaled);
	hw->tx_packets_s = counter_rate(&d[TOP_TX_PACKETS], r->interval_ns, whole, &scaled);
	cycles = d[TOP_RX_LATENCY_CYCLES].delta;
	packets = d[TOP_RX_LATENCY_PACKETS].delta;
	hw->rx_latency_ns = packets && tc->hw_clk_freq ? cycles / packets * 1e9 / tc->hw_clk_freq : -1;
	/* The PCIe flux over the interval: the PMU's own time unit is undocumented. */
	hw->pcie_write_bytes_s = tc->nr_counters > TOP_PCIE_WRITE_FLUX ?
				 counter_rate(&d[TOP_PCIE_WRITE_FLUX], r->interval_ns, whole, &scaled) : -1;
	hw->scaled = scaled;
}

/* Starts a new frame (keeps the hardware rates, which rotate slowly). */
static void top_table_next_frame(struct top_table *t, uint64_t ts_ns)
{
	t->ts_ns = ts_ns;
	t->nr_rows = 0;
	t->rows_dropped = 0;
	memset(t->softirq_pct, 0, sizeof(t->softirq_pct));
}

bool top_table_add(struct top_table *t, const void *record, size_t size,
		   const struct top_counters *tc)
{
	const struct netpmu_cpu_record *cpu = record;
	const __u32 *kind = record;
	bool new_frame = false;
	uint64_t ts;

	if (size < sizeof(struct netpmu_cpu_record))
		return false;
	ts = cpu->ts_ns;	/* every interval record has kind, cpu, ts_ns first */
	if (ts != t->ts_ns) {
		top_table_next_frame(t, ts);
		new_frame = true;
	}
	switch (*kind) {
	case NETPMU_RECORD_CPU:
		t->interval_ns = cpu->interval_ns;
		if (cpu->cpu < TOP_MAX_CPUS && cpu->interval_ns)
			t->softirq_pct[cpu->cpu] =
				100.0 * (cpu->net_rx_ns + cpu->net_tx_ns) / cpu->interval_ns;
		break;
	case NETPMU_RECORD_QUEUE:
		if (size < sizeof(struct netpmu_queue_record))
			break;
		if (t->nr_rows < TOP_MAX_ROWS)
			t->rows[t->nr_rows++] = *(const struct netpmu_queue_record *)record;
		else
			t->rows_dropped++;
		break;
	case NETPMU_RECORD_COUNTERS:
		if (size >= sizeof(struct netpmu_counters_record))
			take_hw_rates(t, record, tc);
		break;
	}
	return new_frame;
}

static const char *dir_name(__u32 dir)
{
	return dir == NETPMU_QUEUE_RX ? "rx" : dir == NETPMU_QUEUE_TX ? "tx" : "rxtx";
}

/* 1234567 -> "1.2M": columns stay narrow. */
static void human(double v, char *buf, size_t len)
{
	static const char units[] = " KMGT";
	unsigned int u = 0;

	while (v >= 1000 && u < sizeof(units) - 2) {
		v /= 1000;
		u++;
	}
	if (u)
		snprintf(buf, len, "%.1f%c", v, units[u]);
	else
		snprintf(buf, len, "%.0f", v);
}

static void print_hw(FILE *out, const struct top_table *t, const struct netpmu_queue_record *row)
{
	const struct top_hw_rates *hw = NULL;
	char a[16], b[16], c[16], d[16], lat[16], pcie[16];
	unsigned int i;

	for (i = 0; i < t->nr_hw && row->func_id; i++)
		if (t->hw[i].func_id == row->func_id && t->hw[i].queue == row->queue)
			hw = &t->hw[i];
	if (!hw || !hw->ts_ns) {
		fprintf(out, " %9s %9s %9s %9s %8s %10s", "-", "-", "-", "-", "-", "-");
		return;
	}
	human(hw->rx_bytes_s, a, sizeof(a));
	human(hw->tx_bytes_s, b, sizeof(b));
	human(hw->rx_packets_s, c, sizeof(c));
	human(hw->tx_packets_s, d, sizeof(d));
	if (hw->rx_latency_ns >= 0)
		snprintf(lat, sizeof(lat), "%.0f", hw->rx_latency_ns);
	else
		snprintf(lat, sizeof(lat), "-");
	if (hw->pcie_write_bytes_s >= 0)
		human(hw->pcie_write_bytes_s, pcie, sizeof(pcie));
	else
		snprintf(pcie, sizeof(pcie), "-");
	/* '~': measured in an earlier interval (rotation) or scaled (multiplexing). */
	fprintf(out, " %s%8s %9s %9s %9s %8s %10s", hw->ts_ns != t->ts_ns || hw->scaled ? "~" : " ",
		a, b, c, d, lat, pcie);
}

void top_table_render(const struct top_table *t, FILE *out, bool terminal,
		      const struct top_counters *tc, const char *dev_filter, const char *note)
{
	double interval_s = t->interval_ns / 1e9;
	unsigned int i;

	if (terminal)
		fputs("\033[H\033[2J", out);
	fprintf(out, "netpmu top  t=%.3f s  interval %.3f s", t->ts_ns / 1e9, interval_s);
	if (tc->nr_counters)
		fprintf(out, "  hw: %s%s%s, queue %d of %s (%zu of %zu queues, rotating)", tc->pmu,
			tc->pcie_pmu[0] ? " + " : "", tc->pcie_pmu,
			tc->targets[tc->current].queue, tc->targets[tc->current].pci_bdf,
			tc->current + 1, tc->nr_targets);
	fputc('\n', out);
	if (note)
		fprintf(out, "%s\n", note);
	fprintf(out, "%-10s %5s %4s %3s %5s %8s %8s %8s %7s %8s %9s %9s %9s %9s %8s %10s\n",
		"DEV", "QUEUE", "DIR", "CPU", "IRQ", "IRQ/s", "POLLS/s", "PKT/POLL", "BUDGET%",
		"SOFTIRQ%", "HW-RX-B/s", "HW-TX-B/s", "HW-RX-P/s", "HW-TX-P/s", "HW-LATns", "PCIE-WR-B/s");
	for (i = 0; i < t->nr_rows; i++) {
		const struct netpmu_queue_record *r = &t->rows[i];
		char queue[8], irq[8];

		if (!r->ifname[0])
			continue;	/* the per-CPU backlog, not a NIC queue */
		/* --dev names an interface of this namespace or a PCI function. */
		if (dev_filter && strcmp(dev_filter, r->ifname) &&
		    !(tc->dev_func && r->func_id == tc->dev_func))
			continue;
		snprintf(queue, sizeof(queue), r->queue >= 0 ? "%d" : "-", r->queue);
		snprintf(irq, sizeof(irq), r->irq ? "%u" : "-", r->irq);
		fprintf(out, "%-10s %5s %4s %3u %5s %8.0f %8.0f %8.1f %7.1f %8.1f", r->ifname, queue,
			r->queue >= 0 ? dir_name(r->dir) : "-", r->cpu, irq,
			interval_s ? r->irqs / interval_s : 0, interval_s ? r->polls / interval_s : 0,
			r->polls ? (double)r->packets / r->polls : 0,
			r->polls ? 100.0 * r->budget_exhausted / r->polls : 0,
			r->cpu < TOP_MAX_CPUS ? t->softirq_pct[r->cpu] : 0);
		print_hw(out, t, r);
		fputc('\n', out);
	}
	if (t->rows_dropped)
		fprintf(out, "(%u more NAPI instances not shown)\n", t->rows_dropped);
	fflush(out);
}
