// SPDX-License-Identifier: GPL-2.0
/* NET_RX and NET_TX softirqs: count and time per CPU. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "netpmu_state.bpf.h"

/* enum softirq numbers are kernel ABI (softirq_to_name[] in trace output). */
#define SOFTIRQ_NET_TX	2
#define SOFTIRQ_NET_RX	3

SEC("tp_btf/softirq_entry")
int BPF_PROG(softirq_entry, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_softirq *s;

	if (vec != SOFTIRQ_NET_RX && vec != SOFTIRQ_NET_TX)
		return 0;
	s = bpf_map_lookup_elem(&cpu_softirq, &cpu);
	if (s)
		s->entry_ns = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(softirq_exit, unsigned int vec)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_softirq *s;
	__u64 ns;

	if (vec != SOFTIRQ_NET_RX && vec != SOFTIRQ_NET_TX)
		return 0;
	s = bpf_map_lookup_elem(&cpu_softirq, &cpu);
	if (!s || !s->entry_ns)
		return 0;
	/* Only this CPU writes its entry: no atomics needed. */
	ns = bpf_ktime_get_ns() - s->entry_ns;
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
