// SPDX-License-Identifier: GPL-2.0
/* NET_RX and NET_TX softirqs: count and time per CPU, core counters in NET_RX. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"
#include "core_pmu.bpf.h"

/* enum softirq numbers are kernel ABI (softirq_to_name[] in trace output). */
#define SOFTIRQ_NET_TX	2
#define SOFTIRQ_NET_RX	3

/* NET_RX softirqs do not nest on a CPU: one start reading per CPU suffices. */
static __always_inline void net_rx_core_start(void)
{
	struct cpu_core *c = this_cpu_core();

	if (!c)
		return;
	read_core_counters(c->net_rx_start);
	c->in_net_rx = 1;
}

static __always_inline void net_rx_core_end(void)
{
	struct netpmu_core_delta change[NETPMU_MAX_CORE_EVENTS] = {};
	struct cpu_core *c = this_cpu_core();

	if (!c || !c->in_net_rx)
		return;
	core_change_since(c->net_rx_start, change);
	c->in_net_rx = 0;
	core_add(c->net_rx, change);
}

/* Every SOFTIRQ_RATE_WINDOW_NS: time all NET softirqs, or 1 in SOFTIRQ_TIME_SAMPLED above the rate. */
static __always_inline void choose_time_mask(struct cpu_softirq *s, __u64 now)
{
	__u64 run = s->net_rx + s->net_tx, elapsed = now - s->window_ns;

	if (elapsed < SOFTIRQ_RATE_WINDOW_NS)
		return;
	s->time_mask = (run - s->window_softirqs) * 1000000000ULL >
		       (__u64)SOFTIRQ_TIME_ALL_BELOW * elapsed ? SOFTIRQ_TIME_SAMPLED - 1 : 0;
	s->window_ns = now;
	s->window_softirqs = run;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(softirq_entry, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_softirq *s;
	__u64 seen;

	if (vec != SOFTIRQ_NET_RX && vec != SOFTIRQ_NET_TX)
		return 0;
	s = bpf_map_lookup_elem(&cpu_softirq, &cpu);
	if (s) {
		seen = vec == SOFTIRQ_NET_RX ? s->net_rx : s->net_tx;
		s->entered = vec + 1;
		s->entry_weight = s->time_mask + 1;
		s->entry_ns = seen & s->time_mask ? 0 : bpf_ktime_get_ns();
	}
	if (vec == SOFTIRQ_NET_RX && nr_core_events)
		net_rx_core_start();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(softirq_exit, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_softirq *s;
	__u64 ns = 0, now;

	if (vec != SOFTIRQ_NET_RX && vec != SOFTIRQ_NET_TX)
		return 0;
	/* First: the softirq ends here, the program's own cost is not its. */
	if (vec == SOFTIRQ_NET_RX && nr_core_events)
		net_rx_core_end();
	s = bpf_map_lookup_elem(&cpu_softirq, &cpu);
	if (!s || s->entered != vec + 1)
		return 0;
	/* Only this CPU writes its entry: no atomics needed. */
	if (s->entry_ns) {
		now = bpf_ktime_get_ns();
		ns = (now - s->entry_ns) * s->entry_weight;
		choose_time_mask(s, now);
	}
	s->entered = 0;
	s->entry_ns = 0;
	if (vec == SOFTIRQ_NET_RX) {
		s->net_rx++;
		s->net_rx_ns += ns;
	} else {
		s->net_tx++;
		s->net_tx_ns += ns;
	}
	return 0;
}
